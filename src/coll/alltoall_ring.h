/* Ring ("circle") all-to-all executor (seed 004). */
#ifndef LOGP_COLL_ALLTOALL_RING_H
#define LOGP_COLL_ALLTOALL_RING_H

#include <mpi.h>

#include "../model/plan.h"
#include "buffer.h"

/* MPI_Alltoall semantics on the private communicator `comm` (sendbuf may be
 * MPI_IN_PLACE: then the blocks are first copied aside, one receive buffer's
 * worth of memory).  Phase k of the plan pairs a send to rank + k with a
 * receive from rank - k in one PMPI_Sendrecv, so large blocks cannot
 * deadlock.  Returns an MPI error code. */
int logp_coll_alltoall_ring(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm, const logp_plan_t *plan, logp_scratch_t *scratch);

#endif
