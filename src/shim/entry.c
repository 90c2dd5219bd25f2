/* The exported entry points of the shim library: MPI_X and PMPI_X for
 * MPI_Bcast, MPI_Reduce, MPI_Alltoall, MPI_Allreduce, MPI_Alltoallv (and their large-count forms
 * MPI_X_c where the library has them), MPI_X of their nonblocking forms
 * MPI_Ibcast ... MPI_Ialltoallv, MPI_X_init of their persistent forms (where
 * the library has them), and MPI_Session_finalize.
 *
 * Compiled without mpi.h (see shim.h): each entry point takes its
 * arguments as machine words and either
 *   - hands the call, untouched, to the next definition: a PMPI tool loaded
 *     after the shim (MPI_X only; the tool's PMPI_X call comes back to the
 *     shim's PMPI_X), or the MPI library when it is not the one the shim
 *     was built for (next.h, `foreign`);
 *   - or runs the shim (shim.c).
 * The prototypes below match mpi.h's on the LP64 ABIs (shim.h).  Only in
 * the libraries (LOGP_SHIM_CHAIN); a program that compiles the shim in
 * (SMPI) gets shim.c's typed entry points instead. */
#ifdef LOGP_SHIM_CHAIN
#include <stdint.h>

#include "next.h"
#include "shim.h"

#define LOGP_EXPORT __attribute__((visibility("default")))

typedef int (*logp_bcast_fn_t)(void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t);
typedef int (*logp_reduce_fn_t)(const void *, void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t,
                                logp_word_t);
typedef int (*logp_alltoall_fn_t)(const void *, logp_word_t, logp_word_t, void *, logp_word_t, logp_word_t,
                                  logp_word_t);
typedef int (*logp_allreduce_fn_t)(const void *, void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t);
typedef int (*logp_alltoallv_fn_t)(const void *, const void *, const void *, logp_word_t, void *, const void *,
                                   const void *, logp_word_t, logp_word_t);
typedef int (*logp_session_fn_t)(void *);
/* the nonblocking forms: the same arguments and a request */
typedef int (*logp_ibcast_fn_t)(void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t, void *);
typedef int (*logp_ireduce_fn_t)(const void *, void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t,
                                 logp_word_t, void *);
typedef int (*logp_ialltoall_fn_t)(const void *, logp_word_t, logp_word_t, void *, logp_word_t, logp_word_t,
                                   logp_word_t, void *);
typedef int (*logp_iallreduce_fn_t)(const void *, void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t, void *);
typedef int (*logp_ialltoallv_fn_t)(const void *, const void *, const void *, logp_word_t, void *, const void *,
                                    const void *, logp_word_t, logp_word_t, void *);

/* Each collective's call from the application (`mpi`: its MPI_X, which a
 * tool loaded after the shim takes first) or from a tool (its PMPI_X), by
 * entry point: the next definitions of that entry point (the blocking
 * ones or, LOGP_ENTRY_LARGE_COUNT, the MPI_X_c ones). */
static int logp_entry_bcast(logp_entry_t entry, int mpi, void *buffer, logp_word_t count, logp_word_t datatype,
                            logp_word_t root, logp_word_t comm)
{
    const logp_next_t *next = logp_next_get();
    int large = entry == LOGP_ENTRY_LARGE_COUNT;
    void *tool = mpi ? (large ? next->tool_bcast_c : next->tool_bcast) : NULL;
    if (tool)
        return LOGP_NEXT_AS(logp_bcast_fn_t, tool)(buffer, count, datatype, root, comm);
    void *lib = large ? next->bcast_c : next->bcast;
    if (next->foreign)
        return LOGP_NEXT_AS(logp_bcast_fn_t, lib)(buffer, count, datatype, root, comm);
    return logp_shim_bcast_words(next, entry, buffer, count, datatype, root, comm, 0, NULL);
}

static int logp_entry_reduce(logp_entry_t entry, int mpi, const void *sendbuf, void *recvbuf, logp_word_t count,
                             logp_word_t datatype, logp_word_t op, logp_word_t root, logp_word_t comm)
{
    const logp_next_t *next = logp_next_get();
    int large = entry == LOGP_ENTRY_LARGE_COUNT;
    void *tool = mpi ? (large ? next->tool_reduce_c : next->tool_reduce) : NULL;
    if (tool)
        return LOGP_NEXT_AS(logp_reduce_fn_t, tool)(sendbuf, recvbuf, count, datatype, op, root, comm);
    void *lib = large ? next->reduce_c : next->reduce;
    if (next->foreign)
        return LOGP_NEXT_AS(logp_reduce_fn_t, lib)(sendbuf, recvbuf, count, datatype, op, root, comm);
    return logp_shim_reduce_words(next, entry, sendbuf, recvbuf, count, datatype, op, root, comm, 0, NULL);
}

