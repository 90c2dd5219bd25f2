/* pipeline's price on a shared network (plan.h): a simulated proxy,
 * extrapolated.  The schedule (the pipelined chain, its segment count
 * and formula) is sched_pipeline.c; the algorithm, its cost and source
 * are in that file's header.
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
#include "sim.h"

#define LOGP_PIPELINE_PROXY_P 32
#define LOGP_PIPELINE_PROXY_K 32

/* The chain with the segments of s on P ranks and k of them. */
static double logp_pipeline_proxy_run(const logp_sched_t *s, int P, int k, int commutative)
{
    size_t seg = (s->bytes + (size_t)s->parts - 1) / (size_t)s->parts;
    logp_sched_t x = *s;
    x.P = P;
    x.topo = logp_topo_uniform(P, &s->p);
    x.topo.shared = 1;
    x.parts = x.k = k;
    x.bytes = k == s->parts ? s->bytes : seg * (size_t)k;
    double t;
    return logp_sim_run(&x, 0, commutative, NULL, NULL, &t) == LOGP_OK ? t : -1.0;
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
    int P1 = s->P < LOGP_PIPELINE_PROXY_P ? s->P : LOGP_PIPELINE_PROXY_P;
    int k1 = s->parts < LOGP_PIPELINE_PROXY_K ? s->parts : LOGP_PIPELINE_PROXY_K;
    double t = logp_pipeline_proxy_run(s, P1, k1, commutative), hop = 0.0, period = 0.0;
    if (t < 0.0)
        return -1.0;
    if (s->P > P1) {
        double u = logp_pipeline_proxy_run(s, P1 / 2, k1, commutative);
        if (u < 0.0)
            return -1.0;
        hop = (t - u) / (P1 - P1 / 2);
    }
    if (s->parts > k1) {
        double u = logp_pipeline_proxy_run(s, P1, k1 / 2, commutative);
        if (u < 0.0)
            return -1.0;
        period = (t - u) / (k1 - k1 / 2);
    }
    return t + (double)(s->P - P1) * hop + (double)(s->parts - k1) * period;
}
