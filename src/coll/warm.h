/* Warming the MPI library's eager path between ranks of one node before
 * trials time anything on it. */
#ifndef LOGP_COLL_WARM_H
#define LOGP_COLL_WARM_H

#include <mpi.h>
#include <stddef.h>

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

/* Largest block LOGP_WARM_ALLOCATOR lets the C library keep for reuse
 * once freed: just under glibc's cap on its dynamic mmap threshold
 * (32 MiB on 64-bit), so that the threshold follows it. */
#define LOGP_WARM_ALLOCATOR (((size_t)32 << 20) - ((size_t)64 << 10))

/* Allocates and frees one block of `bytes` (untouched: no page is
 * faulted in).  glibc then serves later blocks up to that size from its
 * heap and keeps up to twice as much freed memory there, as it does
 * after any program's first free of so large a block: MPICH's reduce,
 * which allocates and frees its temporary buffers at every call, then
 * reuses pages instead of mapping and faulting them in anew (1 MiB at
 * n = 2 here: 4.7 ms a call in a process that never freed a large block,
 * 0.23 ms after; docs/results/fresh/README.md, "Warming the allocator").
 * Once per process, before any collective, so that native runs alike in
 * trials and after them, whatever the shim's own buffers did between.
 * Other allocators: one malloc and free. */
void logp_coll_warm_allocator(size_t bytes);

#endif
