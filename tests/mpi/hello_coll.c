/* The main job's demo: an ordinary MPI program (nothing of the shim in it)
 * that broadcasts, reduces, exchanges (all-to-all and alltoallv) and allreduces a few message sizes on
 * MPI_COMM_WORLD and on a named half, and checks its results.  Run it under
 * the shim with PMPI_LOGP_VERBOSE=1 to see what was chosen. */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "tally.h"

/* -DHELLO_LARGE_COUNT: the same program through the MPI-4 large-count
 * entry points (tests/mpi/run_preload.sh) */
#ifdef HELLO_LARGE_COUNT
#define MPI_Bcast MPI_Bcast_c
#define MPI_Reduce MPI_Reduce_c
#define MPI_Alltoall MPI_Alltoall_c
#define MPI_Allreduce MPI_Allreduce_c
#define MPI_Alltoallv MPI_Alltoallv_c
typedef MPI_Count hello_count_t;
typedef MPI_Aint hello_displ_t;
#else
typedef int hello_count_t;
typedef int hello_displ_t;
#endif

static int exercise(MPI_Comm comm, int n)
{
    int r, P, bad = 0;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &P);
    double *a = malloc(sizeof(double) * (size_t)n * P), *b = malloc(sizeof(double) * (size_t)n * P);
    for (int i = 0; i < n; i++)
        a[i] = r == 0 ? i : -1;
    MPI_Bcast(a, n, MPI_DOUBLE, 0, comm);
    for (int i = 0; i < n; i++)
        bad += a[i] != i;
    for (int i = 0; i < n; i++)
        a[i] = r + i;
    MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, P - 1, comm);
    if (r == P - 1)
        for (int i = 0; i < n; i++)
            bad += b[i] != (double)P * (P - 1) / 2 + (double)P * i;
    for (int j = 0; j < P * n; j++)
        a[j] = r * 1000.0 + j / n;
    MPI_Alltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, comm);
    for (int j = 0; j < P * n; j++)
        bad += b[j] != (j / n) * 1000.0 + r;
    for (int i = 0; i < n; i++)
        a[i] = r - i;
    MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_MAX, comm);
    for (int i = 0; i < n; i++)
        bad += b[i] != (double)(P - 1 - i);
    /* alltoallv: rank j gets j + 1 elements of each block, from its end */
    hello_count_t *sc = malloc(sizeof(hello_count_t) * 2 * (size_t)P), *rc = sc + P;
    hello_displ_t *sd = malloc(sizeof(hello_displ_t) * 2 * (size_t)P), *rd = sd + P;
    for (int j = 0; j < P; j++) {
        sc[j] = j + 1 < n ? j + 1 : n;
        sd[j] = (hello_displ_t)((j + 1) * n - sc[j]);
        rc[j] = r + 1 < n ? r + 1 : n;
        rd[j] = (hello_displ_t)(j * n);
    }
    for (int j = 0; j < P * n; j++)
        a[j] = r * 1000.0 + j;
    MPI_Alltoallv(a, sc, sd, MPI_DOUBLE, b, rc, rd, MPI_DOUBLE, comm);
    for (int j = 0; j < P; j++)
        for (int k = 0; k < rc[j]; k++)
            bad += b[j * n + k] != j * 1000.0 + (double)((r + 1) * n - rc[j] + k); /* rank j's a[sd[r] + k] */
    free(sc);
    free(sd);
    free(a);
    free(b);
    return bad;
}

int main(int argc, char **argv)
{
    int r, bad = 0, all;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);
    MPI_Comm_set_name(half, r % 2 ? "odd ranks" : "even ranks");
    for (int n = 1; n <= 1 << 16; n *= 16) {
        bad += exercise(MPI_COMM_WORLD, n);
        bad += exercise(half, n);
    }
    MPI_Comm_free(&half);
    tally_ints(&bad, &all, 1, MPI_SUM, MPI_COMM_WORLD);
    if (r == 0)
        printf("hello_coll: %s (%d wrong values)\n", all ? "FAILED" : "all results correct", all);
    MPI_Finalize();
    return all != 0;
}
