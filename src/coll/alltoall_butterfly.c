/* Bruck-kind all-to-all executor with structured (packed) exchange: seed
 * 004's butterfly (sections 2.2 and 3) in the Bruck index form that works
 * for every n, and Bruck's algorithm in any radix r (Bruck et al. 1997;
 * the schedule's s->k, 2 for the butterfly).  Digit s (weight w = r^s)
 * sends, as one packed message per digit value d = 1 .. r - 1, every
 * block whose rotated index has digit s equal to d to rank i + d w, all
 * of a digit's messages in flight together.  LogGP cost: what sim.c
 * computes for the operations; radix 2 about ceil(log2 n) (2o + L + (n m /
 * 2 - 1) G): fewer messages than the ring, more bytes moved; radix r
 * ceil(log_r n) rounds of r - 1 messages of about n m / r bytes.
 *
 * Steps: pack block (i + j) mod n of the send buffer into slot j; in each
 * digit copy each message's slots into the send area, exchange, copy the
 * received ones back into the same slots; finally slot j holds the block
 * from (i - j) mod n, unpacked into the receive buffer with the receive
 * datatype. */
#include "alltoall_butterfly.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../model/alltoall_pattern.h"
#include "../model/sched_alltoall.h" /* LOGP_BRUCK_RADIX_MAX */
#include "buffer.h"
#include "drain.h"
#include "engine.h"

/* One packed message of blk-byte slots: plain bytes when its size fits an
 * int (MPICH moves MPI_BYTE faster than a contiguous derived type of the
 * same size), else nb slots of the type `block`. */
static int logp_bruck_unit(size_t nb, size_t blk, MPI_Datatype block, MPI_Datatype *unit)
{
    size_t bytes = nb * blk;
    *unit = bytes <= (size_t)INT_MAX ? MPI_BYTE : block;
    return bytes <= (size_t)INT_MAX ? (int)bytes : (int)nb;
}

/* Copies the slots of digit value d at weight w between the slots and a
 * packed area (to_area: slots -> area). */
static void logp_bruck_copy(char *slots, char *area, int P, long w, int r, int d, size_t blk, int to_area)
{
    size_t nb = 0;
    for (long j = (long)d * w; j < P; j++)
        if (logp_bruck_carries(j, w, r, d)) {
            char *slot = slots + (size_t)j * blk, *at = area + nb++ * blk;
            memcpy(to_area ? at : slot, to_area ? slot : at, blk);
        }
}

int logp_bruck_digit(const logp_view_t *v, int i, int digit, long w, logp_bruck_msg_t *msg)
{
    int n = 0, P = v->s->P;
    for (int pass = 0; pass < 2; pass++) /* receives posted first, then the sends */
        for (int j = i; j < v->nops && n < 2 * LOGP_BRUCK_RADIX_MAX; j++) {
            logp_op_t o = logp_view_op(v, j);
            if (o.arg != digit)
                break;
            int send = o.kind == LOGP_OP_SEND;
            if (send == pass)
                msg[n++] = (logp_bruck_msg_t){o.peer, (int)(((send ? o.peer - v->rank : v->rank - o.peer) + P) % P / w),
                                              send};
        }
    return n;
}

