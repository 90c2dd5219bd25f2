/* Experiment 3 (Open MPI 4.1.4): opal_progress_register via dlsym; when does the callback run?
 * 2 ranks. Rank 0 measures, rank 1 is a delayed partner. */
#include <mpi.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef int (*cb_t)(void);
static int (*reg)(cb_t), (*unreg)(cb_t);
static long n_cb; static int depth, max_depth, rank;
/* generalized request completed from the callback after N callback invocations */
static MPI_Request g_greq = MPI_REQUEST_NULL; static long g_complete_at = -1;
/* PMPI traffic inside the callback */
static int do_recurse; static MPI_Request pending = MPI_REQUEST_NULL; static long recursive_tests;
static int do_pmpi; static MPI_Comm priv; static MPI_Request pr[2]; static int posted, pmpi_rounds, sb, rb;

static int cb(void)
{
    n_cb++;
    depth++; if (depth > max_depth) max_depth = depth;
    if (g_greq != MPI_REQUEST_NULL && g_complete_at >= 0 && n_cb >= g_complete_at) {
        MPI_Request r = g_greq; g_greq = MPI_REQUEST_NULL; MPI_Grequest_complete(r);
    }
    if (do_pmpi && depth == 1) { /* guard: our own re-entrancy protection */
        if (!posted) { PMPI_Irecv(&rb, 1, MPI_INT, rank, 0, priv, &pr[0]); PMPI_Isend(&sb, 1, MPI_INT, rank, 0, priv, &pr[1]); posted = 1; }
        int f; PMPI_Testall(2, pr, &f, MPI_STATUSES_IGNORE);
        if (f) { posted = 0; pmpi_rounds++; }
    }
    if (do_recurse && depth <= 3) { int f; recursive_tests++; PMPI_Test(&pending, &f, MPI_STATUS_IGNORE); }
    depth--;
    return 0;
}
static int query_fn(void *es, MPI_Status *s) { (void)es; MPI_Status_set_elements(s, MPI_BYTE, 0); MPI_Status_set_cancelled(s, 0); return MPI_SUCCESS; }
static int free_fn(void *es) { (void)es; return MPI_SUCCESS; }
static int cancel_fn(void *es, int c) { (void)es; (void)c; return MPI_SUCCESS; }

