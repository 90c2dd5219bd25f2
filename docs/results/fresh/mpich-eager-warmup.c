/* MPICH 4.0.2 (ch4:ucx, one node) without the shim: the first calls of a
 * 16 KiB transfer cut into 2 (or 4) messages are 12 (18) us, then 0.6 us;
 * one 16 KiB message is 3.0 us from its second call on.  An MPI_Allreduce
 * on another communicator between calls delays the fast phase (every 16
 * calls: from call 49; every 4 calls: each call after one 7 us).  This is
 * why forced part-wise bcasts (two-tree, scatter-allgather,
 * binary-pipeline) at 16 KiB and P = 2 are 0.7 us in steady state but
 * 11 us over their first 30 calls (docs/results/fresh/README.md).  The
 * cold phase is UCX's shared-memory FIFO (UCX_MM_FIFO_SIZE, 64 elements
 * by default): its length follows the FIFO's size (README, "The cold
 * phase is UCX's shared-memory FIFO").
 *   mpicc.mpich -O2 -o warmup mpich-eager-warmup.c
 *   mpiexec.mpich -n 2 ./warmup EVERY PARTS [CALLS [BYTES]]
 *     EVERY 0: no allreduce; CALLS (80, at most 1000); BYTES (16384) cut into PARTS
 * Prints "call:us" (the slowest rank's) for CALLS calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int r, every = argc > 1 ? atoi(argv[1]) : 16, parts = argc > 2 ? atoi(argv[2]) : 2;
    int calls = argc > 3 ? atoi(argv[3]) : 80, bytes = argc > 4 ? atoi(argv[4]) : 16384;
    if (parts < 1 || parts > 8 || calls < 1 || calls > 1000 || bytes < parts)
        return 2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm priv; MPI_Comm_dup(MPI_COMM_WORLD, &priv);
    char *buf = calloc(bytes, 1);
    double t[1000], m[1000];
    for (int i = 0; i < calls; i++) {
        if (every > 0 && i % every == 0 && i) { int x = 0, y; MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD); }
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Request q[8];
        MPI_Status st[8];
        int seg = bytes / parts;
        for (int p = 0; p < parts; p++)
            if (r == 0) MPI_Isend(buf + p * seg, seg, MPI_BYTE, 1, 5, priv, &q[p]);
            else MPI_Irecv(buf + p * seg, seg, MPI_BYTE, 0, 5, priv, &q[p]);
        MPI_Waitall(parts, q, st);
        t[i] = MPI_Wtime() - t0;
    }
    MPI_Reduce(t, m, calls, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (r == 0) { for (int i = 0; i < calls; i++) printf("%d:%.1f ", i + 1, m[i] * 1e6); printf("\n"); }
    MPI_Finalize();
}
