! Fortran caller of the three intercepted collectives; run under LD_PRELOAD.
! Built twice: "use mpi", and with -DLOGP_F08 "use mpi_f08" (whose
! MPI_Init/MPI_Finalize bypass the shim).  Prints "test_fortran: N passed,
! M failed" on rank 0.
program test_fortran
#ifdef LOGP_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer :: ierr, rank, nproc, i, j, pass, fail, tot(2), loc(2)
  integer, allocatable :: a(:), b(:)
  double precision :: x(5), y(5), pr(2, 2), pm(2, 2)
  real(kind=8) :: r8(3), s8(3)
  integer(kind=8) :: i8(3), m8(3)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
  pass = 0
  fail = 0
  do i = 1, 5
    x(i) = merge(dble(i), -1d0, rank == nproc - 1)
  end do
  call MPI_Bcast(x, 5, MPI_DOUBLE_PRECISION, nproc - 1, MPI_COMM_WORLD, ierr)
  call count(all(x == [(dble(i), i = 1, 5)]))
  do i = 1, 5
    x(i) = rank + i
  end do
  call MPI_Reduce(x, y, 5, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call count(all(y == [(dble(nproc * (nproc - 1) / 2 + nproc * i), i = 1, 5)]))
  ! the Fortran-only named types: MPI_REAL8 sum, MPI_INTEGER8 max, MPI_2DOUBLE_PRECISION maxloc
  r8 = [(real(rank + i, 8), i = 1, 3)]
  i8 = [(int(rank * 10 + i, 8), i = 1, 3)]
  call MPI_Reduce(r8, s8, 3, MPI_REAL8, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call count(all(s8 == [(real(nproc * (nproc - 1) / 2 + nproc * i, 8), i = 1, 3)]))
  call MPI_Reduce(i8, m8, 3, MPI_INTEGER8, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call count(all(m8 == [(int((nproc - 1) * 10 + i, 8), i = 1, 3)]))
  pr(1, :) = [dble(mod(rank * 7, nproc)), dble(-rank)]
  pr(2, :) = dble(rank)
  call MPI_Reduce(pr, pm, 2, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call count(pm(1, 1) == dble(nproc - 1) .and. pm(1, 2) == 0d0 .and. pm(2, 2) == 0d0)
  allocate(a(3 * nproc), b(3 * nproc))
  do j = 0, nproc - 1
    a(3 * j + 1 : 3 * j + 3) = 100 * rank + j
  end do
  call MPI_Alltoall(a, 3, MPI_INTEGER, b, 3, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call count(all([(b(3 * j + 1) == 100 * j + rank .and. b(3 * j + 3) == 100 * j + rank, j = 0, nproc - 1)]))
  loc = [pass, fail]
  call PMPI_Reduce(loc, tot, 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a, i0, a, i0, a)', 'test_fortran: ', tot(1), ' passed, ', tot(2), ' failed'
  call MPI_Finalize(ierr)
contains
  subroutine count(ok)
    logical, intent(in) :: ok
    if (ok) then
      pass = pass + 1
    else
      fail = fail + 1
    end if
  end subroutine count
end program test_fortran
