/* SimGrid 3.32 SMPI: MPI_Init_thread(MPI_THREAD_MULTIPLE) provides
 * MPI_THREAD_SINGLE, so no thread of a simulated rank but its own may call
 * MPI: no progress thread can move a nonblocking collective in SMPI while
 * the application computes (docs/results/smpi-overlap).
 *   smpicc -o th smpi_thread_level.c && smpirun -np 2 -platform P.xml ./th */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int provided = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) printf("SMPI MPI_Init_thread(MULTIPLE): provided %d (SINGLE %d FUNNELED %d SERIALIZED %d MULTIPLE %d)\n", provided, MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE);
    MPI_Finalize(); return 0;
}