int logp_coll_alltoall_butterfly(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm, int tag, const logp_view_t *v,
                                 logp_scratch_t *scratch)
{
    int rank = v->rank, P = v->s->P, r = v->s->k >= 2 ? v->s->k : 2, rsize, rc = MPI_SUCCESS;
    MPI_Aint lb, sext, rext;
    if (sendbuf == MPI_IN_PLACE) { /* everything is packed aside before anything is written */
        sendbuf = recvbuf;
        scount = rcount;
        stype = rtype;
    }
    PMPI_Type_size(rtype, &rsize);
    PMPI_Type_get_extent(stype, &lb, &sext);
    PMPI_Type_get_extent(rtype, &lb, &rext);
    size_t blk = (size_t)rsize * (size_t)rcount, most = 0; /* slots moved in one digit, at most */
    for (long w = 1; w < P; w *= r) {
        size_t moved = (size_t)(P - logp_bruck_nblocks(P, w, r, 0));
        most = moved > most ? moved : most;
    }
    char *slots = logp_scratch_get(scratch, blk * ((size_t)P + 2 * most));
    char *out = slots ? slots + blk * (size_t)P : NULL, *in = out ? out + blk * most : NULL;
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
        rc = logp_buffer_pack(src, scount, stype, slots + (size_t)j * blk, (int)blk, &pos, comm, tag);
    }
    /* every digit, even after an error: no peer waits forever; after an
     * error the messages are empty, so the receiver, and the ranks it
     * forwards to, report it instead of passing on wrong blocks */
    long w = 1;
    for (int i = 0, digit = 0; i < v->nops; digit++, w *= r) {
        MPI_Request req[2 * LOGP_BRUCK_RADIX_MAX];
        logp_bruck_msg_t msg[2 * LOGP_BRUCK_RADIX_MAX];
        int len[2 * LOGP_BRUCK_RADIX_MAX], n = logp_bruck_digit(v, i, digit, w, msg);
        MPI_Datatype unit[2 * LOGP_BRUCK_RADIX_MAX];
        size_t at[2] = {0, 0}; /* packed slots in `out`, in `in` */
        char *area[2 * LOGP_BRUCK_RADIX_MAX];
        for (int k = 0; k < n; k++) {
            int send = msg[k].send, d = msg[k].d;
            size_t nb = (size_t)logp_bruck_nblocks(P, w, r, d);
            area[k] = (send ? out : in) + at[send] * blk;
            at[send] += nb;
            len[k] = logp_bruck_unit(nb, blk, block, &unit[k]);
            int x = MPI_SUCCESS;
            if (send) {
                logp_bruck_copy(slots, area[k], P, w, r, d, blk, 1);
                x = rc == MPI_SUCCESS ? PMPI_Isend(area[k], len[k], unit[k], msg[k].peer, tag, comm, &req[k]) : rc;
                rc = rc == MPI_SUCCESS ? x : rc;
                if (x != MPI_SUCCESS) /* an empty message tells the receiver */
                    x = PMPI_Isend(area[k], 0, unit[k], msg[k].peer, tag, comm, &req[k]);
            } else {
                x = PMPI_Irecv(area[k], len[k], unit[k], msg[k].peer, tag, comm, &req[k]);
            }
            if (x != MPI_SUCCESS) /* nothing to wait for: a receive's wait reports a short message */
                req[k] = MPI_REQUEST_NULL;
        }
        for (int k = 0; k < n; k++) {
            MPI_Status status;
            int x = logp_engine_wait(&req[k], &status);
            if (!msg[k].send) { /* a receive */
                x = logp_buffer_got(x, &status, unit[k], len[k]);
                if (x == MPI_SUCCESS && rc == MPI_SUCCESS)
                    logp_bruck_copy(slots, area[k], P, w, r, msg[k].d, blk, 0);
            }
            rc = rc == MPI_SUCCESS ? x : rc;
        }
        if (n == 0) { /* not a Bruck schedule's operations: nothing sent or awaited */
            rc = MPI_ERR_INTERN;
            break;
        }
        i += n;
    }
    for (int j = 0; j < P && rc == MPI_SUCCESS; j++) {
        int pos = 0;
        char *dst = (char *)recvbuf + (MPI_Aint)((rank - j + P) % P) * rcount * rext;
        rc = logp_buffer_unpack(slots + (size_t)j * blk, (int)blk, &pos, dst, rcount, rtype, comm, tag);
    }
    if (block != MPI_DATATYPE_NULL)
        PMPI_Type_free(&block);
    logp_scratch_put(scratch, slots);
    return rc;
}
