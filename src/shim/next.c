/* The next definitions of the shim's entry points (see next.h). */
#define _GNU_SOURCE /* RTLD_NEXT, RTLD_DEFAULT, dladdr */
#include "next.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#ifdef LOGP_PERSISTENT_MPIX
#include <mpi-ext.h> /* PMPIX_Bcast_init & co */
#endif

#ifdef LOGP_SHIM_CHAIN
#include <dlfcn.h>
#endif

static logp_next_t logp_next;
static pthread_once_t logp_next_once = PTHREAD_ONCE_INIT;

/* Stand-ins when the dynamic linker finds no next definition: the
 * nonblocking collective and a wait are the MPI library's own. */
static int logp_next_ibcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    MPI_Request req;
    int rc = PMPI_Ibcast(buf, count, dt, root, comm, &req);
    return rc == MPI_SUCCESS ? PMPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

static int logp_next_ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                             MPI_Comm comm)
{
    MPI_Request req;
    int rc = PMPI_Ireduce(sbuf, rbuf, count, dt, op, root, comm, &req);
    return rc == MPI_SUCCESS ? PMPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

static int logp_next_ialltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, MPI_Comm comm)
{
    MPI_Request req;
    int rc = PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, &req);
    return rc == MPI_SUCCESS ? PMPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

static int logp_next_iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    MPI_Request req;
    int rc = PMPI_Iallreduce(sbuf, rbuf, count, dt, op, comm, &req);
    return rc == MPI_SUCCESS ? PMPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

static int logp_next_ialltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype stype, void *rbuf,
                                const int *rcounts, const int *rdispls, MPI_Datatype rtype, MPI_Comm comm)
{
    MPI_Request req;
    int rc = PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, &req);
    return rc == MPI_SUCCESS ? PMPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

#ifdef LOGP_HAVE_LARGE_COUNT
static int logp_next_ialltoallv_c(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                                  MPI_Datatype stype, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                                  MPI_Datatype rtype, MPI_Comm comm)
{
    MPI_Request req;
    int rc = PMPI_Ialltoallv_c(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, &req);
    return rc == MPI_SUCCESS ? PMPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

static int logp_next_iallreduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                                  MPI_Comm comm)
{
    MPI_Request req;
    int rc = PMPI_Iallreduce_c(sbuf, rbuf, count, dt, op, comm, &req);
    return rc == MPI_SUCCESS ? PMPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

static int logp_next_ibcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    MPI_Request req;
    int rc = PMPI_Ibcast_c(buf, count, dt, root, comm, &req);
    return rc == MPI_SUCCESS ? PMPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

static int logp_next_ireduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                               MPI_Comm comm)
{
    MPI_Request req;
    int rc = PMPI_Ireduce_c(sbuf, rbuf, count, dt, op, root, comm, &req);
    return rc == MPI_SUCCESS ? PMPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

static int logp_next_ialltoall_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf, MPI_Count rcount,
                                 MPI_Datatype rtype, MPI_Comm comm)
{
    MPI_Request req;
    int rc = PMPI_Ialltoall_c(sbuf, scount, stype, rbuf, rcount, rtype, comm, &req);
    return rc == MPI_SUCCESS ? PMPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}
#endif

/* A function's address as data (POSIX guarantees the round trip). */
#define LOGP_FN_PTR(dst, fn)                                                                                           \
    do {                                                                                                               \
        __typeof__(&(fn)) f_ = (fn);                                                                                   \
        memcpy(&(dst), &f_, sizeof(dst));                                                                              \
    } while (0)

#ifdef LOGP_SHIM_CHAIN
/* Nonzero if `m`, a definition of `mpi`, is its object's alias of that
 * object's own `pmpi` (the MPI library's MPI_X is a weak alias of its
 * PMPI_X; a tool's MPI_X is a function of its own). */
