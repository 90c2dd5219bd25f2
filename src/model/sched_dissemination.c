/* dissemination (registry: dissemination; allreduce, idempotent operators
 *   only): every rank alike, indices mod P.  Pipeline depth d >= 1; sizes
 *   A_t = 1 for t < d, A_t = min(P, A_{t-1} + A_{t-d}) beyond: when a rank
 *   makes its send t, its accumulator covers the A_t ranks [r - A_t + 1, r].
 *   Message t (the whole accumulator) goes D_t = A_{t+d-1} ranks ahead, and
 *   its receiver combines it right after its own send t + d - 1, so the two
 *   ranges are adjacent and the receiver's send t + d covers A_{t+d-1} + A_t
 *   (capped at P: beyond P they overlap, which only an idempotent operator
 *   forgives).  Message t is needed while A_{t+d-1} < P: M = min{t :
 *   A_{t+d-1} >= P} of them (0 at P = 1), the D_t distinct (one message per
 *   ordered pair).  A rank: its own value, then for k = 0 .. M + d - 2 its
 *   send k (k < M) and its combine of message t = k - d + 1 (0 <= t < M).
 *   d = 1 is the classic dissemination pattern, ceil(log2 P) steps
 *   (Hensgen, Finkel and Manber 1988, as a barrier); d > 1 keeps d messages
 *   in flight so that a send need not wait a whole 2o + L for the last
 *   combine: the circulant of docs/results/smpi-allreduce/bound (section 5,
 *   there with sizes searched so that sums stay exact).
 * LogGP cost (every rank alike): once d periods cover a message's trip
 *   2o + L + (m-1)G + m gamma, a period per = max(2o + m gamma, gap(m))
 *   holds one send and one combine, so about (M - 1) per + 2o + L + (m-1)G
 *   + m gamma; a larger d grows A more slowly (more messages), a smaller
 *   one waits on the latency.  The shape is the d = 1 .. 8 of least time
 *   (ties: the smaller d).  A rank's path with params.h's rules is the
 *   simulator's time in the uniform model (its message t arrives when its
 *   own send t does, all ranks alike), so it is both `time` and
 *   `estimate`.  L 1.6, o 0.4, g 0.6 us, G = gamma = 0: d = 3, 12.80 us
 *   at P = 256 (per = 2o) against recursive-multiplying's 14.40 and a
 *   LogP lower bound of 12.20 (the same docs).
 * Same bits everywhere only because the operator is idempotent and
 *   commutative (MIN, MAX, AND, OR on integers): every rank combines its
 *   own overlapping ranges in its own order. */
#include <stdlib.h>

#include "sched.h"

/* Depths tried.  A deeper pipe pays where a message's trip spans more
 * than 8 periods (L 10, o 0.4, g 0.6 us, G = gamma = 0, P = 64: d = 9
 * would take 28.0 us, d = 8 takes 32.4), and at large P its M passes
 * LOGP_SCHED_SLOTS_MAX first (L 5 us, P = 65,536: d = 7 would take 43.8
 * us in 47 messages; within 31, d = 3 takes 58.8). */
#define LOGP_DISS_DEPTH_MAX 8

/* The shape: depth, messages and their distances (D[t], t < M). */
typedef struct {
    int d, M;
    int D[LOGP_SCHED_SLOTS_MAX];
} logp_diss_t;

/* Fills c for P ranks at depth d; 0 if it would take more than
 * LOGP_SCHED_SLOTS_MAX messages (receive slots). */
static int logp_diss_shape(logp_diss_t *c, long P, int d)
{
    long A[LOGP_SCHED_SLOTS_MAX + LOGP_DISS_DEPTH_MAX];
    for (int j = 0; j < d; j++)
        A[j] = 1;
    c->d = d;
    for (c->M = 0; A[c->M + d - 1] < P; c->M++) {
        if (c->M == LOGP_SCHED_SLOTS_MAX)
            return 0;
        long next = A[c->M + d - 1] + A[c->M];
        c->D[c->M] = (int)A[c->M + d - 1];
        A[c->M + d] = next < P ? next : P;
    }
    return 1;
}

