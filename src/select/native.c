/* Model of MPICH 4.0.2's default collective algorithms (see native.h).
 * Closed forms in the cost convention of params.h; a log-step algorithm of
 * total volume V costs ceil(log2 P) (2o + L) + V G. */
#include "native.h"

#include "../model/alltoall.h"
#include "../model/plan.h"
#include "../model/sim.h"

static double logp_native_sim(logp_coll_t coll, logp_algo_t algo, int P, size_t bytes, int commutative,
                              const logp_params_t *p, const logp_topo_t *topo)
{
    logp_plan_t plan;
    logp_plan_opts_t opts = {0, commutative, 0, topo};
    if (logp_plan_build(&plan, coll, algo, P, 0, bytes, p, &opts) != LOGP_OK)
        return -1.0;
    double t = topo ? logp_sim_predict_topo(&plan, topo) : logp_sim_predict(&plan, p);
    logp_plan_free(&plan);
    return t;
}

static int logp_is_pow2(int P)
{
    return P > 0 && (P & (P - 1)) == 0;
}

double logp_native_predict(logp_coll_t coll, int P, size_t bytes, int commutative, const logp_params_t *p,
                           const logp_topo_t *topo)
{
    if (P <= 1)
        return 0.0;
    double steps = (double)logp_butterfly_steps(P), m = (double)bytes, frac = (double)(P - 1) / (double)P;
    double hop = 2.0 * p->o + p->L;
    switch (coll) {
    case LOGP_COLL_BCAST:
        if (bytes < 12288 || P < 8)
            return logp_native_sim(coll, LOGP_ALGO_BINOMIAL, P, bytes, 1, p, topo);
        if (bytes < 524288 && logp_is_pow2(P)) /* binomial scatter + recursive doubling */
            return 2.0 * steps * hop + 2.0 * frac * m * p->G;
        /* binomial scatter + ring allgather of P - 1 chunks */
        return steps * hop + frac * m * p->G + (double)(P - 1) * (hop + (m / P) * p->G);
    case LOGP_COLL_REDUCE:
        if (bytes < 2048 || !commutative)
            return logp_native_sim(coll, LOGP_ALGO_BINOMIAL, P, bytes, commutative, p, topo);
        /* recursive-halving reduce-scatter, then binomial gather */
        return 2.0 * steps * hop + 2.0 * frac * m * p->G + frac * m * p->gamma;
    case LOGP_COLL_ALLTOALL:
        if (bytes < 256 && P >= 8)
            return logp_native_sim(coll, LOGP_ALGO_BUTTERFLY, P, bytes, 1, p, topo);
        if (bytes < 32768) /* every send posted at once: the NIC is the limit */
            return (double)(P - 1) * logp_params_gap(p, bytes) + logp_params_p2p(p, bytes);
        return logp_native_sim(coll, LOGP_ALGO_RING, P, bytes, 1, p, topo); /* pairwise ~ ring */
    default:
        return -1.0;
    }
}
