/* All-to-all dispatch: the executor for the way a schedule moves blocks. */
#ifndef LOGP_COLL_ALLTOALL_H
#define LOGP_COLL_ALLTOALL_H

#include <mpi.h>

#include "../model/sched.h"
#include "alltoall_direct.h"
#include "buffer.h"

/* Runs this rank's operations `v` of an all-to-all schedule with
 * MPI_Alltoall semantics on the private communicator `comm`, with the
 * executor its family's LOGP_FAMILY_A2A_* flag names.  Returns an MPI
 * error code (MPI_ERR_INTERN for a schedule that is not an all-to-all). */
int logp_coll_alltoall(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                       MPI_Datatype rtype, MPI_Comm comm, int tag, const logp_view_t *v, logp_scratch_t *scratch);

/* Runs this rank's operations `v` of an alltoallv schedule (a direct
 * family's: the only ones registered for alltoallv, since ranks of
 * different classes must mix) with MPI_Alltoallv semantics.  Returns an
 * MPI error code (MPI_ERR_INTERN for another schedule). */
int logp_coll_alltoallv(const void *sendbuf, MPI_Datatype stype, void *recvbuf, MPI_Datatype rtype,
                        const logp_alltoallv_t *a, MPI_Comm comm, int tag, const logp_view_t *v, logp_scratch_t *scratch);

#endif
