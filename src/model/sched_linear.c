/* linear (registry: linear; all-to-all; not a seed: the libraries'
 *   large-block exchange): every destination at once, as MPICH's
 *   "scattered" all-to-all (32 destinations at a time), Open MPI's
 *   linear_sync and SMPI's
 *   basic_linear (all P - 1) do; the large-block schedule of the issue on
 *   large messages.  Window j holds the sends to i + k and the receives
 *   from i - k for k in (j w, (j + 1) w]; the executor keeps a window's
 *   requests in flight together.  Within a window the sends leave gap(m)
 *   apart and the receives are taken as they arrive, so a window costs
 *   about 2o + L + inj(m) + (n - 1) gap(m) for n blocks:
 *     T(w) ~ ceil((P-1)/w) (2o + L + inj(m)) + (P - 1 - ceil((P-1)/w)) gap(m),
 *   against (P - 1)(2o + L + inj(m)) for the ring, whose phases each wait
 *   for one message.  Larger windows hide more latencies; w is the
 *   smallest window predicted within 1% of the largest the executor keeps
 *   in flight (LOGP_LINEAR_WINDOW_MAX), so no more requests are
 *   outstanding than the time needs.
 * Every rank's operations are a closed form of (rank, phase): O(1) each. */
#include "sched_alltoall.h"

#include <math.h>

/* How many sends a window's receives trail by: the message sent d sends
 * earlier has arrived when the next send is due (d gap(m) >= o + inj(m)
 * + L), so that neither side waits for the other; at most n. */
static int logp_linear_lag(const logp_params_t *p, size_t m, int n)
{
    double gap = logp_params_gap(p, m), d = gap > 0.0 ? ceil((p->o + logp_params_inj(p, m) + p->L) / gap) : n;
    return d < 1.0 ? 1 : d > (double)n ? n : (int)d;
}

/* Window op t (0 <= t < 2n) of a window of n blocks: send t for t < d,
 * then send d + u / 2 and receive u / 2 in turns (u = t - d), then the last
 * d receives.  Returns the block index (0-based in the window); *send
 * says which. */
static int logp_linear_slot(int t, int n, int d, int *send)
{
    if (t < d) {
        *send = 1;
        return t;
    }
    if (t < 2 * n - d) {
        int u = t - d;
        *send = u % 2 == 0;
        return *send ? d + u / 2 : u / 2;
    }
    *send = 0;
    return t - n;
}

double logp_linear_time(const logp_params_t *p, int P, size_t m, int w)
{
    /* every rank alike: the message that arrives from i - k left when this
     * rank sent its own to i + k */
    double next_send = 0.0, arrive[LOGP_LINEAR_WINDOW_MAX];
    logp_recv_state_t st = {0.0, 0.0};
    w = w < 1 ? 1 : w > LOGP_LINEAR_WINDOW_MAX ? LOGP_LINEAR_WINDOW_MAX : w;
    for (int k = 1; k < P; k += w) {
        int n = P - k < w ? P - k : w, d = logp_linear_lag(p, m, n), send;
        for (int t = 0; t < 2 * n; t++) {
            int b = logp_linear_slot(t, n, d, &send);
            if (send)
                arrive[b] = logp_params_post(p, m, &st.cpu, &next_send);
            else
                logp_params_take(p, m, 0, arrive[b], &st);
        }
    }
    return st.cpu;
}

int logp_linear_window(const logp_params_t *p, int P, size_t m)
{
    int hi = P - 1 < LOGP_LINEAR_WINDOW_MAX ? P - 1 : LOGP_LINEAR_WINDOW_MAX, lo = 1;
    if (hi <= 1)
        return 1;
    double target = 1.01 * logp_linear_time(p, P, m, hi);
    while (lo < hi) { /* the smallest window within target (time falls as windows grow) */
        int mid = lo + (hi - lo) / 2;
        if (logp_linear_time(p, P, m, mid) <= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    return hi;
}

static logp_status_t logp_linear_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    int most = s->P - 1 < LOGP_LINEAR_WINDOW_MAX ? s->P - 1 : LOGP_LINEAR_WINDOW_MAX;
    if (o->window > 0)
        s->k = o->window < most ? o->window : most > 0 ? most : 1;
    else
        s->k = logp_linear_window(&s->p, s->P, s->bytes);
    return LOGP_OK;
}

static int logp_linear_nops(logp_view_t *v)
{
    return 2 * (v->s->P - 1);
}

static logp_op_t logp_linear_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    int w = s->k, P = s->P, j = i / (2 * w), k0 = j * w + 1, n = P - k0 < w ? P - k0 : w, send;
    int k = k0 + logp_linear_slot(i % (2 * w), n, logp_linear_lag(&s->p, s->bytes, n), &send);
    if (send)
        return logp_op_whole(LOGP_OP_SEND, (int)(((long)v->rank + k) % P), j, s->bytes);
    return logp_op_whole(LOGP_OP_RECV, (int)(((long)v->rank - k + P) % P), j, s->bytes);
}

static double logp_linear_sched_time(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    return logp_linear_time(&s->p, s->P, s->bytes, s->k);
}

/* Every rank sends to and receives from every other, as in the ring. */
static long logp_linear_count(const logp_sched_t *s)
{
    return 2L * s->P * (s->P - 1);
}

const logp_family_t logp_family_linear = {
    .build = logp_linear_build,
    .nops = logp_linear_nops,
    .op = logp_linear_op,
    .time = logp_linear_sched_time,
    .count = logp_linear_count,
    .flags = LOGP_FAMILY_A2A_DIRECT,
};
