/* Planning and pricing: the layer above the schedules and the simulator.
 *
 * A schedule family builds its shape from closed forms only (sched.h);
 * where a better shape is found only by simulating candidates (two-tree's
 * segment count on a shared network, hetero-tree's choice among trees),
 * the refinement lives here, so that schedules never depend on the
 * simulator.  Pricing policy lives here too: when a decision may trust a
 * closed form, simulate, or fall back to an estimate.  Callers that build
 * a schedule to run or to price it use logp_plan_build. */
#ifndef LOGP_MODEL_PLAN_H
#define LOGP_MODEL_PLAN_H

#include <stddef.h>

#include "algo.h"
#include "sched.h"
#include "status.h"
#include "topo.h"

/* Operations one decision may simulate (about 0.1 s on this kind of
 * machine; a P = 65,536 tree is 130,000 to 200,000 of them). */
#define LOGP_PLAN_BUDGET 200000L

/* What simulating s costs against LOGP_PLAN_BUDGET: its operations, each
 * counted twice on a shared network, where the flows' rates are recomputed
 * as transfers start and end (measured per operation against LogGP's, bcast
 * schedules at P = 64 and 1024, 8 B and 64 KiB: 1.2 - 5.4x, median 2.1x;
 * an 8-byte bcast's decision at P = 4096 simulated every candidate in 71 ms
 * with them counted once). */
#define LOGP_PLAN_SHARED_OP_COST 2L
long logp_plan_work(const logp_sched_t *s);

/* Operations of a LOGP_FAMILY_ESTIMATED schedule that a decision still
 * simulates (at most a few tenths of a millisecond): its estimate misses
 * most at small P (two-tree, P = 2 - 8: 10 - 38% above the simulator). */
#define LOGP_PLAN_ESTIMATED_OPS 2048L

/* logp_sched_build, then the family's simulated refinement if it has one
 * (two-tree and pipeline on a shared network: the segment count of a
 * simulated proxy;
 * hetero-tree: the fastest of its candidate trees per class of nodes).
 * Same arguments and results as logp_sched_build. */
logp_status_t logp_plan_build(logp_sched_t *s, logp_coll_t coll, logp_algo_t algo, size_t bytes,
                              const logp_topo_t *topo, const logp_sched_opts_t *opts);

/* logp_sched_estimate, or the refinement's simulated proxy where the
 * family's formula misprices the layout (two-tree and pipeline on a shared
 * network). */
double logp_plan_estimate(const logp_sched_t *s, int root, int commutative);

/* Predicted time of s: its family's exact closed form when the layout is
 * uniform (logp_sched_time), else the simulation; -1 on error. */
double logp_plan_predict(const logp_sched_t *s, int root, int commutative);

/* Nonzero if a decision may simulate s as far as its family goes: any
 * family with a closed form or none flagged LOGP_FAMILY_ESTIMATED, an
 * estimated one only within LOGP_PLAN_ESTIMATED_OPS operations (the
 * decision's LOGP_PLAN_BUDGET still bounds them all). */
int logp_plan_affordable(const logp_sched_t *s);

/* logp_plan_predict when `exact`, else logp_plan_estimate for a layout
 * that is not uniform (closed forms stay exact).  A family flagged
 * LOGP_FAMILY_ESTIMATED is priced by its estimate here unless it has at
 * most LOGP_PLAN_ESTIMATED_OPS operations, and so is a schedule whose
 * simulation on a shared network (topo.shared) would recompute more than
 * LOGP_PLAN_BUDGET flow rates (net.h), and a pipeline on a shared network
 * beyond its proxy's size (plan_pipeline.c). */
double logp_plan_price(const logp_sched_t *s, int root, int commutative, int exact);

/* How many of two-tree's proxy simulations (a shared network's segment
 * count) the calling thread has answered from its memo so far: building
 * the same size again on another communicator costs no simulation. */
unsigned long logp_plan_memo_hits(void);

#endif
