/* pipeline (bcast, reduce): a chain cut into k segments; a rank forwards
 *   segment j as soon as it has it (a reduce: combined with its own part).
 *   Cost, s = m/k, c = gamma for a reduce (0 for a bcast):
 *     T(k) = (P - 1)(p2p(s) + c s) + (k - 1) max(gap(s), 2o + c s).
 *   With large segments gap(s) = o + (s - 1)G, so
 *     T(k) ~ (P-1)(2o + L) + (P - 2) m (G + c) / k + k o + m (G + c),
 *   minimal at k* = sqrt((P - 2) m (G + c) / o), where
 *     T* ~ (P-1)(2o + L) + m (G + c) + 2 sqrt((P - 2) m (G + c) o).
 *   logp_pipeline_segments takes the k of least T(k) (scanned exactly; a
 *   k dividing m, equal segments, when within 0.1%).
 *   The bcast chain runs in relative rank order from the root.  A
 *   commutative reduce runs the chain root+1, root+2, .., root (it ends at
 *   the root); a non-commutative one runs 0, 1, .., P-1 (each rank
 *   prepends what comes from below, so rank order holds) and P-1 hands each
 *   segment to the root as it is done.
 *
 * Not from the seeds: the seeds' trees send the whole message on every
 * edge, so their time grows as (depth) m G; this is one of the classical
 * bandwidth-optimal algorithms, written in the seeds' LogGP cost
 * convention (params.h) and priced by the same simulator.  A rank's
 * operations are closed forms of (rank, root, P, parts): O(1) state in the
 * view, O(1) per operation, no allocation (sched.h).
 */
#include "sched_pipeline.h"

#include <math.h>

#include "sched_replay.h"

double logp_pipeline_time(const logp_params_t *p, size_t m, int P, int combine, int k)
{
    if (P <= 1)
        return 0.0;
    size_t s = (m + (size_t)k - 1) / (size_t)k; /* the largest segment */
    double c = combine ? (double)s * p->gamma : 0.0;
    double cpu = (P > 2 ? 2.0 : 1.0) * p->o + c, gap = logp_params_gap(p, s);
    return (double)(P - 1) * (logp_params_p2p(p, s) + c) + (double)(k - 1) * (gap > cpu ? gap : cpu);
}

/* The k in [kmin, LOGP_PIPELINE_MAX_SEGMENTS] (k <= m; kmin >= 1 wins)
 * of least time(p, m, P, combine, k), a k that divides m (equal segments)
 * when within 0.1%: the exact times then find their steady delay
 * (logp_pipeline_exact). */
int logp_pipeline_segments_from(double (*time)(const logp_params_t *, size_t, int, int, int), const logp_params_t *p,
                                size_t m, int P, int combine, int kmin)
{
    int kmax = m < LOGP_PIPELINE_MAX_SEGMENTS ? (int)(m > 0 ? m : 1) : LOGP_PIPELINE_MAX_SEGMENTS;
    if (kmin > kmax)
        kmin = kmax;
    if (kmin < 1 || P <= 1)
        kmin = 1;
    int best = kmin, even = kmin;
    double best_t = time(p, m, P, combine, kmin), even_t = m % (size_t)kmin == 0 ? best_t : INFINITY;
    for (int k = kmin + 1; k <= kmax && P > 1; k++) {
        double t = time(p, m, P, combine, k);
        if (t < best_t) {
            best = k;
            best_t = t;
        }
        if (m % (size_t)k == 0 && t < even_t) {
            even = k;
            even_t = t;
        }
    }
    return even_t <= best_t * 1.001 ? even : best;
}

int logp_pipeline_segments(const logp_params_t *p, size_t m, int P, int combine)
{
    return logp_pipeline_segments_from(logp_pipeline_time, p, m, P, combine, 1);
}

