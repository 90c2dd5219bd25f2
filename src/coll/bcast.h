/* Broadcast executor: runs any bcast schedule (trees, layout trees, part-wise). */
#ifndef LOGP_COLL_BCAST_H
#define LOGP_COLL_BCAST_H

#include <mpi.h>

#include "../model/sched.h"
#include "buffer.h"

/* Runs this rank's operations `v` of a broadcast schedule on the private
 * communicator `comm`: receives from the parent, nonblocking sends to the
 * children in the schedule's order.  Part-wise schedules move the packed
 * form of the message; a datatype that is not its own packed form is
 * staged in `scratch` (may be NULL; bytes of the message).  Returns an MPI
 * error code. */
int logp_coll_bcast(void *buf, int count, MPI_Datatype dt, MPI_Comm comm, int tag, const logp_view_t *v,
                    logp_scratch_t *scratch);

#endif
