/* Legal-MPI progress scenario with a shim-style "Ibcast" (chain 0->1->2) as a greq state machine.
 * rank1: starts ibcast, then blocking MPI_Recv from rank 2 (tag 5)
 * rank2: starts ibcast, MPI_Wait(ibcast), then MPI_Send to rank 1
 * Rank 1's forward step (recv from 0, send to 2) only happens if something drives the shim's engine
 * while rank 1 sits in MPI_Recv.  argv[1]:
 *   none     - engine driven only by poll/wait callbacks on the greq (MPICH) / by nothing (OMPI)
 *   hook     - OMPI only: engine registered with opal_progress_register (dlsym)
 *   wraprecv - engine also driven by an intercepted blocking MPI_Recv (Irecv + Test loop) */
#include <mpi.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static MPI_Comm priv; static int rank, size, mode_hook, mode_wrap;
static struct { MPI_Request greq, r; int phase, done, buf; } op; /* one outstanding op */
static int in_engine;

static int engine(void) /* returns #events */
{
    if (in_engine || op.done || op.greq == MPI_REQUEST_NULL) return 0;
    in_engine = 1; int ev = 0, f;
    for (;;) {
        if (op.phase == 0) { /* post */
            if (rank == 0) PMPI_Isend(&op.buf, 1, MPI_INT, 1, 0, priv, &op.r);
            else PMPI_Irecv(&op.buf, 1, MPI_INT, rank - 1, 0, priv, &op.r);
            op.phase = 1;
        }
        if (op.phase == 1) { PMPI_Test(&op.r, &f, MPI_STATUS_IGNORE); if (!f) break; ev++;
            if (rank == 1) { PMPI_Isend(&op.buf, 1, MPI_INT, 2, 0, priv, &op.r); op.phase = 2; }
            else op.phase = 3; }
        if (op.phase == 2) { PMPI_Test(&op.r, &f, MPI_STATUS_IGNORE); if (!f) break; ev++; op.phase = 3; }
        if (op.phase == 3) { op.done = 1; MPI_Request g = op.greq; PMPI_Grequest_complete(g); break; }
    }
    in_engine = 0; return ev;
}
static int query_fn(void *es, MPI_Status *s) { (void)es; MPI_Status_set_elements(s, MPI_BYTE, 0); MPI_Status_set_cancelled(s, 0); return 0; }
static int free_fn(void *es) { (void)es; return 0; }
static int cancel_fn(void *es, int c) { (void)es; (void)c; return 0; }
#ifdef MPICH
static int poll_fn(void *es, MPI_Status *st) { (void)es; (void)st; engine(); return 0; }
static int wait_fn(int n, void **es, double t, MPI_Status *st) { (void)n; (void)es; (void)t; (void)st; engine(); return 0; }
#endif
static void my_ibcast(int *buf, MPI_Request *req)
{
    memset(&op, 0, sizeof op); op.buf = *buf;
#ifdef MPICH
    MPIX_Grequest_start(query_fn, free_fn, cancel_fn, poll_fn, wait_fn, NULL, &op.greq);
#else
    PMPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, &op.greq);
#endif
    *req = op.greq; engine();
}
/* intercepted blocking receive, as a shim could do */
int MPI_Recv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *s)
{
    if (!mode_wrap) return PMPI_Recv(b, n, t, src, tag, c, s);
    MPI_Request r; int f = 0; PMPI_Irecv(b, n, t, src, tag, c, &r);
    while (!f) { engine(); PMPI_Test(&r, &f, s); }
    return MPI_SUCCESS;
}
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv); MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
    mode_hook = !strcmp(argv[1], "hook"); mode_wrap = !strcmp(argv[1], "wraprecv");
    PMPI_Comm_dup(MPI_COMM_WORLD, &priv);
    int (*reg)(int (*)(void)) = NULL, (*unreg)(int (*)(void)) = NULL;
    if (mode_hook) { reg = dlsym(RTLD_DEFAULT, "opal_progress_register"); unreg = dlsym(RTLD_DEFAULT, "opal_progress_unregister");
        if (!reg) { if (!rank) printf("no opal_progress_register\n"); MPI_Abort(MPI_COMM_WORLD, 2); } reg(engine); }
    int v = 42 * (rank == 0), x = 7; MPI_Request q;
    if (rank == 0) usleep(300000); /* make sure rank 1 is already inside MPI_Recv when data arrives */
    my_ibcast(&v, &q);
    if (rank == 0) MPI_Wait(&q, MPI_STATUS_IGNORE);
    if (rank == 1) { MPI_Recv(&x, 1, MPI_INT, 2, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Wait(&q, MPI_STATUS_IGNORE); }
    if (rank == 2) { MPI_Wait(&q, MPI_STATUS_IGNORE); MPI_Send(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD); }
    printf("rank %d mode=%s done, bcast value=%d\n", rank, argv[1], op.buf);
    if (unreg) unreg(engine);
    MPI_Finalize(); return 0;
}
