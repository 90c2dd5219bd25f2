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
#include "sched_fold.h"

/* The butterfly's operations per new rank: a send and a receive per step,
 * log2 P' steps each way. */
static int logp_rsaa_inner(const logp_sched_t *s)
{
    return 4 * logp_fold_log2(s->P);
}

static logp_status_t logp_rsaa_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    s->parts = 1 << logp_fold_log2(s->P);
    return LOGP_OK;
}

static int logp_rsaa_nops(logp_view_t *v)
{
    return logp_fold_view(v, logp_rsaa_inner(v->s));
}

static logp_op_t logp_rsaa_op(const logp_view_t *v, int i)
{
    logp_op_t o;
    int j;
    if (logp_fold_op(v, i, logp_rsaa_inner(v->s), LOGP_SIDE_APPEND, &o, &j))
        return o;
    const logp_sched_t *s = v->s;
    int lg = (int)v->node.c[2], parts = s->parts, step = j / 2, send = j % 2 == 0;
    long me = v->node.c[0], r = v->node.c[1], d, peer;
    if (step < lg) { /* reduce-scatter: distance P'/2 .. 1 within the aligned block of 2d */
        d = (long)parts >> (step + 1);
        peer = me ^ d;
        long lo = me & ~(2 * d - 1), keep = (me & d) ? lo + d : lo, give = (me & d) ? lo : lo + d;
        long first = send ? give : keep;
        return logp_op_parts(send ? LOGP_OP_SEND : LOGP_OP_RECV_REDUCE, logp_fold_real(peer, r), LOGP_SIDE_APPEND,
                             logp_sched_part_bytes(s->bytes, parts, (int)first, (int)d), (int)first, (int)d);
    }
    d = 1L << (step - lg); /* allgather: distance 1 .. P'/2; each side holds its aligned block of d */
    peer = me ^ d;
    long lo = (send ? me : peer) & ~(d - 1);
    return logp_op_parts(send ? LOGP_OP_SEND : LOGP_OP_RECV, logp_fold_real(peer, r), 0,
                         logp_sched_part_bytes(s->bytes, parts, (int)lo, (int)d), (int)lo, (int)d);
}

/* Step k of the 2 log2 P' exchanges: halves of P'/2, P'/4, .. parts
 * (combined), then blocks of 1, 2, .. parts (copied). */
static size_t logp_rsaa_bytes(const logp_sched_t *s, int k)
{
    int lg = logp_fold_log2(s->P), e = k < lg ? lg - 1 - k : k - lg;
    return logp_sched_part_bytes(s->bytes, 1 << lg, 0, 1 << e);
}

static int logp_rsaa_combines(const logp_sched_t *s, int k)
{
    return k < logp_fold_log2(s->P);
}

static double logp_rsaa_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    return logp_fold_estimate(s, 2 * logp_fold_log2(s->P), logp_rsaa_bytes, logp_rsaa_combines);
}

static long logp_rsaa_count(const logp_sched_t *s)
{
    return (long)s->P * (3 + logp_rsaa_inner(s));
}

const logp_family_t logp_family_rsag_allreduce = {
    .build = logp_rsaa_build,
    .nops = logp_rsaa_nops,
    .op = logp_rsaa_op,
    .estimate = logp_rsaa_estimate,
    .count = logp_rsaa_count,
};
