/* Broadcast executor: runs any tree schedule (binomial, flat, logp-tree, layout trees). */
#ifndef LOGP_COLL_BCAST_H
#define LOGP_COLL_BCAST_H

#include <mpi.h>

#include "../model/sched.h"

/* Runs this rank's operations `v` of a broadcast tree on the private
 * communicator `comm`: receive from the parent, then nonblocking sends to
 * the children in the schedule's order.  Returns an MPI error code. */
int logp_coll_bcast(void *buf, int count, MPI_Datatype dt, MPI_Comm comm, int tag, const logp_view_t *v);

#endif
