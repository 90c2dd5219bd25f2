/* The nonblocking collectives under the shim (MPI_Ibcast, MPI_Ireduce,
 * MPI_Ialltoall, MPI_Iallreduce, MPI_Ialltoallv): every result checked
 * against values computed here, never against another collective.
 *
 * Cases: counts 0, 1, 7, 1000 and 70,000 elements, every root, a derived
 * type, MPI_IN_PLACE; MPI_COMM_WORLD and a communicator in reversed rank
 * order; completion by MPI_Wait, by a rank that only loops on MPI_Test,
 * MPI_Waitany, MPI_Testsome, and MPI_Waitall over a shuffled array that
 * mixes the collectives' requests with point-to-point ones (whose
 * statuses must stay intact); several outstanding collectives completed
 * in reverse order; more outstanding at once than a communicator has tag
 * slots (state.h).  With MPI-4 (MPI_Bcast_init & co) the persistent
 * forms as well: each request initialized once and started several
 * times with new data (100 times for one), completed the same ways,
 * MPI_Startall with MPI_Waitall over a shuffled array with point-to-point
 * requests, the progress rule, MPI_Request_free of a request never
 * started and of one completed.  Built with -DTEST_LARGE_COUNT, every
 * one of those calls is its MPI-4 large-count form (MPI_Ibcast_c & co,
 * MPI_Bcast_init_c & co where the library has them: TEST_PERSISTENT_C).
 * Ends with "nonblocking: N passed, M failed". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "persistent.h" /* TEST_PERSISTENT: MPI-4's or Open MPI's MPIX_ persistent collectives */

/* the alltoallv's counts and displacements as the calls take them */
#ifdef TEST_LARGE_COUNT
typedef MPI_Count test_count_t;
typedef MPI_Aint test_displ_t;
#include "large_count.h"
#ifndef TEST_PERSISTENT_C
#undef TEST_PERSISTENT /* its persistent calls would not be large-count ones */
#endif
#else
typedef int test_count_t;
typedef int test_displ_t;
#endif

static int passed, failed, world_rank;

/* Rank 0 starts late: the others' starts find nothing to forward yet. */
static void late(void)
{
    struct timespec t = {0, 20000000L};
    nanosleep(&t, NULL);
}

static void check(int ok, const char *what, int n, int root)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    if (failed < 20)
        fprintf(stderr, "rank %d: FAIL %s count=%d root=%d\n", world_rank, what, n, root);
}

/* The value rank r contributes at element i (small: sums of 8 fit an int). */
static int val(int r, int i)
{
    return (r * 7919 + i * 31 + 5) % 100003;
}

/* Completes *req the way `how` says: 0 MPI_Wait, 1 a loop of MPI_Test
 * alone, 2 MPI_Waitany over one request, 3 a loop of MPI_Testsome. */
static void complete(MPI_Request *req, int how)
{
    int flag = 0, idx, out[1];
    MPI_Status st[1];
    switch (how) {
    case 1:
        while (!flag)
            MPI_Test(req, &flag, MPI_STATUS_IGNORE);
        break;
    case 2:
        MPI_Waitany(1, req, &idx, MPI_STATUS_IGNORE);
        break;
    case 3:
        while (flag == 0)
            MPI_Testsome(1, req, &flag, out, st);
        break;
    default:
        MPI_Wait(req, MPI_STATUS_IGNORE);
    }
}

static void test_ibcast(MPI_Comm comm, int n, int root, int how)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *b = malloc(sizeof(int) * (size_t)(n + 1)), ok = 1;
    for (int i = 0; i < n; i++)
        b[i] = rank == root ? val(root, i) : -1;
    b[n] = -7; /* past the message: untouched */
    MPI_Request r;
    MPI_Ibcast(b, n, MPI_INT, root, comm, &r);
    complete(&r, how);
    for (int i = 0; i < n; i++)
        ok &= b[i] == val(root, i);
    check(ok && b[n] == -7, "ibcast", n, root);
    free(b);
}

