/* Trees as pure rank arithmetic: the one shape that broadcast and reduce
 * executors walk.  Ranks here are relative (the root is 0); callers rotate.
 *
 * Every builder numbers ranks in preorder, so that the subtree of v is the
 * contiguous range [v, v + size[v]); each node sends to its children in
 * ascending or in descending rank order.  The
 * reduce executor relies on it to combine in rank order (non-commutative
 * operators). */
#ifndef LOGP_MODEL_TREE_H
#define LOGP_MODEL_TREE_H

#include "status.h"

typedef struct logp_tree {
    int P;          /* number of ranks */
    int *parent;    /* parent[v], -1 for the root 0 */
    int *kid_start; /* children of v: kids[kid_start[v] .. kid_start[v+1]) */
    int *kids;      /* in broadcast send order (a reduce receives in reverse) */
    int *size;      /* size[v]: ranks in the subtree of v */
} logp_tree_t;


/* Builds a tree from parent[] (parent[0] = -1, parent[v] < v) and `order`, the
 * P - 1 non-root ranks listed so that each parent's children appear in send
 * order (NULL: ascending rank order).  Copies both arrays.  Returns LOGP_OK, LOGP_ERR_ARG or LOGP_ERR_NOMEM. */
logp_status_t logp_tree_from_parents(logp_tree_t *t, int P, const int *parent, const int *order);

/* Builds a tree over absolute ranks 0..P-1 rooted at `root` from parent[]
 * (absolute, parent[root] = -1) and `order` (the P - 1 other ranks, each
 * parent's children in send order): renumbers the ranks in preorder
 * (children visited in send order), so that the result satisfies
 * logp_tree_check, and writes perm[v] = absolute rank of tree rank v.
 * LOGP_ERR_ARG if parent[] and order do not describe one tree. */
logp_status_t logp_tree_from_abs(logp_tree_t *t, int *perm, int P, int root, const int *parent, const int *order);

/* Releases what a builder allocated; safe on a zeroed or freed tree. */
void logp_tree_free(logp_tree_t *t);

/* Number of children of v. */
static inline int logp_tree_nkids(const logp_tree_t *t, int v)
{
    return t->kid_start[v + 1] - t->kid_start[v];
}

/* Nonzero if v sends to its children in descending rank order (binomial,
 * chain heads); zero if ascending (flat, logp-tree) or fewer than two. */
int logp_tree_kids_descending(const logp_tree_t *t, int v);

/* Depth-first check of the invariants every executor relies on: one root,
 * every rank reached exactly once, parent/children consistent, preorder
 * contiguity.  Returns LOGP_OK or LOGP_ERR_ARG. */
logp_status_t logp_tree_check(const logp_tree_t *t);

/* Binomial tree (seed 002, recursive doubling): children of v are v + 2^j for
 * 2^j below v's lowest set bit, largest first.  Any P >= 1.  Returns
 * LOGP_OK, LOGP_ERR_ARG (P < 1) or LOGP_ERR_NOMEM. */
logp_status_t logp_tree_binomial(logp_tree_t *t, int P);

/* Flat tree: the root's children are 1, 2, .., P-1.  Returns as
 * logp_tree_binomial. */
logp_status_t logp_tree_flat(logp_tree_t *t, int P);

#endif
