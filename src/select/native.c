/* Model of MPICH 4.0.2's default collective algorithms (see native.h).
 * Closed forms in the cost convention of params.h; a log-step algorithm of
 * total volume V costs ceil(log2 P) (2o + L) + V G. */
#include "native.h"

#include "../model/alltoall.h"
#include "../model/sched.h"
#include "../model/sim.h"

/* One of our schedules that has the native algorithm's shape. */
static double logp_native_sched(logp_coll_t coll, logp_algo_t algo, size_t bytes, int commutative,
                                const logp_topo_t *topo, int exact)
{
    logp_sched_t s;
    if (logp_sched_build(&s, coll, algo, bytes, topo, NULL) != LOGP_OK)
        return -1.0;
    double t = logp_sim_price(&s, 0, commutative, exact);
    logp_sched_free(&s);
    return t;
}

static int logp_is_pow2(int P)
{
    return P > 0 && (P & (P - 1)) == 0;
}

double logp_native_predict(logp_coll_t coll, size_t bytes, int commutative, const logp_topo_t *topo, int exact)
{
    int P = topo->P;
    const logp_params_t *p = logp_topo_rep(topo);
    if (P <= 1)
        return 0.0;
    double steps = (double)logp_butterfly_steps(P), m = (double)bytes, frac = (double)(P - 1) / (double)P;
    double hop = 2.0 * p->o + p->L;
    switch (coll) {
    case LOGP_COLL_BCAST:
        if (bytes < 12288 || P < 8)
            return logp_native_sched(coll, LOGP_ALGO_BINOMIAL, bytes, 1, topo, exact);
        if (bytes < 524288 && logp_is_pow2(P)) /* binomial scatter + recursive doubling */
            return 2.0 * steps * hop + 2.0 * frac * m * p->G;
        /* binomial scatter + ring allgather of P - 1 chunks */
        return steps * hop + frac * m * p->G + (double)(P - 1) * (hop + (m / P) * p->G);
    case LOGP_COLL_REDUCE:
        if (bytes < 2048 || !commutative)
            return logp_native_sched(coll, LOGP_ALGO_BINOMIAL, bytes, commutative, topo, exact);
        /* recursive-halving reduce-scatter, then binomial gather */
        return 2.0 * steps * hop + 2.0 * frac * m * p->G + frac * m * p->gamma;
    case LOGP_COLL_ALLTOALL:
        if (bytes < 256 && P >= 8)
            return logp_native_sched(coll, LOGP_ALGO_BUTTERFLY, bytes, 1, topo, exact);
        if (bytes < 32768) /* every send posted at once: the NIC is the limit */
            return (double)(P - 1) * logp_params_gap(p, bytes) + logp_params_p2p(p, bytes);
        return logp_native_sched(coll, LOGP_ALGO_RING, bytes, 1, topo, exact); /* pairwise ~ ring */
    default:
        return -1.0;
    }
}
