/* Discrete-event LogGP simulation of a schedule (cost convention:
 * params.h; heterogeneous layouts: topo.h). */
#ifndef LOGP_MODEL_SIM_H
#define LOGP_MODEL_SIM_H

#include "sched.h"
#include "status.h"

/* Runs every rank's operations of s (views for this root and operator)
 * under s->topo, all ranks starting at time 0.  Messages between a pair
 * are matched in FIFO order.  On a shared network (topo.shared, net.h) a
 * transfer's bytes go through the hosts' interfaces beside the others in
 * flight, a rank's CPU sends and receives every max(g, o), and a large
 * send (over LOGP_PARAMS_SERIAL_BYTES, synchronous) leaves only once its
 * receive is posted: a rank posts its first receive at its start and the
 * next one when it starts waiting for the current one (the executors'
 * receives ahead; a part-wise bcast's rank keeps LOGP_SCHED_RECV_AHEAD
 * posted).  A paced schedule (sched.h: window w) sends every message so,
 * and a rank's send waits until its w-th last send has arrived.  Writes each rank's finish time (its CPU free
 * after its last operation) to finish[0..P-1] and the time its first
 * receive completes (a bcast: when it holds the data; -1 if it receives
 * nothing) to got[0..P-1], each if not NULL, and the latest finish to
 * *total.  Returns LOGP_OK, LOGP_ERR_ARG, LOGP_ERR_NOMEM or
 * LOGP_ERR_DEADLOCK. */
logp_status_t logp_sim_run(const logp_sched_t *s, int root, int commutative, double *finish, double *got,
                           double *total);

/* Predicted time of s: its family's exact closed form when the layout is
 * uniform (logp_sched_time), else the simulation; -1 on error. */
double logp_sim_predict(const logp_sched_t *s, int root, int commutative);

/* Operations one decision may simulate (about 0.1 s on this kind of
 * machine; a P = 65,536 tree is 130,000 to 200,000 of them). */
#define LOGP_SIM_BUDGET 200000L

/* Operations of a LOGP_FAMILY_ESTIMATED schedule that a decision still
 * simulates (at most a few tenths of a millisecond): its estimate misses
 * most at small P (two-tree, P = 2 - 8: 10 - 38% above the simulator). */
#define LOGP_SIM_ESTIMATED_OPS 2048L

/* Nonzero if a decision may simulate s as far as its family goes: any
 * family with a closed form or none flagged LOGP_FAMILY_ESTIMATED, an
 * estimated one only within LOGP_SIM_ESTIMATED_OPS operations (the
 * decision's LOGP_SIM_BUDGET still bounds them all). */
int logp_sim_affordable(const logp_sched_t *s);

/* logp_sim_predict when `exact`, else logp_sched_estimate for a layout
 * that is not uniform (closed forms stay exact).  A family flagged
 * LOGP_FAMILY_ESTIMATED is priced by its estimate here unless it has at
 * most LOGP_SIM_ESTIMATED_OPS operations, and so is a schedule whose
 * simulation on a shared network (topo.shared) would recompute more than
 * LOGP_SIM_BUDGET flow rates (net.h). */
double logp_sim_price(const logp_sched_t *s, int root, int commutative, int exact);

#endif
