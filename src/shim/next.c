/* The next definitions of the shim's entry points (see next.h). */
#define _GNU_SOURCE /* RTLD_NEXT, dladdr */
#include "next.h"

#include <pthread.h>
#include <string.h>

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

#ifdef LOGP_SHIM_CHAIN
/* The next definition of `pmpi` and, if the next `mpi` lives in another
 * object than it (a tool between the shim and the MPI library, whose MPI_X
 * is not the library's alias of its PMPI_X), that tool's MPI_X. */
static void *logp_next_find(const char *mpi, const char *pmpi, void **tool)
{
    void *p = dlsym(RTLD_NEXT, pmpi), *m = dlsym(RTLD_NEXT, mpi);
    Dl_info pi, mi;
    *tool = NULL;
    if (m && p && dladdr(p, &pi) && dladdr(m, &mi) && pi.dli_fbase != mi.dli_fbase)
        *tool = m;
    return p;
}
#endif

static void logp_next_init(void)
{
    logp_next.bcast = logp_next_ibcast;
    logp_next.reduce = logp_next_ireduce;
    logp_next.alltoall = logp_next_ialltoall;
#ifdef LOGP_SHIM_CHAIN
    void *f, *tool;
    /* function pointers from void * (POSIX guarantees they convert) */
    if ((f = logp_next_find("MPI_Bcast", "PMPI_Bcast", &tool)) != NULL)
        memcpy(&logp_next.bcast, &f, sizeof f);
    memcpy(&logp_next.tool_bcast, &tool, sizeof tool);
    if ((f = logp_next_find("MPI_Reduce", "PMPI_Reduce", &tool)) != NULL)
        memcpy(&logp_next.reduce, &f, sizeof f);
    memcpy(&logp_next.tool_reduce, &tool, sizeof tool);
    if ((f = logp_next_find("MPI_Alltoall", "PMPI_Alltoall", &tool)) != NULL)
        memcpy(&logp_next.alltoall, &f, sizeof f);
    memcpy(&logp_next.tool_alltoall, &tool, sizeof tool);
#if MPI_VERSION >= 4
    if ((f = logp_next_find("MPI_Session_finalize", "PMPI_Session_finalize", &tool)) != NULL)
        memcpy(&logp_next.session_finalize, &f, sizeof f);
    memcpy(&logp_next.tool_session_finalize, &tool, sizeof tool);
#endif
#else
#if MPI_VERSION >= 4
    logp_next.session_finalize = PMPI_Session_finalize;
#endif
    logp_next.bcast = PMPI_Bcast;
    logp_next.reduce = PMPI_Reduce;
    logp_next.alltoall = PMPI_Alltoall;
#endif
}

const logp_next_t *logp_next_get(void)
{
    pthread_once(&logp_next_once, logp_next_init);
    return &logp_next;
}
