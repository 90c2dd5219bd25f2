/* The shim's own work per call where it runs the library's collective
 * (issue 40 item 6): N calls of one collective on one double in a loop,
 * no barrier between them, ns a call (rank 0's wall clock), 3 times.
 *   mpicc.mpich -O2 -o percall shim-per-call.c
 *   mpiexec.mpich -n 1 ./percall reduce|bcast|allreduce [N]
 *   mpiexec.mpich -n 1 -env LD_PRELOAD build/.libs/libpmpi-logp.so -env PMPI_LOGP_REDUCE native ./percall reduce
 * At n = 1 the library's collective is a local copy, so the difference is
 * the shim's; callgrind gives its instructions
 * (valgrind --tool=callgrind ./percall reduce 20000). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    double x = 1, y; int N = argc > 2 ? atoi(argv[2]) : 200000;
    const char *c = argc > 1 ? argv[1] : "reduce";
    for (int rep = 0; rep < 3; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        for (int i = 0; i < N; i++) {
            if (!strcmp(c, "reduce")) MPI_Reduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            else if (!strcmp(c, "bcast")) MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
            else MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        t = MPI_Wtime() - t;
        int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
        if (r == 0) printf("%s %.1f ns/call\n", c, t / N * 1e9);
    }
    MPI_Finalize();
}
