/* The persistent collectives a test program may call: MPI-4's
 * MPI_Bcast_init & co, or Open MPI 4.1's extension MPIX_Bcast_init & co
 * (mpi-ext.h) under the MPI-4 names.  TEST_PERSISTENT is defined where
 * either exists, TEST_PERSISTENT_C where MPI_Bcast_init_c & co do. */
#ifndef TESTS_MPI_PERSISTENT_H
#define TESTS_MPI_PERSISTENT_H

#include <mpi.h>

#if MPI_VERSION >= 4
#define TEST_PERSISTENT 1
#define TEST_PERSISTENT_C 1 /* and their large-count forms, MPI_Bcast_init_c & co */
#elif defined(OPEN_MPI)
#include <mpi-ext.h>
#ifdef OMPI_HAVE_MPI_EXT_PCOLLREQ
#define TEST_PERSISTENT 1
#define MPI_Bcast_init MPIX_Bcast_init
#define MPI_Reduce_init MPIX_Reduce_init
#define MPI_Alltoall_init MPIX_Alltoall_init
#define MPI_Allreduce_init MPIX_Allreduce_init
#define MPI_Alltoallv_init MPIX_Alltoallv_init
#endif
#endif

#endif
