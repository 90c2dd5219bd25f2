/* Bruck's all-to-all for MPI_Alltoallv: variable blocks in packed
 * messages that carry their own lengths. */
#ifndef LOGP_COLL_ALLTOALLV_BRUCK_H
#define LOGP_COLL_ALLTOALLV_BRUCK_H

#include <stddef.h>

#include <mpi.h>

#include "../model/sched.h"
#include "alltoall_direct.h"
#include "buffer.h"

/* Largest block, over the receive buffer's means, that the executor
 * stages: a call whose largest block (of any rank) passes this many times
 * the largest rank's mean block is too skewed to stage P slots of it. */
#define LOGP_BRUCKV_SKEW 4

/* Nonzero if a Bruck alltoallv on P ranks can stage a call whose largest
 * block is `most` bytes and whose largest mean block is `mean` bytes (both
 * over every rank: agreed, so every rank answers alike): the skew bound
 * above, P slots of `most` within the staging kept between calls
 * (LOGP_SCRATCH_KEEP; the staging is about twice that), and every message
 * within an int count of bytes. */
int logp_coll_alltoallv_bruck_fits(int P, size_t most, size_t mean);

/* MPI_Alltoallv semantics on the private communicator `comm` (sendbuf may
 * be MPI_IN_PLACE), running this rank's operations `v` of a
 * LOGP_FAMILY_A2A_BRUCK schedule (radix v->s->k).  `most`: the largest
 * block of the call in bytes over every rank (the ranks agreed on it), for
 * which logp_coll_alltoallv_bruck_fits holds.  Every rank must run it (the
 * ranks agreed on the schedule).  Staging: P slots of `most` bytes and two
 * areas for one digit's messages.  Returns an MPI error code. */
int logp_coll_alltoallv_bruck(const void *sendbuf, MPI_Datatype stype, void *recvbuf, MPI_Datatype rtype,
                              const logp_alltoallv_t *a, size_t most, MPI_Comm comm, int tag, const logp_view_t *v,
                              logp_scratch_t *scratch);

#endif
