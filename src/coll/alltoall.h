/* All-to-all dispatch: the executor of a plan's algorithm. */
#ifndef LOGP_COLL_ALLTOALL_H
#define LOGP_COLL_ALLTOALL_H

#include <mpi.h>

#include "../model/plan.h"
#include "buffer.h"

/* Runs the all-to-all `plan` (ring or butterfly) with MPI_Alltoall
 * semantics on the private communicator `comm`.  Returns an MPI error code
 * (MPI_ERR_INTERN for a plan that is not an all-to-all). */
int logp_coll_alltoall(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                       MPI_Datatype rtype, MPI_Comm comm, const logp_plan_t *plan, logp_scratch_t *scratch);

#endif
