/* All-to-all executor for schedules whose every message is one block
 * (LOGP_FAMILY_A2A_DIRECT: the ring of seed 004). */
#ifndef LOGP_COLL_ALLTOALL_DIRECT_H
#define LOGP_COLL_ALLTOALL_DIRECT_H

#include <mpi.h>

#include "../model/sched.h"
#include "buffer.h"

/* MPI_Alltoall semantics on the private communicator `comm` (sendbuf may be
 * MPI_IN_PLACE: then the blocks are first copied aside, one receive
 * buffer's worth of memory).  Runs this rank's operations `v`: a send
 * carries the block for its peer, a receive the block from it; the
 * operations of one phase (same arg) are in flight together, at most
 * LOGP_DIRECT_WINDOW at a time, so large blocks cannot deadlock.  Returns
 * an MPI error code. */
int logp_coll_alltoall_direct(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                              MPI_Datatype rtype, MPI_Comm comm, int tag, const logp_view_t *v, logp_scratch_t *scratch);

/* Requests a direct all-to-all keeps in flight. */
#define LOGP_DIRECT_WINDOW 64

#endif