static int logp_entry_alltoall(logp_entry_t entry, int mpi, const void *sendbuf, logp_word_t sendcount,
                               logp_word_t sendtype, void *recvbuf, logp_word_t recvcount, logp_word_t recvtype,
                               logp_word_t comm)
{
    const logp_next_t *next = logp_next_get();
    int large = entry == LOGP_ENTRY_LARGE_COUNT;
    void *tool = mpi ? (large ? next->tool_alltoall_c : next->tool_alltoall) : NULL;
    if (tool)
        return LOGP_NEXT_AS(logp_alltoall_fn_t, tool)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                                      comm);
    void *lib = large ? next->alltoall_c : next->alltoall;
    if (next->foreign)
        return LOGP_NEXT_AS(logp_alltoall_fn_t, lib)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return logp_shim_alltoall_words(next, entry, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, 0,
                                    NULL);
}

static int logp_entry_allreduce(logp_entry_t entry, int mpi, const void *sendbuf, void *recvbuf, logp_word_t count,
                                logp_word_t datatype, logp_word_t op, logp_word_t comm)
{
    const logp_next_t *next = logp_next_get();
    int large = entry == LOGP_ENTRY_LARGE_COUNT;
    void *tool = mpi ? (large ? next->tool_allreduce_c : next->tool_allreduce) : NULL;
    if (tool)
        return LOGP_NEXT_AS(logp_allreduce_fn_t, tool)(sendbuf, recvbuf, count, datatype, op, comm);
    void *lib = large ? next->allreduce_c : next->allreduce;
    if (next->foreign)
        return LOGP_NEXT_AS(logp_allreduce_fn_t, lib)(sendbuf, recvbuf, count, datatype, op, comm);
    return logp_shim_allreduce_words(next, entry, sendbuf, recvbuf, count, datatype, op, comm, 0, NULL);
}

static int logp_entry_alltoallv(logp_entry_t entry, int mpi, const void *sendbuf, const void *sendcounts,
                                const void *sdispls, logp_word_t sendtype, void *recvbuf, const void *recvcounts,
                                const void *rdispls, logp_word_t recvtype, logp_word_t comm)
{
    const logp_next_t *next = logp_next_get();
    int large = entry == LOGP_ENTRY_LARGE_COUNT;
    void *tool = mpi ? (large ? next->tool_alltoallv_c : next->tool_alltoallv) : NULL;
    void *to = tool ? tool : large ? next->alltoallv_c : next->alltoallv;
    if (tool || next->foreign)
        return LOGP_NEXT_AS(logp_alltoallv_fn_t, to)(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                                     rdispls, recvtype, comm);
    return logp_shim_alltoallv_words(next, entry, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                     recvtype, comm, 0, NULL);
}

/* The exported names: every one a call of the above. */
#define LOGP_BCAST_ARGS void *buffer, logp_word_t count, logp_word_t datatype, logp_word_t root, logp_word_t comm
#define LOGP_REDUCE_ARGS                                                                                               \
    const void *sendbuf, void *recvbuf, logp_word_t count, logp_word_t datatype, logp_word_t op, logp_word_t root,    \
        logp_word_t comm
#define LOGP_ALLTOALL_ARGS                                                                                             \
    const void *sendbuf, logp_word_t sendcount, logp_word_t sendtype, void *recvbuf, logp_word_t recvcount,          \
        logp_word_t recvtype, logp_word_t comm
#define LOGP_ALLREDUCE_ARGS                                                                                            \
    const void *sendbuf, void *recvbuf, logp_word_t count, logp_word_t datatype, logp_word_t op, logp_word_t comm
#define LOGP_ALLTOALLV_ARGS                                                                                            \
    const void *sendbuf, const void *sendcounts, const void *sdispls, logp_word_t sendtype, void *recvbuf,             \
        const void *recvcounts, const void *rdispls, logp_word_t recvtype, logp_word_t comm
