/* Selection: price every candidate with the same schedules the executors run. */
#include "select.h"

#include "../model/sim.h"
#include "native.h"

static logp_algo_t logp_select_safe_default(const logp_select_query_t *q)
{
    return q->coll == LOGP_COLL_ALLTOALL ? LOGP_ALGO_RING : LOGP_ALGO_BINOMIAL;
}

logp_algo_t logp_select_resolve(logp_algo_t configured, const logp_select_query_t *q)
{
    if (configured == LOGP_ALGO_NATIVE && q->native_unsafe)
        return logp_select_safe_default(q);
    if (q->coll == LOGP_COLL_REDUCE && !q->commutative && !(logp_sched_family(configured)->flags & LOGP_FAMILY_RANK_ORDER) &&
        configured != LOGP_ALGO_NATIVE && configured != LOGP_ALGO_AUTO)
        return LOGP_ALGO_LOGP_TREE; /* what keeps rank order among the trees */
    return configured;
}

static logp_status_t logp_select_build(logp_algo_t algo, const logp_select_query_t *q, logp_sched_t *s)
{
    logp_sched_opts_t opts = {q->chain_k, 0};
    return logp_sched_build(s, q->coll, algo, q->bytes, q->topo, &opts);
}

double logp_select_predict(logp_algo_t algo, const logp_select_query_t *q)
{
    if (algo == LOGP_ALGO_NATIVE)
        return logp_native_predict(q->coll, q->bytes, q->commutative, q->topo);
    logp_sched_t s;
    if (logp_select_build(algo, q, &s) != LOGP_OK)
        return -1.0;
    double t = logp_sim_predict(&s, 0, q->commutative);
    logp_sched_free(&s);
    return t;
}

logp_status_t logp_select_decide(logp_algo_t configured, const logp_select_query_t *q, logp_algo_t *algo,
                                 logp_sched_t *sched, double *predicted)
{
    logp_sched_t best_s = {0}, cand;
    logp_algo_t best = LOGP_ALGO_COUNT;
    double best_t = -1.0;
    logp_status_t rc = LOGP_OK;
    if (q->topo == NULL || q->topo->P < 1)
        return LOGP_ERR_ARG;
    if (configured != LOGP_ALGO_AUTO) {
        best = logp_select_resolve(configured, q);
        if (best != LOGP_ALGO_NATIVE) {
            rc = logp_select_build(best, q, &best_s);
            best_t = rc == LOGP_OK ? logp_sim_predict(&best_s, 0, q->commutative) : -1.0;
        } else {
            best_t = logp_native_predict(q->coll, q->bytes, q->commutative, q->topo);
        }
    } else if (q->topo->P == 1) {
        /* nothing to communicate: a local copy (native would be no faster) */
        best = logp_select_safe_default(q);
        rc = logp_select_build(best, q, &best_s);
        best_t = 0.0;
    } else {
        for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
            if (a == LOGP_ALGO_AUTO || !logp_algo_supports((logp_algo_t)a, q->coll) ||
                (a == LOGP_ALGO_NATIVE && q->native_unsafe) ||
                logp_select_resolve((logp_algo_t)a, q) != (logp_algo_t)a)
                continue;
            double t;
            if (a == LOGP_ALGO_NATIVE) {
                t = logp_native_predict(q->coll, q->bytes, q->commutative, q->topo);
            } else {
                if (logp_select_build((logp_algo_t)a, q, &cand) != LOGP_OK)
                    continue;
                t = logp_sim_predict(&cand, 0, q->commutative);
            }
            /* strictly better only: native (first) wins ties, then registry order */
            if (t >= 0.0 && (best == LOGP_ALGO_COUNT || t < best_t)) {
                logp_sched_free(&best_s);
                best = (logp_algo_t)a;
                best_t = t;
                if (a != LOGP_ALGO_NATIVE)
                    best_s = cand;
            } else if (a != LOGP_ALGO_NATIVE) {
                logp_sched_free(&cand);
            }
        }
        if (best == LOGP_ALGO_COUNT) { /* nothing could be priced */
            best = q->native_unsafe ? logp_select_safe_default(q) : LOGP_ALGO_NATIVE;
            if (best != LOGP_ALGO_NATIVE)
                rc = logp_select_build(best, q, &best_s);
        }
    }
    *algo = best;
    if (sched)
        *sched = best_s;
    else
        logp_sched_free(&best_s);
    if (predicted)
        *predicted = best_t;
    return rc;
}
