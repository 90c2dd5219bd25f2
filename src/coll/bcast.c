/* Tree broadcast executor.  The tree is the schedule's (binomial: seed 002;
 * logp-tree: seed 000; flat; layout trees); its LogGP cost is what sim.c
 * computes for the same operations.  Sends to children are nonblocking so
 * that a large message to one child does not hold back the next (LogP:
 * the sender only pays o and g); at most LOGP_BCAST_WINDOW are in flight
 * (no allocation: a root with many children reuses the oldest slot).
 *
 * After an error a rank still does the rest of its part (a child gets
 * what this rank has), so no peer waits forever; the first error is
 * returned. */
#include "bcast.h"

#include "buffer.h"

/* Sends one rank keeps in flight. */
#define LOGP_BCAST_WINDOW 32

int logp_coll_bcast(void *buf, int count, MPI_Datatype dt, MPI_Comm comm, int tag, const logp_view_t *v)
{
    int rc = MPI_SUCCESS, nreq = 0;
    MPI_Request req[LOGP_BCAST_WINDOW];
    for (int i = 0; i < v->nops; i++) {
        logp_op_t op = logp_view_op(v, i);
        int r = MPI_SUCCESS;
        if (op.kind == LOGP_OP_RECV) {
            r = PMPI_Recv(buf, count, dt, op.peer, tag, comm, MPI_STATUS_IGNORE);
        } else if (op.kind == LOGP_OP_SEND) {
            int slot = nreq % LOGP_BCAST_WINDOW;
            if (nreq >= LOGP_BCAST_WINDOW) /* the oldest send frees its slot */
                r = PMPI_Wait(&req[slot], MPI_STATUS_IGNORE);
            int s = PMPI_Isend(buf, count, dt, op.peer, tag, comm, &req[slot]);
            if (s == MPI_SUCCESS)
                nreq++;
            else if (nreq >= LOGP_BCAST_WINDOW) /* the slot holds no request now */
                req[slot] = MPI_REQUEST_NULL;
            r = r == MPI_SUCCESS ? s : r;
        }
        if (rc == MPI_SUCCESS)
            rc = r;
    }
    return logp_buffer_wait_all(nreq < LOGP_BCAST_WINDOW ? nreq : LOGP_BCAST_WINDOW, req, rc);
}