/* A strided type: every other int of 2n. */
static void test_ibcast_vector(MPI_Comm comm, int n, int root, int persistent)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    MPI_Datatype vec;
    MPI_Type_vector(n, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int *b = malloc(sizeof(int) * (size_t)(2 * n + 1)), ok = 1;
    for (int i = 0; i < 2 * n; i++)
        b[i] = rank == root ? val(root, i) : -1;
    MPI_Request r;
#ifdef TEST_PERSISTENT
    if (persistent) { /* the type freed before the start (MPI-4): the request keeps it */
        MPI_Bcast_init(b, 1, vec, root, comm, MPI_INFO_NULL, &r);
#if MPI_VERSION >= 4 /* Open MPI 4.1.4's MPIX_Bcast_init does not: it crashes at the start */
        MPI_Type_free(&vec);
#endif
        MPI_Start(&r);
    } else
#endif
        MPI_Ibcast(b, 1, vec, root, comm, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    for (int i = 0; i < 2 * n; i++)
        ok &= b[i] == (i % 2 == 0 || rank == root ? val(root, i) : -1);
    check(ok, persistent ? "persistent bcast vector" : "ibcast vector", n, root);
    if (persistent)
        MPI_Request_free(&r);
    if (vec != MPI_DATATYPE_NULL)
        MPI_Type_free(&vec);
    free(b);
}

static void test_ireduce(MPI_Comm comm, int n, int root, int in_place, int how)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *s = malloc(sizeof(int) * (size_t)(n + 1)), *d = malloc(sizeof(int) * (size_t)(n + 1)), ok = 1;
    for (int i = 0; i < n; i++) {
        s[i] = val(rank, i);
        d[i] = rank == root && in_place ? s[i] : -1;
    }
    MPI_Request r;
    MPI_Ireduce(in_place && rank == root ? MPI_IN_PLACE : s, d, n, MPI_INT, MPI_SUM, root, comm, &r);
    complete(&r, how);
    if (rank == root)
        for (int i = 0; i < n; i++) {
            int want = 0;
            for (int q = 0; q < size; q++)
                want += val(q, i);
            ok &= d[i] == want;
        }
    check(ok, in_place ? "ireduce in place" : "ireduce", n, root);
    free(s);
    free(d);
}

static void test_iallreduce(MPI_Comm comm, int n, int in_place, int how)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double *s = malloc(sizeof(double) * (size_t)(n + 1)), *d = malloc(sizeof(double) * (size_t)(n + 1));
    int ok = 1;
    for (int i = 0; i < n; i++) {
        s[i] = val(rank, i);
        d[i] = in_place ? s[i] : -1;
    }
    MPI_Request r;
    MPI_Iallreduce(in_place ? MPI_IN_PLACE : s, d, n, MPI_DOUBLE, MPI_MAX, comm, &r);
    complete(&r, how);
    for (int i = 0; i < n; i++) {
        int want = 0;
        for (int q = 0; q < size; q++)
            want = val(q, i) > want ? val(q, i) : want;
        ok &= d[i] == (double)want;
    }
    check(ok, in_place ? "iallreduce in place" : "iallreduce", n, -1);
    free(s);
    free(d);
}

static void test_ialltoall(MPI_Comm comm, int n, int how)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    size_t all = (size_t)n * (size_t)size + 1;
    int *s = malloc(sizeof(int) * all), *d = malloc(sizeof(int) * all), ok = 1;
    for (int j = 0; j < size; j++)
        for (int i = 0; i < n; i++) {
            s[(size_t)j * n + i] = val(rank * size + j, i);
            d[(size_t)j * n + i] = -1;
        }
    MPI_Request r;
    MPI_Ialltoall(s, n, MPI_INT, d, n, MPI_INT, comm, &r);
    complete(&r, how);
    for (int j = 0; j < size; j++)
        for (int i = 0; i < n; i++)
            ok &= d[(size_t)j * n + i] == val(j * size + rank, i);
    check(ok, "ialltoall", n, -1);
    free(s);
    free(d);
}

