      program p
      use mpi
      implicit none

      integer :: r
      integer :: ierr, buf(3), out(3), a(3), b(3)
      buf = 0; a = 0
      call MPI_Init(ierr)
      call MPI_Bcast(buf, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      call MPI_Ibcast(buf, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, r, ierr)
      call MPI_Wait(r, MPI_STATUS_IGNORE, ierr)
      call MPI_Bcast_init(buf, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, MPI_INFO_NULL, r, ierr)
      call MPI_Start(r, ierr)
      call MPI_Wait(r, MPI_STATUS_IGNORE, ierr)
      call MPI_Request_free(r, ierr)
      call MPI_Reduce(buf, out, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
      call MPI_Alltoall(a, 1, MPI_INTEGER, b, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
      call MPI_Ireduce(buf, out, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, r, ierr)
      call MPI_Wait(r, MPI_STATUS_IGNORE, ierr)
      call MPI_Ialltoall(a, 1, MPI_INTEGER, b, 1, MPI_INTEGER, MPI_COMM_WORLD, r, ierr)
      call MPI_Wait(r, MPI_STATUS_IGNORE, ierr)
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      call MPI_Finalize(ierr)
      end program