int logp_pipeline_segments_forced(size_t m, int k)
{
    long most = m < LOGP_PIPELINE_MAX_SEGMENTS ? (long)m : LOGP_PIPELINE_MAX_SEGMENTS;
    return k < 1 || most < 1 ? 1 : k < most ? k : (int)most;
}

static logp_status_t logp_pipeline_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    s->parts = o->segments > 0 ? logp_pipeline_segments_forced(s->bytes, o->segments) /* forced (tools) */
                               : logp_pipeline_segments(&s->p, s->bytes, s->P, s->coll == LOGP_COLL_REDUCE);
    s->k = s->parts;
    return LOGP_OK;
}

/* Cursor: c[0] the peer segments come from (-1: none), c[1] the peer they
 * go to (-1: none), c[2] the arg of those sends (LOGP_RECV_RESULT for the
 * hand-over to the root), c[3] whether the rank then receives the result
 * (a non-commutative reduce's root). */
static int logp_pipeline_nops(logp_view_t *v)
{
    const logp_sched_t *s = v->s;
    int P = s->P, root = v->root, rank = v->rank, reduce = s->coll == LOGP_COLL_REDUCE;
    long in = -1, out = -1, arg = 0, tail = 0;
    if (!reduce || v->commutative) {
        /* bcast: relative order from the root; commutative reduce: root+1 .. root */
        long pos = reduce ? (rank - root - 1 + 2L * P) % P : logp_sched_rel(s, root, rank);
        long shift = reduce ? root + 1 : root;
        if (pos > 0)
            in = (pos - 1 + shift) % P;
        if (pos < P - 1)
            out = (pos + 1 + shift) % P;
    } else { /* rank order, then the last rank hands over */
        in = rank > 0 ? rank - 1 : -1;
        out = rank < P - 1 ? rank + 1 : rank != root ? root : -1;
        arg = rank == P - 1 ? LOGP_RECV_RESULT : 0;
        tail = rank == root && root != P - 1;
        v->tree_root = P - 1; /* its accumulator is the result */
    }
    v->node.c[0] = in;
    v->node.c[1] = out;
    v->node.c[2] = arg;
    v->node.c[3] = tail;
    return reduce + s->parts * (int)((in >= 0) + (out >= 0) + tail);
}

static logp_op_t logp_pipeline_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    int reduce = s->coll == LOGP_COLL_REDUCE, k = s->parts;
    int in = (int)v->node.c[0], out = (int)v->node.c[1], both = in >= 0 && out >= 0;
    if (reduce) {
        if (i == 0)
            return logp_op_whole(LOGP_OP_INIT_OWN, v->rank, 0, s->bytes);
        i--;
    }
    int chain = k * ((in >= 0) + (out >= 0));
    if (i >= chain) /* the root of a non-commutative reduce: the result, segment by segment */
        return logp_replay_op(s, LOGP_OP_RECV, s->P - 1, LOGP_RECV_RESULT, i - chain, 1);
    int j = both ? i / 2 : i, recv = both ? i % 2 == 0 : in >= 0;
    if (recv)
        return logp_replay_op(s, reduce ? LOGP_OP_RECV_REDUCE : LOGP_OP_RECV, in, LOGP_SIDE_PREPEND, j, 1);
    return logp_replay_op(s, LOGP_OP_SEND, out, (int)v->node.c[2], j, 1);
}

/* Exact uniform time: chain positions in order, each replaying its
 * receives and sends against its predecessor's arrival times (O(k)
 * memory).  Forwarding positions are alike and shift-invariant (a
 * position's clocks start below its first arrival): once a position's
 * output is its input delayed by the same amount for every segment, so is
 * every later forwarding position's, and the walk jumps ahead (segments of
 * unequal size, by one byte, rarely give a common delay: then the walk goes
 * on up to LOGP_REPLAY_EXACT_STEPS / 16 steps, beyond which the design
 * formula prices it; it agrees with the exact time to about 1e-6). */