/* Rank s sends (s + 2 d) % 3 * k elements to d, blocks packed in reverse
 * order of destination: the counts and displacements and the totals sent
 * and received. */
typedef struct vcounts {
    test_count_t *sc, *rc;
    test_displ_t *sd, *rd;
    int st, rt;
} vcounts_t;

static vcounts_t alltoallv_counts(int rank, int size, int k)
{
    vcounts_t v = {malloc(sizeof(test_count_t) * (size_t)size), malloc(sizeof(test_count_t) * (size_t)size),
                   malloc(sizeof(test_displ_t) * (size_t)size), malloc(sizeof(test_displ_t) * (size_t)size), 0, 0};
    for (int j = size - 1; j >= 0; j--) {
        v.sc[j] = (rank + 2 * j) % 3 * k;
        v.sd[j] = v.st;
        v.st += (int)v.sc[j];
    }
    for (int j = 0; j < size; j++) {
        v.rc[j] = (j + 2 * rank) % 3 * k;
        v.rd[j] = v.rt;
        v.rt += (int)v.rc[j];
    }
    return v;
}

static void alltoallv_free(vcounts_t *v)
{
    free(v->sc);
    free(v->rc);
    free(v->sd);
    free(v->rd);
}

/* alltoallv_counts's exchange. */
static void test_ialltoallv(MPI_Comm comm, int k)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    vcounts_t v = alltoallv_counts(rank, size, k);
    int *s = malloc(sizeof(int) * (size_t)(v.st + 1)), *d = malloc(sizeof(int) * (size_t)(v.rt + 1)), ok = 1;
    for (int j = 0; j < size; j++)
        for (int i = 0; i < v.sc[j]; i++)
            s[v.sd[j] + i] = val(rank * size + j, i);
    for (int i = 0; i < v.rt; i++)
        d[i] = -1;
    MPI_Request r;
    MPI_Ialltoallv(s, v.sc, v.sd, MPI_INT, d, v.rc, v.rd, MPI_INT, comm, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    for (int j = 0; j < size; j++)
        for (int i = 0; i < v.rc[j]; i++)
            ok &= d[v.rd[j] + i] == val(j * size + rank, i);
    check(ok, "ialltoallv", k, -1);
    free(s);
    free(d);
    alltoallv_free(&v);
}

/* 0 .. 4 in an order that `seed` sets, alike on every rank (the places of
 * five requests in a shuffled array). */
