/* A PMPI tool that counts what reaches the MPI library: it defines the
 * library's PMPI_Bcast, PMPI_Reduce, PMPI_Alltoall, PMPI_Allreduce, PMPI_Alltoallv and their large-count
 * forms, counts each call and forwards it to the next definition (the
 * library's), and prints its counts in MPI_Finalize.  Preloaded after the
 * shim (LD_PRELOAD=shim:this), it sits between the shim and the library:
 * a call the shim runs with its own schedule never reaches it, a call the
 * shim leaves to the library does (tests/mpi/run_preload.sh).  Its MPI_X
 * only forward to PMPI_X, so that the shim sees one tool object and no
 * tool entry point of its own to hand calls to (src/shim/next.c); built
 * with -DLIBRARY_COUNTER_PMPI_ONLY it defines the PMPI_X alone, and the
 * shim must not take the library's MPI_X, the next one then, for a tool's. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <stdio.h>

#include <mpi.h>

static long lib_bcast, lib_reduce, lib_alltoall, lib_allreduce, lib_alltoallv, lib_bcast_c, lib_reduce_c,
    lib_alltoall_c, lib_allreduce_c, lib_alltoallv_c;

/* The next definition of `name` (the MPI library's), as a function of type T. */
#define LIB_NEXT(T, name)                                                                                              \
    __extension__({                                                                                                    \
        static T f_;                                                                                                   \
        if (f_ == NULL)                                                                                                \
            *(void **)&f_ = dlsym(RTLD_NEXT, name);                                                                    \
        f_;                                                                                                            \
    })

typedef int (*bcast_t)(void *, int, MPI_Datatype, int, MPI_Comm);
typedef int (*reduce_t)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
typedef int (*alltoall_t)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
typedef int (*allreduce_t)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);

int PMPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    lib_bcast++;
    return LIB_NEXT(bcast_t, "PMPI_Bcast")(buf, count, dt, root, comm);
}

#ifndef LIBRARY_COUNTER_PMPI_ONLY
int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    return PMPI_Bcast(buf, count, dt, root, comm);
}
#endif

int PMPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
    lib_reduce++;
    return LIB_NEXT(reduce_t, "PMPI_Reduce")(sbuf, rbuf, count, dt, op, root, comm);
}

#ifndef LIBRARY_COUNTER_PMPI_ONLY
int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
    return PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm);
}
#endif

int PMPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm)
{
    lib_alltoall++;
    return LIB_NEXT(alltoall_t, "PMPI_Alltoall")(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

#ifndef LIBRARY_COUNTER_PMPI_ONLY
int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                 MPI_Comm comm)
{
    return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}
#endif

int PMPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    lib_allreduce++;
    return LIB_NEXT(allreduce_t, "PMPI_Allreduce")(sbuf, rbuf, count, dt, op, comm);
}

#ifndef LIBRARY_COUNTER_PMPI_ONLY
int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm);
}
#endif

typedef int (*alltoallv_t)(const void *, const int *, const int *, MPI_Datatype, void *, const int *, const int *,
                           MPI_Datatype, MPI_Comm);

int PMPI_Alltoallv(const void *sbuf, const int *sc, const int *sd, MPI_Datatype st, void *rbuf, const int *rc,
                   const int *rd, MPI_Datatype rt, MPI_Comm comm)
{
    lib_alltoallv++;
    return LIB_NEXT(alltoallv_t, "PMPI_Alltoallv")(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm);
}

#ifndef LIBRARY_COUNTER_PMPI_ONLY
int MPI_Alltoallv(const void *sbuf, const int *sc, const int *sd, MPI_Datatype st, void *rbuf, const int *rc,
                  const int *rd, MPI_Datatype rt, MPI_Comm comm)
{
    return PMPI_Alltoallv(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm);
}
#endif

#if MPI_VERSION >= 4
typedef int (*alltoallv_c_t)(const void *, const MPI_Count *, const MPI_Aint *, MPI_Datatype, void *,
                             const MPI_Count *, const MPI_Aint *, MPI_Datatype, MPI_Comm);

