/* Tree broadcast executor.  The tree is the schedule's (binomial: seed 002;
 * logp-tree: seed 000; flat; layout trees); its LogGP cost is what sim.c
 * computes for the same operations.  Sends to children are nonblocking so that a large message to
 * one child does not hold back the next (LogP: the sender only pays o and g). */
#include "bcast.h"

#include <stdlib.h>

#include "buffer.h"

int logp_coll_bcast(void *buf, int count, MPI_Datatype dt, MPI_Comm comm, const logp_view_t *v)
{
    int rc = MPI_SUCCESS, nreq = 0, n = v->nops;
    MPI_Request fixed[16], *req = n <= 16 ? fixed : malloc(sizeof(MPI_Request) * (size_t)n);
    if (req == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        logp_op_t op = logp_view_op(v, i);
        if (op.kind == LOGP_OP_RECV)
            rc = PMPI_Recv(buf, count, dt, op.peer, LOGP_TAG_BCAST, comm, MPI_STATUS_IGNORE);
        else if (op.kind == LOGP_OP_SEND)
            rc = PMPI_Isend(buf, count, dt, op.peer, LOGP_TAG_BCAST, comm, &req[nreq++]);
    }
    for (int i = 0; i < nreq; i++) { /* complete every send even after an error */
        int wrc = PMPI_Wait(&req[i], MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    if (req != fixed)
        free(req);
    return rc;
}