static void shuffle5(int order[5], unsigned seed)
{
    for (int i = 0; i < 5; i++)
        order[i] = i;
    for (int i = 4; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int)((seed >> 16) % (unsigned)(i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

/* MPI_Waitall over a shuffled array: a ring's Irecv and Isend, an
 * Iallreduce, an Ibcast, an Ialltoall; the receive's status intact. */
static void test_mixed_waitall(MPI_Comm comm, int n, unsigned seed)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int msg[3] = {rank, rank + 1, rank + 2}, got[3] = {-1, -1, -1};
    double *s = malloc(sizeof(double) * (size_t)(n + 1)), *d = malloc(sizeof(double) * (size_t)(n + 1));
    int *b = malloc(sizeof(int) * (size_t)(n + 1));
    int *as = malloc(sizeof(int) * (size_t)size), *ad = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < n; i++) {
        s[i] = val(rank, i);
        b[i] = rank == size - 1 ? val(7, i) : -1;
    }
    for (int j = 0; j < size; j++)
        as[j] = rank * 100 + j;
    MPI_Request r[5];
    MPI_Status stat[5];
    int slot[5];
    shuffle5(slot, seed);
    MPI_Irecv(got, 3, MPI_INT, left, 5, comm, &r[slot[0]]);
    MPI_Iallreduce(s, d, n, MPI_DOUBLE, MPI_SUM, comm, &r[slot[1]]);
    MPI_Isend(msg, 3, MPI_INT, right, 5, comm, &r[slot[2]]);
    MPI_Ibcast(b, n, MPI_INT, size - 1, comm, &r[slot[3]]);
    MPI_Ialltoall(as, 1, MPI_INT, ad, 1, MPI_INT, comm, &r[slot[4]]);
    MPI_Waitall(5, r, stat);
    int ok = 1, count = -1;
    MPI_Get_count(&stat[slot[0]], MPI_INT, &count);
    ok &= stat[slot[0]].MPI_SOURCE == left && stat[slot[0]].MPI_TAG == 5 && count == 3;
    ok &= got[0] == left && got[1] == left + 1 && got[2] == left + 2;
    for (int i = 0; i < n; i++) {
        double want = 0;
        for (int q = 0; q < size; q++)
            want += val(q, i);
        ok &= d[i] == want && b[i] == val(7, i);
    }
    for (int j = 0; j < size; j++)
        ok &= ad[j] == j * 100 + rank;
    check(ok, "waitall mixed with point-to-point", n, -1);
    free(s);
    free(d);
    free(b);
    free(as);
    free(ad);
}

/* MPI's progress rule: rank r > 0 waits in a blocking call for rank r + 1,
 * which sends only once its own broadcast has completed; so every
 * interior rank of the broadcast's tree must forward the data while it
 * sits in MPI_Recv (or MPI_Probe, MPI_Waitall, MPI_Barrier of a
 * communicator of the ranks from r on), else the last rank never gets it. */
static void test_progress_rule(MPI_Comm comm, int n, int how, int persistent)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *b = malloc(sizeof(int) * (size_t)(n + 1)), token = rank, got = -1, ok = 1;
    for (int i = 0; i < n; i++)
        b[i] = rank == 0 ? val(3, i) : -1;
    MPI_Request r, p2p;
    if (rank == 0)
        late();
#ifdef TEST_PERSISTENT
    if (persistent) {
        MPI_Bcast_init(b, n, MPI_INT, 0, comm, MPI_INFO_NULL, &r);
        MPI_Start(&r);
    } else
#endif
        MPI_Ibcast(b, n, MPI_INT, 0, comm, &r);
    if (rank > 0 && rank + 1 < size) {
        MPI_Status st;
        switch (how) {
        case 1:
            MPI_Probe(rank + 1, 9, comm, &st);
            MPI_Recv(&got, 1, MPI_INT, rank + 1, 9, comm, MPI_STATUS_IGNORE);
            break;
        case 2:
            MPI_Irecv(&got, 1, MPI_INT, rank + 1, 9, comm, &p2p);
            MPI_Waitall(1, &p2p, &st);
            break;
        default:
            MPI_Recv(&got, 1, MPI_INT, rank + 1, 9, comm, MPI_STATUS_IGNORE);
        }
        ok &= got == rank + 1;
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank > 1)
        MPI_Send(&token, 1, MPI_INT, rank - 1, 9, comm);
    for (int i = 0; i < n; i++)
        ok &= b[i] == val(3, i);
    if (persistent)
        MPI_Request_free(&r);
    check(ok, persistent ? "progress rule, persistent" : "progress rule (interior ranks blocked on their successors)",
          n, how);
    free(b);
}

/* The same with the interior ranks blocked in MPI_Allreduce on the
 * communicator of ranks 1 .. P-1, which the last rank joins only once its
 * broadcast has completed: the shim's allreduce or, forced native
 * (run_nonblocking.sh), the library's run as its nonblocking form; then
 * in MPI_Allgather, which the shim hands to the library. */