#define LOGP_ENTRY_POINTS(suffix, entry)                                                                               \
    LOGP_EXPORT int MPI_Bcast##suffix(LOGP_BCAST_ARGS);                                                                \
    LOGP_EXPORT int MPI_Bcast##suffix(LOGP_BCAST_ARGS)                                                                 \
    {                                                                                                                  \
        return logp_entry_bcast(entry, 1, buffer, count, datatype, root, comm);                                        \
    }                                                                                                                  \
    LOGP_EXPORT int PMPI_Bcast##suffix(LOGP_BCAST_ARGS);                                                               \
    LOGP_EXPORT int PMPI_Bcast##suffix(LOGP_BCAST_ARGS)                                                                \
    {                                                                                                                  \
        return logp_entry_bcast(entry, 0, buffer, count, datatype, root, comm);                                        \
    }                                                                                                                  \
    LOGP_EXPORT int MPI_Reduce##suffix(LOGP_REDUCE_ARGS);                                                              \
    LOGP_EXPORT int MPI_Reduce##suffix(LOGP_REDUCE_ARGS)                                                               \
    {                                                                                                                  \
        return logp_entry_reduce(entry, 1, sendbuf, recvbuf, count, datatype, op, root, comm);                         \
    }                                                                                                                  \
    LOGP_EXPORT int PMPI_Reduce##suffix(LOGP_REDUCE_ARGS);                                                             \
    LOGP_EXPORT int PMPI_Reduce##suffix(LOGP_REDUCE_ARGS)                                                              \
    {                                                                                                                  \
        return logp_entry_reduce(entry, 0, sendbuf, recvbuf, count, datatype, op, root, comm);                         \
    }                                                                                                                  \
    LOGP_EXPORT int MPI_Alltoall##suffix(LOGP_ALLTOALL_ARGS);                                                          \
    LOGP_EXPORT int MPI_Alltoall##suffix(LOGP_ALLTOALL_ARGS)                                                           \
    {                                                                                                                  \
        return logp_entry_alltoall(entry, 1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);        \
    }                                                                                                                  \
    LOGP_EXPORT int PMPI_Alltoall##suffix(LOGP_ALLTOALL_ARGS);                                                         \
    LOGP_EXPORT int PMPI_Alltoall##suffix(LOGP_ALLTOALL_ARGS)                                                          \
    {                                                                                                                  \
        return logp_entry_alltoall(entry, 0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);        \
    }                                                                                                                  \
    LOGP_EXPORT int MPI_Allreduce##suffix(LOGP_ALLREDUCE_ARGS);                                                        \
    LOGP_EXPORT int MPI_Allreduce##suffix(LOGP_ALLREDUCE_ARGS)                                                         \
    {                                                                                                                  \
        return logp_entry_allreduce(entry, 1, sendbuf, recvbuf, count, datatype, op, comm);                            \
    }                                                                                                                  \
    LOGP_EXPORT int PMPI_Allreduce##suffix(LOGP_ALLREDUCE_ARGS);                                                       \
    LOGP_EXPORT int PMPI_Allreduce##suffix(LOGP_ALLREDUCE_ARGS)                                                        \
    {                                                                                                                  \
        return logp_entry_allreduce(entry, 0, sendbuf, recvbuf, count, datatype, op, comm);                            \
    }                                                                                                                  \
    LOGP_EXPORT int MPI_Alltoallv##suffix(LOGP_ALLTOALLV_ARGS);                                                        \
    LOGP_EXPORT int MPI_Alltoallv##suffix(LOGP_ALLTOALLV_ARGS)                                                         \
    {                                                                                                                  \
        return logp_entry_alltoallv(entry, 1, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,    \
                                    recvtype, comm);                                                                   \
    }                                                                                                                  \
    LOGP_EXPORT int PMPI_Alltoallv##suffix(LOGP_ALLTOALLV_ARGS);                                                       \
    LOGP_EXPORT int PMPI_Alltoallv##suffix(LOGP_ALLTOALLV_ARGS)                                                        \
    {                                                                                                                  \
        return logp_entry_alltoallv(entry, 0, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,    \
                                    recvtype, comm);                                                                   \
    }

LOGP_ENTRY_POINTS(, LOGP_ENTRY_BLOCKING)
#ifdef LOGP_HAVE_LARGE_COUNT
/* MPI-4 large counts: the same collectives with MPI_Count counts (a word
 * each, as every other argument), only where the library defines them
 * (configure.ac); MPICH's do not pass through MPI_Bcast & co. */
LOGP_ENTRY_POINTS(_c, LOGP_ENTRY_LARGE_COUNT)
#endif

/* The nonblocking forms (MPI-3): MPI_X only (the shim's own agreements
 * call the library's PMPI_Iallreduce), handed to a tool's MPI_X loaded
 * after the shim, to the library when it is foreign, else run by the
 * shim (the driver decides whether its engine or the library's
 * nonblocking collective runs the call). */
