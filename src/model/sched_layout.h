/* Trees for multi-node layouts with per-pair parameters and per-rank
 * speeds (seeds 000 + 003): hetero-tree, two-level (sched.h; the
 * all-to-all node-aggregate is sched_node_aggregate.h).  Their shapes
 * depend on the whole layout, so they hold O(P) arrays, built once per communicator and size class; a root other than
 * the one a tree was built for is a relabeling (exact when the root's node
 * is interchangeable with the built root's: same size, one speed). */
#ifndef LOGP_MODEL_SCHED_LAYOUT_H
#define LOGP_MODEL_SCHED_LAYOUT_H

#include "sched.h"

/* A tree given over absolute ranks as parent[] (parent[root] = -1) and
 * order[] (the P - 1 other ranks, each parent's children in send order;
 * tree_topo.h form) as a layout-tree schedule of `coll` on topo->P ranks:
 * exact for `root`, other roots by relabeling.  Copies the arrays.
 * LOGP_OK, LOGP_ERR_ARG or LOGP_ERR_NOMEM. */
logp_status_t logp_sched_from_tree(logp_sched_t *s, logp_coll_t coll, size_t bytes, const logp_topo_t *topo, int root,
                                   const int *parent, const int *order);

/* hetero-tree (not alike ranks: its family's own trees): the classes of
 * alike nodes that have a tree of their own, and the absolute rank class
 * k's tree is rooted at. */
int logp_layout_classes(const logp_sched_t *s);
int logp_layout_class_root(const logp_sched_t *s, int k);

/* hetero-tree: class k's tree becomes candidate c's (a schedule of
 * logp_sched_from_tree rooted at class k's root), c gets the old one (to
 * be freed with it). */
void logp_layout_adopt(logp_sched_t *s, int k, logp_sched_t *c);

#endif
