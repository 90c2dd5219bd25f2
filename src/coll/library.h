/* The MPI library's collectives that the shim itself calls (its
 * agreements on the application's communicator), reached past the shim. */
#ifndef LOGP_COLL_LIBRARY_H
#define LOGP_COLL_LIBRARY_H

#include <mpi.h>

/* The library's allreduce, as PMPI_Iallreduce and a wait: the shim answers
 * MPI_Allreduce and PMPI_Allreduce itself (a preloaded shim's own call to
 * PMPI_Allreduce would reach the shim again), and the nonblocking form is
 * the library's.  In a program built with the shim for SMPI
 * (LOGP_BUILD_SMPI), where PMPI_Allreduce is SimGrid's, the blocking form
 * unless logp_coll_library_set_engine(1) said that nonblocking
 * collectives of the shim may be in flight (their tasks step in the
 * wait).  Returns an MPI error code. */
int logp_coll_library_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                                MPI_Comm comm);

/* SMPI builds: whether the shim runs nonblocking collectives on its
 * engine (PMPI_LOGP_NONBLOCKING; every rank of a simulation shares the
 * process's environment, so every rank chooses alike: a blocking
 * allreduce never meets a nonblocking one).  SimGrid 3.32's
 * MPI_Iallreduce is linear (each rank sends to every other: at P = 256
 * the shim's agreements kept one fresh 200-call run busy for over 15
 * minutes of host time, and cost simulated time as a linear allreduce
 * does), its MPI_Allreduce the selector's.  Elsewhere a no-op. */
void logp_coll_library_set_engine(int on);

#endif
