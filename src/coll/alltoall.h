/* All-to-all dispatch: the executor for the way a schedule moves blocks. */
#ifndef LOGP_COLL_ALLTOALL_H
#define LOGP_COLL_ALLTOALL_H

#include <mpi.h>

#include "../model/sched.h"
#include "buffer.h"

/* Runs this rank's operations `v` of an all-to-all schedule with
 * MPI_Alltoall semantics on the private communicator `comm`, with the
 * executor its family's LOGP_FAMILY_A2A_* flag names.  Returns an MPI
 * error code (MPI_ERR_INTERN for a schedule that is not an all-to-all). */
int logp_coll_alltoall(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                       MPI_Datatype rtype, MPI_Comm comm, int tag, const logp_view_t *v, logp_scratch_t *scratch);

#endif
