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

typedef int (*logp_session_fn_t)(void *);

/* Each collective's call at entry point `entry` from the application
 * (`mpi`: its MPI_X, which a tool loaded after the shim takes first) or
 * from a tool (its PMPI_X; nonblocking and persistent calls come from
 * the application only), handed on or run by the shim; `info` and
 * `request` as in shim.h. */
#define LOGP_ENTRY_TOOL(coll) (mpi ? next->tool[entry][coll] : NULL)

static int logp_entry_bcast(logp_entry_t entry, int mpi, void *buffer, logp_word_t count, logp_word_t datatype,
                            logp_word_t root, logp_word_t comm, logp_word_t info, void *request)
{
    const logp_next_t *next = logp_next_get();
    void *tool = LOGP_ENTRY_TOOL(LOGP_COLL_BCAST);
    if (tool || next->foreign) {
        void *to = tool ? tool : next->lib[entry][LOGP_COLL_BCAST];
        return logp_shim_bcast_call(to, entry, buffer, count, datatype, root, comm, info, request);
    }
    return logp_shim_bcast_words(next, entry, buffer, count, datatype, root, comm, info, request);
}

static int logp_entry_reduce(logp_entry_t entry, int mpi, const void *sendbuf, void *recvbuf, logp_word_t count,
                             logp_word_t datatype, logp_word_t op, logp_word_t root, logp_word_t comm,
                             logp_word_t info, void *request)
{
    const logp_next_t *next = logp_next_get();
    void *tool = LOGP_ENTRY_TOOL(LOGP_COLL_REDUCE);
    if (tool || next->foreign) {
        void *to = tool ? tool : next->lib[entry][LOGP_COLL_REDUCE];
        return logp_shim_reduce_call(to, entry, sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
    }
    return logp_shim_reduce_words(next, entry, sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
}

static int logp_entry_alltoall(logp_entry_t entry, int mpi, const void *sendbuf, logp_word_t sendcount,
                               logp_word_t sendtype, void *recvbuf, logp_word_t recvcount, logp_word_t recvtype,
                               logp_word_t comm, logp_word_t info, void *request)
{
    const logp_next_t *next = logp_next_get();
    void *tool = LOGP_ENTRY_TOOL(LOGP_COLL_ALLTOALL);
    if (tool || next->foreign) {
        void *to = tool ? tool : next->lib[entry][LOGP_COLL_ALLTOALL];
        return logp_shim_alltoall_call(to, entry, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                       info, request);
    }
    return logp_shim_alltoall_words(next, entry, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                    info, request);
}

static int logp_entry_allreduce(logp_entry_t entry, int mpi, const void *sendbuf, void *recvbuf, logp_word_t count,
                                logp_word_t datatype, logp_word_t op, logp_word_t comm, logp_word_t info,
                                void *request)
{
    const logp_next_t *next = logp_next_get();
    void *tool = LOGP_ENTRY_TOOL(LOGP_COLL_ALLREDUCE);
    if (tool || next->foreign) {
        void *to = tool ? tool : next->lib[entry][LOGP_COLL_ALLREDUCE];
        return logp_shim_allreduce_call(to, entry, sendbuf, recvbuf, count, datatype, op, comm, info, request);
    }
    return logp_shim_allreduce_words(next, entry, sendbuf, recvbuf, count, datatype, op, comm, info, request);
}

static int logp_entry_alltoallv(logp_entry_t entry, int mpi, const void *sendbuf, const void *sendcounts,
                                const void *sdispls, logp_word_t sendtype, void *recvbuf, const void *recvcounts,
                                const void *rdispls, logp_word_t recvtype, logp_word_t comm, logp_word_t info,
                                void *request)
{
    const logp_next_t *next = logp_next_get();
    void *tool = LOGP_ENTRY_TOOL(LOGP_COLL_ALLTOALLV);
    if (tool || next->foreign) {
        void *to = tool ? tool : next->lib[entry][LOGP_COLL_ALLTOALLV];
        return logp_shim_alltoallv_call(to, entry, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                        rdispls, recvtype, comm, info, request);
    }
    return logp_shim_alltoallv_words(next, entry, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                     recvtype, comm, info, request);
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
/* The blocking forms' MPI_X##suffix and PMPI_X##suffix. */
#define LOGP_ENTRY_POINTS(suffix, entry)                                                                               \
    LOGP_EXPORT int MPI_Bcast##suffix(LOGP_BCAST_ARGS);                                                                \
    LOGP_EXPORT int MPI_Bcast##suffix(LOGP_BCAST_ARGS)                                                                 \
    {                                                                                                                  \
        return logp_entry_bcast(entry, 1, buffer, count, datatype, root, comm, 0, NULL);                               \
    }                                                                                                                  \
    LOGP_EXPORT int PMPI_Bcast##suffix(LOGP_BCAST_ARGS);                                                               \
    LOGP_EXPORT int PMPI_Bcast##suffix(LOGP_BCAST_ARGS)                                                                \
    {                                                                                                                  \
        return logp_entry_bcast(entry, 0, buffer, count, datatype, root, comm, 0, NULL);                               \
    }                                                                                                                  \
    LOGP_EXPORT int MPI_Reduce##suffix(LOGP_REDUCE_ARGS);                                                              \
    LOGP_EXPORT int MPI_Reduce##suffix(LOGP_REDUCE_ARGS)                                                               \
    {                                                                                                                  \
        return logp_entry_reduce(entry, 1, sendbuf, recvbuf, count, datatype, op, root, comm, 0, NULL);                \
    }                                                                                                                  \
    LOGP_EXPORT int PMPI_Reduce##suffix(LOGP_REDUCE_ARGS);                                                             \
    LOGP_EXPORT int PMPI_Reduce##suffix(LOGP_REDUCE_ARGS)                                                              \
    {                                                                                                                  \
        return logp_entry_reduce(entry, 0, sendbuf, recvbuf, count, datatype, op, root, comm, 0, NULL);                \
    }                                                                                                                  \
    LOGP_EXPORT int MPI_Alltoall##suffix(LOGP_ALLTOALL_ARGS);                                                          \
    LOGP_EXPORT int MPI_Alltoall##suffix(LOGP_ALLTOALL_ARGS)                                                           \
    {                                                                                                                  \
        return logp_entry_alltoall(entry, 1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, 0,      \
                                   NULL);                                                                              \
    }                                                                                                                  \
    LOGP_EXPORT int PMPI_Alltoall##suffix(LOGP_ALLTOALL_ARGS);                                                         \
    LOGP_EXPORT int PMPI_Alltoall##suffix(LOGP_ALLTOALL_ARGS)                                                          \
    {                                                                                                                  \
        return logp_entry_alltoall(entry, 0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, 0,      \
                                   NULL);                                                                              \
    }                                                                                                                  \
    LOGP_EXPORT int MPI_Allreduce##suffix(LOGP_ALLREDUCE_ARGS);                                                        \
    LOGP_EXPORT int MPI_Allreduce##suffix(LOGP_ALLREDUCE_ARGS)                                                         \
    {                                                                                                                  \
        return logp_entry_allreduce(entry, 1, sendbuf, recvbuf, count, datatype, op, comm, 0, NULL);                   \
    }                                                                                                                  \
    LOGP_EXPORT int PMPI_Allreduce##suffix(LOGP_ALLREDUCE_ARGS);                                                       \
    LOGP_EXPORT int PMPI_Allreduce##suffix(LOGP_ALLREDUCE_ARGS)                                                        \
    {                                                                                                                  \
        return logp_entry_allreduce(entry, 0, sendbuf, recvbuf, count, datatype, op, comm, 0, NULL);                   \
    }                                                                                                                  \
    LOGP_EXPORT int MPI_Alltoallv##suffix(LOGP_ALLTOALLV_ARGS);                                                        \
    LOGP_EXPORT int MPI_Alltoallv##suffix(LOGP_ALLTOALLV_ARGS)                                                         \
    {                                                                                                                  \
        return logp_entry_alltoallv(entry, 1, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,    \
                                    recvtype, comm, 0, NULL);                                                          \
    }                                                                                                                  \
    LOGP_EXPORT int PMPI_Alltoallv##suffix(LOGP_ALLTOALLV_ARGS);                                                       \
    LOGP_EXPORT int PMPI_Alltoallv##suffix(LOGP_ALLTOALLV_ARGS)                                                        \
    {                                                                                                                  \
        return logp_entry_alltoallv(entry, 0, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,    \
                                    recvtype, comm, 0, NULL);                                                          \
    }

/* The nonblocking (MPI-3) and persistent (MPI-4) forms: MPI_X only (the
 * shim's own agreements call the library's PMPI_Iallreduce); the driver
 * decides whether the shim's engine or the library's collective runs the
 * call (for a persistent one, at initialization, for all its starts).
 * `bcast`... are the exported names; `extra` the arguments after the
 * blocking call's (the info word of a persistent call, or nothing), and
 * `info_word` the word passed on (0 for a nonblocking call). */
#define LOGP_REQUEST_POINTS(entry, bcast, reduce, alltoall, allreduce, alltoallv, info_word, ...)                           \
    LOGP_EXPORT int bcast(LOGP_BCAST_ARGS, __VA_ARGS__ void *request);                                                 \
    LOGP_EXPORT int bcast(LOGP_BCAST_ARGS, __VA_ARGS__ void *request)                                                  \
    {                                                                                                                  \
        return logp_entry_bcast(entry, 1, buffer, count, datatype, root, comm, info_word, request);                         \
    }                                                                                                                  \
    LOGP_EXPORT int reduce(LOGP_REDUCE_ARGS, __VA_ARGS__ void *request);                                               \
    LOGP_EXPORT int reduce(LOGP_REDUCE_ARGS, __VA_ARGS__ void *request)                                                \
    {                                                                                                                  \
        return logp_entry_reduce(entry, 1, sendbuf, recvbuf, count, datatype, op, root, comm, info_word, request);          \
    }                                                                                                                  \
    LOGP_EXPORT int alltoall(LOGP_ALLTOALL_ARGS, __VA_ARGS__ void *request);                                           \
    LOGP_EXPORT int alltoall(LOGP_ALLTOALL_ARGS, __VA_ARGS__ void *request)                                            \
    {                                                                                                                  \
        return logp_entry_alltoall(entry, 1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info_word,\
                                   request);                                                                           \
    }                                                                                                                  \
    LOGP_EXPORT int allreduce(LOGP_ALLREDUCE_ARGS, __VA_ARGS__ void *request);                                         \
    LOGP_EXPORT int allreduce(LOGP_ALLREDUCE_ARGS, __VA_ARGS__ void *request)                                          \
    {                                                                                                                  \
        return logp_entry_allreduce(entry, 1, sendbuf, recvbuf, count, datatype, op, comm, info_word, request);             \
    }                                                                                                                  \
    LOGP_EXPORT int alltoallv(LOGP_ALLTOALLV_ARGS, __VA_ARGS__ void *request);                                         \
    LOGP_EXPORT int alltoallv(LOGP_ALLTOALLV_ARGS, __VA_ARGS__ void *request)                                          \
    {                                                                                                                  \
        return logp_entry_alltoallv(entry, 1, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,    \
                                    recvtype, comm, info_word, request);                                                    \
    }

LOGP_ENTRY_POINTS(, LOGP_ENTRY_BLOCKING)
LOGP_REQUEST_POINTS(LOGP_ENTRY_NONBLOCKING, MPI_Ibcast, MPI_Ireduce, MPI_Ialltoall, MPI_Iallreduce, MPI_Ialltoallv, 0, )
#ifdef LOGP_HAVE_LARGE_COUNT
/* MPI-4 large counts: the same collectives with MPI_Count counts (a word
 * each, as every other argument) and MPI_Aint displacements, only where
 * the library defines them (configure.ac); MPICH's do not pass through
 * MPI_Bcast & co. */
LOGP_ENTRY_POINTS(_c, LOGP_ENTRY_LARGE_COUNT)
LOGP_REQUEST_POINTS(LOGP_ENTRY_NONBLOCKING_LARGE_COUNT, MPI_Ibcast_c, MPI_Ireduce_c, MPI_Ialltoall_c, MPI_Iallreduce_c,
                    MPI_Ialltoallv_c, 0, )
#endif
#ifdef LOGP_HAVE_PERSISTENT
/* MPI-4 MPI_X_init, or Open MPI 4.1's extension MPIX_X_init
 * (LOGP_INIT_SYMBOL, next.h) */
LOGP_REQUEST_POINTS(LOGP_ENTRY_PERSISTENT, LOGP_INIT_SYMBOL(Bcast), LOGP_INIT_SYMBOL(Reduce),
                    LOGP_INIT_SYMBOL(Alltoall), LOGP_INIT_SYMBOL(Allreduce), LOGP_INIT_SYMBOL(Alltoallv), info,
                    logp_word_t info, )
#endif
#ifdef LOGP_HAVE_PERSISTENT_LARGE_COUNT
LOGP_REQUEST_POINTS(LOGP_ENTRY_PERSISTENT_LARGE_COUNT, MPI_Bcast_init_c, MPI_Reduce_init_c, MPI_Alltoall_init_c,
                    MPI_Allreduce_init_c, MPI_Alltoallv_init_c, info, logp_word_t info, )
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
