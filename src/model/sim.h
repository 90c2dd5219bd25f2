/* Discrete-event LogGP simulation of a plan (cost convention: params.h;
 * heterogeneous layouts: topo.h). */
#ifndef LOGP_MODEL_SIM_H
#define LOGP_MODEL_SIM_H

#include "params.h"
#include "plan.h"
#include "topo.h"

#define LOGP_ERR_DEADLOCK (-3) /* the plan's operations cannot all complete */

/* Runs every rank's operations of `plan` under `params`, all ranks starting
 * at time 0.  Messages between a pair are matched in FIFO order.  Writes
 * each rank's finish time (its CPU free after its last operation) to
 * finish[0..P-1] if not NULL, and the latest of them to *total.
 * Returns LOGP_OK, LOGP_ERR_NOMEM or LOGP_ERR_DEADLOCK. */
int logp_sim_run(const logp_plan_t *plan, const logp_params_t *params, double *finish, double *total);

/* Predicted time of a plan: logp_sim_run's total, or -1 on error. */
double logp_sim_predict(const logp_plan_t *plan, const logp_params_t *params);

/* logp_sim_run under a heterogeneous layout (pair classes and speeds,
 * topo.h); topo->P must equal plan->P (else LOGP_ERR_ARG).  With
 * logp_topo_uniform(P, params) it is logp_sim_run exactly. */
int logp_sim_run_topo(const logp_plan_t *plan, const logp_topo_t *topo, double *finish, double *total);

/* logp_sim_run_topo that also writes, if `got` is not NULL, the time each
 * rank's first receive completes (a broadcast: when it holds the data;
 * -1 for a rank that receives nothing). */
int logp_sim_run_times(const logp_plan_t *plan, const logp_topo_t *topo, double *finish, double *got, double *total);

/* Predicted time under a layout, or -1 on error. */
double logp_sim_predict_topo(const logp_plan_t *plan, const logp_topo_t *topo);

#endif
