#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int buf[4] = {0}, out[4], rank, size; MPI_Request r, rs[2];
    MPI_Init(&argc, &argv); MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Bcast_init(buf, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);      /* Bcast_init=1 */
    for (int i = 0; i < 3; i++) { MPI_Start(&r); MPI_Wait(&r, MPI_STATUS_IGNORE); } /* Start=3 Wait=3 */
    MPI_Bcast_init(buf + 1, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &rs[0]);
    rs[1] = r;                                                                   /* Bcast_init=2 */
    MPI_Startall(2, rs); MPI_Waitall(2, rs, MPI_STATUSES_IGNORE);               /* Startall=1 Waitall=1 */
    MPI_Request_free(&rs[0]); MPI_Request_free(&r);
    MPI_Request q; MPI_Ibcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD, &q); MPI_Wait(&q, MPI_STATUS_IGNORE); /* Ibcast=1 Wait=4 */
    MPI_Bcast_c(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);                             /* Bcast_c=1 */
    MPI_Ibcast_c(buf, 1, MPI_INT, 0, MPI_COMM_WORLD, &q); MPI_Wait(&q, MPI_STATUS_IGNORE); /* Ibcast_c=1 Wait=5 */
    MPI_Bcast_init_c(buf, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &q); MPI_Start(&q); MPI_Wait(&q, MPI_STATUS_IGNORE); MPI_Request_free(&q); /* Bcast_init_c=1 Start=4 Wait=6 */
    MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);               /* Reduce=1 */
    int a[3] = {0}, b[3];
    MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD);                 /* Alltoall=1 */
    MPI_Ireduce(buf, out, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &q); MPI_Wait(&q, MPI_STATUS_IGNORE); /* Ireduce=1 Wait=7 */
    MPI_Ialltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, &q); MPI_Wait(&q, MPI_STATUS_IGNORE);   /* Ialltoall=1 Wait=8 */
    if (rank == 0) printf("expected: Init=1 Finalize=1 Bcast=0 Bcast_c=1 Ibcast=1 Ibcast_c=1 Bcast_init=2 Bcast_init_c=1 Reduce=1 Alltoall=1 Ireduce=1 Ialltoall=1 Start=4 Startall=1 Wait=8 Waitall=1 Test=0 Barrier=0\n");
    MPI_Finalize(); return 0;
}
