/* A PMPI tool for tests: MPI_Barrier(MPI_COMM_WORLD) right after MPI_Init,
 * so that under PMPI_LOGP_NONBLOCKING=1 the shim (preloaded after this
 * tool) sets MPI_COMM_WORLD up and the nonblocking collectives of a
 * program that calls no blocking collective first run its schedules
 * (scripts/mpich-suite.sh runs MPICH's nonblocking tests so). */
#include <mpi.h>

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        MPI_Barrier(MPI_COMM_WORLD);
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        MPI_Barrier(MPI_COMM_WORLD);
    return rc;
}
