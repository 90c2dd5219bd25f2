/* Draining a schedule: the fallback of a rank whose executor cannot get
 * staging memory.  Deciding another path alone would leave its peers
 * waiting (they run the agreed schedule); agreeing first would cost a
 * collective on every call.  So the rank keeps the schedule's messages and
 * drops their contents: the error reaches every rank that depends on it,
 * and the call ends everywhere.  Receives go to address NULL with count 0:
 * the libraries end them as truncated (MPICH 4.0 and SMPI 3.32 silently;
 * Open MPI 4.1's shared-memory single-copy path says "Read -1, expected
 * N, errno = 14" on stderr, its copy into NULL refused by the kernel). */
#include "drain.h"
#include "engine.h"

/* Requests in flight at once.  Every send goes out first: empty, it ends
 * without its receiver, so no peer's progress then depends on this rank;
 * the receives follow in operation order, a window at a time, as the
 * executors take them (each pair of ranks still matches its messages in
 * order). */
#define LOGP_DRAIN_WINDOW 32

/* Completes n requests; returns 0.  Truncated receives: their error is
 * expected. */
static int logp_drain_wait(MPI_Request *req, int n)
{
    for (int i = 0; i < n; i++)
        logp_engine_wait(&req[i], MPI_STATUS_IGNORE);
    return 0;
}

int logp_coll_drain(const logp_view_t *v, MPI_Comm comm, int tag, int rc)
{
    MPI_Request req[LOGP_DRAIN_WINDOW];
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < v->nops; i++) {
            logp_op_t op = logp_view_op(v, i);
            int x;
            int t = tag + logp_op_stream(v->s, &op); /* a dataflow schedule's two streams (sched.h) */
            if (pass == 0 && op.kind == LOGP_OP_SEND)
                x = PMPI_Isend(NULL, 0, MPI_BYTE, op.peer, t, comm, &req[n]);
            else if (pass == 1 && (op.kind == LOGP_OP_RECV || op.kind == LOGP_OP_RECV_REDUCE))
                x = PMPI_Irecv(NULL, 0, MPI_BYTE, op.peer, t, comm, &req[n]);
            else
                continue; /* the other pass's, or local work */
            if (x == MPI_SUCCESS)
                n++;
            if (n == LOGP_DRAIN_WINDOW)
                n = logp_drain_wait(req, n);
        }
    logp_drain_wait(req, n);
    return rc;
}
