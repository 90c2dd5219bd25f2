#include <mpi.h>
#include <stdio.h>
/* SimGrid 3.32 SMPI: MPI_Test on MPI_REQUEST_NULL sets flag only when given
 * a status; under MPI_STATUS_IGNORE it leaves flag as it was (MPI: flag =
 * true, an empty status).  MPICH sets it either way.  Why logp_engine_wait
 * (src/coll/engine.c) returns at once for a null request.
 *   smpicc -o tn smpi_test_null.c && smpirun -np 1 -platform P.xml ./tn */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Status st;
    int f1 = 0, f2 = 0;
    MPI_Test(&r, &f1, MPI_STATUS_IGNORE);
    MPI_Test(&r, &f2, &st);
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) printf("MPI_Test(MPI_REQUEST_NULL): flag %d with MPI_STATUS_IGNORE, %d with a status\n", f1, f2);
    MPI_Finalize(); return 0;
}
