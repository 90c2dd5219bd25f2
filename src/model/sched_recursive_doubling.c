/* recursive-doubling (registry: recursive-doubling; allreduce): the
 *   butterfly exchange of partial results.  P' = the largest power of two
 *   <= P, r = P - P'.  Fold: of ranks 0 .. 2r - 1 the even ones send
 *   their contribution to the odd one above and wait; the P' ranks left
 *   (new rank i: 2i + 1 below 2r, i + r above) hold contiguous rank ranges.
 *   Round j = 0 .. log2 P' - 1: new rank i exchanges its partial result
 *   with new rank i XOR 2^j and combines, the lower range first.  Unfold:
 *   each odd rank below 2r sends the result to the even one below it.
 *   The exchange pattern is seed 004's butterfly (phase j pairs i and
 *   i XOR 2^j); for allreduce it is the recursive doubling of Thakur,
 *   Rabenseifner and Gropp (2005), MPICH's short-message allreduce.
 * LogGP cost (every rank alike, P a power of two): log2 P rounds of
 *   2o + L + (m-1)G + m gamma; a fold adds one message and one combine
 *   before and one message after: about
 *   (log2 P' + 2 [r > 0]) (2o + L + (m-1)G) + (log2 P' + [r > 0]) m gamma.
 *   `estimate` follows a folded rank's path with params.h's send and
 *   receive rules; the simulator prices the exact schedule.
 * Same bits everywhere: both ranks of a pair compute (lower range) op
 *   (higher range) from the same two operands, so every rank's result is
 *   the same expression tree, for every operator (commutative or not:
 *   the view always combines in rank order). */
#include "sched_fold.h"

/* The butterfly's operations per new rank: a send and a combine per round. */
static int logp_rdb_inner(const logp_sched_t *s)
{
    return 2 * logp_fold_log2(s->P);
}

static int logp_rdb_nops(logp_view_t *v)
{
    v->commutative = 0; /* rank order always: the same bits on every rank */
    return logp_fold_view(v, logp_rdb_inner(v->s));
}

static logp_op_t logp_rdb_op(const logp_view_t *v, int i)
{
    logp_op_t o;
    int j;
    if (logp_fold_op(v, i, logp_rdb_inner(v->s), LOGP_SIDE_PREPEND, &o, &j)) /* the even rank's goes first */
        return o;
    long me = v->node.c[0], r = v->node.c[1], peer = me ^ (1L << (j / 2));
    size_t m = v->s->bytes;
    if (j % 2 == 0)
        return logp_op_whole(LOGP_OP_SEND, logp_fold_real(peer, r), 0, m);
    return logp_op_whole(LOGP_OP_RECV_REDUCE, logp_fold_real(peer, r), peer < me ? LOGP_SIDE_PREPEND : LOGP_SIDE_APPEND,
                         m);
}

/* Every round moves the whole message and combines it. */
static size_t logp_rdb_bytes(const logp_sched_t *s, int k)
{
    (void)k;
    return s->bytes;
}

static int logp_rdb_combines(const logp_sched_t *s, int k)
{
    (void)s;
    (void)k;
    return 1;
}

static double logp_rdb_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    return logp_fold_estimate(s, logp_fold_log2(s->P), logp_rdb_bytes, logp_rdb_combines);
}

static long logp_rdb_count(const logp_sched_t *s)
{
    return (long)s->P * (3 + logp_rdb_inner(s));
}

const logp_family_t logp_family_recursive_doubling = {
    .nops = logp_rdb_nops,
    .op = logp_rdb_op,
    .estimate = logp_rdb_estimate,
    .count = logp_rdb_count,
    .flags = LOGP_FAMILY_RANK_ORDER,
};
