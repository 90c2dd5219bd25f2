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

/* An alltoallv's per-rank arrays as the application passed them: int
 * counts and displacements, or (large, MPI_Alltoallv_c) MPI_Count counts
 * and MPI_Aint displacements; the send side's are ignored in place. */
typedef struct logp_alltoallv {
    const void *sendcounts, *sdispls, *recvcounts, *rdispls;
    int large;
} logp_alltoallv_t;

/* Block j's count and displacement on the send side (send != 0) or the
 * receive side, read as the entry point passed them. */
static inline MPI_Count logp_alltoallv_count(const logp_alltoallv_t *a, int send, int j)
{
    const void *c = send ? a->sendcounts : a->recvcounts;
    return a->large ? ((const MPI_Count *)c)[j] : ((const int *)c)[j];
}

static inline MPI_Aint logp_alltoallv_displ(const logp_alltoallv_t *a, int send, int j)
{
    const void *d = send ? a->sdispls : a->rdispls;
    return a->large ? ((const MPI_Aint *)d)[j] : ((const int *)d)[j];
}

/* MPI_Alltoallv semantics on the private communicator `comm` with the
 * operations `v` of a direct schedule (built for the rank's own class: the
 * peers' schedules may be other direct ones, which mix; see the .c file).
 * sendbuf may be MPI_IN_PLACE (the bytes the receive blocks cover are first
 * copied aside).  An empty block moves no message at either end (as in
 * MPICH's), so a rank with nothing to exchange waits for nobody.  A short
 * message (a peer with another count) is an error, as for the all-to-all.
 * Returns an MPI error code. */
int logp_coll_alltoallv_direct(const void *sendbuf, MPI_Datatype stype, void *recvbuf, MPI_Datatype rtype,
                               const logp_alltoallv_t *a, MPI_Comm comm, int tag, const logp_view_t *v,
                               logp_scratch_t *scratch);

/* Requests a direct all-to-all keeps in flight: a whole phase of the
 * widest linear window (2 LOGP_LINEAR_WINDOW_MAX operations), so that a
 * phase is always posted whole before it is waited on. */
#define LOGP_DIRECT_WINDOW 64

#endif
