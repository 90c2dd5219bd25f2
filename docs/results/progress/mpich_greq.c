/* Experiment 1 (MPICH 4.0.2): when are MPIX generalized-request poll_fn / wait_fn called?
 * Run with 2 ranks. Rank 0 measures; rank 1 is the (delayed) partner.
 * Usage: mpich_greq [class]   -- "class": create requests via MPIX_Grequest_class_create/allocate */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct st {
    MPI_Request req;
    long polls;
    long complete_after; /* complete when polls reaches this (0 = never) */
    int done;
    int id;
} st_t;

static int verbose_wait;
static long n_poll, n_wait, n_query, n_free, n_cancel;
static int last_wait_count; static double last_wait_timeout; static int wait_ids[8];
static int rank;

static void bump(st_t *s)
{
    s->polls++;
    if (!s->done && s->complete_after > 0 && s->polls >= s->complete_after) {
        s->done = 1;
        MPI_Grequest_complete(s->req);
    }
}
static int poll_fn(void *es, MPI_Status *status) { (void)status; n_poll++; bump(es); return MPI_SUCCESS; }
static int wait_fn(int count, void **states, double timeout, MPI_Status *status)
{
    (void)status;
    n_wait++;
    last_wait_count = count; last_wait_timeout = timeout;
    if (rank == 0 && verbose_wait) { printf("      wait_fn(count=%d, timeout=%g, ids=", count, timeout); for (int i = 0; i < count; i++) printf("%d%s", ((st_t *)states[i])->id, i + 1 < count ? "," : ")\n"); }
    for (int i = 0; i < count && i < 8; i++) { wait_ids[i] = ((st_t *)states[i])->id; bump(states[i]); }
    return MPI_SUCCESS;
}
/* a wait_fn that does nothing but count (MPICH 4.0.2 rejects wait_fn==NULL) */
static int wait_noop(int count, void **states, double timeout, MPI_Status *status)
{
    (void)states; (void)status;
    n_wait++; last_wait_count = count; last_wait_timeout = timeout;
    return MPI_SUCCESS;
}
static int query_fn(void *es, MPI_Status *s) { (void)es; n_query++; MPI_Status_set_elements(s, MPI_BYTE, 0); MPI_Status_set_cancelled(s, 0); s->MPI_SOURCE = MPI_UNDEFINED; s->MPI_TAG = MPI_UNDEFINED; return MPI_SUCCESS; }
static int free_fn(void *es) { (void)es; n_free++; /* state leaked on purpose: test code inspects it after completion */ return MPI_SUCCESS; }
static int cancel_fn(void *es, int c) { (void)es; (void)c; n_cancel++; return MPI_SUCCESS; }

static int use_class;
static MPIX_Grequest_class cls_poll, cls_pollwait;
static int next_id;
static int wwfirst;

static st_t *mk(long complete_after, int with_wait)
{
    st_t *s = calloc(1, sizeof *s);
    s->complete_after = complete_after; s->id = next_id++;
    if (use_class)
        MPIX_Grequest_class_allocate(with_wait ? cls_pollwait : cls_poll, s, &s->req);
    else
        MPIX_Grequest_start(query_fn, free_fn, cancel_fn, poll_fn, with_wait ? wait_fn : wait_noop, s, &s->req);
    return s;
}
static void finish(st_t *s) /* force completion and reap */
{
    MPI_Request r = s->req;
    if (!s->done) { s->done = 1; MPI_Grequest_complete(r); }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
}

#define SNAP long p0 = n_poll, w0 = n_wait
#define REPORT(name) do { if (rank == 0) printf("%-58s polls=%ld waits=%ld%s\n", name, n_poll - p0, n_wait - w0, ""); fflush(stdout);} while (0)

