/* binary-pipeline (bcast, commutative reduce; the pipelined binary tree
 *   of MPICH's and Open MPI's segmented trees, SMPI's NTSB): a balanced
 *   binary tree over relative ranks in preorder (the subtree of rank r
 *   with n ranks is [r, r + n); its first child r + 1 roots ceil((n-1)/2)
 *   of them, the second the rest), the message cut into k segments; a
 *   rank forwards segment j to both children as soon as it has it (a
 *   reduce: combines segment j from both children, then sends it up).
 *   With height H = floor(log2 P), s = m/k, c = gamma for a reduce:
 *     T(k) = H (p2p(s) + gap(s) + c s) + (k - 1) max(2 gap(s), 3o + 2 c s)
 *   (the first segment reaches the deepest second child after H hops of
 *   one message and one gap each; every later segment leaves an interior
 *   rank two sends later).  For large segments 2 gap(s) = 2o + 2 s G, so
 *     T(k) ~ H (3o + L) + 2 H m G / k + 2 (k - 1) o + 2 m G,
 *   minimal at k* = sqrt(H m (G + c) / o) (c: see the formula).  The tree
 *   moves about 2 m G through an interior rank (twice the chain's m G) but
 *   the first segment needs H hops, not P - 1: it wins from medium sizes
 *   until the chain's fill is amortised.  k is the minimiser of T(k) over
 *   1 .. LOGP_PIPELINE_MAX_SEGMENTS (k <= m), a divisor of m within 0.1%.
 *   Not a candidate of auto yet (LOGP_FAMILY_FORCED_ONLY): SMPI measures
 *   it well above this model from 1 MiB, while scatter-allgather, which it
 *   would displace there, measures below its own (figures:
 *   docs/results/measurements-in-code.md, "binary-pipeline").
 *
 * Not from the seeds: the seeds' trees send the whole message on every
 * edge, so their time grows as (depth) m G; this is one of the classical
 * bandwidth-optimal algorithms, written in the seeds' LogGP cost
 * convention (params.h) and priced by the same simulator.  A rank's
 * operations are closed forms of (rank, root, P, parts): O(1) state in the
 * view, O(1) per operation, no allocation (sched.h).
 */
#include "sched_binary_pipeline.h"

#include <math.h>
#include <stdlib.h>

#include "sched_pipeline.h" /* LOGP_PIPELINE_MAX_SEGMENTS, the count search */
#include "sched_replay.h"

double logp_binpipe_time(const logp_params_t *p, size_t m, int P, int combine, int k)
{
    if (P <= 1)
        return 0.0;
    size_t seg = (m + (size_t)k - 1) / (size_t)k; /* the largest segment */
    /* a bcast's rank sends each segment to two peers (params.h's rule), a reduce's to one */
    double c = combine ? (double)seg * p->gamma : 0.0;
    double gap = combine ? logp_params_gap(p, seg) : logp_params_send_gap(p, seg);
    double period = logp_replay_max(2.0 * gap, 3.0 * p->o + 2.0 * c);
    double height = floor(log2((double)P));
    return height * (logp_params_p2p(p, seg) + gap + c) + (double)(k - 1) * period;
}

int logp_binpipe_segments(const logp_params_t *p, size_t m, int P, int combine)
{
    return logp_pipeline_segments_from(logp_binpipe_time, p, m, P, combine, 1);
}

static logp_status_t logp_binpipe_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    s->parts = logp_binpipe_segments(&s->p, s->bytes, s->P, s->coll == LOGP_COLL_REDUCE);
    s->k = s->parts;
    return LOGP_OK;
}

/* The place of relative rank `rel` in the balanced preorder binary tree
 * of P ranks: its parent (-1 at the root), children (-1: none) and
 * subtree size, relative; O(log P). */
static void logp_binpipe_place(long P, long rel, long *parent, long *kid0, long *kid1)
{
    long r = 0, n = P, up = -1;
    while (r != rel) {
        long left = n / 2; /* ceil((n - 1) / 2) */
        up = r;
        if (rel <= r + left) {
            r = r + 1;
            n = left;
        } else {
            r = r + 1 + left;
            n = n - 1 - left;
        }
    }
    long left = n / 2, right = n - 1 - left;
    *parent = up;
    *kid0 = left > 0 ? r + 1 : -1;
    *kid1 = right > 0 ? r + 1 + left : -1;
}

/* Cursor: c[0] parent, c[1] first child, c[2] second child (absolute; -1: none). */
static int logp_binpipe_nops(logp_view_t *v)
{
    const logp_sched_t *s = v->s;
    long up, k0, k1;
    logp_binpipe_place(s->P, logp_sched_rel(s, v->root, v->rank), &up, &k0, &k1);
    v->node.c[0] = up < 0 ? -1 : logp_sched_abs(s, v->root, up);
    v->node.c[1] = k0 < 0 ? -1 : logp_sched_abs(s, v->root, k0);
    v->node.c[2] = k1 < 0 ? -1 : logp_sched_abs(s, v->root, k1);
    v->tree_root = v->root;
    int reduce = s->coll == LOGP_COLL_REDUCE;
    return reduce + s->parts * (int)((up >= 0) + (k0 >= 0) + (k1 >= 0));
}

/* Per segment, a bcast receives from the parent, then sends to the first
 * and the second child; a reduce combines the second child's segment (the
 * smaller subtree, done first), then the first's, then sends it up. */
