/* Dataflow reduce executor: runs a LOGP_FAMILY_DATAFLOW schedule (sched.h),
 * each operation as soon as it can. */
#ifndef LOGP_COLL_REDUCE_DATAFLOW_H
#define LOGP_COLL_REDUCE_DATAFLOW_H

#include <mpi.h>

#include "../model/sched.h"
#include "buffer.h"

/* Runs this rank's operations `v` (a dataflow schedule; commutative `op`)
 * on the private communicator `comm` with tags tag and tag + 1 (the two
 * streams, sched.h).  sendbuf may be MPI_IN_PLACE at the root.  Staging
 * from `scratch` (may be NULL): the accumulator, a buffer per combining
 * receive (room for two counts of them: three message spans in all, as
 * the in-order executor's) and a few words per operation.  Returns an MPI
 * error code.  When it cannot get that staging (no memory, or a schedule
 * that combines more than twice the count) it sets *no_room to 1 and
 * returns MPI_SUCCESS before any message, so that the caller runs the same
 * operations in their listed order (reduce.c), which needs less and
 * matches the same messages; else *no_room is 0. */
int logp_coll_reduce_dataflow(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                              MPI_Comm comm, int tag, const logp_view_t *v, logp_scratch_t *scratch, int *no_room);

#endif
