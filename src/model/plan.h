/* A plan is one algorithm instance (collective, algorithm, P, root, message
 * size) as a schedule: per rank, an ordered list of operations.  src/coll
 * executes exactly these operations with PMPI and sim.h prices exactly
 * these operations under LogGP, so a prediction is always the cost of what
 * runs. */
#ifndef LOGP_MODEL_PLAN_H
#define LOGP_MODEL_PLAN_H

#include <stddef.h>

#include "algo.h"
#include "params.h"
#include "topo.h"
#include "tree.h"

typedef enum logp_op_kind {
    LOGP_OP_SEND,        /* send `bytes` to peer */
    LOGP_OP_RECV,        /* receive into the accumulator (or, arg RESULT, the result buffer) */
    LOGP_OP_RECV_REDUCE, /* receive and combine into the accumulator (arg: side) */
    LOGP_OP_INIT_OWN,    /* accumulator = own contribution (local copy, free in the model) */
    LOGP_OP_REDUCE_OWN   /* accumulator = own contribution (op) accumulator */
} logp_op_kind_t;

/* Side of the accumulator an incoming partial result goes to, so that
 * combining keeps rank order: APPEND acc = acc (op) in, PREPEND acc = in (op) acc. */
#define LOGP_SIDE_APPEND 0
#define LOGP_SIDE_PREPEND 1
/* arg of the root's final LOGP_OP_RECV when the tree root is not the root. */
#define LOGP_RECV_RESULT 2

typedef struct logp_op {
    int kind;     /* logp_op_kind_t */
    int peer;     /* absolute rank */
    int arg;      /* side, LOGP_RECV_RESULT, or the alltoall step */
    size_t bytes; /* payload */
} logp_op_t;

typedef struct logp_plan_opts {
    int chain_k;     /* k of `chain` (default 4 if <= 0) */
    int commutative; /* reduce: nonzero if the operator commutes */
    int long_first;  /* chain: long chains first (benchmarks/tests only) */
    const logp_topo_t *topo; /* where ranks are (hetero-tree, two-level,
                                node-aggregate); NULL: one uniform node */
} logp_plan_opts_t;

typedef struct logp_plan {
    logp_coll_t coll;
    logp_algo_t algo;
    int P;
    int root;      /* the collective's root (0 for alltoall) */
    int tree_root; /* absolute rank at relative 0 of the tree */
    size_t bytes;  /* bcast/reduce: the whole message; alltoall: one block */
    int k;         /* chains: number of chains (informative) */
    int commutative; /* reduce: the operator commutes (no rank order to keep) */
    logp_tree_t tree; /* tree-shaped algorithms; tree.P == 0 otherwise */
    int *perm, *iperm; /* tree rank -> absolute rank and back; NULL: the
                          rotation (v + tree_root) mod P */
    int nnodes;        /* node-aggregate: nodes, their ranks in increasing */
    int *node_start;   /* order members[node_start[a] .. node_start[a+1]), */
    int *members;      /* leaders[a] the one that exchanges for node a, */
    int *leaders;      /* node_of[r] the node of rank r */
    int *node_of;
} logp_plan_t;

/* Builds the plan of `algo` for `coll` on P ranks.  The uniform tree shapes
 * that depend on the model (logp-tree, chain-opt) use `params`; hetero-tree,
 * two-level and node-aggregate use opts->topo (NULL: one node, `params`).
 * hetero-tree is the fastest under the layout, as the simulator prices it,
 * of the greedy trees (every rule of tree_topo.h) and the uniform
 * logp-tree.  A reduce with a non-commutative operator is rooted at rank 0
 * (rank order), then rank 0 sends the result to `root`; hetero-tree and
 * two-level cannot keep rank order and build logp-tree instead
 * (plan->algo says so).  Not for native/auto.
 * Returns LOGP_OK, LOGP_ERR_ARG or LOGP_ERR_NOMEM. */
int logp_plan_build(logp_plan_t *plan, logp_coll_t coll, logp_algo_t algo, int P, int root,
                    size_t bytes, const logp_params_t *params, const logp_plan_opts_t *opts);

/* Releases a plan; safe on a zeroed plan. */
void logp_plan_free(logp_plan_t *plan);

/* Number of operations of `rank`. */
int logp_plan_nops(const logp_plan_t *plan, int rank);

/* Operation i (0 <= i < nops) of `rank`. */
logp_op_t logp_plan_op(const logp_plan_t *plan, int rank, int i);

#endif