int PMPI_Alltoallv_c(const void *sbuf, const MPI_Count *sc, const MPI_Aint *sd, MPI_Datatype st, void *rbuf,
                     const MPI_Count *rc, const MPI_Aint *rd, MPI_Datatype rt, MPI_Comm comm)
{
    lib_alltoallv_c++;
    return LIB_NEXT(alltoallv_c_t, "PMPI_Alltoallv_c")(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm);
}

#ifndef LIBRARY_COUNTER_PMPI_ONLY
int MPI_Alltoallv_c(const void *sbuf, const MPI_Count *sc, const MPI_Aint *sd, MPI_Datatype st, void *rbuf,
                    const MPI_Count *rc, const MPI_Aint *rd, MPI_Datatype rt, MPI_Comm comm)
{
    return PMPI_Alltoallv_c(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm);
}
#endif

typedef int (*allreduce_c_t)(const void *, void *, MPI_Count, MPI_Datatype, MPI_Op, MPI_Comm);
typedef int (*bcast_c_t)(void *, MPI_Count, MPI_Datatype, int, MPI_Comm);
typedef int (*reduce_c_t)(const void *, void *, MPI_Count, MPI_Datatype, MPI_Op, int, MPI_Comm);
typedef int (*alltoall_c_t)(const void *, MPI_Count, MPI_Datatype, void *, MPI_Count, MPI_Datatype, MPI_Comm);

int PMPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    lib_bcast_c++;
    return LIB_NEXT(bcast_c_t, "PMPI_Bcast_c")(buf, count, dt, root, comm);
}

#ifndef LIBRARY_COUNTER_PMPI_ONLY
int MPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    return PMPI_Bcast_c(buf, count, dt, root, comm);
}
#endif

int PMPI_Reduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
    lib_reduce_c++;
    return LIB_NEXT(reduce_c_t, "PMPI_Reduce_c")(sbuf, rbuf, count, dt, op, root, comm);
}

#ifndef LIBRARY_COUNTER_PMPI_ONLY
int MPI_Reduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
    return PMPI_Reduce_c(sbuf, rbuf, count, dt, op, root, comm);
}
#endif

int PMPI_Alltoall_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf, MPI_Count rcount,
                    MPI_Datatype rtype, MPI_Comm comm)
{
    lib_alltoall_c++;
    return LIB_NEXT(alltoall_c_t, "PMPI_Alltoall_c")(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

#ifndef LIBRARY_COUNTER_PMPI_ONLY
int MPI_Alltoall_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf, MPI_Count rcount,
                   MPI_Datatype rtype, MPI_Comm comm)
{
    return PMPI_Alltoall_c(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}
#endif

int PMPI_Allreduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    lib_allreduce_c++;
    return LIB_NEXT(allreduce_c_t, "PMPI_Allreduce_c")(sbuf, rbuf, count, dt, op, comm);
}

#ifndef LIBRARY_COUNTER_PMPI_ONLY
int MPI_Allreduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return PMPI_Allreduce_c(sbuf, rbuf, count, dt, op, comm);
}
#endif
#endif

/* The nonblocking forms (but MPI_Iallreduce, which the shim's own
 * agreements call; with MPI-4, their large-count forms too) and the starts of persistent requests: a collective
 * the shim runs on its engine reaches none of them. */
static long lib_ibcast, lib_ireduce, lib_ialltoall, lib_ialltoallv, lib_start;
typedef int (*ibcast_t)(void *, int, MPI_Datatype, int, MPI_Comm, MPI_Request *);
typedef int (*ireduce_t)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm, MPI_Request *);
typedef int (*ialltoall_t)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm, MPI_Request *);
typedef int (*ialltoallv_t)(const void *, const int *, const int *, MPI_Datatype, void *, const int *, const int *,
                            MPI_Datatype, MPI_Comm, MPI_Request *);
typedef int (*start_t)(MPI_Request *);
typedef int (*startall_t)(int, MPI_Request *);

int PMPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request *req)
{
    lib_ibcast++;
    return LIB_NEXT(ibcast_t, "PMPI_Ibcast")(buf, count, dt, root, comm, req);
}

int PMPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                 MPI_Request *req)
{
    lib_ireduce++;
    return LIB_NEXT(ireduce_t, "PMPI_Ireduce")(sbuf, rbuf, count, dt, op, root, comm, req);
}

int PMPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                   MPI_Comm comm, MPI_Request *req)
{
    lib_ialltoall++;
    return LIB_NEXT(ialltoall_t, "PMPI_Ialltoall")(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
}

int PMPI_Ialltoallv(const void *sbuf, const int *sc, const int *sd, MPI_Datatype st, void *rbuf, const int *rc,
                    const int *rd, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req)
{
    lib_ialltoallv++;
    return LIB_NEXT(ialltoallv_t, "PMPI_Ialltoallv")(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm, req);
}

#if MPI_VERSION >= 4
/* and their large-count forms, counted with them */
typedef int (*ibcast_c_t)(void *, MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Request *);
typedef int (*ireduce_c_t)(const void *, void *, MPI_Count, MPI_Datatype, MPI_Op, int, MPI_Comm, MPI_Request *);
typedef int (*ialltoall_c_t)(const void *, MPI_Count, MPI_Datatype, void *, MPI_Count, MPI_Datatype, MPI_Comm,
                             MPI_Request *);
typedef int (*ialltoallv_c_t)(const void *, const MPI_Count *, const MPI_Aint *, MPI_Datatype, void *,
                              const MPI_Count *, const MPI_Aint *, MPI_Datatype, MPI_Comm, MPI_Request *);

int PMPI_Ibcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request *req)
{
    lib_ibcast++;
    return LIB_NEXT(ibcast_c_t, "PMPI_Ibcast_c")(buf, count, dt, root, comm, req);
}

int PMPI_Ireduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                   MPI_Request *req)
{
    lib_ireduce++;
    return LIB_NEXT(ireduce_c_t, "PMPI_Ireduce_c")(sbuf, rbuf, count, dt, op, root, comm, req);
}

int PMPI_Ialltoall_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf, MPI_Count rcount,
                     MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    lib_ialltoall++;
    return LIB_NEXT(ialltoall_c_t, "PMPI_Ialltoall_c")(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
}

int PMPI_Ialltoallv_c(const void *sbuf, const MPI_Count *sc, const MPI_Aint *sd, MPI_Datatype st, void *rbuf,
                      const MPI_Count *rc, const MPI_Aint *rd, MPI_Datatype rt, MPI_Comm comm, MPI_Request *req)
{
    lib_ialltoallv++;
    return LIB_NEXT(ialltoallv_c_t, "PMPI_Ialltoallv_c")(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm, req);
}
#endif

int PMPI_Start(MPI_Request *req)
{
    lib_start++;
    return LIB_NEXT(start_t, "PMPI_Start")(req);
}

int PMPI_Startall(int n, MPI_Request *reqs)
{
    lib_start += n;
    return LIB_NEXT(startall_t, "PMPI_Startall")(n, reqs);
}

#ifndef LIBRARY_COUNTER_PMPI_ONLY
int MPI_Start(MPI_Request *req)
{
    return PMPI_Start(req);
}

int MPI_Startall(int n, MPI_Request *reqs)
{
    return PMPI_Startall(n, reqs);
}
#endif

int MPI_Finalize(void)
{
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("library rank %d: bcast=%ld reduce=%ld alltoall=%ld allreduce=%ld alltoallv=%ld bcast_c=%ld reduce_c=%ld "
           "alltoall_c=%ld allreduce_c=%ld alltoallv_c=%ld\n", rank, lib_bcast, lib_reduce, lib_alltoall, lib_allreduce,
           lib_alltoallv, lib_bcast_c, lib_reduce_c, lib_alltoall_c, lib_allreduce_c, lib_alltoallv_c);
    printf("library nonblocking rank %d: ibcast=%ld ireduce=%ld ialltoall=%ld ialltoallv=%ld start=%ld\n", rank,
           lib_ibcast, lib_ireduce, lib_ialltoall, lib_ialltoallv, lib_start);
    fflush(stdout);
    return PMPI_Finalize();
}