static void test_progress_rule_collective(MPI_Comm comm, int n)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Comm rest;
    MPI_Comm_split(comm, rank > 0, rank, &rest);
    int *b = malloc(sizeof(int) * (size_t)(n + 1)), in[2] = {rank, 1}, out[2] = {0, 0}, ok = 1;
    for (int i = 0; i < n; i++)
        b[i] = rank == 0 ? val(5, i) : -1;
    MPI_Allreduce(in, out, 2, MPI_INT, MPI_SUM, rest); /* set up: a wait of its own would step the engine */
    MPI_Request r;
    if (rank == 0)
        late();
    MPI_Ibcast(b, n, MPI_INT, 0, comm, &r);
    if (rank > 0 && rank + 1 < size)
        MPI_Allreduce(in, out, 2, MPI_INT, MPI_SUM, rest);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank > 0 && rank + 1 == size)
        MPI_Allreduce(in, out, 2, MPI_INT, MPI_SUM, rest);
    if (rank > 0)
        ok &= out[0] == size * (size - 1) / 2 && out[1] == size - 1;
    /* again in a collective the shim never runs (the library's allgather) */
    int *all = malloc(sizeof(int) * (size_t)size);
    if (rank == 0)
        late();
    MPI_Ibcast(b, n, MPI_INT, 0, comm, &r);
    if (rank > 0 && rank + 1 < size)
        MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, rest);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank > 0 && rank + 1 == size)
        MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, rest);
    for (int q = 1; rank > 0 && q < size; q++)
        ok &= all[q - 1] == q;
    free(all);
    for (int i = 0; i < n; i++)
        ok &= b[i] == val(5, i);
    check(ok, "progress rule (interior ranks in the library's allreduce)", n, -1);
    MPI_Comm_free(&rest);
    free(b);
}

/* Collectives on an intercommunicator are the library's, and stay
 * blocking with the engine on (driver.h, logp_driver_converts): groups
 * {0} and {1 .. P-1}; each rank of the second group in turn broadcasts
 * to the first (the others pass MPI_PROC_NULL and no buffer), then the second group's
 * ranks are summed at the first's.  Run as their nonblocking forms, Open
 * MPI 4.1.4's hung at the second root (its MPI_Ibcast does without the
 * shim too). */
static void test_intercomm(void)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2)
        return;
    int color = rank > 0, lrank, ok = 1;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local);
    MPI_Comm_rank(local, &lrank);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color ? 0 : 1, 77, &inter);
    for (int root = 0; root < size - 1; root++) {
        int b[4];
        for (int i = 0; i < 4; i++)
            b[i] = color ? val(root, i) : -1;
        int r = color == 0 ? root : lrank == root ? MPI_ROOT : MPI_PROC_NULL;
        if (r == MPI_PROC_NULL) /* its buffer is not significant: none, as mpi4py passes it */
            MPI_Bcast(NULL, 0, MPI_BYTE, r, inter);
        else
            MPI_Bcast(b, 4, MPI_INT, r, inter);
        for (int i = 0; color == 0 && i < 4; i++)
            ok &= b[i] == val(root, i);
    }
    int in = rank, out = -1;
    MPI_Reduce(&in, &out, 1, MPI_INT, MPI_SUM, color ? 0 : MPI_ROOT, inter);
    ok &= color || out == size * (size - 1) / 2;
    check(ok, "intercommunicator bcast from every root and reduce (the library's, blocking)", 4, -1);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

/* Several outstanding at once, completed in reverse order of start; more
 * of them than a communicator has tag slots. */
static void test_outstanding(MPI_Comm comm, int m, int n)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *b = malloc(sizeof(int) * (size_t)m * (size_t)(n + 1)), ok = 1;
    MPI_Request *r = malloc(sizeof(MPI_Request) * (size_t)m);
    for (int c = 0; c < m; c++) {
        int root = c % size, *x = b + (size_t)c * (n + 1);
        for (int i = 0; i < n; i++)
            x[i] = rank == root ? val(c, i) : -1;
        if (c % 2)
            MPI_Ibcast(x, n, MPI_INT, root, comm, &r[c]);
        else
            MPI_Iallreduce(MPI_IN_PLACE, x, n, MPI_INT, MPI_MAX, comm, &r[c]);
    }
    for (int c = m - 1; c >= 0; c--)
        MPI_Wait(&r[c], MPI_STATUS_IGNORE);
    for (int c = 0; c < m; c++)
        for (int i = 0; i < n; i++)
            ok &= b[(size_t)c * (n + 1) + i] == val(c, i);
    check(ok, "outstanding, completed in reverse order", m, n);
    free(b);
    free(r);
}

