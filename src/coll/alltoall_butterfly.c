/* Butterfly all-to-all with structured (packed) exchange: seed 004 sections
 * 2.2 and 3, in the Bruck index form that works for every n: ceil(log2 n)
 * phases; phase s sends, as one packed message, every block whose rotated
 * index has bit s set to rank i + 2^s (for n a power of two: log2 n phases
 * of n/2 blocks, as the seed's butterfly).  LogGP cost: what sim.c computes
 * for the operations, about ceil(log2 n) (2o + L + (n m / 2 - 1) G): fewer
 * messages than the ring, more bytes moved.
 *
 * Steps: pack block (i + j) mod n of the send buffer into slot j; in each
 * phase copy the slots with bit s set into one message, exchange, copy
 * back; finally slot j holds the block from (i - j) mod n, unpacked into
 * the receive buffer with the receive datatype. */
#include "alltoall_butterfly.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../model/alltoall.h"
#include "buffer.h"
#include "drain.h"

int logp_coll_alltoall_butterfly(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm, int tag, const logp_view_t *v,
                                 logp_scratch_t *scratch)
{
    int rank = v->rank, P = v->s->P, rsize, rc = MPI_SUCCESS;
    MPI_Aint lb, sext, rext;
    if (sendbuf == MPI_IN_PLACE) { /* everything is packed aside before anything is written */
        sendbuf = recvbuf;
        scount = rcount;
        stype = rtype;
    }
    PMPI_Type_size(rtype, &rsize);
    PMPI_Type_get_extent(stype, &lb, &sext);
    PMPI_Type_get_extent(rtype, &lb, &rext);
    size_t blk = (size_t)rsize * (size_t)rcount, half = (size_t)(P + 1) / 2;
    char *slots = logp_scratch_get(scratch, blk * ((size_t)P + 2 * half) + 1);
    char *out = slots ? slots + blk * (size_t)P : NULL, *in = out ? out + blk * half : NULL;
    MPI_Datatype block = MPI_DATATYPE_NULL; /* blk bytes: keeps counts within int */
    if (!slots) /* the messages still move, so no peer waits */
        return logp_coll_drain(v, comm, tag, MPI_ERR_NO_MEM);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_contiguous((int)blk, MPI_BYTE, &block);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_commit(&block);
    if (rc != MPI_SUCCESS) { /* no type for the messages: drained as they are */
        logp_scratch_put(scratch, slots);
        return logp_coll_drain(v, comm, tag, rc);
    }
    for (int j = 0; j < P && rc == MPI_SUCCESS; j++) {
        int pos = 0;
        const char *src = (const char *)sendbuf + (MPI_Aint)((rank + j) % P) * scount * sext;
        rc = PMPI_Pack(src, scount, stype, slots + (size_t)j * blk, (int)blk, &pos, comm);
    }
    for (int i = 0; i + 1 < v->nops; i += 2) { /* every step, even after an error: no peer waits forever */
        logp_op_t s = logp_view_op(v, i), r = logp_view_op(v, i + 1);
        int bit = 1 << s.arg, nb = 0;
        for (int j = bit; j < P; j++)
            if (j & bit)
                memcpy(out + (size_t)nb++ * blk, slots + (size_t)j * blk, blk);
        /* plain bytes when the count fits an int: MPICH moves MPI_BYTE
         * faster than a contiguous derived type of the same size */
        size_t bytes = (size_t)nb * blk;
        int fits = bytes <= (size_t)INT_MAX, len = fits ? (int)bytes : nb;
        MPI_Datatype unit = fits ? MPI_BYTE : block;
        MPI_Status status;
        /* after an error an empty message: the receiver, and the ranks it
         * forwards to, report it instead of passing on wrong blocks */
        int x = PMPI_Sendrecv(out, rc == MPI_SUCCESS ? len : 0, unit, s.peer, tag, in, len, unit, r.peer, tag, comm,
                              &status);
        x = logp_buffer_got(x, &status, unit, len);
        rc = rc == MPI_SUCCESS ? x : rc;
        nb = 0;
        for (int j = bit; j < P && rc == MPI_SUCCESS; j++)
            if (j & bit)
                memcpy(slots + (size_t)j * blk, in + (size_t)nb++ * blk, blk);
    }
    for (int j = 0; j < P && rc == MPI_SUCCESS; j++) {
        int pos = 0;
        char *dst = (char *)recvbuf + (MPI_Aint)((rank - j + P) % P) * rcount * rext;
        rc = PMPI_Unpack(slots + (size_t)j * blk, (int)blk, &pos, dst, rcount, rtype, comm);
    }
    if (block != MPI_DATATYPE_NULL)
        PMPI_Type_free(&block);
    logp_scratch_put(scratch, slots);
    return rc;
}