#define LOGP_NEXT_OR_SHIM(tool_, lib_, fn_t, shim_call, ...)                                                          \
    do {                                                                                                               \
        const logp_next_t *next = logp_next_get();                                                                     \
        void *to_ = next->tool_ ? next->tool_ : next->lib_;                                                            \
        if (next->tool_ || next->foreign)                                                                              \
            return LOGP_NEXT_AS(fn_t, to_)(__VA_ARGS__);                                                               \
        return shim_call;                                                                                              \
    } while (0)

LOGP_EXPORT int MPI_Ibcast(LOGP_BCAST_ARGS, void *request);
LOGP_EXPORT int MPI_Ibcast(LOGP_BCAST_ARGS, void *request)
{
    LOGP_NEXT_OR_SHIM(tool_ibcast, ibcast, logp_ibcast_fn_t,
                      logp_shim_bcast_words(next, LOGP_ENTRY_NONBLOCKING, buffer, count, datatype, root, comm, 0, request),
                      buffer, count, datatype, root, comm, request);
}

LOGP_EXPORT int MPI_Ireduce(LOGP_REDUCE_ARGS, void *request);
LOGP_EXPORT int MPI_Ireduce(LOGP_REDUCE_ARGS, void *request)
{
    LOGP_NEXT_OR_SHIM(tool_ireduce, ireduce, logp_ireduce_fn_t,
                      logp_shim_reduce_words(next, LOGP_ENTRY_NONBLOCKING, sendbuf, recvbuf, count, datatype, op, root,
                                             comm, 0, request),
                      sendbuf, recvbuf, count, datatype, op, root, comm, request);
}

