/* Selection: price every candidate with the same plans the executors run. */
#include "select.h"

#include "../model/sim.h"
#include "native.h"

double logp_select_predict(logp_algo_t algo, const logp_select_query_t *q, const logp_params_t *params)
{
    if (algo == LOGP_ALGO_NATIVE)
        return logp_native_predict(q->coll, q->P, q->bytes, q->commutative, params, q->topo);
    logp_plan_t plan;
    logp_plan_opts_t opts = {q->chain_k, q->commutative, 0, q->topo};
    if (logp_plan_build(&plan, q->coll, algo, q->P, 0, q->bytes, params, &opts) != LOGP_OK)
        return -1.0;
    double t = q->topo ? logp_sim_predict_topo(&plan, q->topo) : logp_sim_predict(&plan, params);
    logp_plan_free(&plan);
    return t;
}

logp_algo_t logp_select_choose(logp_algo_t configured, const logp_select_query_t *q, const logp_params_t *params,
                               double *predicted)
{
    logp_algo_t best = configured;
    double best_t = -1.0;
    if (configured == LOGP_ALGO_NATIVE && q->native_unsafe)
        best = q->coll == LOGP_COLL_ALLTOALL ? LOGP_ALGO_RING : LOGP_ALGO_BINOMIAL;
    if (q->coll == LOGP_COLL_REDUCE && !q->commutative &&
        (configured == LOGP_ALGO_HETERO_TREE || configured == LOGP_ALGO_TWO_LEVEL))
        best = LOGP_ALGO_LOGP_TREE; /* what the plan builds: these shapes lose rank order */
    if (configured != LOGP_ALGO_AUTO) {
        if (predicted)
            *predicted = logp_select_predict(best, q, params);
        return best;
    }
    if (q->P == 1) {
        /* Nothing to communicate: a local copy (native would be no faster). */
        if (predicted)
            *predicted = 0.0;
        return q->coll == LOGP_COLL_ALLTOALL ? LOGP_ALGO_RING : LOGP_ALGO_BINOMIAL;
    }
    best = LOGP_ALGO_COUNT;
    for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
        if (a == LOGP_ALGO_AUTO || !logp_algo_supports((logp_algo_t)a, q->coll) ||
            (a == LOGP_ALGO_NATIVE && q->native_unsafe))
            continue;
        double t = logp_select_predict((logp_algo_t)a, q, params);
        /* native wins ties: leave the library alone unless we predict a gain */
        if (t >= 0.0 && (best == LOGP_ALGO_COUNT || t < best_t)) {
            best = (logp_algo_t)a;
            best_t = t;
        }
    }
    if (best == LOGP_ALGO_COUNT) /* nothing could be priced */
        best = q->native_unsafe ? (q->coll == LOGP_COLL_ALLTOALL ? LOGP_ALGO_RING : LOGP_ALGO_BINOMIAL)
                                : LOGP_ALGO_NATIVE;
    if (predicted)
        *predicted = best_t;
    return best;
}
