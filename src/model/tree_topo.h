/* Broadcast / summation trees for heterogeneous layouts (seed 003's
 * per-processor speeds and pair classes, on seed 000's trees).
 *
 * Both builders return a tree over absolute ranks as parent[] (parent[root]
 * = -1) and order[] (the P - 1 other ranks, each parent's children in send
 * order), ready for logp_tree_from_abs.  Trees are built for the broadcast;
 * a reduce walks them backwards (reduce != 0 prices the combine in). */
#ifndef LOGP_MODEL_TREE_TOPO_H
#define LOGP_MODEL_TREE_TOPO_H

#include <stddef.h>

#include "topo.h"

/* Two-level tree: a model-optimal tree (logp_tree_model, inter-node
 * parameters) among one leader per node (the root on its node, else the
 * fastest rank), then in every node a model-optimal tree (intra-node
 * parameters) from its leader.  Leaders send to other leaders first.
 * Within each level the faster ranks take the positions that are informed
 * first (the interior of the tree).  The optimal shape degenerates to a
 * flat tree or a chain where those are optimal, so each level gets the
 * best of tree, flat and chain under its own parameters.
 * Returns LOGP_OK, LOGP_ERR_ARG or LOGP_ERR_NOMEM. */
logp_status_t logp_tree_two_level(const logp_topo_t *topo, int root, size_t bytes, int reduce, int *parent, int *order);

/* Receiver-choice rules of the greedy builder. */
typedef enum logp_greedy_rule {
    LOGP_GREEDY_EARLIEST, /* the rank that would hold the data first */
    LOGP_GREEDY_NEW_NODE, /* a rank on a node nobody holds yet, earliest first */
    LOGP_GREEDY_FASTEST,  /* the fastest rank, earliest first on ties */
    LOGP_GREEDY_EDGE,     /* any informed sender: the (sender, receiver) pair
                             whose receiver holds the data first (earliest
                             completing edge first); O(P^2 C) for C classes
                             of alike ranks (node, speed) */
    LOGP_GREEDY_RULES
} logp_greedy_rule_t;

/* Work limit of a greedy tree, in (sender, receiver) evaluations: P^2 / 2
 * for the first three rules (P up to about 2,800), P^2 C / 2 for
 * LOGP_GREEDY_EDGE; above it logp_tree_greedy returns LOGP_ERR_ARG (the
 * rule is not a candidate: about 40 ms of work on this kind of machine). */
#define LOGP_GREEDY_BUDGET 4000000.0

/* Greedy earliest-completion tree: repeatedly, the informed rank that can
 * start a send first (LOGP_GREEDY_EDGE: any informed rank) sends to the
 * uninformed rank `rule` picks, with every
 * time priced under the layout (pair classes, speeds).  This is seed 000's
 * greedy construction (earliest sender first) generalised to per-pair
 * delays; it is not optimal in general (the heterogeneous problem is hard;
 * see tests/unit/check_topo.c for the comparison with brute force).
 * O(P^2), LOGP_ERR_ARG over LOGP_GREEDY_BUDGET.  Returns LOGP_OK,
 * LOGP_ERR_ARG or LOGP_ERR_NOMEM. */
logp_status_t logp_tree_greedy(const logp_topo_t *topo, int root, size_t bytes, int reduce, logp_greedy_rule_t rule,
                               int *parent, int *order);

#endif
