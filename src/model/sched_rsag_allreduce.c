/* reduce-scatter-allgather (registry: reduce-scatter-allgather; allreduce,
 *   commutative operators): Rabenseifner's allreduce, MPICH's above 2 KiB.
 *   P' = the largest power of two <= P, r = P - P'.  Fold as in
 *   recursive-doubling (ranks below 2r: the even one hands its vector to
 *   the odd one above and waits).  The message is cut into P' parts.
 *   Reduce-scatter by recursive halving: at distance d = P'/2, P'/4, .., 1
 *   new rank i keeps the half of its current range on its side of bit d,
 *   sends the other half to i XOR d and combines the half it keeps from
 *   i XOR d; it ends holding part i reduced.  Allgather by recursive
 *   doubling: at d = 1, 2, .., P'/2 it sends the block of d parts it holds
 *   to i XOR d and receives that rank's block.  Unfold: the odd ranks
 *   below 2r send the result to the even ones.
 * LogGP cost (P a power of two, every rank alike): 2 log2 P (2o + L) +
 *   2 (P-1)/P m G + (P-1)/P m gamma, about; a fold adds a whole message
 *   and combine before and a whole message after.  `estimate` follows a
 *   folded rank with params.h's rules; the simulator prices the exact parts.
 * Each part is combined along one butterfly and copied: every rank gets
 * the same bits.  Thakur, Rabenseifner and Gropp (2005). */
#include "sched.h"

/* Cursor in v->node.c: [0] the new rank (-1: an even folded rank), [1] r,
 * [2] log2 P'. */

static int logp_rsaa_log2(int P)
{
    int lg = 0;
    while ((2L << lg) <= P)
        lg++;
    return lg;
}

static int logp_rsaa_real(long i, long r)
{
    return (int)(i < r ? 2 * i + 1 : i + r);
}

static logp_status_t logp_rsaa_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    s->parts = 1 << logp_rsaa_log2(s->P);
    return LOGP_OK;
}

static int logp_rsaa_nops(logp_view_t *v)
{
    int P = v->s->P, rank = v->rank, lg = logp_rsaa_log2(P);
    long r = P - (1L << lg);
    v->node.c[1] = r;
    v->node.c[2] = lg;
    if (rank < 2 * r && rank % 2 == 0) {
        v->node.c[0] = -1;
        return 3; /* own, send it up, receive the result */
    }
    v->node.c[0] = rank < 2 * r ? rank / 2 : rank - r;
    return 1 + 4 * lg + (rank < 2 * r ? 2 : 0);
}

static logp_op_t logp_rsaa_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    int rank = v->rank, lg = (int)v->node.c[2], parts = s->parts;
    size_t m = s->bytes;
    long me = v->node.c[0], r = v->node.c[1];
    if (i == 0)
        return logp_op_whole(LOGP_OP_INIT_OWN, rank, 0, m);
    if (me < 0)
        return logp_op_whole(i == 1 ? LOGP_OP_SEND : LOGP_OP_RECV, rank + 1, 0, m);
    i--;
    if (rank < 2 * r) {
        if (i == 0)
            return logp_op_whole(LOGP_OP_RECV_REDUCE, rank - 1, LOGP_SIDE_APPEND, m);
        i--;
    }
    if (i >= 4 * lg)
        return logp_op_whole(LOGP_OP_SEND, rank - 1, 0, m); /* the result back to the folded rank */
    int step = i / 2, send = i % 2 == 0;
    long d, lo, n, peer;
    if (step < lg) { /* reduce-scatter: distance P'/2 .. 1; the range before it: the aligned block of 2d */
        d = (long)parts >> (step + 1);
        lo = me & ~(2 * d - 1);
        peer = me ^ d;
        long keep = (me & d) ? lo + d : lo, give = (me & d) ? lo : lo + d;
        long first = send ? give : keep;
        return logp_op_parts(send ? LOGP_OP_SEND : LOGP_OP_RECV_REDUCE, logp_rsaa_real(peer, r), LOGP_SIDE_APPEND,
                             logp_sched_part_bytes(m, parts, (int)first, (int)d), (int)first, (int)d);
    }
    step -= lg; /* allgather: distance 1 .. P'/2; this rank holds the aligned block of d with it */
    d = 1L << step;
    peer = me ^ d;
    lo = (send ? me : peer) & ~(d - 1);
    n = d;
    return logp_op_parts(send ? LOGP_OP_SEND : LOGP_OP_RECV, logp_rsaa_real(peer, r), 0,
                         logp_sched_part_bytes(m, parts, (int)lo, (int)n), (int)lo, (int)n);
}

static double logp_rsaa_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    const logp_params_t *p = &s->p;
    size_t m = s->bytes;
    int lg = logp_rsaa_log2(s->P), fold = s->P > (1 << lg);
    logp_recv_state_t st = {0.0, 0.0};
    double next_send = 0.0;
    if (fold)
        logp_params_take(p, m, 1, p->o + logp_params_inj(p, m) + p->L, &st);
    for (int k = 0; k < 2 * lg; k++) { /* halves, then doubling blocks */
        int e = k < lg ? lg - 1 - k : k - lg; /* the message is 2^e of the 2^lg parts */
        size_t b = logp_sched_part_bytes(m, 1 << lg, 0, 1 << e);
        double arrive = logp_params_post(p, b, &st.cpu, &next_send);
        logp_params_take(p, b, k < lg, arrive, &st);
    }
    if (!fold)
        return st.cpu;
    double arrive = logp_params_post(p, m, &st.cpu, &next_send);
    double got = arrive + p->o;
    return got > st.cpu ? got : st.cpu;
}

static long logp_rsaa_count(const logp_sched_t *s)
{
    return (long)s->P * (3 + 4L * logp_rsaa_log2(s->P));
}

const logp_family_t logp_family_rsag_allreduce = {
    .build = logp_rsaa_build,
    .nops = logp_rsaa_nops,
    .op = logp_rsaa_op,
    .estimate = logp_rsaa_estimate,
    .count = logp_rsaa_count,
};
