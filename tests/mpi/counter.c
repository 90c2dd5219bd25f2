/* A PMPI tool as sites preload them (profilers, I/O monitors): counts the
 * application's MPI_Bcast, MPI_Reduce, MPI_Alltoall, MPI_Allreduce and MPI_Alltoallv calls, passes them
 * on through PMPI, and prints its counts in MPI_Finalize.  Built as a
 * shared object by run_preload.sh to test that the shim hides no call from
 * such a tool, in either preload order.  Open MPI's Fortran bindings call
 * PMPI_* directly, so tools for it wrap the Fortran entry points as well
 * (MPICH's call MPI_*: wrapping them there would count twice). */
#include <stdio.h>

#include <mpi.h>

static long counter_bcast, counter_reduce, counter_alltoall, counter_allreduce, counter_alltoallv;

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

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    counter_allreduce++;
    return PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm);
}

int MPI_Alltoallv(const void *sbuf, const int *sc, const int *sd, MPI_Datatype st, void *rbuf, const int *rc,
                  const int *rd, MPI_Datatype rt, MPI_Comm comm)
{
    counter_alltoallv++;
    return PMPI_Alltoallv(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm);
}

static void counter_print(void)
{
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("counter rank %d: bcast=%ld reduce=%ld alltoall=%ld allreduce=%ld alltoallv=%ld\n", rank, counter_bcast,
           counter_reduce, counter_alltoall, counter_allreduce, counter_alltoallv);
    fflush(stdout);
}

int MPI_Finalize(void)
{
    counter_print();
    return PMPI_Finalize();
}

#ifdef OPEN_MPI
void pmpi_bcast_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr);
void pmpi_reduce_(void *sbuf, void *rbuf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *op, MPI_Fint *root,
                  MPI_Fint *comm, MPI_Fint *ierr);
void pmpi_alltoall_(void *sbuf, MPI_Fint *scount, MPI_Fint *stype, void *rbuf, MPI_Fint *rcount, MPI_Fint *rtype,
                    MPI_Fint *comm, MPI_Fint *ierr);
void pmpi_allreduce_(void *sbuf, void *rbuf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *op, MPI_Fint *comm,
                     MPI_Fint *ierr);
void pmpi_finalize_(MPI_Fint *ierr);

void mpi_bcast_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    counter_bcast++;
    pmpi_bcast_(buf, count, dt, root, comm, ierr);
}

void mpi_reduce_(void *sbuf, void *rbuf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *op, MPI_Fint *root, MPI_Fint *comm,
                 MPI_Fint *ierr)
{
    counter_reduce++;
    pmpi_reduce_(sbuf, rbuf, count, dt, op, root, comm, ierr);
}

void mpi_alltoall_(void *sbuf, MPI_Fint *scount, MPI_Fint *stype, void *rbuf, MPI_Fint *rcount, MPI_Fint *rtype,
                   MPI_Fint *comm, MPI_Fint *ierr)
{
    counter_alltoall++;
    pmpi_alltoall_(sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr);
}

void mpi_allreduce_(void *sbuf, void *rbuf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *op, MPI_Fint *comm,
                    MPI_Fint *ierr)
{
    counter_allreduce++;
    pmpi_allreduce_(sbuf, rbuf, count, dt, op, comm, ierr);
}

void mpi_finalize_(MPI_Fint *ierr)
{
    counter_print();
    pmpi_finalize_(ierr);
}
#endif
