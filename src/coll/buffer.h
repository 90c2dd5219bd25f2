/* Scratch buffers and local copies for any datatype (PMPI only). */
#ifndef LOGP_COLL_BUFFER_H
#define LOGP_COLL_BUFFER_H

#include <mpi.h>

/* Message tags on the private communicator, one per collective. */
#define LOGP_TAG_BCAST 101
#define LOGP_TAG_REDUCE 102
#define LOGP_TAG_ALLTOALL 103
#define LOGP_TAG_COPY 104

typedef struct logp_buffer {
    void *mem;  /* what malloc returned */
    void *base; /* buffer address to pass to MPI (mem - true_lb) */
} logp_buffer_t;

/* Allocates room for `count` elements of `dt` laid out as MPI lays them out
 * (true extent, negative lower bounds included).  MPI_SUCCESS or
 * MPI_ERR_NO_MEM. */
int logp_buffer_alloc(logp_buffer_t *b, int count, MPI_Datatype dt);

/* Frees a buffer; safe on a zeroed one. */
void logp_buffer_free(logp_buffer_t *b);

/* Copies `count` elements of `st` at src into `rcount` elements of `rt` at
 * dst (same type signature), through `comm` (a private communicator: a
 * message to self; memcpy when both layouts are contiguous and alike).
 * Returns an MPI error code. */
int logp_buffer_copy(const void *src, int scount, MPI_Datatype st, void *dst, int rcount, MPI_Datatype rt,
                     MPI_Comm comm);

#endif