static double logp_pipeline_exact(const logp_sched_t *s, int root, int commutative)
{
    const logp_params_t *p = &s->p;
    int P = s->P, k = s->parts, reduce = s->coll == LOGP_COLL_REDUCE;
    int handover = reduce && !commutative && root != P - 1; /* P-1 sends the result on to the root */
    int special = reduce && !commutative ? root : 0;       /* a position that does more than forward */
    double arr[LOGP_PIPELINE_MAX_SEGMENTS], total = 0.0;
    logp_replay_clock_t at_root = {0};
    if (P <= 1)
        return 0.0;
    if (k > LOGP_PIPELINE_MAX_SEGMENTS || ((long)P * k > LOGP_REPLAY_EXACT_STEPS / 16 && s->bytes % (size_t)k != 0))
        return -1.0; /* long, and unequal segments: no common delay to jump with */
    for (int pos = 0; pos < P; pos++) {
        logp_replay_clock_t c = {0};
        int forward = pos > 0 && pos < P - 1 && pos != special, same = forward && pos > 1 && pos - 1 != special;
        double delay = 0.0;
        for (int j = 0; j < k; j++) {
            size_t b = logp_sched_part_bytes(s->bytes, k, j, 1);
            if (pos > 0)
                logp_replay_recv(p, b, reduce, arr[j], &c);
            if (pos < P - 1 || handover) {
                double out = logp_replay_send(p, b, 0, &c); /* one peer: the next in the chain, or the root */
                /* (position 0 receives nothing: no delay, and arr[] not yet set) */
                if (pos > 0 && j == 0)
                    delay = out - arr[j];
                else if (pos > 0 && fabs((out - arr[j]) - delay) > 1e-12 * (fabs(out) + 1e-300))
                    same = 0; /* arr[j] is still the predecessor's output here */
                arr[j] = out;
            }
        }
        if (handover && pos == root)
            at_root = c;
        total = logp_replay_max(total, c.cpu);
        if ((long)pos * k > LOGP_REPLAY_EXACT_STEPS / 16 && !same)
            return -1.0; /* no steady shift found within the budget: priced by the estimate */
        if (same) { /* forwarding positions pos+1 .. stop-1 repeat this one, each `delay` later */
            int stop = special > pos && special < P - 1 ? special : P - 1, jump = stop - 1 - pos;
            if (jump > 0) {
                for (int j = 0; j < k; j++)
                    arr[j] += (double)jump * delay;
                total = logp_replay_max(total, c.cpu + (double)jump * delay);
                pos += jump;
            }
        }
    }
    for (int j = 0; handover && j < k; j++)
        logp_replay_recv(p, logp_sched_part_bytes(s->bytes, k, j, 1), 0, arr[j], &at_root);
    return logp_replay_max(total, at_root.cpu);
}

static double logp_pipeline_time_exact(const logp_sched_t *s, int root, int commutative)
{
    return logp_pipeline_exact(s, root, commutative || s->coll != LOGP_COLL_REDUCE);
}

static double logp_pipeline_estimate(const logp_sched_t *s, int root, int commutative)
{
    double t = logp_pipeline_time(&s->p, s->bytes, s->P, s->coll == LOGP_COLL_REDUCE, s->parts);
    if (s->coll == LOGP_COLL_REDUCE && !commutative && root != s->P - 1 && s->P > 1)
        t += logp_params_p2p(&s->p, logp_sched_part_bytes(s->bytes, s->parts, 0, 1));
    return t;
}

static long logp_pipeline_count(const logp_sched_t *s)
{
    return (s->coll == LOGP_COLL_REDUCE ? 3L : 2L) * s->P * s->parts + s->P;
}

const logp_family_t logp_family_pipeline = {
    .build = logp_pipeline_build,
    .nops = logp_pipeline_nops,
    .op = logp_pipeline_op,
    .time = logp_pipeline_time_exact,
    .estimate = logp_pipeline_estimate,
    .count = logp_pipeline_count,
    .flags = LOGP_FAMILY_RANK_ORDER,
};