#define SNAP long c0 = n_cb
#define REPORT(name) do { printf("%-60s callbacks=%ld\n", name, n_cb - c0); fflush(stdout); } while (0)

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    reg = (int (*)(cb_t))dlsym(RTLD_DEFAULT, "opal_progress_register");
    unreg = (int (*)(cb_t))dlsym(RTLD_DEFAULT, "opal_progress_unregister");
    if (rank == 0) printf("provided=%d opal_progress_register=%p unregister=%p\n", provided, (void *)reg, (void *)unreg);
    if (!reg) MPI_Abort(MPI_COMM_WORLD, 1);
    PMPI_Comm_dup(MPI_COMM_WORLD, &priv);
    int rc = reg(cb);
    if (rank == 0) printf("register rc=%d (OPAL_SUCCESS=0)\n", rc);
    enum { BIG = 1 << 20 };
    char *big = calloc(BIG, 1); int x = 0, y = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        { SNAP; MPI_Recv(&y, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); REPORT("MPI_Recv, peer sends after 200ms"); }
        { SNAP; MPI_Send(big, BIG, MPI_CHAR, 1, 2, MPI_COMM_WORLD); REPORT("MPI_Send 1MB, peer posts recv after 200ms"); }
        { SNAP; MPI_Probe(1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE); REPORT("MPI_Probe, peer sends after 200ms"); MPI_Recv(&y, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
        { SNAP; MPI_Barrier(MPI_COMM_WORLD); REPORT("MPI_Barrier, peer enters after 200ms"); }
        { SNAP; MPI_Bcast(&y, 1, MPI_INT, 1, MPI_COMM_WORLD); REPORT("MPI_Bcast root=1, root enters after 200ms"); }
        { MPI_Request r; MPI_Irecv(&y, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &r); SNAP; MPI_Wait(&r, MPI_STATUS_IGNORE); REPORT("MPI_Wait(Irecv), peer sends after 200ms"); }
        { MPI_Request r; int f; MPI_Irecv(&y, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &r); SNAP; for (int i = 0; i < 10; i++) MPI_Test(&r, &f, MPI_STATUS_IGNORE); REPORT("10x MPI_Test(pending Irecv)");
          MPI_Wait(&r, MPI_STATUS_IGNORE); }
        { int f; SNAP; for (int i = 0; i < 10; i++) MPI_Iprobe(1, 77, MPI_COMM_WORLD, &f, MPI_STATUS_IGNORE); REPORT("10x MPI_Iprobe (no match)"); }
        { MPI_Request r; int f; MPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, &r); SNAP;
          for (int i = 0; i < 10; i++) MPI_Test(&r, &f, MPI_STATUS_IGNORE); REPORT("10x MPI_Test(pending MPI_Grequest)");
          g_greq = r; g_complete_at = n_cb + 5; c0 = n_cb; MPI_Wait(&r, MPI_STATUS_IGNORE); REPORT("MPI_Wait(greq completed by callback at +5)"); }
        { MPI_Request rq[3]; MPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, &rq[0]);
          MPI_Irecv(&y, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &rq[1]); MPI_Isend(&x, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &rq[2]);
          g_greq = rq[0]; g_complete_at = n_cb + 5; SNAP; MPI_Waitall(3, rq, MPI_STATUSES_IGNORE); REPORT("MPI_Waitall([greq@+5, Irecv, Isend])"); }
        { MPI_Request r; int idx; MPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, &r);
          g_greq = r; g_complete_at = n_cb + 5; SNAP; MPI_Waitany(1, &r, &idx, MPI_STATUS_IGNORE); REPORT("MPI_Waitany([greq@+5])"); }
        /* PMPI traffic inside callback, driven only by a blocking MPI_Recv on another request */
        { do_pmpi = 1; pmpi_rounds = 0; max_depth = 0; SNAP; MPI_Recv(&y, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          REPORT("MPI_Recv(200ms) with PMPI_Isend/Irecv/Testall in callback"); printf("    pmpi self-exchange rounds completed=%d, max callback nesting depth=%d\n", pmpi_rounds, max_depth); do_pmpi = 0; }
        /* recursion: callback calls PMPI_Test on a never-matching Irecv (which itself calls opal_progress) */
        { PMPI_Irecv(&y, 1, MPI_INT, 0, 4242, priv, &pending); do_recurse = 1; max_depth = 0; int f; SNAP;
          for (int i = 0; i < 10; i++) MPI_Iprobe(1, 77, MPI_COMM_WORLD, &f, MPI_STATUS_IGNORE);
          do_recurse = 0; REPORT("10x MPI_Iprobe, callback calls PMPI_Test(pending) up to depth 3");
          printf("    max callback nesting depth=%d (>1 means opal_progress re-enters callbacks recursively)\n", max_depth);
          PMPI_Cancel(&pending); PMPI_Wait(&pending, MPI_STATUS_IGNORE); }
    } else {
        usleep(200000); MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        usleep(200000); MPI_Recv(big, BIG, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        usleep(200000); MPI_Send(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
        usleep(200000); MPI_Barrier(MPI_COMM_WORLD);
        usleep(200000); MPI_Bcast(&x, 1, MPI_INT, 1, MPI_COMM_WORLD);
        usleep(200000); MPI_Send(&x, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
        usleep(200000); MPI_Send(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
        usleep(200000); MPI_Send(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    }
    unreg(cb);
    PMPI_Comm_free(&priv);
    MPI_Finalize();
    return 0;
}
