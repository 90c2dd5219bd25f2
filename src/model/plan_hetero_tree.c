/* hetero-tree's refinement (plan.h): per class of alike nodes, the
 * fastest, as the simulator prices it under the layout, of the uniform
 * logp-tree, the two-level tree and the greedy earliest-completion trees
 * (seed 000's earliest-sender construction with seed 003's per-pair
 * delays and per-rank speeds); never worse than logp-tree.  The schedule
 * and its trees are sched_layout.c's; only the choice, which simulates,
 * is here. */
#include <stdlib.h>

#include "plan.h"
#include "plan_refine.h"
#include "sched_layout.h"
#include "tree_topo.h"

/* Class k: candidates are simulated while their operations fit
 * LOGP_PLAN_BUDGET, else compared by their estimates. */
static logp_status_t logp_plan_hetero_class(logp_sched_t *s, int k, int *parent, int *order)
{
    int P = s->P, root = logp_layout_class_root(s, k), reduce = s->coll == LOGP_COLL_REDUCE;
    int exact = 3L * P * (2 + LOGP_GREEDY_RULES) <= LOGP_PLAN_BUDGET;
    logp_sched_t uni;
    logp_status_t rc = logp_sched_build(&uni, s->coll, LOGP_ALGO_LOGP_TREE, s->bytes, &s->topo, NULL);
    if (rc != LOGP_OK)
        return rc;
    double best = logp_plan_price(&uni, root, 1, exact); /* the tree sched_layout.c installed */
    logp_sched_free(&uni);
    if (best < 0.0)
        return LOGP_ERR_NOMEM;
    for (int cand = -1; cand < LOGP_GREEDY_RULES; cand++) { /* -1: two-level */
        rc = cand < 0 ? logp_tree_two_level(&s->topo, root, s->bytes, reduce, parent, order)
                      : logp_tree_greedy(&s->topo, root, s->bytes, reduce, (logp_greedy_rule_t)cand, parent, order);
        if (rc == LOGP_ERR_ARG) /* a rule over its work budget: not a candidate */
            continue;
        logp_sched_t c;
        if (rc != LOGP_OK || (rc = logp_sched_from_tree(&c, s->coll, s->bytes, &s->topo, root, parent, order)) != LOGP_OK)
            return rc;
        double t = logp_plan_price(&c, root, 1, exact);
        /* a candidate must be really faster: ties (to rounding) keep the
         * uniform optimum */
        if (t >= 0.0 && t < best * (1.0 - 1e-12)) {
            best = t;
            logp_layout_adopt(s, k, &c);
        }
        logp_sched_free(&c);
    }
    return LOGP_OK;
}

logp_status_t logp_plan_hetero_tree(logp_sched_t *s)
{
    int P = s->P, *parent = malloc(sizeof(int) * (size_t)P), *order = malloc(sizeof(int) * (size_t)P);
    logp_status_t rc = parent && order ? LOGP_OK : LOGP_ERR_NOMEM;
    for (int k = 0; rc == LOGP_OK && k < logp_layout_classes(s); k++)
        rc = logp_plan_hetero_class(s, k, parent, order);
    free(parent);
    free(order);
    return rc;
}
