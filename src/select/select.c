/* Selection: price every candidate with the same schedules the executors run. */
#include "select.h"

#include <string.h>

#include "../model/plan.h"
#include "native.h"

/* How far a candidate's estimate may be from its simulation, either way,
 * for pruning (check_select test_prune: the decision and its trial's
 * candidates never change). */
#define LOGP_SELECT_SLACK 2.0

logp_algo_t logp_select_safe(logp_coll_t coll, int native_unsafe)
{
    if (!native_unsafe)
        return LOGP_ALGO_NATIVE;
    return logp_coll_exchanges(coll) ? LOGP_ALGO_RING : LOGP_ALGO_BINOMIAL;
}

logp_algo_t logp_select_resolve(logp_algo_t configured, const logp_select_query_t *q)
{
    if (configured == LOGP_ALGO_NATIVE)
        return logp_select_safe(q->coll, q->native_unsafe);
    if (logp_coll_combines(q->coll) && !q->commutative && !(logp_sched_family(configured)->flags & LOGP_FAMILY_RANK_ORDER) &&
        configured != LOGP_ALGO_NATIVE && configured != LOGP_ALGO_AUTO)
        return LOGP_ALGO_LOGP_TREE; /* what keeps rank order among the trees */
    if ((logp_sched_family(configured)->flags & LOGP_FAMILY_IDEMPOTENT) && q->commutative != LOGP_OPS_IDEMPOTENT)
        return LOGP_ALGO_RECURSIVE_MULTIPLYING; /* combines every input once, the same bits everywhere */
    if (q->coll == LOGP_COLL_REDUCE && q->reproducible && configured != LOGP_ALGO_NATIVE &&
        configured != LOGP_ALGO_AUTO && (logp_sched_family(configured)->flags & LOGP_FAMILY_DATAFLOW))
        return q->commutative ? LOGP_ALGO_REDUCE_SCATTER_GATHER : LOGP_ALGO_LOGP_TREE;
    if (configured == LOGP_ALGO_NODE_AGGREGATE && q->topo->nnodes == 1)
        return LOGP_ALGO_RING; /* one node: nothing to combine, and its gather and scatter copy every block twice
                                  through the leader (n = 2, 4 MiB blocks: 11x the library's; docs/results/cliffs) */
    if (logp_coll_local_sizes(q->coll) && !q->agreed && configured != LOGP_ALGO_AUTO && !logp_sched_mixes(configured))
        return LOGP_ALGO_LINEAR; /* ranks of other classes run direct exchanges, which only mix with their kind */
    return configured;
}

static logp_status_t logp_select_build(logp_algo_t algo, const logp_select_query_t *q, logp_sched_t *s)
{
    logp_sched_opts_t opts = {q->chain_k, 0, 0, 0, 0, 0};
    return logp_plan_build(s, q->coll, algo, q->bytes, q->topo, &opts);
}

double logp_select_predict(logp_algo_t algo, const logp_select_query_t *q)
{
    if (algo == LOGP_ALGO_NATIVE)
        return logp_native_predict(q->native, q->coll, q->bytes, q->commutative, q->topo, 1);
    logp_sched_t s;
    if (logp_select_build(algo, q, &s) != LOGP_OK)
        return -1.0;
    double t = logp_plan_predict(&s, 0, q->commutative);
    logp_sched_free(&s);
    return t;
}

/* Candidates out of the running are priced by their estimate, neither
 * simulated nor replayed: one whose estimate, were it SLACK times too
 * high, would still exceed SLACK times the best estimate by more than a
 * trial's reach (LOGP_SELECT_NEAR, or the widest error band among the
 * candidates: confirm.h) can neither win nor be tried.  Why: the ring
 * allreduce's O(P^2) simulation made a decision at P = 200 cost 34 - 52
 * ms, at P = 64 and 8 B 3.8 ms, where the ring is 20 - 60 times the best.
 * est[a]: the candidates' estimates (< 0: none, never pruned); sets t[a]
 * of the pruned ones. */
