/* pipeline on a shared network (plan.h): its price by a simulated proxy,
 * extrapolated, and its segment count the proxy's best.  The schedule
 * (the pipelined chain, its segment count and formula) is
 * sched_pipeline.c; the algorithm, its cost and source are in that file's
 * header.
 *
 * On a shared network the design formula misses the chain by 2-3x
 * (P = 64, 1 MiB, a drawn platform: 2,216 us against 4,428 simulated and
 * 4,437 in SMPI; docs/results/smpi-shapes), and the full simulation of P
 * ranks times k segments passes a decision's budget from P = 64 at 1 MiB,
 * where the price fell back to that formula.  A chain's time is, to well
 * under 1%, linear in P and in k once both are a few dozen: a segment
 * crosses one more rank in a fixed hop, and the steady stream sends one
 * segment per fixed period (P = 8 - 64, k = 16 - 476, bcast and reduce).
 * So the proxy simulates the same segments on P1 = min(P, 32) and P1 / 2
 * ranks with k1 = min(k, 32) and k1 / 2 of them (at most about 6,000
 * operations, a few milliseconds, independent of P and k) and
 * extrapolates: T(P, k) = T(P1, k1) + (P - P1) hop + (k - k1) period. */
#include "plan_refine.h"
#include "sched_pipeline.h"
#include "sim.h"

#define LOGP_PIPELINE_PROXY_P 32
#define LOGP_PIPELINE_PROXY_K 32

/* The chain of s's algorithm and bytes cut into `parts` segments, on P
 * ranks and with k of those segments. */
static double logp_pipeline_proxy_run(const logp_sched_t *s, int parts, int P, int k, int commutative)
{
    size_t seg = (s->bytes + (size_t)parts - 1) / (size_t)parts;
    logp_sched_t x = *s;
    x.P = P;
    x.topo = logp_topo_uniform(P, &s->p);
    x.topo.shared = 1;
    x.topo.envelope = s->topo.envelope;
    x.parts = x.k = k;
    x.bytes = k == parts ? s->bytes : seg * (size_t)k;
    double t;
    return logp_sim_run(&x, 0, commutative, NULL, NULL, &t) == LOGP_OK ? t : -1.0;
}

/* The proxy's time of s cut into `parts` segments (see above); < 0 if a
 * simulation fails. */
static double logp_pipeline_proxy(const logp_sched_t *s, int parts, int commutative)
{
    int P1 = s->P < LOGP_PIPELINE_PROXY_P ? s->P : LOGP_PIPELINE_PROXY_P;
    int k1 = parts < LOGP_PIPELINE_PROXY_K ? parts : LOGP_PIPELINE_PROXY_K;
    double t = logp_pipeline_proxy_run(s, parts, P1, k1, commutative), hop = 0.0, period = 0.0;
    if (t < 0.0)
        return -1.0;
    if (s->P > P1) {
        double u = logp_pipeline_proxy_run(s, parts, P1 / 2, k1, commutative);
        if (u < 0.0)
            return -1.0;
        hop = (t - u) / (P1 - P1 / 2);
    }
    if (parts > k1) {
        double u = logp_pipeline_proxy_run(s, parts, P1, k1 / 2, commutative);
        if (u < 0.0)
            return -1.0;
        period = (t - u) / (k1 - k1 / 2);
    }
    return t + (double)(s->P - P1) * hop + (double)(parts - k1) * period;
}

int logp_plan_pipeline_proxied(const logp_sched_t *s, int commutative)
{
    return s->topo.shared && logp_sched_alike(s) && (commutative || s->coll != LOGP_COLL_REDUCE) &&
           (s->P > LOGP_PIPELINE_PROXY_P || s->parts > LOGP_PIPELINE_PROXY_K);
}

double logp_plan_pipeline_estimate(const logp_sched_t *s, int commutative)
{
    if (!logp_plan_pipeline_proxied(s, commutative))
        return -1.0;
    if (s->planned.parts == s->parts && s->planned.k == s->k && s->planned.t > 0.0)
        return s->planned.t; /* the refinement's (below): the same proxy */
    return logp_pipeline_proxy(s, s->parts, commutative);
}

/* On a shared network the design formula's count is 2-4x too small for a
 * bcast (SMPI, 8 drawn platforms, 1 MiB: the formula's count 1.31x the
 * best forced one in the median, 2.3x at worst; docs/results/smpi-shapes):
 * its T(k) charges every segment a receive overhead and a gap that a
 * shared interface overlaps with the bytes in flight.  So the count is the
 * proxy's best of the formula's k0 and 2 k0, 4 k0, k0 / 2 (a commutative
 * chain stands for a reduce: the same hops and period). */
logp_status_t logp_plan_pipeline(logp_sched_t *s)
{
    if (!s->topo.shared || !logp_sched_alike(s) || s->P <= 2)
        return LOGP_OK;
    int k0 = s->parts, best_k = k0;
    double best = logp_pipeline_proxy(s, k0, 1);
    const int cand[3] = {2 * k0, 4 * k0, k0 / 2};
    for (int i = 0; i < 3 && best >= 0.0; i++) {
        int k = logp_pipeline_segments_forced(s->bytes, cand[i]);
        if (cand[i] < 1 || k == k0 || k == best_k)
            continue;
        double t = logp_pipeline_proxy(s, k, 1);
        if (t >= 0.0 && t < best) {
            best = t;
            best_k = k;
        }
    }
    s->parts = s->k = best_k;
    if (best >= 0.0)
        s->planned = (logp_sched_planned_t){s->parts, s->k, best};
    return LOGP_OK;
}