#ifdef TEST_PERSISTENT
/* Persistent collectives: initialized once, started `reps` times with new
 * data (start k's values are val(q + k, i)), each completed as `how`
 * says, then freed. */
static void test_pbcast(MPI_Comm comm, int n, int root, int how, int reps)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    int *b = malloc(sizeof(int) * (size_t)(n + 1)), ok = 1;
    MPI_Request r;
    MPI_Bcast_init(b, n, MPI_INT, root, comm, MPI_INFO_NULL, &r);
    for (int k = 0; k < reps; k++) {
        for (int i = 0; i < n; i++)
            b[i] = rank == root ? val(root + k, i) : -1;
        b[n] = -7;
        MPI_Start(&r);
        complete(&r, (how + k) % 4);
        for (int i = 0; i < n; i++)
            ok &= b[i] == val(root + k, i);
        ok &= b[n] == -7 && r != MPI_REQUEST_NULL; /* persistent: the request stays */
    }
    MPI_Request_free(&r);
    ok &= r == MPI_REQUEST_NULL;
    check(ok, "persistent bcast", n, root);
    free(b);
}

static void test_preduce(MPI_Comm comm, int n, int root, int in_place, int how, int reps)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *s = malloc(sizeof(int) * (size_t)(n + 1)), *d = malloc(sizeof(int) * (size_t)(n + 1)), ok = 1;
    MPI_Request r;
    MPI_Reduce_init(in_place && rank == root ? MPI_IN_PLACE : s, d, n, MPI_INT, MPI_SUM, root, comm, MPI_INFO_NULL,
                    &r);
    for (int k = 0; k < reps; k++) {
        for (int i = 0; i < n; i++) {
            s[i] = val(rank + k, i);
            d[i] = rank == root && in_place ? s[i] : -1;
        }
        MPI_Start(&r);
        complete(&r, (how + k) % 4);
        if (rank == root)
            for (int i = 0; i < n; i++) {
                int want = 0;
                for (int q = 0; q < size; q++)
                    want += val(q + k, i);
                ok &= d[i] == want;
            }
    }
    MPI_Request_free(&r);
    check(ok, in_place ? "persistent reduce in place" : "persistent reduce", n, root);
    free(s);
    free(d);
}

/* (integers: MAX on them is the idempotent class, which runs dissemination
 * where it is forced; test_iallreduce has the same on doubles) */
static void test_pallreduce(MPI_Comm comm, int n, int in_place, int how, int reps)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *s = malloc(sizeof(int) * (size_t)(n + 1)), *d = malloc(sizeof(int) * (size_t)(n + 1));
    int ok = 1;
    MPI_Request r;
    MPI_Allreduce_init(in_place ? MPI_IN_PLACE : s, d, n, MPI_INT, MPI_MAX, comm, MPI_INFO_NULL, &r);
    for (int k = 0; k < reps; k++) {
        for (int i = 0; i < n; i++) {
            s[i] = val(rank + k, i);
            d[i] = in_place ? s[i] : -1;
        }
        MPI_Start(&r);
        complete(&r, (how + k) % 4);
        for (int i = 0; i < n; i++) {
            int want = 0;
            for (int q = 0; q < size; q++)
                want = val(q + k, i) > want ? val(q + k, i) : want;
            ok &= d[i] == want;
        }
    }
    MPI_Request_free(&r);
    check(ok, in_place ? "persistent allreduce in place" : "persistent allreduce", n, reps);
    free(s);
    free(d);
}

static void test_palltoall(MPI_Comm comm, int n, int how, int reps)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    size_t all = (size_t)n * (size_t)size + 1;
    int *s = malloc(sizeof(int) * all), *d = malloc(sizeof(int) * all), ok = 1;
    MPI_Request r;
    MPI_Alltoall_init(s, n, MPI_INT, d, n, MPI_INT, comm, MPI_INFO_NULL, &r);
    for (int k = 0; k < reps; k++) {
        for (int j = 0; j < size; j++)
            for (int i = 0; i < n; i++) {
                s[(size_t)j * n + i] = val(rank * size + j + k, i);
                d[(size_t)j * n + i] = -1;
            }
        MPI_Start(&r);
        complete(&r, (how + k) % 4);
        for (int j = 0; j < size; j++)
            for (int i = 0; i < n; i++)
                ok &= d[(size_t)j * n + i] == val(j * size + rank + k, i);
    }
    MPI_Request_free(&r);
    check(ok, "persistent alltoall", n, -1);
    free(s);
    free(d);
}

