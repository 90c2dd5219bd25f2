/* LD_PRELOAD counting shim (MPICH): which C-level MPI_ symbols are reached? Prints at exit. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
static long c_bcast, c_ibcast, c_bcast_init, c_bcast_c, c_ibcast_c, c_bcast_init_c, c_start, c_startall, c_wait, c_waitall, c_test, c_barrier, c_init, c_finalize, c_reduce, c_alltoall, c_ireduce, c_ialltoall;
int MPI_Init(int *a, char ***b) { c_init++; return PMPI_Init(a, b); }
int MPI_Finalize(void) { c_finalize++; return PMPI_Finalize(); }
int MPI_Bcast(void *b, int n, MPI_Datatype t, int r, MPI_Comm c) { c_bcast++; return PMPI_Bcast(b, n, t, r, c); }
int MPI_Bcast_c(void *b, MPI_Count n, MPI_Datatype t, int r, MPI_Comm c) { c_bcast_c++; return PMPI_Bcast_c(b, n, t, r, c); }
int MPI_Ibcast(void *b, int n, MPI_Datatype t, int r, MPI_Comm c, MPI_Request *q) { c_ibcast++; return PMPI_Ibcast(b, n, t, r, c, q); }
int MPI_Ibcast_c(void *b, MPI_Count n, MPI_Datatype t, int r, MPI_Comm c, MPI_Request *q) { c_ibcast_c++; return PMPI_Ibcast_c(b, n, t, r, c, q); }
int MPI_Bcast_init(void *b, int n, MPI_Datatype t, int r, MPI_Comm c, MPI_Info i, MPI_Request *q) { c_bcast_init++; return PMPI_Bcast_init(b, n, t, r, c, i, q); }
int MPI_Bcast_init_c(void *b, MPI_Count n, MPI_Datatype t, int r, MPI_Comm c, MPI_Info i, MPI_Request *q) { c_bcast_init_c++; return PMPI_Bcast_init_c(b, n, t, r, c, i, q); }
int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c) { c_reduce++; return PMPI_Reduce(s, r, n, t, o, root, c); }
int MPI_Alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm c) { c_alltoall++; return PMPI_Alltoall(s, sc, st, r, rc, rt, c); }
int MPI_Ireduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c, MPI_Request *q) { c_ireduce++; return PMPI_Ireduce(s, r, n, t, o, root, c, q); }
int MPI_Ialltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm c, MPI_Request *q) { c_ialltoall++; return PMPI_Ialltoall(s, sc, st, r, rc, rt, c, q); }
int MPI_Start(MPI_Request *q) { c_start++; return PMPI_Start(q); }
int MPI_Startall(int n, MPI_Request *q) { c_startall++; return PMPI_Startall(n, q); }
int MPI_Wait(MPI_Request *q, MPI_Status *s) { c_wait++; return PMPI_Wait(q, s); }
int MPI_Waitall(int n, MPI_Request *q, MPI_Status *s) { c_waitall++; return PMPI_Waitall(n, q, s); }
int MPI_Test(MPI_Request *q, int *f, MPI_Status *s) { c_test++; return PMPI_Test(q, f, s); }
int MPI_Barrier(MPI_Comm c) { c_barrier++; return PMPI_Barrier(c); }
__attribute__((destructor)) static void report(void)
{
    char *r = getenv("PMI_RANK"); if (!r) r = getenv("OMPI_COMM_WORLD_RANK");
    if (r && *r != '0') return;
    printf("[shim] Init=%ld Finalize=%ld Bcast=%ld Bcast_c=%ld Ibcast=%ld Ibcast_c=%ld Bcast_init=%ld Bcast_init_c=%ld Reduce=%ld Alltoall=%ld Ireduce=%ld Ialltoall=%ld Start=%ld Startall=%ld Wait=%ld Waitall=%ld Test=%ld Barrier=%ld\n",
           c_init, c_finalize, c_bcast, c_bcast_c, c_ibcast, c_ibcast_c, c_bcast_init, c_bcast_init_c, c_reduce, c_alltoall, c_ireduce, c_ialltoall, c_start, c_startall, c_wait, c_waitall, c_test, c_barrier);
}
