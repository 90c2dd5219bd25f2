/* One collective per call through one entry point, as an application
 * overlaps it: the blocking call; its nonblocking form and MPI_Wait at
 * once; or its nonblocking form, then COMPUTE microseconds of computation
 * in slices of INTERVAL with an MPI_Test after each slice (the application
 * testing every few microseconds), then MPI_Wait if still needed.  Per
 * call the time from the last rank's start to the last rank's end (the
 * clocks are one under SMPI; elsewhere MPI_WTIME_IS_GLOBAL must hold, or
 * the barrier's skew adds in); prints
 * the median over calls 2..CALLS (the first sets the class up):
 *   overlap COLL BYTES MODE COMPUTE_US INTERVAL_US median_us
 * Under SMPI (scripts/smpi-overlap.sh, the shim linked in) computation is
 * simulated time (smpi_execute); elsewhere a spin on MPI_Wtime.
 *   overlap-bench bcast|reduce|alltoall|allreduce BYTES blocking|nonblocking|overlap [COMPUTE_US INTERVAL_US [CALLS]]
 * BYTES: per call (all-to-all: per block), in doubles rounded down (at
 * least one).  The measurement's own barrier and maximum are PMPI_ calls:
 * they do not pass through the shim. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* us microseconds of computation */
static void compute(double us)
{
#ifdef SMPI_SAMPLE_DELAY /* SMPI: simulated time, on the 1 Gflop/s hosts of scripts/smpi-common.sh
                          * (SimGrid 3.32's smpi_execute(seconds) charges nothing here) */
    smpi_execute_flops(us * 1e3);
#else
    double end = MPI_Wtime() + us * 1e-6;
    while (MPI_Wtime() < end)
        ;
#endif
}

/* Starts (nonblocking) or runs (blocking) one call of coll. */
static int start(const char *coll, int blocking, double *a, double *b, int n, MPI_Request *r)
{
    MPI_Comm w = MPI_COMM_WORLD;
    if (strcmp(coll, "bcast") == 0)
        return blocking ? MPI_Bcast(a, n, MPI_DOUBLE, 0, w) : MPI_Ibcast(a, n, MPI_DOUBLE, 0, w, r);
    if (strcmp(coll, "reduce") == 0)
        return blocking ? MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, w)
                        : MPI_Ireduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, w, r);
    if (strcmp(coll, "alltoall") == 0)
        return blocking ? MPI_Alltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, w)
                        : MPI_Ialltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, w, r);
    return blocking ? MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, w)
                    : MPI_Iallreduce(a, b, n, MPI_DOUBLE, MPI_SUM, w, r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 4) {
        if (rank == 0)
            fprintf(stderr, "usage: overlap-bench COLL BYTES blocking|nonblocking|overlap [COMPUTE_US INTERVAL_US [CALLS]]\n");
        MPI_Finalize();
        return 2;
    }
    const char *coll = argv[1], *mode = argv[3];
    int n = atoi(argv[2]) / 8, calls = argc > 6 ? atoi(argv[6]) : 6;
    double work = argc > 4 ? atof(argv[4]) : 0.0, slice = argc > 5 ? atof(argv[5]) : 5.0;
    n = n > 0 ? n : 1;
    calls = calls > 1 ? calls : 2;
    size_t len = (size_t)n * (strcmp(coll, "alltoall") == 0 ? (size_t)size : 1);
    double *a = calloc(len, sizeof(double)), *b = calloc(len, sizeof(double)), *t = malloc(sizeof(double) * calls);
    int blocking = strcmp(mode, "blocking") == 0, overlap = strcmp(mode, "overlap") == 0;
    /* a blocking collective first: it sets the communicator up for the shim */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int c = 0; c < calls; c++) {
        MPI_Request r = MPI_REQUEST_NULL;
        PMPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        int done = 0;
        start(coll, blocking, a, b, n, &r);
        for (double w = 0.0; overlap && w < work; w += slice) {
            compute(work - w < slice ? work - w : slice);
            if (!done)
                MPI_Test(&r, &done, MPI_STATUS_IGNORE);
        }
        if (!blocking && !done)
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        double mine[2] = {t0, MPI_Wtime()}, last[2];
        PMPI_Allreduce(mine, last, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        t[c] = last[1] - last[0];
    }
    qsort(t + 1, (size_t)(calls - 1), sizeof *t, cmp);
    int m = calls - 1;
    double med = m % 2 ? t[1 + m / 2] : (t[m / 2] + t[1 + m / 2]) / 2;
    if (rank == 0)
        printf("overlap %s %s %s %g %g %.3f\n", coll, argv[2], mode, overlap ? work : 0.0, overlap ? slice : 0.0,
               med * 1e6);
    free(a);
    free(b);
    free(t);
    MPI_Finalize();
    return 0;
}
