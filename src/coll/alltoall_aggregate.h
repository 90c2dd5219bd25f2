/* Node-aggregated all-to-all (seed 003: combine the messages bound for
 * one processor).  Executor of LOGP_FAMILY_A2A_NODES schedules. */
#ifndef LOGP_COLL_ALLTOALL_AGGREGATE_H
#define LOGP_COLL_ALLTOALL_AGGREGATE_H

#include <mpi.h>

#include "../model/sched.h"
#include "buffer.h"

/* MPI_Alltoall semantics (MPI_IN_PLACE allowed), running this rank's
 * operations `v` over the schedule's layout: a member sends its P blocks
 * to its node's leader and gets its row back; a leader gathers its
 * members' blocks, exchanges with each other leader, in the order of its
 * operations, the blocks its node has for that leader's node, and scatters
 * the rows.  Falls back to the ring (on every rank alike) when a message
 * would exceed INT_MAX bytes.  Returns an MPI error code. */
int logp_coll_alltoall_aggregate(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm, int tag, const logp_view_t *v,
                                 logp_scratch_t *scratch);

#endif
