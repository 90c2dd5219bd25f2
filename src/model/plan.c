/* Planning and pricing (plan.h): a schedule's build and its simulated
 * refinement, and the policy that prices a schedule at a decision. */
#include "plan.h"

#include "plan_refine.h"
#include "sim.h"

logp_status_t logp_plan_build(logp_sched_t *s, logp_coll_t coll, logp_algo_t algo, size_t bytes,
                              const logp_topo_t *topo, const logp_sched_opts_t *opts)
{
    logp_status_t rc = logp_sched_build(s, coll, algo, bytes, topo, opts);
    if (rc != LOGP_OK)
        return rc;
    /* by family, not by algorithm: a layout family may stand in for another */
    if (s->fam == logp_sched_family(LOGP_ALGO_TWO_TREE) && !(opts && opts->segments > 0)) /* (forced: kept) */
        rc = logp_plan_two_tree(s);
    else if (s->fam == logp_sched_family(LOGP_ALGO_PIPELINE) && !(opts && opts->segments > 0))
        rc = logp_plan_pipeline(s);
    else if (s->fam == logp_sched_family(LOGP_ALGO_HETERO_TREE) && s->algo == LOGP_ALGO_HETERO_TREE)
        rc = logp_plan_hetero_tree(s);
    if (rc != LOGP_OK)
        logp_sched_free(s);
    return rc;
}

double logp_plan_estimate(const logp_sched_t *s, int root, int commutative)
{
    if (s->fam == logp_sched_family(LOGP_ALGO_PIPELINE)) {
        double t = logp_plan_pipeline_estimate(s, commutative);
        if (t >= 0.0)
            return t;
    }
    if (s->fam == logp_sched_family(LOGP_ALGO_TWO_TREE) && (commutative || s->coll != LOGP_COLL_REDUCE)) {
        double t = logp_plan_two_tree_estimate(s);
        if (t >= 0.0)
            return t;
    }
    return logp_sched_estimate(s, root, commutative);
}

double logp_plan_predict(const logp_sched_t *s, int root, int commutative)
{
    double t = logp_sched_time(s, root, commutative);
    if (t >= 0.0)
        return t;
    return logp_sim_run(s, root, commutative, NULL, NULL, &t) == LOGP_OK ? t : -1.0;
}

int logp_plan_affordable(const logp_sched_t *s)
{
    return !(s->fam->flags & LOGP_FAMILY_ESTIMATED) || logp_sched_ops(s) <= LOGP_PLAN_ESTIMATED_OPS;
}

long logp_plan_work(const logp_sched_t *s)
{
    return logp_sched_ops(s) * (s->topo.shared ? LOGP_PLAN_SHARED_OP_COST : 1L);
}

double logp_plan_price(const logp_sched_t *s, int root, int commutative, int exact)
{
    double t = logp_sched_time(s, root, commutative);
    if (t >= 0.0)
        return t;
    if (!logp_plan_affordable(s) ||
        (s->fam == logp_sched_family(LOGP_ALGO_PIPELINE) && logp_plan_pipeline_proxied(s, commutative)))
        exact = 0; /* (a long chain on a shared network: its proxy, not a simulation past the budget) */
    if (!exact)
        return logp_plan_estimate(s, root, commutative);
    /* a shared network may cost far more per operation (net.h): bounded */
    logp_status_t rc = logp_sim_run_budget(s, root, commutative, s->topo.shared ? LOGP_PLAN_BUDGET : 0, NULL, NULL, &t);
    return rc == LOGP_OK ? t : rc == LOGP_ERR_BUDGET ? logp_plan_estimate(s, root, commutative) : -1.0;
}
