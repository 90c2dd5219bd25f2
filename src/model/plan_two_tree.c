/* two-tree's refinement on a shared network (plan.h): its segment count
 * chosen by simulating a proxy, remembered per thread.  The schedule
 * itself (its trees, order and T(k)) is sched_two_tree.c; the algorithm,
 * its cost and source are in that file's header (Sanders, Speck and
 * Traeff 2009). */
#include <math.h>

#include "plan_refine.h"
#include "sched_pipeline.h" /* LOGP_PIPELINE_MAX_SEGMENTS */
#include "sched_two_tree.h"
#include "sim.h"

/* On a shared network (topo.shared) T(k) misprices two-tree: a rank's
 * sends to its two children share its interface, so a segment crosses a
 * level later than LogGP says, and by how much depends on how fast the
 * rank posts them (the simulator, within 9% of SMPI there, and SMPI favour
 * smaller segments than T(k): docs/results/measurements-in-code.md,
 * "two-tree: the shared-network proxy").  There the count is chosen by
 * simulating a proxy: the same segments on P' = min(P, 16) ranks, at most
 * 32 of them (k' = 16 and 32 extrapolated linearly to k: the steady
 * period is reached by then), plus T(k)'s hop for each level P has beyond
 * P'.  On 90 drawn platforms (P = 48 - 128, 256 KiB - 4 MiB, bcast and
 * reduce) the count it picks simulates in full within 1.000x of the best
 * count found (median; 90th percentile 1.085x), where 32 ranks and 64
 * segments gave 1.000x and 1.060x for 5-10x the cost (a 1 MiB bcast's
 * decision at P = 64: 92 ms; docs/results/measurements-in-code.md,
 * "two-tree: the shared-network proxy").  At most 2 x 1,056 operations
 * per candidate, independent of P.  -1 if the proxy cannot run. */
#define LOGP_TWOTREE_PROXY_P 16
#define LOGP_TWOTREE_PROXY_K 32

/* The proxy's simulated times, remembered per thread (no lock; a hit is
 * the very value the run would give, the model being pure): every
 * communicator's first call of a size class runs up to 8 proxies of
 * 0.2 - 3 ms each, and communicators of equal parameters and message size
 * ask for the same ones (so does any P >= 16 of the same tree depth: the
 * proxy's ranks are then 16, and its counts come from the depth).  A
 * fixed table, oldest entry replaced: no allocation. */
#define LOGP_TWOTREE_MEMO 32
typedef struct {
    logp_params_t p;
    size_t bytes;
    int coll, P, k, lag, used;
    double total, envelope;
} logp_twotree_memo_t;
static _Thread_local logp_twotree_memo_t logp_twotree_memo[LOGP_TWOTREE_MEMO];
static _Thread_local unsigned logp_twotree_memo_next;
static _Thread_local unsigned long logp_twotree_memo_hit;

unsigned long logp_plan_memo_hits(void)
{
    return logp_twotree_memo_hit;
}

static logp_twotree_memo_t *logp_twotree_memo_find(const logp_twotree_memo_t *key)
{
    for (int i = 0; i < LOGP_TWOTREE_MEMO; i++) {
        logp_twotree_memo_t *e = &logp_twotree_memo[i];
        if (e->used && e->coll == key->coll && e->P == key->P && e->k == key->k && e->lag == key->lag &&
            e->bytes == key->bytes && e->p.L == key->p.L && e->p.o == key->p.o && e->p.g == key->p.g &&
            e->p.G == key->p.G && e->p.gamma == key->p.gamma && e->envelope == key->envelope)
            return e;
    }
    return NULL;
}

