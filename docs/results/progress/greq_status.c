/* MPICH: status pointer passed to poll_fn/wait_fn, and MPI_Request_get_status / MPI_Cancel behaviour */
#include <mpi.h>
#include <stdio.h>
static long polls, waits; static MPI_Request me; static int fire = -1;
static void maybe(void) { if (fire >= 0 && polls + waits >= fire) { fire = -1; MPI_Grequest_complete(me); } }
static int poll_fn(void *e, MPI_Status *s) { (void)e; polls++; if (polls == 1) printf("  poll_fn status ptr=%p\n", (void *)s); maybe(); return 0; }
static int wait_fn(int n, void **e, double t, MPI_Status *s) { (void)e; waits++; if (waits == 1) printf("  wait_fn n=%d timeout=%g status ptr=%p\n", n, t, (void *)s); maybe(); return 0; }
static int q(void *e, MPI_Status *s) { (void)e; MPI_Status_set_elements(s, MPI_BYTE, 0); MPI_Status_set_cancelled(s, 0); return 0; }
static int f(void *e) { (void)e; return 0; }
static int c(void *e, int x) { (void)e; printf("  cancel_fn(complete=%d)\n", x); return 0; }
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    printf("MPI_STATUS_IGNORE=%p MPI_STATUSES_IGNORE=%p\n", (void *)MPI_STATUS_IGNORE, (void *)MPI_STATUSES_IGNORE);
    MPI_Request r; int flag;
    MPIX_Grequest_start(q, f, c, poll_fn, wait_fn, NULL, &r); me = r;
    polls = waits = 0; for (int i = 0; i < 5; i++) MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
    printf("5x MPI_Request_get_status: polls=%ld waits=%ld\n", polls, waits);
    polls = waits = 0; fire = 3; MPI_Waitall(1, &r, MPI_STATUSES_IGNORE);
    printf("MPI_Waitall(1, STATUSES_IGNORE): polls=%ld waits=%ld\n", polls, waits);
    MPIX_Grequest_start(q, f, c, poll_fn, wait_fn, NULL, &r); me = r;
    polls = waits = 0; fire = 3; MPI_Testall(1, &r, &flag, MPI_STATUSES_IGNORE); MPI_Testall(1, &r, &flag, MPI_STATUSES_IGNORE); MPI_Testall(1, &r, &flag, MPI_STATUSES_IGNORE);
    printf("3x MPI_Testall(STATUSES_IGNORE): polls=%ld waits=%ld flag=%d\n", polls, waits, flag);
    MPIX_Grequest_start(q, f, c, poll_fn, wait_fn, NULL, &r); me = r;
    polls = waits = 0; MPI_Cancel(&r); printf("MPI_Cancel: polls=%ld\n", polls); MPI_Grequest_complete(r); MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Finalize(); return 0;
}