int main(int argc, char **argv)
{
    int provided, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    use_class = argc > 1 && !strcmp(argv[1], "class");
    wwfirst = argc > 2 ? atoi(argv[2]) : 0;
    /* note: MPIX_Grequest_class_create rejects wait_fn==NULL ("Null pointer in parameter wait_fn"),
       so a poll-only class is impossible; class mode uses poll+wait_fn for both variants */
    MPIX_Grequest_class_create(query_fn, free_fn, cancel_fn, poll_fn, wait_noop, &cls_poll);
    MPIX_Grequest_class_create(query_fn, free_fn, cancel_fn, poll_fn, wait_fn, &cls_pollwait);
    if (rank == 0) printf("provided=%d use_class=%d size=%d\n", provided, use_class, size);

    enum { BIG = 1 << 20 };
    char *big = calloc(BIG, 1);
    int x = 0, y = 0;

    if (rank == 0) {
        /* (a) MPI_Test on the greq itself */
        for (int ww = 0; ww < 2; ww++) {
            st_t *s = mk(0, ww); int flag; SNAP;
            for (int i = 0; i < 10; i++) MPI_Test(&s->req, &flag, MPI_STATUS_IGNORE);
            REPORT(ww ? "(a) 10x MPI_Test(greq) [wait_fn=polls]" : "(a) 10x MPI_Test(greq) [wait_fn=noop]");
            finish(s);
        }
        /* (b) MPI_Wait on greq; greq completes at 5th poll/wait */
        for (int ww = 0; ww < 2; ww++) {
            st_t *s = mk(5, ww); SNAP;
            MPI_Wait(&s->req, MPI_STATUS_IGNORE);
            REPORT(ww ? "(b) MPI_Wait(greq, completes@5) [wait_fn=polls]" : "(b) MPI_Wait(greq, completes@5) [wait_fn=noop]");
            printf("    last wait_fn args: count=%d timeout=%g\n", last_wait_count, last_wait_timeout);
        }
        /* (c) array calls mixing greq(s) with Isend/Irecv to self */
        const char *names[] = {"Waitall", "Waitany", "Waitsome", "Testall(x10)", "Testany(x10)", "Testsome(x10)"};
        for (int ww = wwfirst; ww < 2; ww++)
            for (int k = 0; k < 6; k++)
                for (int ng = 1; ng <= 2; ng++) {
                    MPI_Request rq[4]; st_t *g[2];
                    for (int j = 0; j < ng; j++) { g[j] = mk(k >= 3 ? 0 : 5, ww); rq[j] = g[j]->req; }
                    MPI_Irecv(&y, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &rq[ng]);
                    MPI_Isend(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &rq[ng + 1]);
                    int n = ng + 2, idx, out, ids[4], flag;
                    last_wait_count = -1; last_wait_timeout = -99;
                    fprintf(stderr, "  starting (c) %s ng=%d ww=%d\n", names[k], ng, ww);
                    SNAP;
                    switch (k) {
                    case 0: MPI_Waitall(n, rq, MPI_STATUSES_IGNORE); break;
                    case 1: MPI_Waitany(n, rq, &idx, MPI_STATUS_IGNORE); break;
                    case 2: MPI_Waitsome(n, rq, &out, ids, MPI_STATUSES_IGNORE); break;
                    case 3: for (int i = 0; i < 10; i++) MPI_Testall(n, rq, &flag, MPI_STATUSES_IGNORE); break;
                    case 4: for (int i = 0; i < 10; i++) MPI_Testany(n, rq, &idx, &flag, MPI_STATUS_IGNORE); break;
                    case 5: for (int i = 0; i < 10; i++) MPI_Testsome(n, rq, &out, ids, MPI_STATUSES_IGNORE); break;
                    }
                    char nm[128];
                    snprintf(nm, sizeof nm, "(c) %s([%d greq%s, Irecv, Isend])%s", names[k], ng, ng > 1 ? "s" : "",
                             ww ? " [wait_fn=polls]" : " [wait_fn=noop]");
                    REPORT(nm);
                    if (n_wait - w0 > 0) printf("    last wait_fn args: count=%d timeout=%g ids=%d%s\n", last_wait_count, last_wait_timeout, wait_ids[0], last_wait_count > 1 ? ",..." : "");
                    for (int j = 0; j < ng; j++) if (!g[j]->done) { g[j]->done = 1; MPI_Grequest_complete(g[j]->req); }
                    MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
                }
        /* (c2) Waitany/Waitsome/Waitall where the only way to finish is the greq (other req = unmatched Irecv) */
        verbose_wait = 1;
        for (int ww = wwfirst; ww < 2; ww++)
            for (int k = 0; k < 3; k++) {
                MPI_Request rq[3]; st_t *g0 = mk(5, ww), *g1 = mk(5, ww);
                rq[0] = g0->req; rq[1] = g1->req;
                MPI_Irecv(&y, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &rq[2]);
                int idx, out, ids[3]; char nm[128];
                fprintf(stderr, "  starting (c2) k=%d ww=%d\n", k, ww);
                SNAP;
                if (k == 0) MPI_Waitany(3, rq, &idx, MPI_STATUS_IGNORE);
                else if (k == 1) MPI_Waitsome(3, rq, &out, ids, MPI_STATUSES_IGNORE);
                else MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
                snprintf(nm, sizeof nm, "(c2) %s([greq@5, greq@5%s])%s", k == 0 ? "Waitany" : k == 1 ? "Waitsome" : "Waitall",
                         k == 2 ? "" : ", unmatched Irecv", ww ? " [wait_fn=polls]" : " [wait_fn=noop]");
                REPORT(nm);
                if (!g0->done) { g0->done = 1; MPI_Grequest_complete(g0->req); }
                if (!g1->done) { g1->done = 1; MPI_Grequest_complete(g1->req); }
                MPI_Cancel(&rq[2]);
                MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
            }
        verbose_wait = 0;
        /* (d) blocking calls on OTHER requests with a pending (never self-completing) greq */
        for (int ww = 0; ww < 2; ww++) {
            const char *sfx = ww ? " [wait_fn=polls]" : " [wait_fn=noop]";
            char nm[128];
            st_t *s = mk(0, ww);
            MPI_Barrier(MPI_COMM_WORLD); /* sync 1 */
            { SNAP; MPI_Recv(&y, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); snprintf(nm, 128, "(d) MPI_Recv, peer sends after 200ms%s", sfx); REPORT(nm); }
            { SNAP; MPI_Send(big, BIG, MPI_CHAR, 1, 2, MPI_COMM_WORLD); snprintf(nm, 128, "(d) MPI_Send 1MB, peer posts recv after 200ms%s", sfx); REPORT(nm); }
            { SNAP; MPI_Status st; MPI_Probe(1, 3, MPI_COMM_WORLD, &st); snprintf(nm, 128, "(d) MPI_Probe, peer sends after 200ms%s", sfx); REPORT(nm);
              MPI_Recv(&y, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
            { SNAP; MPI_Barrier(MPI_COMM_WORLD); snprintf(nm, 128, "(d) MPI_Barrier, peer enters after 200ms%s", sfx); REPORT(nm); }
            { SNAP; MPI_Bcast(&y, 1, MPI_INT, 1, MPI_COMM_WORLD); snprintf(nm, 128, "(d) MPI_Bcast root=1, root enters after 200ms%s", sfx); REPORT(nm); }
            { MPI_Request r; MPI_Irecv(&y, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &r); SNAP; MPI_Wait(&r, MPI_STATUS_IGNORE); snprintf(nm, 128, "(d) MPI_Wait(other Irecv), peer sends after 200ms%s", sfx); REPORT(nm); }
            { MPI_Request r; int flag = 0; long it = 0; MPI_Irecv(&y, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &r); SNAP;
              while (!flag) { MPI_Test(&r, &flag, MPI_STATUS_IGNORE); it++; }
              snprintf(nm, 128, "(d) MPI_Test(other Irecv) loop (%ld iters)%s", it, sfx); REPORT(nm); }
            { int flag = 0; long it = 0; SNAP; while (!flag) { MPI_Iprobe(1, 6, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); it++; }
              snprintf(nm, 128, "(d) MPI_Iprobe loop (%ld iters)%s", it, sfx); REPORT(nm); MPI_Recv(&y, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
            finish(s);
        }
    } else if (rank == 1) {
        for (int ww = 0; ww < 2; ww++) {
            MPI_Barrier(MPI_COMM_WORLD);
            usleep(200000); MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
            usleep(200000); MPI_Recv(big, BIG, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            usleep(200000); MPI_Send(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
            usleep(200000); MPI_Barrier(MPI_COMM_WORLD);
            usleep(200000); MPI_Bcast(&x, 1, MPI_INT, 1, MPI_COMM_WORLD);
            usleep(200000); MPI_Send(&x, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
            usleep(200000); MPI_Send(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
            usleep(200000); MPI_Send(&x, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
        }
    }
    if (rank == 0) printf("totals: polls=%ld waits=%ld query=%ld free=%ld\n", n_poll, n_wait, n_query, n_free);
    MPI_Finalize();
    return 0;
}
