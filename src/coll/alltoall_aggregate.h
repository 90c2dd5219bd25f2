/* Node-aggregated all-to-all (seed 003: combine the messages bound for
 * one processor).  Executor of LOGP_ALGO_NODE_AGGREGATE plans. */
#ifndef LOGP_COLL_ALLTOALL_AGGREGATE_H
#define LOGP_COLL_ALLTOALL_AGGREGATE_H

#include <mpi.h>

#include "../model/plan.h"
#include "buffer.h"

/* MPI_Alltoall semantics (MPI_IN_PLACE allowed) over the plan's layout:
 * every member sends its P blocks to its node's leader; leaders exchange
 * one message per node pair around a ring of nodes; leaders send every
 * member its P blocks.  Falls back to the ring executor (on every rank
 * alike) when a message would exceed INT_MAX bytes.  Returns an MPI error
 * code. */
int logp_coll_alltoall_aggregate(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm, const logp_plan_t *plan,
                                 logp_scratch_t *scratch);

#endif