static void logp_select_prune(const logp_select_query_t *q, const int *have, const double *est, double *t)
{
    double ref = -1.0, widest = 0.0, f[LOGP_ALGO_COUNT];
    int sc = logp_learn_class(q->bytes);
    for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
        if (!have[a])
            continue;
        double b = logp_algo_error_band((logp_algo_t)a, q->topo->shared);
        b = b < 0.0 || b > 0.9 ? 0.9 : b; /* unmeasured: as wide as a band may be */
        widest = b > widest ? b : widest;
        f[a] = logp_learn_factor(q->learn, q->coll, (logp_algo_t)a, sc);
        if (est[a] > 0.0 && (ref < 0.0 || est[a] * f[a] < ref))
            ref = est[a] * f[a];
    }
    double reach = (1.0 + widest) / (1.0 - widest);
    reach = reach > LOGP_SELECT_NEAR ? reach : LOGP_SELECT_NEAR;
    for (int a = 0; a < LOGP_ALGO_COUNT && ref > 0.0; a++)
        if (have[a] && est[a] > 0.0 && est[a] * f[a] > LOGP_SELECT_SLACK * LOGP_SELECT_SLACK * reach * ref)
            t[a] = est[a];
}

/* Every candidate of auto for the query: built into all[] (have[a] set)
 * and priced into t[] (< 0: not a candidate or not priced), with
 * q->learn's corrections; raw[] (if not NULL): the same prices without
 * them.  Returns nonzero if the prices are exact (closed forms or
 * simulation; pruned candidates are estimated either way). */
static int logp_select_price_all(const logp_select_query_t *q, logp_sched_t *all, int *have, double *t, double *raw)
{
    long work = 0;
    double est[LOGP_ALGO_COUNT];
    for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
        have[a] = 0;
        t[a] = est[a] = -1.0;
        if (a == LOGP_ALGO_AUTO || a == LOGP_ALGO_NATIVE || !logp_algo_supports((logp_algo_t)a, q->coll) ||
            (logp_sched_family((logp_algo_t)a)->flags & LOGP_FAMILY_FORCED_ONLY) ||
            logp_select_resolve((logp_algo_t)a, q) != (logp_algo_t)a)
            continue;
        if (logp_select_build((logp_algo_t)a, q, &all[a]) == LOGP_OK) {
            have[a] = 1;
            est[a] = logp_sched_estimate(&all[a], 0, q->commutative);
        }
    }
    logp_select_prune(q, have, est, t);
    for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
        if (!have[a] || !logp_plan_affordable(&all[a]))
            continue;
        if (t[a] >= 0.0) { /* pruned: counted as if simulated, so that pruning never turns a
                              decision by estimates into one by costlier simulations */
            work += logp_plan_work(&all[a]);
            continue;
        }
        /* a closed form's price, computed once (some replay O(P^2) steps), or what the
         * simulation below would cost */
        t[a] = logp_sched_time(&all[a], 0, q->commutative);
        if (t[a] < 0.0)
            work += logp_plan_work(&all[a]);
    }
    /* simulate all candidates in the running or none: decisions compare like with like */
    int exact = work <= LOGP_PLAN_BUDGET;
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        if (have[a] && t[a] < 0.0)
            t[a] = logp_plan_price(&all[a], 0, q->commutative, exact);
    if (logp_algo_supports(LOGP_ALGO_NATIVE, q->coll) && !q->native_unsafe)
        t[LOGP_ALGO_NATIVE] = logp_native_predict(q->native, q->coll, q->bytes, q->commutative, q->topo, exact);
    if (raw)
        memcpy(raw, t, sizeof(double) * LOGP_ALGO_COUNT);
    logp_learn_apply(q->learn, q->coll, logp_learn_class(q->bytes), t);
    return exact;
}

int logp_select_prices(const logp_select_query_t *q, double *t)
{
    logp_sched_t all[LOGP_ALGO_COUNT];
    int have[LOGP_ALGO_COUNT];
    int exact = logp_select_price_all(q, all, have, t, NULL);
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        if (have[a])
            logp_sched_free(&all[a]);
    return exact;
}

