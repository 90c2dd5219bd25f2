/* The MPI library's collectives that the shim itself calls (its
 * agreements on the application's communicator), reached past the shim. */
#ifndef LOGP_COLL_LIBRARY_H
#define LOGP_COLL_LIBRARY_H

#include <mpi.h>

/* The library's allreduce, as PMPI_Iallreduce and a wait: the shim answers
 * MPI_Allreduce and PMPI_Allreduce itself (a preloaded shim's own call to
 * PMPI_Allreduce would reach the shim again), and the nonblocking form is
 * the library's.  Returns an MPI error code. */
int logp_coll_library_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                                MPI_Comm comm);

#endif