static int logp_next_alias(void *m, const Dl_info *mi, const char *pmpi)
{
    void *h = dlopen(mi->dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    int alias = h != NULL && dlsym(h, pmpi) == m;
    if (h)
        dlclose(h);
    return alias;
}

/* The next definition of `pmpi` and, if the next `mpi` lives in another
 * object than it and is not that object's alias of its own PMPI_X (a tool
 * between the shim and the MPI library), that tool's MPI_X.  (A tool after
 * the shim that defines only PMPI_X would otherwise make the library's
 * MPI_X look like a tool's, and the shim would hand calls to the library.) */
static void *logp_next_find(const char *mpi, const char *pmpi, void **tool)
{
    void *p = dlsym(RTLD_NEXT, pmpi), *m = dlsym(RTLD_NEXT, mpi);
    Dl_info pi, mi;
    *tool = NULL;
    if (m && p && dladdr(p, &pi) && dladdr(m, &mi) && pi.dli_fbase != mi.dli_fbase && !logp_next_alias(m, &mi, pmpi))
        *tool = m;
    return p;
}

/* Whether the process runs another MPI library than the one this build is
 * for: each library's own exported symbols tell (the shim's dependency on
 * its own library loads that one too, so the other's presence decides). */
static int logp_next_foreign(void)
{
#if defined(OPEN_MPI)
    const char *other = "MPIR_Err_create_code", *lib = "Open MPI", *found = "MPICH";
#else
    const char *other = "ompi_mpi_comm_world", *lib = "MPICH", *found = "Open MPI";
#endif
    if (dlsym(RTLD_DEFAULT, other) == NULL)
        return 0;
    /* one line per job: from the first rank when the launcher says which */
    const char *rank = getenv("OMPI_COMM_WORLD_RANK") ? getenv("OMPI_COMM_WORLD_RANK") : getenv("PMI_RANK");
    if (rank == NULL || strcmp(rank, "0") == 0)
        fprintf(stderr, "pmpi-logp: built for %s but this program runs %s: the shim stays out of the way (every call "
                        "goes to the MPI library unchanged); use a libpmpi-logp built for %s\n", lib, found, found);
    return 1;
}
#endif

/* Sets the next definitions of entry point `e` of the five collectives. */
#define LOGP_NEXT_ROW(e, bcast, reduce, alltoall, allreduce, alltoallv)                                                \
    do {                                                                                                               \
        LOGP_FN_PTR(logp_next.lib[e][LOGP_COLL_BCAST], bcast);                                                         \
        LOGP_FN_PTR(logp_next.lib[e][LOGP_COLL_REDUCE], reduce);                                                       \
        LOGP_FN_PTR(logp_next.lib[e][LOGP_COLL_ALLTOALL], alltoall);                                                   \
        LOGP_FN_PTR(logp_next.lib[e][LOGP_COLL_ALLREDUCE], allreduce);                                                 \
        LOGP_FN_PTR(logp_next.lib[e][LOGP_COLL_ALLTOALLV], alltoallv);                                                 \
    } while (0)

static void logp_next_init(void)
{
    /* what the program was linked with: the library's own nonblocking and
     * persistent PMPI_X (the shim answers their MPI_X only) and, for the
     * blocking ones, which the shim answers, the stand-ins (the library's
     * PMPI_X where the shim is compiled into the program) */
#ifdef LOGP_SHIM_CHAIN
    LOGP_NEXT_ROW(LOGP_ENTRY_BLOCKING, logp_next_ibcast, logp_next_ireduce, logp_next_ialltoall, logp_next_iallreduce,
                  logp_next_ialltoallv);
#ifdef LOGP_HAVE_LARGE_COUNT
    LOGP_NEXT_ROW(LOGP_ENTRY_LARGE_COUNT, logp_next_ibcast_c, logp_next_ireduce_c, logp_next_ialltoall_c,
                  logp_next_iallreduce_c, logp_next_ialltoallv_c);
#endif
#else
    LOGP_NEXT_ROW(LOGP_ENTRY_BLOCKING, PMPI_Bcast, PMPI_Reduce, PMPI_Alltoall, PMPI_Allreduce, PMPI_Alltoallv);
#ifdef LOGP_HAVE_LARGE_COUNT
    LOGP_NEXT_ROW(LOGP_ENTRY_LARGE_COUNT, PMPI_Bcast_c, PMPI_Reduce_c, PMPI_Alltoall_c, PMPI_Allreduce_c,
                  PMPI_Alltoallv_c);
#endif
#if MPI_VERSION >= 4
    LOGP_FN_PTR(logp_next.session_finalize, PMPI_Session_finalize);
#endif
#endif
    LOGP_NEXT_ROW(LOGP_ENTRY_NONBLOCKING, PMPI_Ibcast, PMPI_Ireduce, PMPI_Ialltoall, PMPI_Iallreduce, PMPI_Ialltoallv);
#ifdef LOGP_HAVE_LARGE_COUNT
    LOGP_NEXT_ROW(LOGP_ENTRY_NONBLOCKING_LARGE_COUNT, PMPI_Ibcast_c, PMPI_Ireduce_c, PMPI_Ialltoall_c, PMPI_Iallreduce_c,
                  PMPI_Ialltoallv_c);
#endif
#ifdef LOGP_HAVE_PERSISTENT
    LOGP_NEXT_ROW(LOGP_ENTRY_PERSISTENT, LOGP_PINIT_SYMBOL(Bcast), LOGP_PINIT_SYMBOL(Reduce),
                  LOGP_PINIT_SYMBOL(Alltoall), LOGP_PINIT_SYMBOL(Allreduce), LOGP_PINIT_SYMBOL(Alltoallv));
#endif
#ifdef LOGP_HAVE_PERSISTENT_LARGE_COUNT
    LOGP_NEXT_ROW(LOGP_ENTRY_PERSISTENT_LARGE_COUNT, PMPI_Bcast_init_c, PMPI_Reduce_init_c, PMPI_Alltoall_init_c,
                  PMPI_Allreduce_init_c, PMPI_Alltoallv_init_c);
#endif
#ifdef LOGP_SHIM_CHAIN
    /* then what the dynamic linker finds next: a tool's, or another shim's */
    logp_next.foreign = logp_next_foreign();
    for (int e = 0; e < LOGP_ENTRY_COUNT; e++)
        for (int c = 0; c < LOGP_COLL_COUNT; c++) {
            if (logp_next.lib[e][c] == NULL) /* not in this library */
                continue;
            const char *name = logp_next_entry_name((logp_coll_t)c, (logp_entry_t)e);
            char pname[64];
            snprintf(pname, sizeof pname, "P%s", name);
            void *f = logp_next_find(name, pname, &logp_next.tool[e][c]);
            if (f != NULL)
                logp_next.lib[e][c] = f;
        }
    logp_next.session_finalize =
        logp_next_find("MPI_Session_finalize", "PMPI_Session_finalize", &logp_next.tool_session_finalize);
#endif
}

const char *logp_next_entry_name(logp_coll_t coll, logp_entry_t entry)
{
    static const char *const name[LOGP_ENTRY_COUNT][LOGP_COLL_COUNT] = {
        {"MPI_Bcast", "MPI_Reduce", "MPI_Alltoall", "MPI_Allreduce", "MPI_Alltoallv"},
        {"MPI_Bcast_c", "MPI_Reduce_c", "MPI_Alltoall_c", "MPI_Allreduce_c", "MPI_Alltoallv_c"},
        {"MPI_Ibcast", "MPI_Ireduce", "MPI_Ialltoall", "MPI_Iallreduce", "MPI_Ialltoallv"},
        {"MPI_Ibcast_c", "MPI_Ireduce_c", "MPI_Ialltoall_c", "MPI_Iallreduce_c", "MPI_Ialltoallv_c"},
        {LOGP_INIT_NAME(Bcast), LOGP_INIT_NAME(Reduce), LOGP_INIT_NAME(Alltoall), LOGP_INIT_NAME(Allreduce),
         LOGP_INIT_NAME(Alltoallv)},
        {"MPI_Bcast_init_c", "MPI_Reduce_init_c", "MPI_Alltoall_init_c", "MPI_Allreduce_init_c",
         "MPI_Alltoallv_init_c"}};
    return coll < LOGP_COLL_COUNT && entry < LOGP_ENTRY_COUNT ? name[entry][coll] : "?";
}

const logp_next_t *logp_next_get(void)
{
    pthread_once(&logp_next_once, logp_next_init);
    return &logp_next;
}
