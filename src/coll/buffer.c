/* Scratch buffers laid out like the user's, and typed local copies. */
#include "buffer.h"

#include <stdlib.h>
#include <string.h>

int logp_buffer_alloc(logp_buffer_t *b, int count, MPI_Datatype dt)
{
    MPI_Aint lb, extent, tlb, textent;
    b->mem = b->base = NULL;
    PMPI_Type_get_extent(dt, &lb, &extent);
    PMPI_Type_get_true_extent(dt, &tlb, &textent);
    size_t span = count > 0 ? (size_t)textent + (size_t)(count - 1) * (size_t)(extent < 0 ? -extent : extent) : 1;
    b->mem = malloc(span > 0 ? span : 1);
    if (b->mem == NULL)
        return MPI_ERR_NO_MEM;
    b->base = (char *)b->mem - tlb;
    return MPI_SUCCESS;
}

void logp_buffer_free(logp_buffer_t *b)
{
    free(b->mem);
    b->mem = b->base = NULL;
}

/* Nonzero if `count` elements of dt occupy exactly count * size contiguous
 * bytes starting at the buffer address. */
static int logp_buffer_contiguous(int count, MPI_Datatype dt, size_t *bytes)
{
    MPI_Aint lb, extent, tlb, textent;
    int size;
    PMPI_Type_size(dt, &size);
    PMPI_Type_get_extent(dt, &lb, &extent);
    PMPI_Type_get_true_extent(dt, &tlb, &textent);
    *bytes = (size_t)size * (size_t)count;
    return tlb == 0 && textent == size && extent == size;
}

int logp_buffer_copy(const void *src, int scount, MPI_Datatype st, void *dst, int rcount, MPI_Datatype rt,
                     MPI_Comm comm)
{
    size_t sb, rb;
    if (src == dst && st == rt && scount == rcount)
        return MPI_SUCCESS;
    if (logp_buffer_contiguous(scount, st, &sb) && logp_buffer_contiguous(rcount, rt, &rb) && sb == rb) {
        memmove(dst, src, sb);
        return MPI_SUCCESS;
    }
    int me;
    PMPI_Comm_rank(comm, &me);
    return PMPI_Sendrecv(src, scount, st, me, LOGP_TAG_COPY, dst, rcount, rt, me, LOGP_TAG_COPY, comm,
                         MPI_STATUS_IGNORE);
}
