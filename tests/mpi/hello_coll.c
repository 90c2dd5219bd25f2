/* The main job's demo: an ordinary MPI program (nothing of the shim in it)
 * that broadcasts, reduces, exchanges (all-to-all and alltoallv) and allreduces a few message sizes on
 * MPI_COMM_WORLD and on a named half, and checks its results.  Run it under
 * the shim with PMPI_LOGP_VERBOSE=1 to see what was chosen. */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "tally.h"
#ifdef HELLO_PERSISTENT
#include "persistent.h" /* Open MPI 4.1: the MPIX_ extension under the MPI-4 names */
#endif

/* -DHELLO_LARGE_COUNT: the same program through the MPI-4 large-count
 * entry points (tests/mpi/run_preload.sh): MPI_Bcast_c & co, or with
 * -DHELLO_NONBLOCKING / -DHELLO_PERSISTENT below MPI_Ibcast_c & co and
 * MPI_Bcast_init_c & co */
#ifdef HELLO_LARGE_COUNT
#if defined(HELLO_NONBLOCKING) || defined(HELLO_PERSISTENT)
#include "large_count.h"
#else
#define MPI_Bcast MPI_Bcast_c
#define MPI_Reduce MPI_Reduce_c
#define MPI_Alltoall MPI_Alltoall_c
#define MPI_Allreduce MPI_Allreduce_c
#define MPI_Alltoallv MPI_Alltoallv_c
#endif
typedef MPI_Count hello_count_t;
typedef MPI_Aint hello_displ_t;
#else
typedef int hello_count_t;
typedef int hello_displ_t;
#endif

/* -DHELLO_NONBLOCKING: each collective as its nonblocking form and
 * MPI_Wait; -DHELLO_PERSISTENT: as its MPI-4 persistent form, started
 * once, waited for and freed (tests/mpi/run_preload.sh) */
#if defined(HELLO_NONBLOCKING) || defined(HELLO_PERSISTENT)
#ifdef HELLO_NONBLOCKING
#define HELLO_START(icall, pcall) (icall)
#define HELLO_PERSISTENT_FREE(r) MPI_SUCCESS
#else
#define HELLO_START(icall, pcall) ((pcall) == MPI_SUCCESS ? MPI_Start(&r_) : MPI_ERR_OTHER)
#define HELLO_PERSISTENT_FREE(r) MPI_Request_free(r)
#endif
#define HELLO_RUN(icall, pcall)                                                                                        \
    do {                                                                                                               \
        MPI_Request r_;                                                                                                \
        int rc_ = HELLO_START(icall, pcall);                                                                           \
        if (rc_ == MPI_SUCCESS)                                                                                        \
            rc_ = MPI_Wait(&r_, MPI_STATUS_IGNORE);                                                                    \
        return rc_ == MPI_SUCCESS ? HELLO_PERSISTENT_FREE(&r_) : rc_;                                                  \
    } while (0)
static int hello_bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
    HELLO_RUN(MPI_Ibcast(b, n, t, root, c, &r_), MPI_Bcast_init(b, n, t, root, c, MPI_INFO_NULL, &r_));
}
static int hello_reduce(const void *s, void *d, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
    HELLO_RUN(MPI_Ireduce(s, d, n, t, op, root, c, &r_), MPI_Reduce_init(s, d, n, t, op, root, c, MPI_INFO_NULL, &r_));
}
static int hello_alltoall(const void *s, int sn, MPI_Datatype st, void *d, int dn, MPI_Datatype dt, MPI_Comm c)
{
    HELLO_RUN(MPI_Ialltoall(s, sn, st, d, dn, dt, c, &r_), MPI_Alltoall_init(s, sn, st, d, dn, dt, c, MPI_INFO_NULL, &r_));
}
static int hello_allreduce(const void *s, void *d, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    HELLO_RUN(MPI_Iallreduce(s, d, n, t, op, c, &r_), MPI_Allreduce_init(s, d, n, t, op, c, MPI_INFO_NULL, &r_));
}
static int hello_alltoallv(const void *s, const hello_count_t *sc, const hello_displ_t *sd, MPI_Datatype st, void *d,
                           const hello_count_t *rc, const hello_displ_t *rd, MPI_Datatype rt, MPI_Comm c)
{
    HELLO_RUN(MPI_Ialltoallv(s, sc, sd, st, d, rc, rd, rt, c, &r_),
              MPI_Alltoallv_init(s, sc, sd, st, d, rc, rd, rt, c, MPI_INFO_NULL, &r_));
}
#define MPI_Bcast hello_bcast
#define MPI_Reduce hello_reduce
#define MPI_Alltoall hello_alltoall
#define MPI_Allreduce hello_allreduce
#define MPI_Alltoallv hello_alltoallv
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
#ifdef HELLO_NONBLOCKING /* a blocking collective first: it sets a communicator up for the shim's engine */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(half);
#endif
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