/* alltoallv_counts's exchange, started reps times. */
static void test_palltoallv(MPI_Comm comm, int k, int reps)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    vcounts_t v = alltoallv_counts(rank, size, k);
    int *s = malloc(sizeof(int) * (size_t)(v.st + 1)), *d = malloc(sizeof(int) * (size_t)(v.rt + 1)), ok = 1;
    MPI_Request r;
    MPI_Alltoallv_init(s, v.sc, v.sd, MPI_INT, d, v.rc, v.rd, MPI_INT, comm, MPI_INFO_NULL, &r);
    for (int x = 0; x < reps; x++) {
        for (int j = 0; j < size; j++)
            for (int i = 0; i < v.sc[j]; i++)
                s[v.sd[j] + i] = val(rank * size + j + x, i);
        for (int i = 0; i < v.rt; i++)
            d[i] = -1;
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        for (int j = 0; j < size; j++)
            for (int i = 0; i < v.rc[j]; i++)
                ok &= d[v.rd[j] + i] == val(j * size + rank + x, i);
    }
    MPI_Request_free(&r);
    check(ok, "persistent alltoallv", k, -1);
    free(s);
    free(d);
    alltoallv_free(&v);
}

/* MPI_Startall of three persistent collectives, then MPI_Waitall over a
 * shuffled array with a ring's Irecv and Isend (the receive's status
 * intact), three times; MPI_Request_free of a request never started. */
