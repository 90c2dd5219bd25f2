/* A PMPI tool as sites preload them (profilers, I/O monitors): counts the
 * application's MPI_Bcast, MPI_Reduce and MPI_Alltoall calls, passes them
 * on through PMPI, and prints its counts in MPI_Finalize.  Built as a
 * shared object by run_preload.sh to test that the shim hides no call from
 * such a tool, in either preload order. */
#include <stdio.h>

#include <mpi.h>

static long counter_bcast, counter_reduce, counter_alltoall;

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    counter_bcast++;
    return PMPI_Bcast(buf, count, dt, root, comm);
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
    counter_reduce++;
    return PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm);
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                 MPI_Comm comm)
{
    counter_alltoall++;
    return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Finalize(void)
{
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("counter rank %d: bcast=%ld reduce=%ld alltoall=%ld\n", rank, counter_bcast, counter_reduce,
           counter_alltoall);
    fflush(stdout);
    return PMPI_Finalize();
}
