/* Broadcast executor: runs a rank's operations of any bcast schedule
 * (trees: binomial, seed 002; logp-tree, seed 000; flat; layout trees; and
 * the part-wise ones of sched_large.c: scatter-allgather, pipeline); its
 * LogGP cost is what sim.c computes for the same operations.  An operation
 * on parts of the message moves those elements of the user's buffer in
 * place (no staging).  Sends are nonblocking (at most LOGP_SENDQ_WINDOW
 * in flight, no allocation), except that a large one is not in flight
 * beside sends to other peers, as LogGP injects them one after the other
 * (buffer.h); a receive into elements still being sent waits for that
 * send first.
 *
 * After an error a rank still does the rest of its part (a child gets
 * what this rank has), so no peer waits forever; the first error is
 * returned. */
#include "bcast.h"

#include "buffer.h"

int logp_coll_bcast(void *buf, int count, MPI_Datatype dt, MPI_Comm comm, int tag, const logp_view_t *v)
{
    int rc = MPI_SUCCESS;
    MPI_Aint lb, extent;
    int tsize = 0;
    if (PMPI_Type_get_extent(dt, &lb, &extent) != MPI_SUCCESS)
        extent = 0; /* whole-message operations only need the base */
    PMPI_Type_size(dt, &tsize);
    logp_sendq_t q;
    logp_sendq_init(&q);
    for (int i = 0; i < v->nops; i++) {
        logp_op_t op = logp_view_op(v, i);
        int first, len, r = MPI_SUCCESS;
        logp_buffer_part(count, v->s->parts, op.part, op.nparts, &first, &len);
        if (op.kind == LOGP_OP_RECV) {
            r = logp_sendq_wait(&q, buf, first, len);
            int w = PMPI_Recv((char *)buf + (MPI_Aint)first * extent, len, dt, op.peer, tag, comm, MPI_STATUS_IGNORE);
            r = r == MPI_SUCCESS ? w : r;
        } else if (op.kind == LOGP_OP_SEND) {
            r = logp_sendq_post(&q, buf, extent, first, len, (size_t)len * (size_t)tsize, dt, op.peer, tag, comm);
        }
        if (rc == MPI_SUCCESS)
            rc = r;
    }
    int w = logp_sendq_wait(&q, NULL, 0, -1);
    return rc == MPI_SUCCESS ? w : rc;
}