static void test_pstartall(MPI_Comm comm, int n, unsigned seed)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size, ok = 1;
    double *s = malloc(sizeof(double) * (size_t)(n + 1)), *d = malloc(sizeof(double) * (size_t)(n + 1));
    int *b = malloc(sizeof(int) * (size_t)(n + 1));
    int *as = malloc(sizeof(int) * (size_t)size), *ad = malloc(sizeof(int) * (size_t)size);
    MPI_Request coll[3], never;
    MPI_Allreduce_init(s, d, n, MPI_DOUBLE, MPI_SUM, comm, MPI_INFO_NULL, &coll[0]);
    MPI_Bcast_init(b, n, MPI_INT, size - 1, comm, MPI_INFO_NULL, &coll[1]);
    MPI_Alltoall_init(as, 1, MPI_INT, ad, 1, MPI_INT, comm, MPI_INFO_NULL, &coll[2]);
    MPI_Bcast_init(b, n, MPI_INT, 0, comm, MPI_INFO_NULL, &never);
    for (int k = 0; k < 3; k++) {
        int msg = rank + k, got = -1;
        for (int i = 0; i < n; i++) {
            s[i] = val(rank + k, i);
            d[i] = -1;
            b[i] = rank == size - 1 ? val(7 + k, i) : -1;
        }
        for (int j = 0; j < size; j++)
            as[j] = rank * 100 + j + k;
        MPI_Request r[5];
        MPI_Startall(3, coll);
        r[0] = coll[0];
        r[1] = coll[1];
        r[2] = coll[2];
        MPI_Irecv(&got, 1, MPI_INT, left, 5, comm, &r[3]);
        MPI_Isend(&msg, 1, MPI_INT, right, 5, comm, &r[4]);
        int order[5];
        shuffle5(order, seed + (unsigned)k);
        MPI_Request shuffled[5];
        MPI_Status st[5];
        int recv_at = 0;
        for (int i = 0; i < 5; i++) {
            shuffled[i] = r[order[i]];
            if (order[i] == 3)
                recv_at = i;
        }
        MPI_Waitall(5, shuffled, st);
        ok &= got == left + k && st[recv_at].MPI_SOURCE == left && st[recv_at].MPI_TAG == 5;
        for (int i = 0; i < 5; i++) /* the persistent ones stay, the others are done */
            ok &= order[i] < 3 ? shuffled[i] == coll[order[i]] : shuffled[i] == MPI_REQUEST_NULL;
        for (int i = 0; i < n; i++) {
            double want = 0;
            for (int q = 0; q < size; q++)
                want += val(q + k, i);
            ok &= d[i] == want && b[i] == val(7 + k, i);
        }
        for (int j = 0; j < size; j++)
            ok &= ad[j] == j * 100 + rank + k;
    }
    for (int i = 0; i < 3; i++)
        MPI_Request_free(&coll[i]);
    MPI_Request_free(&never);
    ok &= never == MPI_REQUEST_NULL;
    check(ok, "persistent startall, waitall with point-to-point", n, -1);
    free(s);
    free(d);
    free(b);
    free(as);
    free(ad);
}
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - world_rank, &rev);
    MPI_Comm comms[2] = {MPI_COMM_WORLD, rev};
    static const int counts[] = {0, 1, 7, 1000, 70000};
    for (int c = 0; c < 2; c++) {
        MPI_Comm comm = comms[c];
        /* the communicator's first call: a blocking one sets it up (a
         * nonblocking call cannot: it goes to the library until then) */
        int one = 1, all = 0;
        MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, comm);
        check(all == size, "set-up allreduce", 1, -1);
        for (unsigned k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            int n = counts[k];
            if (c == 1 && n == 70000)
                continue;
            for (int root = 0; root < size; root++) {
                test_ibcast(comm, n, root, (root + k) % 4);
                test_ireduce(comm, n, root, 0, (root + k + 1) % 4);
                test_ireduce(comm, n, root, 1, (root + k + 2) % 4);
            }
            test_ibcast_vector(comm, n, size - 1, 0);
            test_iallreduce(comm, n, 0, k % 4);
            test_iallreduce(comm, n, 1, (k + 1) % 4);
            test_ialltoall(comm, n > 1000 ? n / 10 : n, (k + 2) % 4);
            test_ialltoallv(comm, n > 1000 ? n / 10 : n);
            test_mixed_waitall(comm, n, 17u + k);
        }
        for (int how = 0; how < 3; how++)
            test_progress_rule(comm, how == 1 ? 20000 : 10, how, 0);
#ifdef TEST_PERSISTENT
        for (unsigned k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            int n = counts[k], reps = n > 1000 ? 2 : 3;
            if (c == 1 && n == 70000)
                continue;
            for (int root = 0; root < size; root++) {
                test_pbcast(comm, n, root, (root + k) % 4, reps);
                test_preduce(comm, n, root, root % 2, (root + k + 1) % 4, reps);
            }
            test_ibcast_vector(comm, n, size - 1, 1);
            test_pallreduce(comm, n, k % 2, k % 4, reps);
            test_palltoall(comm, n > 1000 ? n / 10 : n, (k + 2) % 4, reps);
            test_palltoallv(comm, n > 1000 ? n / 10 : n, reps);
            test_pstartall(comm, n, 29u + k);
        }
        test_pallreduce(comm, 5, 0, 0, 100); /* started 100 times */
        for (int how = 0; how < 3; how++)
            test_progress_rule(comm, how == 1 ? 20000 : 10, how, 1);
#endif
        test_progress_rule_collective(comm, 10);
        test_outstanding(comm, 40, 5);
        test_outstanding(comm, 5, 3000);
    }
#ifndef LOGP_BUILD_SMPI /* SimGrid 3.32 SMPI has no intercommunicators (scripts/smpi-test.sh) */
    test_intercomm();
#endif
    MPI_Comm_free(&rev);
    int sums[2] = {passed, failed}, tot[2];
    MPI_Reduce(sums, tot, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (world_rank == 0)
        printf("nonblocking: %d passed, %d failed\n", tot[0], tot[1]);
    MPI_Finalize();
    return failed != 0;
}
