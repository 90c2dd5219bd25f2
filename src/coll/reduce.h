/* Reduce executor: runs any tree schedule (binomial, flat, logp-tree, chains, layout trees)
 * and the allreduce schedules (trees up and down, recursive doubling, ring). */
#ifndef LOGP_COLL_REDUCE_H
#define LOGP_COLL_REDUCE_H

#include <mpi.h>

#include "../model/sched.h"
#include "buffer.h"

/* Runs this rank's operations `v` on the private communicator `comm`,
 * combining with `op` so that the result is a_0 op a_1 op .. op a_{P-1} in
 * rank order whenever the view was made for a non-commutative operator
 * (v->commutative must describe `op`).  The result goes to the root's
 * recvbuf, or for an allreduce schedule (v->s->coll) to every rank's.
 * sendbuf may be MPI_IN_PLACE at the root (allreduce: at every rank).  Staging (two buffers of the message's
 * span) comes from `scratch` (may be NULL).  Returns an MPI error code. */
int logp_coll_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, int tag,
                     const logp_view_t *v, logp_scratch_t *scratch);

#endif
