/* two-tree (sched_two_tree.c): its segment count, lag and pacing, which
 * the planner's shared-network refinement (plan_two_tree.c) reuses. */
#ifndef LOGP_MODEL_SCHED_TWO_TREE_H
#define LOGP_MODEL_SCHED_TWO_TREE_H

#include <stddef.h>

#include "params.h"
#include "sched.h"

/* Largest two-tree segment when the message allows: the executors send
 * messages up to this size without waiting for the receiver
 * (LOGP_SENDQ_SERIAL, coll/buffer.h, checked there).  Synchronous
 * segments measured far slower in SMPI, where LogGP prices them alike
 * (docs/results/measurements-in-code.md, "two-tree: segment size"). */
#define LOGP_TWOTREE_MAX_SEGMENT ((size_t)16384)

/* Most segments the root sends while one crosses a tree level (the
 * deadlock argument of sched_two_tree.c needs a bound). */
#define LOGP_TWOTREE_MAX_LAG 16

/* The number of segments of two-tree (reduce: `combine`): the k in
 * [ceil(m / LOGP_TWOTREE_MAX_SEGMENT), LOGP_PIPELINE_MAX_SEGMENTS] (k <= m)
 * of least
 *   T(k) = D (p2p(s) + gap(s) + 2 c s) + (k - 1) max(gap(s) + o, 2o + c s),
 * D = 1 + floor(log2 (P - 1)), s = m / k, c = gamma if combining else 0
 * (a divisor of m when within 0.1%). */
int logp_twotree_segments(const logp_params_t *p, size_t m, int P, int combine);

/* The design formula T(k) above. */
double logp_twotree_time(const logp_params_t *p, size_t m, int P, int combine, int k);

/* With k segments of m bytes: the time one segment takes to cross a tree
 * level (*hop) and the steady time between segments (*period), the two
 * terms of T(k). */
void logp_twotree_step(const logp_params_t *p, size_t m, int k, int combine, double *hop, double *period);

/* The lag of k segments: segments the root sends while one crosses a
 * level, 1 .. LOGP_TWOTREE_MAX_LAG (s->k of a built schedule). */
int logp_twotree_lag(const logp_params_t *p, size_t m, int k, int combine);

/* The window of s with this lag: lag + 3 for a bcast on a shared network
 * (paced), else 0 (s->window of a built schedule). */
int logp_twotree_window(const logp_sched_t *s, int lag);

#endif