int logp_select_agreement_pays(const logp_select_query_t *q, double agreement)
{
    logp_select_query_t mixed = *q, agreed = *q;
    mixed.agreed = 0;
    agreed.agreed = 1;
    double tm[LOGP_ALGO_COUNT], ta[LOGP_ALGO_COUNT], best_mixed = -1.0, best_agreed = -1.0;
    logp_select_prices(&mixed, tm);
    logp_select_prices(&agreed, ta);
    for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
        if (a != LOGP_ALGO_NATIVE && tm[a] >= 0.0 && (best_mixed < 0.0 || tm[a] < best_mixed))
            best_mixed = tm[a];
        if (ta[a] >= 0.0 && (best_agreed < 0.0 || ta[a] < best_agreed))
            best_agreed = ta[a];
    }
    return best_agreed >= 0.0 && best_mixed >= 0.0 && best_agreed + agreement < best_mixed;
}

logp_status_t logp_select_decide(logp_algo_t configured, const logp_select_query_t *q, logp_algo_t *algo,
                                 logp_sched_t *sched, double *predicted)
{
    return logp_select_decide_priced(configured, q, algo, sched, predicted, NULL, NULL);
}

logp_status_t logp_select_decide_priced(logp_algo_t configured, const logp_select_query_t *q, logp_algo_t *algo,
                                        logp_sched_t *sched, double *predicted, double *raw, int *priced)
{
    if (priced)
        *priced = 0;
    logp_sched_t best_s = {0};
    logp_algo_t best = LOGP_ALGO_COUNT;
    double best_t = -1.0;
    logp_status_t rc = LOGP_OK;
    if (q->topo == NULL || q->topo->P < 1)
        return LOGP_ERR_ARG;
    if (configured != LOGP_ALGO_AUTO) {
        best = logp_select_resolve(configured, q);
        if (best != LOGP_ALGO_NATIVE) {
            rc = logp_select_build(best, q, &best_s);
            best_t = rc == LOGP_OK ? logp_plan_price(&best_s, 0, q->commutative, logp_plan_work(&best_s) <= LOGP_PLAN_BUDGET)
                                   : -1.0;
        } else {
            best_t = logp_native_predict(q->native, q->coll, q->bytes, q->commutative, q->topo, 1);
        }
        if (best_t > 0.0)
            best_t *= logp_learn_factor(q->learn, q->coll, best, logp_learn_class(q->bytes));
    } else if (q->topo->P == 1) {
        /* nothing to communicate: the library's own local copy, the
         * cheapest (MPICH, n = 1: 18 - 80 ns a call against 145 - 610 ns
         * through our executor, docs/results/fresh/shim-per-call.c), but
         * for the exchanges, where the ring's local copy is kept (MPICH's
         * 1-rank all-to-alls hang beside a wildcard receive: native_unsafe;
         * with Open MPI the library's would be safe, but a tool after the
         * shim then sees calls the shim took before: run_preload) */
        best = logp_select_safe(q->coll, q->native_unsafe || logp_coll_exchanges(q->coll));
        if (best != LOGP_ALGO_NATIVE)
            rc = logp_select_build(best, q, &best_s);
        best_t = 0.0;
    } else {
        logp_sched_t all[LOGP_ALGO_COUNT];
        int have[LOGP_ALGO_COUNT];
        double t[LOGP_ALGO_COUNT];
        logp_select_price_all(q, all, have, t, raw);
        if (priced)
            *priced = raw != NULL;
        if (logp_coll_local_sizes(q->coll) && !q->agreed) /* ranks of other classes may pick ours: never the library (algo.h) */
            t[LOGP_ALGO_NATIVE] = -1.0;
        /* strictly better only: native (first) wins ties, then registry order */
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            if (t[a] >= 0.0 && (best == LOGP_ALGO_COUNT || t[a] < best_t)) {
                best = (logp_algo_t)a;
                best_t = t[a];
            }
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            if (have[a]) {
                if (a == (int)best)
                    best_s = all[a];
                else
                    logp_sched_free(&all[a]);
            }
        if (best == LOGP_ALGO_COUNT) { /* nothing could be priced */
            best = logp_select_safe(q->coll, q->native_unsafe);
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
