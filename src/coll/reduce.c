/* Tree reduce executor.  Schedules: binomial (seed 002), logp-tree (the
 * optimal summation tree of seed 000, cost T*(P; L + m gamma, o, g)),
 * chain, chain-opt, chain-adaptive (seed 001), layout trees.  Every rank
 * keeps an accumulator that covers a contiguous range of ranks; results
 * from children are put before it (PREPEND) or after it (APPEND) as the
 * schedule says, so the combination order is the rank order
 * (non-commutative operators).  After an error a rank still does the rest
 * of its part (its parent gets what it has), so no peer waits forever;
 * the first error is returned. */
#include "reduce.h"

#include "buffer.h"

int logp_coll_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, int tag,
                     const logp_view_t *v, logp_scratch_t *scratch)
{
    int rc, commute = v->commutative; /* the view was made for this operator */
    const void *own = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    size_t span = (logp_buffer_span(count, dt) + 63) & ~(size_t)63;
    char *mem = logp_scratch_get(scratch, 2 * span);
    if (mem == NULL)
        return MPI_ERR_NO_MEM;
    void *acc = logp_buffer_base(mem, dt), *tmp = logp_buffer_base(mem + span, dt);
    rc = MPI_SUCCESS;
    for (int i = 0; i < v->nops; i++) {
        logp_op_t o = logp_view_op(v, i);
        int r = MPI_SUCCESS;
        switch (o.kind) {
        case LOGP_OP_INIT_OWN:
            r = logp_buffer_copy(own, count, dt, acc, count, dt, comm, tag);
            break;
        case LOGP_OP_REDUCE_OWN:
            r = PMPI_Reduce_local(own, acc, count, dt, op); /* acc = own op acc */
            break;
        case LOGP_OP_RECV:
            r = PMPI_Recv(o.arg == LOGP_RECV_RESULT ? recvbuf : acc, count, dt, o.peer, tag, comm,
                          MPI_STATUS_IGNORE);
            break;
        case LOGP_OP_RECV_REDUCE:
            r = PMPI_Recv(tmp, count, dt, o.peer, tag, comm, MPI_STATUS_IGNORE);
            if (r != MPI_SUCCESS || rc != MPI_SUCCESS)
                break; /* nothing sound to combine */
            if (commute || o.arg == LOGP_SIDE_PREPEND) {
                r = PMPI_Reduce_local(tmp, acc, count, dt, op); /* acc = in op acc */
            } else {
                r = PMPI_Reduce_local(acc, tmp, count, dt, op); /* in = acc op in */
                void *swap = acc;
                acc = tmp;
                tmp = swap;
            }
            break;
        case LOGP_OP_SEND:
            r = PMPI_Send(acc, count, dt, o.peer, tag, comm);
            break;
        }
        if (rc == MPI_SUCCESS)
            rc = r;
    }
    if (rc == MPI_SUCCESS && v->rank == v->root && v->tree_root == v->root)
        rc = logp_buffer_copy(acc, count, dt, recvbuf, count, dt, comm, tag);
    logp_scratch_put(scratch, mem);
    return rc;
}
