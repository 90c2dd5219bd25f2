/* One allreduce of COUNT doubles through one entry point, as an
 * application calls it: blocking MPI_Allreduce, MPI_Iallreduce and
 * MPI_Wait, or MPI_Allreduce_init once and then MPI_Start and MPI_Wait per
 * call.  Per call: the slowest rank's time (MPI_Barrier first; the
 * barrier's time not counted); prints the median of calls 1-30 (first)
 * and of calls 101-300 (steady) in microseconds.  Run it in fresh
 * processes under the shim with a forced algorithm and with native,
 * alternated (scripts/entry-bench.sh):
 *   mpicc.mpich -O2 -o entry-bench scripts/entry-bench.c
 *   mpiexec.mpich -n 2 env LD_PRELOAD=build/.libs/libpmpi-logp.so PMPI_LOGP_NONBLOCKING=1 \
 *       PMPI_LOGP_ALLREDUCE=ring ./entry-bench persistent 8192
 * argv[1] = blocking | nonblocking | persistent, argv[2] = COUNT. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALLS 300

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *how = argc > 1 ? argv[1] : "blocking";
    int count = argc > 2 ? atoi(argv[2]) : 1024, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double *s = malloc(sizeof(double) * (size_t)count), *d = malloc(sizeof(double) * (size_t)count);
    double t[CALLS];
    MPI_Request r = MPI_REQUEST_NULL;
    for (int i = 0; i < count; i++)
        s[i] = rank + i;
    MPI_Barrier(MPI_COMM_WORLD); /* the communicator set up: the engine's condition for the nonblocking call */
    if (strcmp(how, "persistent") == 0)
        MPI_Allreduce_init(s, d, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (int k = 0; k < CALLS; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (strcmp(how, "persistent") == 0) {
            MPI_Start(&r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        } else if (strcmp(how, "nonblocking") == 0) {
            MPI_Iallreduce(s, d, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        } else {
            MPI_Allreduce(s, d, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        double mine = MPI_Wtime() - t0;
        PMPI_Reduce(&mine, &t[k], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD); /* the library's: not timed */
    }
    if (strcmp(how, "persistent") == 0)
        MPI_Request_free(&r);
    if (rank == 0)
        printf("%s %d first_us %.2f steady_us %.2f\n", how, count, median(t, 30) * 1e6, median(t + 100, 200) * 1e6);
    free(s);
    free(d);
    MPI_Finalize();
    return 0;
}
