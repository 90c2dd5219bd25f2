/* What the shim's answers to MPI_Send / MPI_Recv / MPI_Wait / MPI_Test cost
 * an application while no nonblocking collective of the shim is
 * outstanding (src/shim/progress.c: one branch, then the next
 * definition): an 8-byte ping-pong between ranks 0 and 1, blocking
 * (Send/Recv) and nonblocking (Isend/Irecv, then Wait, or a loop of Test),
 * ITERS round trips after 1000 untimed; prints the median of 7 batches of
 * the half round-trip time in microseconds.  Run it with and without the
 * shim preloaded, alternated:
 *   mpicc.mpich -O2 -o p2p scripts/p2p-latency.c
 *   for i in 1 2 3; do mpiexec.mpich -n 2 ./p2p; \
 *     mpiexec.mpich -n 2 -env LD_PRELOAD build/.libs/libpmpi-logp.so ./p2p; done */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One batch of n round trips by `how` (0 Send/Recv, 1 Isend/Irecv + Wait,
 * 2 Isend/Irecv + a Test loop); returns the half round trip in us. */
static double batch(int rank, int n, int how)
{
    char buf[8] = {0};
    int peer = 1 - rank;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        for (int turn = 0; turn < 2; turn++) {
            int sending = turn == rank;
            if (how == 0) {
                if (sending)
                    MPI_Send(buf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
                else
                    MPI_Recv(buf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                continue;
            }
            MPI_Request r;
            if (sending)
                MPI_Isend(buf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &r);
            else
                MPI_Irecv(buf, 8, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &r);
            if (how == 1) {
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            } else {
                int flag = 0;
                while (!flag)
                    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            }
        }
    }
    return (MPI_Wtime() - t0) / n / 2 * 1e6;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 20000;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size == 2) {
        static const char *const name[3] = {"send/recv", "isend/irecv+wait", "isend/irecv+test"};
        for (int how = 0; how < 3; how++) {
            double t[7];
            batch(rank, 1000, how);
            for (int b = 0; b < 7; b++)
                t[b] = batch(rank, iters, how);
            qsort(t, 7, sizeof t[0], cmp);
            if (rank == 0)
                printf("p2p %s: %.3f us (median of 7 batches of %d)\n", name[how], t[3], iters);
        }
    } else if (rank == 0) {
        printf("p2p: run with 2 ranks\n");
    }
    MPI_Finalize();
    return 0;
}
