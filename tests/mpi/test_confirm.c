/* Auto's confirmation under MPI: an ordinary program that calls each
 * collective `iters` times per message size (rotating roots, results
 * checked on every call), so that auto's trials run and are agreed at the
 * shim's agreement points.  run_confirm.sh reads the shim's verbose lines.
 *   test_confirm [iters] [bytes,bytes,..] [mode]
 * mode "mismatch": an erroneous program whose ranks pass sizes of
 * different classes to MPI_Bcast (every rank's buffer is large enough and
 * the root sends the most; non-roots receive less, which MPI calls an
 * error but MPICH completes with MPI_ERR_TRUNCATE raised or not) --
 * the shim must not hang on it. */
#include <mpi.h>

#include "tally.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int r, P, bad = 0, all = 0, iters = argc > 1 ? atoi(argv[1]) : 40;
    const char *list = argc > 2 ? argv[2] : "8,1024,65536";
    int mismatch = argc > 3 && strcmp(argv[3], "mismatch") == 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    char *copy = strdup(list);
    for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
        int n = atoi(tok) / (int)sizeof(double);
        if (n < 1)
            n = 1;
        double *a = malloc(sizeof(double) * (size_t)n * P), *b = malloc(sizeof(double) * (size_t)n * P);
        for (int it = 0; it < iters; it++) {
            int root = it % P;
            if (mismatch) { /* erroneous on purpose: rank r receives n >> r elements */
                MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
                int mine = r == root ? n : n >> (r % 8);
                MPI_Bcast(a, mine > 0 ? mine : 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
                continue;
            }
            for (int i = 0; i < n; i++)
                a[i] = r == root ? it + i : -1;
            MPI_Bcast(a, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
            for (int i = 0; i < n; i++)
                bad += a[i] != it + i;
            for (int i = 0; i < n; i++)
                a[i] = r + i + it;
            MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
            if (r == root)
                for (int i = 0; i < n; i++)
                    bad += b[i] != (double)P * (P - 1) / 2 + (double)P * (i + it);
            for (int j = 0; j < P * n; j++)
                a[j] = r * 1000.0 + j / n + it;
            MPI_Alltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, MPI_COMM_WORLD);
            for (int j = 0; j < P * n; j++)
                bad += b[j] != (j / n) * 1000.0 + r + it;
        }
        free(a);
        free(b);
    }
    free(copy);
    tally_ints(&bad, &all, 1, MPI_SUM, MPI_COMM_WORLD);
    if (r == 0)
        printf("test_confirm: %s (%d wrong values)\n", all ? "WRONG RESULTS" : "all results correct", all);
    MPI_Finalize();
    return all != 0;
}
