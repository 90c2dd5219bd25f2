/* Scratch buffers and local copies for any datatype (PMPI only). */
#ifndef LOGP_COLL_BUFFER_H
#define LOGP_COLL_BUFFER_H

#include <mpi.h>
#include <stddef.h>

/* Tags of our traffic.  A private communicator serves every application
 * communicator of the same group, each with a tag of its own from
 * LOGP_TAG_FIRST on (collectives on one communicator are sequential, so
 * one tag per communicator keeps them apart). */
#define LOGP_TAG_FIRST 1000

typedef struct logp_buffer {
    void *mem;  /* what malloc returned */
    void *base; /* buffer address to pass to MPI (mem - true_lb) */
} logp_buffer_t;

/* Bytes needed for `count` elements of `dt` as MPI lays them out (true
 * extent, negative lower bounds included). */
size_t logp_buffer_span(int count, MPI_Datatype dt);

/* Allocates room for `count` elements of `dt` laid out as MPI lays them out.
 * MPI_SUCCESS or MPI_ERR_NO_MEM. */
int logp_buffer_alloc(logp_buffer_t *b, int count, MPI_Datatype dt);

/* Address to pass to MPI for a buffer of `dt` elements placed at `mem`. */
void *logp_buffer_base(void *mem, MPI_Datatype dt);

/* Frees a buffer; safe on a zeroed one. */
void logp_buffer_free(logp_buffer_t *b);

/* Reusable staging memory, one region per process.  Reusing one region
 * keeps its address stable across calls, which MPICH/UCX's registration
 * caches reward (fresh 256 KiB buffers per call cost ~20x on shared
 * memory). */
typedef struct logp_scratch {
    void *mem;
    size_t size;
    int busy; /* handed out and not yet released (atomic: threads share it) */
} logp_scratch_t;

/* Largest staging region kept between calls (per process): larger ones
 * are allocated for the call and freed after it. */
#define LOGP_SCRATCH_KEEP ((size_t)16 << 20)

/* `bytes` of staging memory: the region (grown as needed) when s is not
 * NULL, not in use by another thread and bytes <= LOGP_SCRATCH_KEEP; else
 * a fresh allocation.  Release with logp_scratch_put.  NULL if out of
 * memory. */
void *logp_scratch_get(logp_scratch_t *s, size_t bytes);

/* Gives back what logp_scratch_get returned. */
void logp_scratch_put(logp_scratch_t *s, void *p);

/* Frees the region (not while it is handed out). */
void logp_scratch_free(logp_scratch_t *s);

/* Copies `count` elements of `st` at src into `rcount` elements of `rt` at
 * dst (same type signature), through `comm` (a private communicator: a
 * message to self with `tag`; memcpy when both layouts are contiguous and
 * alike).
 * Returns an MPI error code. */
int logp_buffer_copy(const void *src, int scount, MPI_Datatype st, void *dst, int rcount, MPI_Datatype rt,
                     MPI_Comm comm, int tag);

/* Completes the n requests of req (every one, even after an error, so no
 * peer is left waiting on them); returns rc if it is an error, else the
 * first error of a wait, else MPI_SUCCESS. */
int logp_buffer_wait_all(int n, MPI_Request *req, int rc);

#endif
