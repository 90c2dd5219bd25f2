/* pmpi-logp-fresh: one collective at one size, as an application meets
 * the shim: a fresh process, the MPI_* entry point (so whatever is
 * preloaded or linked answers it), its first calls as well as its steady
 * state.
 *
 *   mpiexec -n P pmpi-logp-fresh --coll bcast|reduce|alltoall|allreduce --bytes M
 *       [--calls N] [--first F] [--steady A-B] [--max-seconds S] [--all]
 *
 * Each call starts after MPI_Barrier (not intercepted); a call's time is
 * the slowest rank's (each rank times its own call; the times are
 * gathered once at the end with MPI_Gather, which the shim does not
 * intercept, so measuring adds no traffic between calls).  Prints one
 * line: the median of calls 1..F and of calls A..B (1-based), in µs.  A
 * run that reaches S seconds stops calling (every rank at the same call:
 * they agree every 16 calls, outside the timed calls) and reports the
 * windows it covered.  Data: doubles, MPI_SUM. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char logp_fresh_usage[] =
    "usage: mpiexec -n P pmpi-logp-fresh --coll bcast|reduce|alltoall|allreduce --bytes M [options]\n"
    "  one collective at one size in a fresh process, through MPI_* (the shim when preloaded)\n"
    "  --bytes M          bytes per call (all-to-all: per block), a multiple of 8 (doubles)\n"
    "  --calls N          calls (200)\n"
    "  --first F          report the median of calls 1..F (30)\n"
    "  --steady A-B       report the median of calls A..B (101-200)\n"
    "  --max-seconds S    stop calling after S seconds (60); windows not reached print -\n"
    "  --all              also print every call's time\n";

static int logp_fresh_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of t[lo..hi) (0-based), or -1 if the window is not complete. */
static double logp_fresh_median(const double *t, int n, int lo, int hi)
{
    if (lo < 0 || hi > n || lo >= hi)
        return -1.0;
    double *w = malloc(sizeof(double) * (size_t)(hi - lo));
    if (!w)
        return -1.0;
    memcpy(w, t + lo, sizeof(double) * (size_t)(hi - lo));
    qsort(w, (size_t)(hi - lo), sizeof(double), logp_fresh_cmp);
    int k = hi - lo;
    double m = k % 2 ? w[k / 2] : 0.5 * (w[k / 2 - 1] + w[k / 2]);
    free(w);
    return m;
}

static void logp_fresh_print_window(const char *name, double us)
{
    if (us < 0)
        printf(" %s=-", name);
    else
        printf(" %s=%.3f", name, us);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *coll = NULL, *bad = NULL;
    long bytes = -1, calls = 200, first = 30, from = 101, to = 200, all = 0;
    double max_seconds = 60.0;
    for (int i = 1; i < argc && !bad; i++) {
        if (strcmp(argv[i], "--coll") == 0 && i + 1 < argc)
            coll = argv[++i];
        else if (strcmp(argv[i], "--bytes") == 0 && i + 1 < argc)
            bytes = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc)
            calls = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--first") == 0 && i + 1 < argc)
            first = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--steady") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%ld-%ld", &from, &to) != 2)
                bad = "--steady: expected A-B";
        } else if (strcmp(argv[i], "--max-seconds") == 0 && i + 1 < argc)
            max_seconds = strtod(argv[++i], NULL);
        else if (strcmp(argv[i], "--all") == 0)
            all = 1;
        else
            bad = "unknown option";
    }
    int which = !coll ? -1 : strcmp(coll, "bcast") == 0 ? 0 : strcmp(coll, "reduce") == 0 ? 1
                                                        : strcmp(coll, "alltoall") == 0   ? 2
                                                        : strcmp(coll, "allreduce") == 0  ? 3
                                                                                          : -1;
    if (!bad && (which < 0 || bytes < 0 || bytes % 8 || calls < 1 || calls > 1000000 || first < 1 || from < 1 ||
                 to < from || !(max_seconds > 0)))
        bad = "--coll and --bytes (a multiple of 8) are needed; counts must be >= 1";
    if (bad) {
        if (rank == 0)
            fprintf(stderr, "pmpi-logp-fresh: %s\n%s", bad, logp_fresh_usage);
        MPI_Finalize();
        return 2;
    }
    int count = (int)(bytes / 8);
    size_t blocks = which == 2 ? (size_t)size : 1;
    double *a = malloc(sizeof(double) * ((size_t)count * blocks + 1));
    double *b = malloc(sizeof(double) * ((size_t)count * blocks + 1));
    double *t = calloc((size_t)calls, sizeof(double));
    int *flags = malloc(sizeof(int) * (size_t)size);
    double *all_t = rank == 0 ? malloc(sizeof(double) * (size_t)calls * (size_t)size) : NULL;
    if (!a || !b || !t || !flags || (rank == 0 && !all_t)) {
        fprintf(stderr, "pmpi-logp-fresh: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (size_t i = 0; i < (size_t)count * blocks; i++)
        a[i] = (double)(rank + 1) + (double)i * 1e-3;
    long done = 0;
    double start = MPI_Wtime();
    for (; done < calls; done++) {
        /* Stop together: every 16 calls the ranks agree whether time is up
         * (a logical OR, by MPI_Allgather: the shim does not intercept it). */
        if (done % 16 == 0 && done > 0) {
            int over = MPI_Wtime() - start > max_seconds, any = 0;
            MPI_Allgather(&over, 1, MPI_INT, flags, 1, MPI_INT, MPI_COMM_WORLD);
            for (int r = 0; r < size; r++)
                any |= flags[r];
            if (any)
                break;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        int rc = which == 0   ? MPI_Bcast(a, count, MPI_DOUBLE, 0, MPI_COMM_WORLD)
                 : which == 1 ? MPI_Reduce(a, b, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD)
                 : which == 3 ? MPI_Allreduce(a, b, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD)
                              : MPI_Alltoall(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, MPI_COMM_WORLD);
        t[done] = MPI_Wtime() - t0;
        if (rc != MPI_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, rc);
    }
    MPI_Gather(t, (int)calls, MPI_DOUBLE, all_t, (int)calls, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (long c = 0; c < done; c++) {
            double m = 0.0;
            for (int r = 0; r < size; r++)
                if (all_t[(size_t)r * (size_t)calls + (size_t)c] > m)
                    m = all_t[(size_t)r * (size_t)calls + (size_t)c];
            t[c] = m * 1e6;
        }
        printf("fresh coll=%s bytes=%ld P=%d calls=%ld", coll, bytes, size, done);
        char name[64];
        snprintf(name, sizeof name, "first%ld_us", first);
        logp_fresh_print_window(name, logp_fresh_median(t, (int)done, 0, (int)first));
        snprintf(name, sizeof name, "steady%ld_%ld_us", from, to);
        logp_fresh_print_window(name, logp_fresh_median(t, (int)done, (int)from - 1, (int)to));
        printf("\n");
        if (all)
            for (long c = 0; c < done; c++)
                printf("call %ld %.3f\n", c + 1, t[c]);
    }
    free(a);
    free(b);
    free(t);
    free(flags);
    free(all_t);
    MPI_Finalize();
    return 0;
}