static double logp_twotree_proxy(const logp_sched_t *s, int k, int lag)
{
    int reduce = s->coll == LOGP_COLL_REDUCE;
    size_t seg = (s->bytes + (size_t)k - 1) / (size_t)k;
    logp_sched_t x = *s;
    x.P = s->P < LOGP_TWOTREE_PROXY_P ? s->P : LOGP_TWOTREE_PROXY_P;
    logp_twotree_memo_t key = {s->p, s->bytes, (int)s->coll, x.P, k, lag, 1, 0.0, s->topo.envelope}, *hit = logp_twotree_memo_find(&key);
    double total;
    if (hit != NULL) {
        total = hit->total;
        logp_twotree_memo_hit++;
    } else {
        x.topo = logp_topo_uniform(x.P, &s->p);
        x.topo.shared = 1;
        x.topo.envelope = s->topo.envelope;
        x.k = lag;
        x.window = logp_twotree_window(s, lag);
        double t[2];
        int ks[2] = {k <= LOGP_TWOTREE_PROXY_K ? k : LOGP_TWOTREE_PROXY_K / 2, LOGP_TWOTREE_PROXY_K};
        for (int i = 0; i < (k > LOGP_TWOTREE_PROXY_K ? 2 : 1); i++) {
            x.parts = ks[i];
            x.bytes = k > LOGP_TWOTREE_PROXY_K ? seg * (size_t)ks[i] : s->bytes;
            if (logp_sim_run(&x, 0, 1, NULL, NULL, &t[i]) != LOGP_OK)
                return -1.0;
        }
        total = k > LOGP_TWOTREE_PROXY_K ? t[1] + (t[1] - t[0]) / (ks[1] - ks[0]) * (k - ks[1]) : t[0];
        key.total = total;
        logp_twotree_memo[logp_twotree_memo_next++ % LOGP_TWOTREE_MEMO] = key;
    }
    double hop, period, extra = floor(log2((double)(s->P - 1))) - floor(log2((double)(x.P - 1)));
    logp_twotree_step(&s->p, s->bytes, k, reduce, &hop, &period);
    return total + extra * hop;
}

/* Nonzero if two-tree's count is chosen by the proxy (a shared network,
 * ranks alike, more than 2 of them). */
static int logp_twotree_proxied(const logp_sched_t *s)
{
    return s->topo.shared && s->P > 2 && logp_sched_alike(s);
}

/* s comes built with T(k)'s count, lag and window (sched_two_tree.c). */
logp_status_t logp_plan_two_tree(logp_sched_t *s)
{
    int reduce = s->coll == LOGP_COLL_REDUCE;
    if (!logp_twotree_proxied(s))
        return LOGP_OK;
    /* candidates around T(k)'s count: segments 2x smaller, 2x larger,
     * 1.25x and 1.5x smaller, 4x larger; then 1.25x either side of the
     * best of those (T(k) prices every receive an overhead, which a
     * rendezvous message does not cost on a shared network: sim.h; SMPI
     * agrees: docs/results/measurements-in-code.md, "two-tree: candidate
     * counts").  The time is not unimodal in the count (the lag and the
     * window step with it): a reduce of 1 MiB at P = 64, L = 16.7 us,
     * o = 3.2 us, g = 1.8 us, G = 0.13 ns/B took 612 us at T(k)'s 64
     * segments and its neighbours 32 and 80 were slower, while 16 took
     * 502 in SMPI and 13 is the best (486, simulated): k0 / 4 is tried. */
    int k0 = s->parts, kmax = s->bytes < LOGP_PIPELINE_MAX_SEGMENTS ? (int)s->bytes : LOGP_PIPELINE_MAX_SEGMENTS;
    int cand[8] = {k0, k0 / 2, 2 * k0, k0 + k0 / 4, k0 + k0 / 2, k0 / 4, 0, 0};
    double best = logp_twotree_proxy(s, k0, s->k);
    for (int i = 1; i < 8 && best >= 0.0; i++) {
        if (i == 6) { /* then 1.25x either side of the best so far */
            cand[6] = s->parts + s->parts / 4;
            cand[7] = s->parts - s->parts / 5;
        }
        int k = cand[i], lag, seen = 0;
        for (int j = 0; j < i; j++)
            seen |= cand[j] == k; /* k0 + k0/4 is k0 itself below 4 */
        if (k < 1 || k > kmax || seen)
            continue;
        lag = logp_twotree_lag(&s->p, s->bytes, k, reduce);
        double t = logp_twotree_proxy(s, k, lag);
        if (t >= 0.0 && t < best) {
            best = t;
            s->parts = k;
            s->k = lag;
            s->window = logp_twotree_window(s, lag);
        }
    }
    if (best >= 0.0) /* the estimate a decision asks for next: one proxy run, not two */
        s->planned = (logp_sched_planned_t){s->parts, s->k, best};
    return LOGP_OK;
}

double logp_plan_two_tree_estimate(const logp_sched_t *s)
{
    if (!logp_twotree_proxied(s))
        return -1.0;
    if (s->planned.parts == s->parts && s->planned.k == s->k)
        return s->planned.t;
    return logp_twotree_proxy(s, s->parts, s->k);
}
