/* Bruck's index algorithm (Bruck et al. 1997; seed 004's butterfly in
 * radix 2) for MPI_Alltoallv, whose blocks differ in size and whose sizes
 * only their senders know.  The steps are the uniform all-to-all's
 * (alltoall_butterfly.c): slot j starts with the block for rank + j; digit
 * s of weight w = r^s sends, per digit value d, every slot whose index has
 * digit s equal to d to rank + d w, in one message; after the last digit
 * slot j holds the block from rank - j.  A message here is the lengths of
 * its slots (one int each), then their bytes back to back: no padding
 * moves, and a receiver learns what it forwards.  Slots are staged at the
 * stride of the call's largest block (agreed by the ranks before the call,
 * shim.c), so a receive is posted before its message arrives.
 *
 * LogGP cost: the uniform Bruck's at the mean block, ceil(log_r n) rounds
 * of r - 1 messages of about n m / r bytes (plus 4 bytes a slot), against
 * the direct exchanges' n - 1 messages: it wins where the overhead of a
 * message outweighs moving blocks log_r n / r times over (small blocks,
 * large n).  The agreement costs one small allreduce per call, which the
 * shim's gate prices (shim/decide.c). */
#include "alltoallv_bruck.h"

#include <limits.h>
#include <string.h>

#include "../model/alltoall_pattern.h"
#include "../model/sched_alltoall.h" /* LOGP_BRUCK_RADIX_MAX */
#include "alltoall_butterfly.h"   /* logp_bruck_digit */
#include "drain.h"
#include "engine.h"

/* Most slots one digit's messages carry together, for P ranks in radix r. */
static size_t logp_bruckv_most_moved(int P, int r)
{
    size_t most = 0;
    for (long w = 1; w < P; w *= r) {
        size_t moved = (size_t)(P - logp_bruck_nblocks(P, w, r, 0));
        most = moved > most ? moved : most;
    }
    return most;
}

int logp_coll_alltoallv_bruck_fits(int P, size_t most, size_t mean)
{
    if (P < 1 || most > (size_t)LOGP_BRUCKV_SKEW * mean + 64 || most > LOGP_SCRATCH_KEEP / (size_t)P)
        return 0;
    /* the largest message: P - 1 slots (radix 2 moves about P / 2) */
    return most <= ((size_t)INT_MAX - (size_t)P * sizeof(int)) / (size_t)P;
}

/* Writes the message of digit value d at weight w from the slots into
 * `area`: the carried slots' lengths, then their bytes.  Its size. */
static size_t logp_bruckv_pack(const char *slots, const int *len, size_t blk, int P, long w, int r, int d,
                               char *area)
{
    size_t nb = (size_t)logp_bruck_nblocks(P, w, r, d), at = nb * sizeof(int), k = 0;
    for (long j = (long)d * w; j < P; j++)
        if (logp_bruck_carries(j, w, r, d)) {
            memcpy(area + k++ * sizeof(int), &len[j], sizeof(int));
            memcpy(area + at, slots + (size_t)j * blk, (size_t)len[j]);
            at += (size_t)len[j];
        }
    return at;
}

/* Reads a received message of digit value d at weight w (`got` bytes)
 * into the slots it carries.  MPI_ERR_OTHER if it is not such a message
 * (an empty one: its sender failed, and says so). */
