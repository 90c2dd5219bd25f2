/* The simulated refinements of plan.h, one per family that has one
 * (internal to plan*.c). */
#ifndef LOGP_MODEL_PLAN_REFINE_H
#define LOGP_MODEL_PLAN_REFINE_H

#include "sched.h"
#include "status.h"

/* two-tree on a shared network (plan_two_tree.c): the segment count of
 * least proxy time, which is kept in s->planned for the estimate. */
logp_status_t logp_plan_two_tree(logp_sched_t *s);

/* two-tree's proxy estimate of s, < 0 if it has none (not a shared
 * network, or the proxy cannot run). */
double logp_plan_two_tree_estimate(const logp_sched_t *s);

/* pipeline on a shared network (plan_pipeline.c): the segment count of
 * least proxy time among the design formula's and 2x, 4x, 1/2 x it, kept
 * in s->planned for the estimate. */
logp_status_t logp_plan_pipeline(logp_sched_t *s);

/* Nonzero if pipeline's s is priced by its proxy (plan_pipeline.c): a
 * shared network, ranks alike, a bcast or commutative reduce, more than
 * the proxy's ranks or segments. */
int logp_plan_pipeline_proxied(const logp_sched_t *s, int commutative);

/* pipeline's proxy estimate of s (plan_pipeline.c), < 0 if it has none
 * (not proxied, or the proxy cannot run). */
double logp_plan_pipeline_estimate(const logp_sched_t *s, int commutative);

/* hetero-tree on a layout (plan_hetero_tree.c): per class of nodes, the
 * fastest of its candidate trees as priced by logp_plan_price. */
logp_status_t logp_plan_hetero_tree(logp_sched_t *s);

#endif
