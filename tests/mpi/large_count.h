/* A test program's nonblocking and persistent collectives as their MPI-4
 * large-count forms: MPI_Ibcast_c & co and, where the library has them
 * (TEST_PERSISTENT_C, persistent.h), MPI_Bcast_init_c & co.  Include
 * after persistent.h, where a program is built for large counts. */
#ifndef TESTS_MPI_LARGE_COUNT_H
#define TESTS_MPI_LARGE_COUNT_H

#include "persistent.h"

#define MPI_Ibcast MPI_Ibcast_c
#define MPI_Ireduce MPI_Ireduce_c
#define MPI_Ialltoall MPI_Ialltoall_c
#define MPI_Iallreduce MPI_Iallreduce_c
#define MPI_Ialltoallv MPI_Ialltoallv_c
#ifdef TEST_PERSISTENT_C
#define MPI_Bcast_init MPI_Bcast_init_c
#define MPI_Reduce_init MPI_Reduce_init_c
#define MPI_Alltoall_init MPI_Alltoall_init_c
#define MPI_Allreduce_init MPI_Allreduce_init_c
#define MPI_Alltoallv_init MPI_Alltoallv_init_c
#endif

#endif
