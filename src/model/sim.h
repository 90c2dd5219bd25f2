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

/* logp_sim_run with a shared network's flow-rate recomputations (net.h)
 * limited to `effort` (0: no limit): LOGP_ERR_BUDGET beyond it. */
logp_status_t logp_sim_run_budget(const logp_sched_t *s, int root, int commutative, long effort, double *finish,
                                  double *got, double *total);

#endif
