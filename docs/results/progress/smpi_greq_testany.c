/* SimGrid 3.32 SMPI: MPI_Testany on an array holding one generalized request
 * reports "no active request" (flag 1, index MPI_UNDEFINED) before and after
 * MPI_Grequest_complete, and does not free it; MPI_Testsome and MPI_Testall
 * see it.  Why src/coll/engine.c tests request by request in SMPI.
 *   smpicc -o gq smpi_greq_testany.c && smpirun -np 1 -platform P.xml ./gq */
#include <mpi.h>
#include <stdio.h>
static int q(void *e, MPI_Status *s) { (void)e; MPI_Status_set_elements(s, MPI_BYTE, 0); MPI_Status_set_cancelled(s, 0); return MPI_SUCCESS; }
static int f(void *e) { (void)e; return MPI_SUCCESS; }
static int c(void *e, int x) { (void)e; (void)x; return MPI_SUCCESS; }
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Request r; int flag = -1, idx = -5, out = -5, ind[1];
    MPI_Grequest_start(q, f, c, NULL, &r);
    MPI_Testany(1, &r, &idx, &flag, MPI_STATUS_IGNORE);
    printf("testany before: flag=%d idx=%d\n", flag, idx);
    MPI_Testsome(1, &r, &out, ind, MPI_STATUSES_IGNORE);
    printf("testsome before: out=%d\n", out);
    MPI_Testall(1, &r, &flag, MPI_STATUSES_IGNORE);
    printf("testall before: flag=%d\n", flag);
    MPI_Grequest_complete(r);
    MPI_Testany(1, &r, &idx, &flag, MPI_STATUS_IGNORE);
    printf("testany after: flag=%d idx=%d null=%d\n", flag, idx, r == MPI_REQUEST_NULL);
    MPI_Finalize(); return 0;
}
