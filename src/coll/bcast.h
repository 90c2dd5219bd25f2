/* Broadcast executor: runs any tree plan (binomial, flat, logp-tree). */
#ifndef LOGP_COLL_BCAST_H
#define LOGP_COLL_BCAST_H

#include <mpi.h>

#include "../model/plan.h"

/* Runs `plan` (a broadcast tree rooted at plan->root) for this rank on the
 * private communicator `comm`: receive from the parent, then nonblocking
 * sends to the children in the plan's order.  Returns an MPI error code. */
int logp_coll_bcast(void *buf, int count, MPI_Datatype dt, MPI_Comm comm, const logp_plan_t *plan);

#endif