static int logp_bruckv_unpack(char *slots, int *len, size_t blk, int P, long w, int r, int d, const char *area,
                              size_t got)
{
    size_t nb = (size_t)logp_bruck_nblocks(P, w, r, d), at = nb * sizeof(int), k = 0;
    if (got < at)
        return MPI_ERR_OTHER;
    for (long j = (long)d * w; j < P; j++)
        if (logp_bruck_carries(j, w, r, d)) {
            int n;
            memcpy(&n, area + k++ * sizeof(int), sizeof(int));
            if (n < 0 || (size_t)n > blk || (size_t)n > got - at)
                return MPI_ERR_OTHER;
            memcpy(slots + (size_t)j * blk, area + at, (size_t)n);
            len[j] = n;
            at += (size_t)n;
        }
    return at == got ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/* Block j's count and address on the send side (send != 0, not in place)
 * or the receive side. */
static char *logp_bruckv_block(const logp_alltoallv_t *a, int send, const void *buf, MPI_Aint ext, int j,
                               MPI_Count *count)
{
    *count = logp_alltoallv_count(a, send, j);
    return (char *)buf + logp_alltoallv_displ(a, send, j) * ext;
}

int logp_coll_alltoallv_bruck(const void *sendbuf, MPI_Datatype stype, void *recvbuf, MPI_Datatype rtype,
                              const logp_alltoallv_t *a, size_t most, MPI_Comm comm, int tag, const logp_view_t *v,
                              logp_scratch_t *scratch)
{
    int rank = v->rank, P = v->s->P, r = v->s->k >= 2 ? v->s->k : 2, rc = MPI_SUCCESS;
    int sends = sendbuf != MPI_IN_PLACE; /* in place: the blocks to send are the receive side's */
    MPI_Aint lb, sext, rext;
    if (!sends) {
        sendbuf = recvbuf;
        stype = rtype;
    }
    PMPI_Type_get_extent(stype, &lb, &sext);
    PMPI_Type_get_extent(rtype, &lb, &rext);
    size_t blk = most, moved = logp_bruckv_most_moved(P, r), unit = sizeof(int) + blk;
    size_t head = ((size_t)P * sizeof(int) + 15) & ~(size_t)15; /* the slots' lengths, then the slots */
    char *mem = logp_scratch_get(scratch, head + blk * (size_t)P + 2 * moved * unit);
    if (!mem) /* the messages still move (empty), so no peer waits */
        return logp_coll_drain(v, comm, tag, MPI_ERR_NO_MEM);
    int *len = (int *)(void *)mem;
    char *slots = mem + head, *out = slots + blk * (size_t)P, *in = out + moved * unit;
    /* everything is packed aside before anything is written (in place) */
    for (int j = 0; j < P; j++) {
        int peer = (rank + j) % P, pos = 0;
        MPI_Count n;
        const char *src = logp_bruckv_block(a, sends, sendbuf, sext, peer, &n);
        len[j] = 0;
        if (rc == MPI_SUCCESS && n > INT_MAX)
            rc = MPI_ERR_COUNT;
        if (rc == MPI_SUCCESS && n > 0)
            rc = logp_buffer_pack(src, (int)n, stype, slots + (size_t)j * blk, (int)blk, &pos, comm, tag);
        len[j] = pos;
    }
    /* every digit, even after an error: no peer waits forever; after an
     * error the messages are empty, so the receivers report it too */
    long w = 1;
    for (int i = 0, digit = 0; i < v->nops; digit++, w *= r) {
        MPI_Request req[2 * LOGP_BRUCK_RADIX_MAX];
        logp_bruck_msg_t msg[2 * LOGP_BRUCK_RADIX_MAX];
        int n = logp_bruck_digit(v, i, digit, w, msg);
        char *area[2 * LOGP_BRUCK_RADIX_MAX];
        size_t at[2] = {0, 0}; /* bytes used in `out`, in `in` */
        for (int k = 0; k < n; k++) {
            int send = msg[k].send, x;
            size_t cap = (size_t)logp_bruck_nblocks(P, w, r, msg[k].d) * unit;
            area[k] = (send ? out : in) + at[send];
            at[send] += cap;
            if (send) {
                size_t bytes = rc == MPI_SUCCESS ? logp_bruckv_pack(slots, len, blk, P, w, r, msg[k].d, area[k]) : 0;
                x = PMPI_Isend(area[k], (int)bytes, MPI_BYTE, msg[k].peer, tag, comm, &req[k]);
            } else {
                x = PMPI_Irecv(area[k], (int)cap, MPI_BYTE, msg[k].peer, tag, comm, &req[k]);
            }
            if (x != MPI_SUCCESS) {
                req[k] = MPI_REQUEST_NULL;
                rc = rc == MPI_SUCCESS ? x : rc;
                if (send) /* an empty message tells the receiver */
                    PMPI_Isend(area[k], 0, MPI_BYTE, msg[k].peer, tag, comm, &req[k]);
            }
        }
        for (int k = 0; k < n; k++) {
            MPI_Status status;
            int x = logp_engine_wait(&req[k], &status), got = 0;
            if (!msg[k].send && x == MPI_SUCCESS && rc == MPI_SUCCESS) { /* a receive */
                x = PMPI_Get_count(&status, MPI_BYTE, &got);
                if (x == MPI_SUCCESS)
                    x = logp_bruckv_unpack(slots, len, blk, P, w, r, msg[k].d, area[k], (size_t)got);
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
        int from = (rank - j + P) % P, pos = 0, size;
        MPI_Count n;
        char *dst = logp_bruckv_block(a, 0, recvbuf, rext, from, &n);
        PMPI_Type_size(rtype, &size);
        if ((MPI_Count)len[j] != n * size) /* the ranks passed counts that do not match */
            rc = (MPI_Count)len[j] > n * size ? MPI_ERR_TRUNCATE : MPI_ERR_OTHER;
        else if (n > 0)
            rc = logp_buffer_unpack(slots + (size_t)j * blk, len[j], &pos, dst, (int)n, rtype, comm, tag);
    }
    logp_scratch_put(scratch, mem);
    return rc;
}