LOGP_EXPORT int MPI_Ialltoall(LOGP_ALLTOALL_ARGS, void *request);
LOGP_EXPORT int MPI_Ialltoall(LOGP_ALLTOALL_ARGS, void *request)
{
    LOGP_NEXT_OR_SHIM(tool_ialltoall, ialltoall, logp_ialltoall_fn_t,
                      logp_shim_alltoall_words(next, LOGP_ENTRY_NONBLOCKING, sendbuf, sendcount, sendtype, recvbuf,
                                               recvcount, recvtype, comm, 0, request),
                      sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

LOGP_EXPORT int MPI_Iallreduce(LOGP_ALLREDUCE_ARGS, void *request);
LOGP_EXPORT int MPI_Iallreduce(LOGP_ALLREDUCE_ARGS, void *request)
{
    LOGP_NEXT_OR_SHIM(tool_iallreduce, iallreduce, logp_iallreduce_fn_t,
                      logp_shim_allreduce_words(next, LOGP_ENTRY_NONBLOCKING, sendbuf, recvbuf, count, datatype, op,
                                                comm, 0, request),
                      sendbuf, recvbuf, count, datatype, op, comm, request);
}

LOGP_EXPORT int MPI_Ialltoallv(LOGP_ALLTOALLV_ARGS, void *request);
LOGP_EXPORT int MPI_Ialltoallv(LOGP_ALLTOALLV_ARGS, void *request)
{
    LOGP_NEXT_OR_SHIM(tool_ialltoallv, ialltoallv, logp_ialltoallv_fn_t,
                      logp_shim_alltoallv_words(next, LOGP_ENTRY_NONBLOCKING, sendbuf, sendcounts, sdispls, sendtype,
                                                recvbuf, recvcounts, rdispls, recvtype, comm, 0, request),
                      sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request);
}

#ifdef LOGP_HAVE_PERSISTENT
/* The persistent forms (MPI-4 MPI_X_init; Open MPI 4.1's extension
 * MPIX_X_init: LOGP_INIT_SYMBOL, next.h), handed on as the nonblocking
 * ones (the driver decides at initialization whether MPI_Start runs the
 * shim's schedule or the library's persistent collective). */
typedef int (*logp_bcast_init_fn_t)(void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t, logp_word_t, void *);
typedef int (*logp_reduce_init_fn_t)(const void *, void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t,
                                     logp_word_t, logp_word_t, void *);
typedef int (*logp_alltoall_init_fn_t)(const void *, logp_word_t, logp_word_t, void *, logp_word_t, logp_word_t,
                                       logp_word_t, logp_word_t, void *);
typedef int (*logp_allreduce_init_fn_t)(const void *, void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t,
                                        logp_word_t, void *);
typedef int (*logp_alltoallv_init_fn_t)(const void *, const void *, const void *, logp_word_t, void *, const void *,
                                        const void *, logp_word_t, logp_word_t, logp_word_t, void *);

LOGP_EXPORT int LOGP_INIT_SYMBOL(Bcast)(LOGP_BCAST_ARGS, logp_word_t info, void *request);
LOGP_EXPORT int LOGP_INIT_SYMBOL(Bcast)(LOGP_BCAST_ARGS, logp_word_t info, void *request)
{
    LOGP_NEXT_OR_SHIM(tool_bcast_init, bcast_init, logp_bcast_init_fn_t,
                      logp_shim_bcast_words(next, LOGP_ENTRY_PERSISTENT, buffer, count, datatype, root, comm, info,
                                            request),
                      buffer, count, datatype, root, comm, info, request);
}

LOGP_EXPORT int LOGP_INIT_SYMBOL(Reduce)(LOGP_REDUCE_ARGS, logp_word_t info, void *request);
LOGP_EXPORT int LOGP_INIT_SYMBOL(Reduce)(LOGP_REDUCE_ARGS, logp_word_t info, void *request)
{
    LOGP_NEXT_OR_SHIM(tool_reduce_init, reduce_init, logp_reduce_init_fn_t,
                      logp_shim_reduce_words(next, LOGP_ENTRY_PERSISTENT, sendbuf, recvbuf, count, datatype, op, root,
                                             comm, info, request),
                      sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
}

LOGP_EXPORT int LOGP_INIT_SYMBOL(Alltoall)(LOGP_ALLTOALL_ARGS, logp_word_t info, void *request);
LOGP_EXPORT int LOGP_INIT_SYMBOL(Alltoall)(LOGP_ALLTOALL_ARGS, logp_word_t info, void *request)
{
    LOGP_NEXT_OR_SHIM(tool_alltoall_init, alltoall_init, logp_alltoall_init_fn_t,
                      logp_shim_alltoall_words(next, LOGP_ENTRY_PERSISTENT, sendbuf, sendcount, sendtype, recvbuf,
                                               recvcount, recvtype, comm, info, request),
                      sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}

LOGP_EXPORT int LOGP_INIT_SYMBOL(Allreduce)(LOGP_ALLREDUCE_ARGS, logp_word_t info, void *request);
LOGP_EXPORT int LOGP_INIT_SYMBOL(Allreduce)(LOGP_ALLREDUCE_ARGS, logp_word_t info, void *request)
{
    LOGP_NEXT_OR_SHIM(tool_allreduce_init, allreduce_init, logp_allreduce_init_fn_t,
                      logp_shim_allreduce_words(next, LOGP_ENTRY_PERSISTENT, sendbuf, recvbuf, count, datatype, op,
                                                comm, info, request),
                      sendbuf, recvbuf, count, datatype, op, comm, info, request);
}

LOGP_EXPORT int LOGP_INIT_SYMBOL(Alltoallv)(LOGP_ALLTOALLV_ARGS, logp_word_t info, void *request);
LOGP_EXPORT int LOGP_INIT_SYMBOL(Alltoallv)(LOGP_ALLTOALLV_ARGS, logp_word_t info, void *request)
{
    LOGP_NEXT_OR_SHIM(tool_alltoallv_init, alltoallv_init, logp_alltoallv_init_fn_t,
                      logp_shim_alltoallv_words(next, LOGP_ENTRY_PERSISTENT, sendbuf, sendcounts, sdispls, sendtype,
                                                recvbuf, recvcounts, rdispls, recvtype, comm, info, request),
                      sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, info,
                      request);
}
#endif

/* MPI-4 Sessions: the end of the shim's run when the application ends its
 * session (there may be no MPI_Finalize).  Exported whatever the library:
 * a library without Sessions never calls it. */
static int logp_entry_session_finalize(const logp_next_t *next, void *session)
{
    if (next->foreign) /* a library without Sessions is never asked */
        return next->session_finalize ? LOGP_NEXT_AS(logp_session_fn_t, next->session_finalize)(session) : 1;
    return logp_shim_session_finalize_words(next, session);
}

LOGP_EXPORT int PMPI_Session_finalize(void *session);
LOGP_EXPORT int PMPI_Session_finalize(void *session)
{
    return logp_entry_session_finalize(logp_next_get(), session);
}

LOGP_EXPORT int MPI_Session_finalize(void *session);
LOGP_EXPORT int MPI_Session_finalize(void *session)
{
    const logp_next_t *next = logp_next_get();
    if (next->tool_session_finalize)
        return LOGP_NEXT_AS(logp_session_fn_t, next->tool_session_finalize)(session);
    return logp_entry_session_finalize(next, session);
}
#endif