/* One rank's path (params.h's rules, in the view's order): its send t
 * arrives when every rank's does, so message t reaches it then too. */
static double logp_diss_path(const logp_sched_t *s, const logp_diss_t *c)
{
    const logp_params_t *p = &s->p;
    size_t m = s->bytes;
    logp_recv_state_t st = {0.0, 0.0};
    double next_send = 0.0, arrive[LOGP_SCHED_SLOTS_MAX];
    for (int k = 0; k + 1 < c->M + c->d; k++) {
        if (k < c->M)
            arrive[k] = logp_params_post(p, m, &st.cpu, &next_send);
        int t = k - c->d + 1;
        if (t >= 0 && t < c->M)
            logp_params_take(p, m, 1, arrive[t], &st);
    }
    return st.cpu;
}

static logp_status_t logp_diss_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    logp_diss_t *best = malloc(sizeof *best), c;
    if (best == NULL)
        return LOGP_ERR_NOMEM;
    double tbest = -1.0;
    for (int d = 1; d <= LOGP_DISS_DEPTH_MAX; d++) {
        if (!logp_diss_shape(&c, s->P, d))
            continue; /* d = 1 always fits: ceil(log2 P) <= 31 */
        double t = logp_diss_path(s, &c);
        if (tbest < 0.0 || t < tbest * (1.0 - 1e-12)) {
            tbest = t;
            *best = c;
        }
    }
    s->data = best;
    s->k = best->d;
    s->slots = best->M; /* the executor posts every combine at the start, the j-th into slot j */
    return LOGP_OK;
}

static void logp_diss_release(logp_sched_t *s)
{
    free(s->data);
    s->data = NULL;
}

static int logp_diss_nops(logp_view_t *v)
{
    const logp_diss_t *c = v->s->data;
    return 1 + 2 * c->M;
}

/* Operation i: after the own value, p = min(d - 1, M) sends alone, then
 * pairs (send k, combine k - d + 1) for k = d - 1 .. M - 1, then the
 * combines left. */
static logp_op_t logp_diss_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    const logp_diss_t *c = s->data;
    long P = s->P, r = v->rank;
    size_t m = s->bytes;
    if (i == 0)
        return logp_op_whole(LOGP_OP_INIT_OWN, v->rank, 0, m);
    int p = c->d - 1 < c->M ? c->d - 1 : c->M, pairs = c->M - p, j = i - 1 - p, k = -1, t = -1;
    if (j < 0)
        k = i - 1;
    else if (j < 2 * pairs && j % 2 == 0)
        k = p + j / 2;
    else if (j < 2 * pairs)
        t = j / 2;
    else
        t = j - pairs;
    if (k >= 0)
        return logp_op_whole(LOGP_OP_SEND, (int)((r + c->D[k]) % P), 0, m);
    return logp_op_whole(LOGP_OP_RECV_REDUCE, (int)((r - c->D[t] + P) % P), LOGP_SIDE_APPEND, m);
}

static double logp_diss_time(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    return logp_diss_path(s, s->data);
}

static long logp_diss_count(const logp_sched_t *s)
{
    const logp_diss_t *c = s->data;
    return (long)s->P * (1 + 2L * c->M);
}

const logp_family_t logp_family_dissemination = {
    .build = logp_diss_build,
    .release = logp_diss_release,
    .nops = logp_diss_nops,
    .op = logp_diss_op,
    .time = logp_diss_time,
    .estimate = logp_diss_time,
    .count = logp_diss_count,
    /* concurrent: held back until received (buffer.h's LogGP rule for
     * large sends), a rank's send k + 1 would wait for its receiver to
     * combine message k, which comes after that rank's own send k + d - 1,
     * held back alike: every rank waits on another for d >= 2; prepost and
     * an exchange: every combine is posted as the rank begins, so a send
     * never waits for its receive and plain sends lose nothing */
    .flags = LOGP_FAMILY_IDEMPOTENT | LOGP_FAMILY_PREPOST | LOGP_FAMILY_CONCURRENT | LOGP_FAMILY_EXCHANGE,
};
