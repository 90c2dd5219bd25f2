/* Experiment 5 (MPICH 4.0.2): PMPI point-to-point from inside poll_fn / wait_fn.
 * Each greq is a tiny state machine: ROUNDS rounds of {PMPI_Irecv from peer, PMPI_Isend to peer}
 * on a private duplicated communicator, advanced with PMPI_Testall (or PMPI_Waitall in "blocking" mode).
 * Run with 1 rank (peer = self) or 2 ranks (peer = other rank). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 50
typedef struct {
    MPI_Request greq, r[2];
    int round, posted, done, sbuf, rbuf, blocking, tag;
    long polls, waits;
} sm_t;

static MPI_Comm priv; static int rank, size, peer;

static void step(sm_t *s)
{
    if (s->done) return;
    if (!s->posted) {
        s->sbuf = rank * 1000 + s->round;
        PMPI_Irecv(&s->rbuf, 1, MPI_INT, peer, s->tag, priv, &s->r[0]);
        PMPI_Isend(&s->sbuf, 1, MPI_INT, peer, s->tag, priv, &s->r[1]);
        s->posted = 1;
    }
    int flag = 0;
    if (s->blocking) { PMPI_Waitall(2, s->r, MPI_STATUSES_IGNORE); flag = 1; }
    else PMPI_Testall(2, s->r, &flag, MPI_STATUSES_IGNORE);
    if (flag) {
        if (s->rbuf != peer * 1000 + s->round) { printf("rank %d BAD DATA round %d got %d\n", rank, s->round, s->rbuf); }
        s->posted = 0;
        if (++s->round == ROUNDS) { s->done = 1; PMPI_Grequest_complete(s->greq); }
    }
}
static int poll_fn(void *es, MPI_Status *st) { (void)st; ((sm_t *)es)->polls++; step(es); return MPI_SUCCESS; }
static int wait_fn(int n, void **es, double t, MPI_Status *st) { (void)t; (void)st; for (int i = 0; i < n; i++) { ((sm_t *)es[i])->waits++; step(es[i]); } return MPI_SUCCESS; }
static int query_fn(void *es, MPI_Status *s) { (void)es; MPI_Status_set_elements(s, MPI_BYTE, 0); MPI_Status_set_cancelled(s, 0); return MPI_SUCCESS; }
static int free_fn(void *es) { (void)es; return MPI_SUCCESS; }
static int cancel_fn(void *es, int c) { (void)es; (void)c; return MPI_SUCCESS; }

static sm_t *start(int blocking, int tag)
{
    sm_t *s = calloc(1, sizeof *s); s->blocking = blocking; s->tag = tag;
    MPIX_Grequest_start(query_fn, free_fn, cancel_fn, poll_fn, wait_fn, s, &s->greq);
    return s;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init(&argc, &argv);
    MPI_Query_thread(&provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = size > 1 ? (rank ^ 1) : rank;
    PMPI_Comm_dup(MPI_COMM_WORLD, &priv);
    if (rank == 0) printf("size=%d provided=%d ROUNDS=%d\n", size, provided, ROUNDS);
    double t;
    for (int blocking = 0; blocking < 2; blocking++) {
        const char *m = blocking ? "PMPI_Waitall inside callback" : "PMPI_Testall inside callback";
        /* 1. MPI_Wait on the greq */
        { sm_t *s = start(blocking, 1); MPI_Request r = s->greq; t = MPI_Wtime();
          MPI_Wait(&r, MPI_STATUS_IGNORE);
          if (rank == 0) printf("[%s] MPI_Wait: ok rounds=%d polls=%ld waits=%ld %.3fs\n", m, s->round, s->polls, s->waits, MPI_Wtime() - t); }
        /* 2. MPI_Test loop */
        { sm_t *s = start(blocking, 2); MPI_Request r = s->greq; int flag = 0; long it = 0; t = MPI_Wtime();
          while (!flag) { MPI_Test(&r, &flag, MPI_STATUS_IGNORE); it++; }
          if (rank == 0) printf("[%s] MPI_Test loop: ok rounds=%d iters=%ld polls=%ld %.3fs\n", m, s->round, it, s->polls, MPI_Wtime() - t); }
        /* 3. MPI_Waitall over [greqA, greqB, Irecv, Isend] on COMM_WORLD */
        { sm_t *a = start(blocking, 3), *b = start(blocking, 4); MPI_Request rq[4]; int x = 1, y = 0;
          rq[0] = a->greq; rq[1] = b->greq;
          MPI_Irecv(&y, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, &rq[2]);
          MPI_Isend(&x, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, &rq[3]);
          t = MPI_Wtime();
          MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
          if (rank == 0) printf("[%s] MPI_Waitall[greq,greq,Irecv,Isend]: ok rounds=%d/%d waits=%ld/%ld polls=%ld/%ld %.3fs\n", m, a->round, b->round, a->waits, b->waits, a->polls, b->polls, MPI_Wtime() - t); }
        /* 4. MPI_Waitany / Testsome */
        { sm_t *a = start(blocking, 5); MPI_Request r = a->greq; int idx; t = MPI_Wtime();
          MPI_Waitany(1, &r, &idx, MPI_STATUS_IGNORE);
          if (rank == 0) printf("[%s] MPI_Waitany: ok rounds=%d polls=%ld waits=%ld %.3fs\n", m, a->round, a->polls, a->waits, MPI_Wtime() - t); }
    }
    PMPI_Comm_free(&priv);
    MPI_Finalize();
    return 0;
}