static logp_op_t logp_binpipe_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    int reduce = s->coll == LOGP_COLL_REDUCE;
    if (reduce) {
        if (i == 0)
            return logp_op_whole(LOGP_OP_INIT_OWN, v->rank, 0, s->bytes);
        i--;
    }
    int up = (int)v->node.c[0], k0 = (int)v->node.c[1], k1 = (int)v->node.c[2];
    int per = (up >= 0) + (k0 >= 0) + (k1 >= 0), j = i / per, t = i % per;
    int order[3], n = 0;
    if (reduce) {
        if (k1 >= 0)
            order[n++] = k1;
        if (k0 >= 0)
            order[n++] = k0;
        if (up >= 0)
            order[n++] = up;
        return t < n - (up >= 0) ? logp_replay_op(s, LOGP_OP_RECV_REDUCE, order[t], LOGP_SIDE_APPEND, j, 1)
                                 : logp_replay_op(s, LOGP_OP_SEND, order[t], 0, j, 1);
    }
    if (up >= 0)
        order[n++] = up;
    if (k0 >= 0)
        order[n++] = k0;
    if (k1 >= 0)
        order[n++] = k1;
    return t == 0 && up >= 0 ? logp_replay_op(s, LOGP_OP_RECV, up, 0, j, 1)
                             : logp_replay_op(s, LOGP_OP_SEND, order[t], 0, j, 1);
}

/* Exact uniform replay of the subtree of n ranks whose root gets segment
 * j at in[j] (bcast; NULL at the tree's root), depth first; `work` holds
 * 2 k doubles per level below.  Returns the subtree's latest finish. */
static double logp_binpipe_bcast(const logp_sched_t *s, long n, const double *in, double *work)
{
    const logp_params_t *p = &s->p;
    int k = s->parts;
    long left = n / 2, right = n - 1 - left;
    double *a0 = work, *a1 = work + k;
    logp_replay_clock_t c = {0};
    for (int j = 0; j < k; j++) {
        size_t b = logp_sched_part_bytes(s->bytes, k, j, 1);
        if (in)
            logp_replay_recv(p, b, 0, in[j], &c);
        if (left > 0)
            a0[j] = logp_replay_send(p, b, 1, &c);
        if (right > 0)
            a1[j] = logp_replay_send(p, b, 2, &c);
    }
    double done = c.cpu;
    if (left > 0)
        done = logp_replay_max(done, logp_binpipe_bcast(s, left, a0, work + 2 * k));
    if (right > 0)
        done = logp_replay_max(done, logp_binpipe_bcast(s, right, a1, work + 2 * k));
    return done;
}

/* The same for a reduce: the subtree of n ranks; out[j] (if not NULL)
 * gets when its root's segment j arrives at the parent.  Returns the
 * subtree's latest finish. */
static double logp_binpipe_reduce(const logp_sched_t *s, long n, double *out, double *work)
{
    const logp_params_t *p = &s->p;
    int k = s->parts;
    long left = n / 2, right = n - 1 - left;
    double *a0 = work, *a1 = work + k, done = 0.0;
    if (left > 0)
        done = logp_binpipe_reduce(s, left, a0, work + 2 * k);
    if (right > 0)
        done = logp_replay_max(done, logp_binpipe_reduce(s, right, a1, work + 2 * k));
    logp_replay_clock_t c = {0};
    for (int j = 0; j < k; j++) {
        size_t b = logp_sched_part_bytes(s->bytes, k, j, 1);
        if (right > 0)
            logp_replay_recv(p, b, 1, a1[j], &c);
        if (left > 0)
            logp_replay_recv(p, b, 1, a0[j], &c);
        if (out)
            out[j] = logp_replay_send(p, b, 0, &c); /* the parent */
    }
    return logp_replay_max(done, c.cpu);
}

static double logp_binpipe_exact(const logp_sched_t *s, int root, int commutative)
{
    (void)root; /* a relabeling: every root takes as long */
    if (s->coll == LOGP_COLL_REDUCE && !commutative)
        return -1.0;
    if (s->P <= 1)
        return 0.0;
    if ((long)s->P * s->parts > LOGP_REPLAY_EXACT_STEPS / 3)
        return -1.0; /* priced by the design formula */
    int levels = (int)floor(log2((double)s->P)) + 2;
    double *work = malloc(sizeof(double) * 2 * (size_t)s->parts * (size_t)levels), t;
    if (work == NULL)
        return -1.0;
    if (s->coll == LOGP_COLL_REDUCE)
        t = logp_binpipe_reduce(s, s->P, NULL, work);
    else
        t = logp_binpipe_bcast(s, s->P, NULL, work);
    free(work);
    return t;
}

static double logp_binpipe_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    if (s->coll == LOGP_COLL_REDUCE && !commutative)
        return -1.0;
    return logp_binpipe_time(&s->p, s->bytes, s->P, s->coll == LOGP_COLL_REDUCE, s->parts);
}

static long logp_binpipe_count(const logp_sched_t *s)
{
    return 3L * s->P * s->parts + s->P;
}

const logp_family_t logp_family_binary_pipeline = {
    .build = logp_binpipe_build,
    .nops = logp_binpipe_nops,
    .op = logp_binpipe_op,
    .time = logp_binpipe_exact,
    .estimate = logp_binpipe_estimate,
    .count = logp_binpipe_count,
    .flags = LOGP_FAMILY_FORCED_ONLY,
};
