/* Warming the MPI library's eager path between ranks of one node before
 * trials time anything on it. */
#ifndef LOGP_COLL_WARM_H
#define LOGP_COLL_WARM_H

#include <mpi.h>

/* Bytes of each warming message: UCX's shared-memory FIFO element (its
 * default UCX_MM_SEG_SIZE), the largest message MPICH sends eagerly
 * through it, so that each message touches a whole element. */
#define LOGP_WARM_BYTES 8192

/* Sends `messages` messages of LOGP_WARM_BYTES to rank `next` of `comm`
 * and receives as many from rank `prev`, one pair at a time, on `tag`.
 * Every rank of the ring must call it with the same count and tag.  A
 * fresh process's first eager messages through a shared-memory FIFO are
 * 10 - 70x slower than later ones, as many messages as the FIFO has
 * elements (UCX: 64; docs/results/fresh/README.md, "The cold phase is
 * UCX's shared-memory FIFO"), whatever sends them; warmed here once, a
 * trial's blocks time candidates as they run later.  Returns the MPI
 * error code of the first operation that failed (its remaining messages
 * still move, so that no peer waits), MPI_SUCCESS otherwise. */
int logp_coll_warm(MPI_Comm comm, int next, int prev, int messages, int tag);

#endif
