/* Collectives and algorithms known to libpmpi-logp: generated from algo.def. */
#ifndef LOGP_MODEL_ALGO_H
#define LOGP_MODEL_ALGO_H

#include <stdint.h>

typedef enum logp_coll {
    LOGP_COLL_BCAST = 0,
    LOGP_COLL_REDUCE = 1,
    LOGP_COLL_ALLTOALL = 2,
    LOGP_COLL_ALLREDUCE = 3,
    LOGP_COLL_ALLTOALLV = 4,
    LOGP_COLL_COUNT = 5
} logp_coll_t;

#define LOGP_COLL_BCAST_BIT (1u << LOGP_COLL_BCAST)
#define LOGP_COLL_REDUCE_BIT (1u << LOGP_COLL_REDUCE)
#define LOGP_COLL_ALLTOALL_BIT (1u << LOGP_COLL_ALLTOALL)
#define LOGP_COLL_ALLREDUCE_BIT (1u << LOGP_COLL_ALLREDUCE)
#define LOGP_COLL_ALLTOALLV_BIT (1u << LOGP_COLL_ALLTOALLV)
#define LOGP_COLL_ALL_BITS                                                                                             \
    (LOGP_COLL_BCAST_BIT | LOGP_COLL_REDUCE_BIT | LOGP_COLL_ALLTOALL_BIT | LOGP_COLL_ALLREDUCE_BIT |                     \
     LOGP_COLL_ALLTOALLV_BIT)

/* Nonzero for the collectives that combine with an operator (reduce,
 * allreduce): their schedules keep an accumulator, and a non-commutative
 * operator needs rank order. */
static inline int logp_coll_combines(logp_coll_t coll)
{
    return coll == LOGP_COLL_REDUCE || coll == LOGP_COLL_ALLREDUCE;
}

/* Nonzero for the collectives that exchange a block with every rank
 * (all-to-all, alltoallv): no root, no tree. */
static inline int logp_coll_exchanges(logp_coll_t coll)
{
    return coll == LOGP_COLL_ALLTOALL || coll == LOGP_COLL_ALLTOALLV;
}

/* Nonzero where the ranks of one call may pass sizes of different classes
 * (alltoallv: each rank knows its own counts only).  Their decisions may
 * then differ, so every algorithm the shim may pick there must mix with
 * every other on one call (the direct exchanges: one message per ordered
 * pair, posted in the same shift order), and the library's own algorithm,
 * which mixes with none, runs only where it is configured for every size;
 * unless the ranks agree on the class before each call (the shim's vote,
 * where it pays: select.h's q->agreed), when any algorithm may run; no
 * trial (its check compares the ranks' classes). */
static inline int logp_coll_local_sizes(logp_coll_t coll)
{
    return coll == LOGP_COLL_ALLTOALLV;
}

/* Operator classes, the value of a call's `commutative` everywhere (the
 * decisions are kept per class): 0, not commutative (rank order); 1,
 * commutative; LOGP_OPS_IDEMPOTENT, commutative and idempotent on a type
 * where it is exact (MIN, MAX, the bitwise and logical AND and OR on
 * integers: op(a, a) = a, and every order of combining gives the same
 * bits), which LOGP_FAMILY_IDEMPOTENT schedules need (sched.h).  Tests of
 * "commutative" are tests of nonzero. */
#define LOGP_OPS_COMMUTATIVE 1
#define LOGP_OPS_IDEMPOTENT 2
#define LOGP_OPS_CLASSES 3

typedef enum logp_algo {
#define LOGP_ALGO_X(id, name, colls, family, band_loggp, band_shared, desc) LOGP_ALGO_##id,
#include "algo.def"
#undef LOGP_ALGO_X
    LOGP_ALGO_COUNT
} logp_algo_t;

/* Tuning-file / environment name of an algorithm ("?" if out of range). */
const char *logp_algo_name(logp_algo_t algo);

/* One-line description of an algorithm. */
const char *logp_algo_describe(logp_algo_t algo);

/* How far the model's price of `algo` may be off on a network of the
 * kind `shared` (topo.h): the 90th percentile of |predicted / simulated -
 * 1| over the fidelity suite's drawn SMPI platforms (algo.def), as a
 * fraction; < 0 if not measured (native, auto, a new algorithm). */
double logp_algo_error_band(logp_algo_t algo, int shared);

/* Algorithm called `name` (exact match) that is valid for `coll`;
 * LOGP_ALGO_COUNT if there is none. */
logp_algo_t logp_algo_lookup(logp_coll_t coll, const char *name);

/* The algorithms of `list` (ALGO[,ALGO...], modified in place) valid
 * for coll, auto excepted, as a mask (bit 1 << algo) in *mask; returns
 * the first name that is not one, NULL if none. */
const char *logp_algo_mask(logp_coll_t coll, char *list, uint32_t *mask);
_Static_assert(LOGP_ALGO_COUNT <= 32, "a mask holds a bit per algorithm");

/* Nonzero if `algo` implements `coll`. */
int logp_algo_supports(logp_algo_t algo, logp_coll_t coll);

/* The collective called `name` (logp_coll_name's), LOGP_COLL_COUNT if
 * none or name is NULL. */
logp_coll_t logp_coll_lookup(const char *name);

/* "bcast", "reduce", "alltoall", "allreduce" or "alltoallv". */
const char *logp_coll_name(logp_coll_t coll);

#endif
