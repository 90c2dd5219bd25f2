/* MPI_THREAD_MULTIPLE: several threads, each with its own communicator,
 * run collectives at the same time through the shim; the shim sets up each
 * communicator's state concurrently (communicators of one group, so the
 * set-ups race for the tags on one private communicator: REPEATS fresh
 * sets of communicators).  Prints "test_threads: N passed, M failed" on
 * rank 0. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 3
#define ROUNDS 10
#define REPEATS 8

typedef struct {
    MPI_Comm comm;
    int id, pass, fail;
} job_t;

static void *work(void *arg)
{
    job_t *j = arg;
    int r, P;
    MPI_Comm_rank(j->comm, &r);
    MPI_Comm_size(j->comm, &P);
    int *a = malloc(sizeof(int) * 64 * (size_t)P), *b = malloc(sizeof(int) * 64 * (size_t)P);
    for (int round = 0; round < ROUNDS; round++) {
        int n = 1 + (round * 7 + j->id) % 64, root = (round + j->id) % P, ok = 1;
        for (int i = 0; i < n; i++)
            a[i] = r == root ? j->id * 1000 + round + i : -1;
        MPI_Bcast(a, n, MPI_INT, root, j->comm);
        for (int i = 0; i < n; i++)
            ok &= a[i] == j->id * 1000 + round + i;
        for (int i = 0; i < n; i++)
            a[i] = r + i + j->id;
        MPI_Reduce(a, b, n, MPI_INT, MPI_SUM, root, j->comm);
        if (r == root)
            for (int i = 0; i < n; i++)
                ok &= b[i] == P * (P - 1) / 2 + P * (i + j->id);
        for (int k = 0; k < P * n; k++)
            a[k] = r * 100000 + (k / n) * 100 + j->id;
        MPI_Alltoall(a, n, MPI_INT, b, n, MPI_INT, j->comm);
        for (int k = 0; k < P * n; k++)
            ok &= b[k] == (k / n) * 100000 + r * 100 + j->id;
        if (ok)
            j->pass++;
        else
            j->fail++;
    }
    free(a);
    free(b);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("test_threads: MPI_THREAD_MULTIPLE not provided: 0 passed, 0 failed\n");
        MPI_Finalize();
        return 0;
    }
    job_t jobs[NTHREADS];
    pthread_t th[NTHREADS];
    int loc[2] = {0, 0}, tot[2];
    for (int rep = 0; rep < REPEATS; rep++) {
        for (int t = 0; t < NTHREADS; t++) {
            jobs[t].id = t + NTHREADS * rep;
            jobs[t].pass = jobs[t].fail = 0;
            PMPI_Comm_dup(MPI_COMM_WORLD, &jobs[t].comm);
        }
        for (int t = 0; t < NTHREADS; t++)
            pthread_create(&th[t], NULL, work, &jobs[t]);
        for (int t = 0; t < NTHREADS; t++)
            pthread_join(th[t], NULL);
        for (int t = 0; t < NTHREADS; t++) {
            loc[0] += jobs[t].pass;
            loc[1] += jobs[t].fail;
            MPI_Comm_free(&jobs[t].comm);
        }
    }
    PMPI_Reduce(loc, tot, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_threads: %d passed, %d failed\n", tot[0], tot[1]);
    MPI_Finalize();
    return 0;
}
