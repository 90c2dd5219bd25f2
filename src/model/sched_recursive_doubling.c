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
#include "sched.h"

/* Cursor in v->node.c: [0] the rank's new rank (-1: an even folded rank),
 * [1] r (the folded pairs), [2] log2 P'. */

static int logp_rdb_log2(int P)
{
    int lg = 0;
    while ((2L << lg) <= P)
        lg++;
    return lg;
}

/* The absolute rank of new rank i. */
static int logp_rdb_real(long i, long r)
{
    return (int)(i < r ? 2 * i + 1 : i + r);
}

static int logp_rdb_nops(logp_view_t *v)
{
    int P = v->s->P, rank = v->rank, lg = logp_rdb_log2(P);
    long r = P - (1L << lg);
    v->commutative = 0; /* rank order always: the same bits on every rank */
    v->node.c[1] = r;
    v->node.c[2] = lg;
    if (rank < 2 * r && rank % 2 == 0) {
        v->node.c[0] = -1;
        return 3; /* own, send it up, receive the result */
    }
    v->node.c[0] = rank < 2 * r ? rank / 2 : rank - r;
    return 1 + 2 * lg + (rank < 2 * r ? 2 : 0);
}

static logp_op_t logp_rdb_op(const logp_view_t *v, int i)
{
    int rank = v->rank;
    size_t m = v->s->bytes;
    long me = v->node.c[0], r = v->node.c[1];
    if (i == 0)
        return logp_op_whole(LOGP_OP_INIT_OWN, rank, 0, m);
    if (me < 0)
        return logp_op_whole(i == 1 ? LOGP_OP_SEND : LOGP_OP_RECV, rank + 1, 0, m);
    i--;
    int folded = rank < 2 * r;
    if (folded) {
        if (i == 0) /* the even rank's contribution goes first */
            return logp_op_whole(LOGP_OP_RECV_REDUCE, rank - 1, LOGP_SIDE_PREPEND, m);
        i--;
    }
    if (i < 2 * v->node.c[2]) {
        long peer = me ^ (1L << (i / 2));
        if (i % 2 == 0)
            return logp_op_whole(LOGP_OP_SEND, logp_rdb_real(peer, r), 0, m);
        return logp_op_whole(LOGP_OP_RECV_REDUCE, logp_rdb_real(peer, r),
                             peer < me ? LOGP_SIDE_PREPEND : LOGP_SIDE_APPEND, m);
    }
    return logp_op_whole(LOGP_OP_SEND, rank - 1, 0, m); /* the result back to the folded rank */
}

static double logp_rdb_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    const logp_params_t *p = &s->p;
    size_t m = s->bytes;
    int lg = logp_rdb_log2(s->P);
    int fold = s->P > (1 << lg);
    logp_recv_state_t st = {0.0, 0.0};
    double next_send = 0.0;
    if (fold) /* the even rank's contribution, sent at 0 */
        logp_params_take(p, m, 1, p->o + logp_params_inj(p, m) + p->L, &st);
    for (int j = 0; j < lg; j++) {
        double arrive = logp_params_post(p, m, &st.cpu, &next_send);
        logp_params_take(p, m, 1, arrive, &st);
    }
    if (!fold)
        return st.cpu;
    double arrive = logp_params_post(p, m, &st.cpu, &next_send);
    double got = arrive + p->o;
    return got > st.cpu ? got : st.cpu;
}

static long logp_rdb_count(const logp_sched_t *s)
{
    return (long)s->P * (3 + 2L * logp_rdb_log2(s->P));
}

const logp_family_t logp_family_recursive_doubling = {
    .nops = logp_rdb_nops,
    .op = logp_rdb_op,
    .estimate = logp_rdb_estimate,
    .count = logp_rdb_count,
    .flags = LOGP_FAMILY_RANK_ORDER,
};
