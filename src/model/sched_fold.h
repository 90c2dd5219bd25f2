/* The fold to a power of two shared by the allreduce butterflies
 * (sched_recursive_doubling.c, sched_rsag_allreduce.c): P' = the largest
 * power of two <= P, r = P - P'; of ranks 0 .. 2r - 1 the even ones hand
 * their contribution to the odd one above and get the result back last;
 * the P' others are new ranks 0 .. P'-1 (2i + 1 below 2r, i + r above),
 * each a contiguous range of ranks in order. */
#ifndef LOGP_MODEL_SCHED_FOLD_H
#define LOGP_MODEL_SCHED_FOLD_H

#include <stddef.h>

#include "params.h"
#include "sched.h"

/* log2 P', P' the largest power of two <= P. */
static inline int logp_fold_log2(int P)
{
    int lg = 0;
    while ((2L << lg) <= P)
        lg++;
    return lg;
}

/* The absolute rank of new rank i when r pairs fold. */
static inline int logp_fold_real(long i, long r)
{
    return (int)(i < r ? 2 * i + 1 : i + r);
}

/* Fills v->node.c with the rank's place when pp ranks are left after the
 * fold, P / 2 <= pp <= P (r = P - pp pairs fold: c[0] its new rank, -1
 * for an even folded rank; c[1] r; c[2] pp) and returns the operations
 * around a butterfly of `inner` operations per new rank: 3 for an even
 * folded rank (its own, sent up, the result back), else 1 + inner, plus 2
 * for an odd folded rank (its pair's combine first, the hand-back last). */
static inline int logp_fold_view_to(logp_view_t *v, int inner, long pp)
{
    int P = v->s->P, rank = v->rank;
    long r = P - pp;
    v->node.c[1] = r;
    v->node.c[2] = pp;
    if (rank < 2 * r && rank % 2 == 0) {
        v->node.c[0] = -1;
        return 3;
    }
    v->node.c[0] = rank < 2 * r ? rank / 2 : rank - r;
    return 1 + inner + (rank < 2 * r ? 2 : 0);
}

/* logp_fold_view_to the largest power of two P' <= P, c[2] then log2 P'. */
static inline int logp_fold_view(logp_view_t *v, int inner)
{
    int lg = logp_fold_log2(v->s->P), n = logp_fold_view_to(v, inner, 1L << lg);
    v->node.c[2] = lg;
    return n;
}

/* Operation i of v outside the butterfly (v filled by logp_fold_view or
 * logp_fold_view_to):
 * returns 1 and sets *op for the rank's own contribution, an even folded
 * rank's operations, the odd one's combine of its pair (on `side`) and its
 * hand-back after the butterfly's `inner` operations; else 0 and sets *j
 * to the index within the butterfly. */
static inline int logp_fold_op(const logp_view_t *v, int i, int inner, int side, logp_op_t *op, int *j)
{
    int rank = v->rank, folded = rank < 2 * v->node.c[1];
    size_t m = v->s->bytes;
    if (i == 0)
        *op = logp_op_whole(LOGP_OP_INIT_OWN, rank, 0, m);
    else if (v->node.c[0] < 0)
        *op = logp_op_whole(i == 1 ? LOGP_OP_SEND : LOGP_OP_RECV, rank + 1, 0, m);
    else if (folded && i == 1)
        *op = logp_op_whole(LOGP_OP_RECV_REDUCE, rank - 1, side, m);
    else if ((*j = i - 1 - folded) >= inner)
        *op = logp_op_whole(LOGP_OP_SEND, rank - 1, 0, m);
    else
        return 0;
    return 1;
}

/* A folded rank's path (estimates): its pair's contribution, sent at 0,
 * taken and combined. */
static inline void logp_fold_estimate_in(const logp_sched_t *s, logp_recv_state_t *st)
{
    const logp_params_t *p = &s->p;
    logp_params_take(p, s->bytes, 1, p->o + logp_params_inj(p, s->bytes) + p->L, st);
}

/* ... and after its butterfly, the result handed back: when the pair has
 * it or the rank is done, whichever is later. */
static inline double logp_fold_estimate_out(const logp_sched_t *s, logp_recv_state_t *st, double *next_send)
{
    double got = logp_params_post(&s->p, s->bytes, &st->cpu, next_send) + s->p.o;
    return got > st->cpu ? got : st->cpu;
}

/* Estimate of a butterfly with the fold, along a folded rank's path
 * (params.h's send and receive rules, every partner alike): its pair's
 * contribution, sent at 0, taken and combined; `steps` exchanges, step k
 * of bytes(s, k) bytes, combined if combines(s, k); the result handed
 * back.  Exact where no rank folds (P a power of two) and every step's
 * messages are alike; high where few ranks fold (their partners do not
 * wait for them). */
static inline double logp_fold_estimate(const logp_sched_t *s, int steps, size_t (*bytes)(const logp_sched_t *, int),
                                        int (*combines)(const logp_sched_t *, int))
{
    const logp_params_t *p = &s->p;
    int fold = s->P > (1 << logp_fold_log2(s->P));
    logp_recv_state_t st = {0.0, 0.0};
    double next_send = 0.0;
    if (fold)
        logp_fold_estimate_in(s, &st);
    for (int k = 0; k < steps; k++) {
        size_t b = bytes(s, k);
        double arrive = logp_params_post(p, b, &st.cpu, &next_send);
        logp_params_take(p, b, combines(s, k), arrive, &st);
    }
    return fold ? logp_fold_estimate_out(s, &st, &next_send) : st.cpu;
}

#endif
