/* All-to-all dispatch: the executor for the way a schedule moves blocks. */
#ifndef LOGP_COLL_ALLTOALL_H
#define LOGP_COLL_ALLTOALL_H

#include <stddef.h>

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

/* Runs this rank's operations `v` of an alltoallv schedule with
 * MPI_Alltoallv semantics: a direct family's (which mixes with the other
 * direct ones where ranks of different classes decided unlike), or a
 * Bruck family's where every rank runs it and `most`, the call's largest
 * block over every rank, was agreed (alltoallv_bruck.h).  Returns an MPI
 * error code (MPI_ERR_INTERN for another schedule). */
int logp_coll_alltoallv(const void *sendbuf, MPI_Datatype stype, void *recvbuf, MPI_Datatype rtype,
                        const logp_alltoallv_t *a, size_t most, MPI_Comm comm, int tag, const logp_view_t *v,
                        logp_scratch_t *scratch);

#endif
