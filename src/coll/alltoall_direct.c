/* Direct all-to-all executor: each message is the one block of its peer.
 * Ring ("circle", seed 004 section 2.1): n - 1 phases; in phase k rank i
 * sends its block for (i + k) mod n and receives the block of (i - k) mod
 * n.  LogGP cost: what sim.c computes for the operations, about
 * (n - 1)(2o + L + (m-1)G) with one exchange per phase; the seed prints
 * (n-1) n [max(2o, g) + L - g].  Blocks go straight from the user's
 * buffers (any datatype, no packing: one message per destination). */
#include "alltoall_direct.h"

#include "buffer.h"
#include "drain.h"

/* Completes the requests in flight (is_recv[i]: req[i] receives rcount
 * elements of rtype, and a short message is an error: a peer that passed
 * another count, or that could not stage its data, logp_coll_drain); the
 * first error wins. */
static int logp_direct_flush(MPI_Request *req, const char *is_recv, int *n, int rcount, MPI_Datatype rtype, int rc)
{
    rc = logp_buffer_wait_got(*n, req, is_recv, rcount, rtype, rc);
    *n = 0;
    return rc;
}

int logp_coll_alltoall_direct(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                              MPI_Datatype rtype, MPI_Comm comm, int tag, const logp_view_t *v, logp_scratch_t *scratch)
{
    int rank = v->rank, P = v->s->P, rc = MPI_SUCCESS;
    MPI_Aint lb, sext, rext;
    void *saved = NULL;
    if (sendbuf == MPI_IN_PLACE) {
        /* a phase may overwrite a block that a later phase sends */
        saved = logp_scratch_get(scratch, logp_buffer_span(rcount * P, rtype));
        if (saved == NULL) /* nothing sound to send: the messages still move, so no peer waits */
            return logp_coll_drain(v, comm, tag, MPI_ERR_NO_MEM);
        sendbuf = logp_buffer_base(saved, rcount * P, rtype);
        rc = logp_buffer_copy(recvbuf, rcount * P, rtype, (void *)sendbuf, rcount * P, rtype, comm, tag);
        scount = rcount;
        stype = rtype;
    }
    PMPI_Type_get_extent(stype, &lb, &sext);
    PMPI_Type_get_extent(rtype, &lb, &rext);
    const char *sb = sendbuf;
    char *rb = recvbuf;
    if (rc == MPI_SUCCESS)
        rc = logp_buffer_copy(sb + (MPI_Aint)rank * scount * sext, scount, stype, rb + (MPI_Aint)rank * rcount * rext,
                              rcount, rtype, comm, tag);
    MPI_Request req[LOGP_DIRECT_WINDOW];
    char is_recv[LOGP_DIRECT_WINDOW];
    int nreq = 0, phase = -1, sound = rc == MPI_SUCCESS; /* the blocks to send are what they should be */
    /* every operation is started even after an error: no peer waits forever */
    for (int i = 0; i < v->nops; i++) {
        logp_op_t op = logp_view_op(v, i);
        if (op.arg != phase || nreq == LOGP_DIRECT_WINDOW) {
            rc = logp_direct_flush(req, is_recv, &nreq, rcount, rtype, rc);
            phase = op.arg;
        }
        int r;
        if (op.kind == LOGP_OP_SEND) {
            r = sound ? PMPI_Isend(sb + (MPI_Aint)op.peer * scount * sext, scount, stype, op.peer, tag, comm, &req[nreq])
                      : MPI_ERR_OTHER;
            if (r != MPI_SUCCESS) { /* an empty message: the peer reports a short one instead of waiting */
                rc = rc == MPI_SUCCESS ? r : rc;
                r = PMPI_Isend(sb, 0, MPI_BYTE, op.peer, tag, comm, &req[nreq]);
            }
        } else
            r = PMPI_Irecv(rb + (MPI_Aint)op.peer * rcount * rext, rcount, rtype, op.peer, tag, comm,
                           &req[nreq]);
        if (r == MPI_SUCCESS)
            is_recv[nreq++] = op.kind != LOGP_OP_SEND;
        else if (rc == MPI_SUCCESS)
            rc = r;
    }
    rc = logp_direct_flush(req, is_recv, &nreq, rcount, rtype, rc); /* complete what was started, even after an error */
    if (saved)
        logp_scratch_put(scratch, saved);
    return rc;
}
