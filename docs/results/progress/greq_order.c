/* MPICH: Waitall/Wait on greqs whose completion depends on the peer progressing a *different* greq.
 * rank0 waits [A,B], rank1 waits [B,A]. mode "local": callback steps only the state(s) passed in;
 * mode "global": callback steps every active state machine (shim-wide engine). argv[1]=local|global, argv[2]=waitall|wait */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define ROUNDS 20
typedef struct sm { MPI_Request greq, r[2]; int round, posted, done, sbuf, rbuf, tag; struct sm *next; } sm_t;
static MPI_Comm priv; static int rank, peer, global; static sm_t *active;
static void step(sm_t *s)
{
    if (s->done) return;
    if (!s->posted) { PMPI_Irecv(&s->rbuf, 1, MPI_INT, peer, s->tag, priv, &s->r[0]); PMPI_Isend(&s->sbuf, 1, MPI_INT, peer, s->tag, priv, &s->r[1]); s->posted = 1; }
    int f; PMPI_Testall(2, s->r, &f, MPI_STATUSES_IGNORE);
    if (f) { s->posted = 0; if (++s->round == ROUNDS) { s->done = 1; PMPI_Grequest_complete(s->greq); } }
}
static void drive(sm_t *s) { if (global) { for (sm_t *p = active; p; p = p->next) step(p); } else step(s); }
static int poll_fn(void *es, MPI_Status *st) { (void)st; drive(es); return 0; }
static int wait_fn(int n, void **es, double t, MPI_Status *st) { (void)t; (void)st; for (int i = 0; i < n; i++) drive(es[i]); return 0; }
static int query_fn(void *es, MPI_Status *s) { (void)es; MPI_Status_set_elements(s, MPI_BYTE, 0); MPI_Status_set_cancelled(s, 0); return 0; }
static int free_fn(void *es) { (void)es; return 0; }
static int cancel_fn(void *es, int c) { (void)es; (void)c; return 0; }
static sm_t *start(int tag) { sm_t *s = calloc(1, sizeof *s); s->tag = tag; s->next = active; active = s;
    MPIX_Grequest_start(query_fn, free_fn, cancel_fn, poll_fn, wait_fn, s, &s->greq); return s; }
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv); MPI_Comm_rank(MPI_COMM_WORLD, &rank); peer = rank ^ 1;
    global = !strcmp(argv[1], "global"); int waitall = !strcmp(argv[2], "waitall");
    PMPI_Comm_dup(MPI_COMM_WORLD, &priv);
    sm_t *a = start(1), *b = start(2);
    MPI_Request rq[2];
    if (rank == 0) { rq[0] = a->greq; rq[1] = b->greq; } else { rq[0] = b->greq; rq[1] = a->greq; }
    if (waitall) MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    else { MPI_Wait(&rq[0], MPI_STATUS_IGNORE); MPI_Wait(&rq[1], MPI_STATUS_IGNORE); }
    printf("rank %d mode=%s %s: completed A.round=%d B.round=%d\n", rank, argv[1], argv[2], a->round, b->round);
    MPI_Finalize(); return 0;
}
