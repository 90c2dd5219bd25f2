/* The exported entry points of the shim library: MPI_X and PMPI_X for
 * MPI_Bcast, MPI_Reduce, MPI_Alltoall (and their large-count forms
 * MPI_X_c where the library has them) and MPI_Session_finalize.
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
typedef int (*logp_session_fn_t)(void *);

static int logp_entry_bcast(const logp_next_t *next, void *buffer, logp_word_t count, logp_word_t datatype,
                            logp_word_t root, logp_word_t comm)
{
    if (next->foreign)
        return LOGP_NEXT_AS(logp_bcast_fn_t, next->bcast)(buffer, count, datatype, root, comm);
    return logp_shim_bcast_words(next, LOGP_ENTRY_BLOCKING, buffer, count, datatype, root, comm);
}

LOGP_EXPORT int MPI_Bcast(void *buffer, logp_word_t count, logp_word_t datatype, logp_word_t root, logp_word_t comm);
LOGP_EXPORT int MPI_Bcast(void *buffer, logp_word_t count, logp_word_t datatype, logp_word_t root, logp_word_t comm)
{
    const logp_next_t *next = logp_next_get();
    if (next->tool_bcast)
        return LOGP_NEXT_AS(logp_bcast_fn_t, next->tool_bcast)(buffer, count, datatype, root, comm);
    return logp_entry_bcast(next, buffer, count, datatype, root, comm);
}

LOGP_EXPORT int PMPI_Bcast(void *buffer, logp_word_t count, logp_word_t datatype, logp_word_t root, logp_word_t comm);
LOGP_EXPORT int PMPI_Bcast(void *buffer, logp_word_t count, logp_word_t datatype, logp_word_t root, logp_word_t comm)
{
    return logp_entry_bcast(logp_next_get(), buffer, count, datatype, root, comm);
}

static int logp_entry_reduce(const logp_next_t *next, const void *sendbuf, void *recvbuf, logp_word_t count,
                             logp_word_t datatype, logp_word_t op, logp_word_t root, logp_word_t comm)
{
    if (next->foreign)
        return LOGP_NEXT_AS(logp_reduce_fn_t, next->reduce)(sendbuf, recvbuf, count, datatype, op, root, comm);
    return logp_shim_reduce_words(next, LOGP_ENTRY_BLOCKING, sendbuf, recvbuf, count, datatype, op, root, comm);
}

LOGP_EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, logp_word_t count, logp_word_t datatype,
                           logp_word_t op, logp_word_t root, logp_word_t comm);
LOGP_EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, logp_word_t count, logp_word_t datatype,
                           logp_word_t op, logp_word_t root, logp_word_t comm)
{
    const logp_next_t *next = logp_next_get();
    if (next->tool_reduce)
        return LOGP_NEXT_AS(logp_reduce_fn_t, next->tool_reduce)(sendbuf, recvbuf, count, datatype, op, root, comm);
    return logp_entry_reduce(next, sendbuf, recvbuf, count, datatype, op, root, comm);
}

LOGP_EXPORT int PMPI_Reduce(const void *sendbuf, void *recvbuf, logp_word_t count, logp_word_t datatype,
                            logp_word_t op, logp_word_t root, logp_word_t comm);
LOGP_EXPORT int PMPI_Reduce(const void *sendbuf, void *recvbuf, logp_word_t count, logp_word_t datatype,
                            logp_word_t op, logp_word_t root, logp_word_t comm)
{
    return logp_entry_reduce(logp_next_get(), sendbuf, recvbuf, count, datatype, op, root, comm);
}

static int logp_entry_alltoall(const logp_next_t *next, const void *sendbuf, logp_word_t sendcount,
                               logp_word_t sendtype, void *recvbuf, logp_word_t recvcount, logp_word_t recvtype,
                               logp_word_t comm)
{
    if (next->foreign)
        return LOGP_NEXT_AS(logp_alltoall_fn_t, next->alltoall)(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                               recvtype, comm);
    return logp_shim_alltoall_words(next, LOGP_ENTRY_BLOCKING, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                    recvtype, comm);
}

LOGP_EXPORT int MPI_Alltoall(const void *sendbuf, logp_word_t sendcount, logp_word_t sendtype, void *recvbuf,
                             logp_word_t recvcount, logp_word_t recvtype, logp_word_t comm);
LOGP_EXPORT int MPI_Alltoall(const void *sendbuf, logp_word_t sendcount, logp_word_t sendtype, void *recvbuf,
                             logp_word_t recvcount, logp_word_t recvtype, logp_word_t comm)
{
    const logp_next_t *next = logp_next_get();
    if (next->tool_alltoall)
        return LOGP_NEXT_AS(logp_alltoall_fn_t, next->tool_alltoall)(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                                    recvtype, comm);
    return logp_entry_alltoall(next, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

LOGP_EXPORT int PMPI_Alltoall(const void *sendbuf, logp_word_t sendcount, logp_word_t sendtype, void *recvbuf,
                              logp_word_t recvcount, logp_word_t recvtype, logp_word_t comm);
LOGP_EXPORT int PMPI_Alltoall(const void *sendbuf, logp_word_t sendcount, logp_word_t sendtype, void *recvbuf,
                              logp_word_t recvcount, logp_word_t recvtype, logp_word_t comm)
{
    return logp_entry_alltoall(logp_next_get(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

#ifdef LOGP_HAVE_LARGE_COUNT
/* MPI-4 large counts: the same collectives with MPI_Count counts (a word
 * each, as every other argument).  Only where the library defines them
 * (configure.ac); MPICH's do not pass through MPI_Bcast & co. */

static int logp_entry_bcast_c(const logp_next_t *next, void *buffer, logp_word_t count, logp_word_t datatype,
                              logp_word_t root, logp_word_t comm)
{
    if (next->foreign)
        return LOGP_NEXT_AS(logp_bcast_fn_t, next->bcast_c)(buffer, count, datatype, root, comm);
    return logp_shim_bcast_words(next, LOGP_ENTRY_LARGE_COUNT, buffer, count, datatype, root, comm);
}

LOGP_EXPORT int PMPI_Bcast_c(void *buffer, logp_word_t count, logp_word_t datatype, logp_word_t root,
                             logp_word_t comm);
LOGP_EXPORT int PMPI_Bcast_c(void *buffer, logp_word_t count, logp_word_t datatype, logp_word_t root, logp_word_t comm)
{
    return logp_entry_bcast_c(logp_next_get(), buffer, count, datatype, root, comm);
}

LOGP_EXPORT int MPI_Bcast_c(void *buffer, logp_word_t count, logp_word_t datatype, logp_word_t root, logp_word_t comm);
LOGP_EXPORT int MPI_Bcast_c(void *buffer, logp_word_t count, logp_word_t datatype, logp_word_t root, logp_word_t comm)
{
    const logp_next_t *next = logp_next_get();
    if (next->tool_bcast_c)
        return LOGP_NEXT_AS(logp_bcast_fn_t, next->tool_bcast_c)(buffer, count, datatype, root, comm);
    return logp_entry_bcast_c(next, buffer, count, datatype, root, comm);
}

static int logp_entry_reduce_c(const logp_next_t *next, const void *sendbuf, void *recvbuf, logp_word_t count,
                               logp_word_t datatype, logp_word_t op, logp_word_t root, logp_word_t comm)
{
    if (next->foreign)
        return LOGP_NEXT_AS(logp_reduce_fn_t, next->reduce_c)(sendbuf, recvbuf, count, datatype, op, root, comm);
    return logp_shim_reduce_words(next, LOGP_ENTRY_LARGE_COUNT, sendbuf, recvbuf, count, datatype, op, root, comm);
}

LOGP_EXPORT int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, logp_word_t count, logp_word_t datatype,
                              logp_word_t op, logp_word_t root, logp_word_t comm);
LOGP_EXPORT int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, logp_word_t count, logp_word_t datatype,
                              logp_word_t op, logp_word_t root, logp_word_t comm)
{
    return logp_entry_reduce_c(logp_next_get(), sendbuf, recvbuf, count, datatype, op, root, comm);
}

LOGP_EXPORT int MPI_Reduce_c(const void *sendbuf, void *recvbuf, logp_word_t count, logp_word_t datatype,
                             logp_word_t op, logp_word_t root, logp_word_t comm);
LOGP_EXPORT int MPI_Reduce_c(const void *sendbuf, void *recvbuf, logp_word_t count, logp_word_t datatype,
                             logp_word_t op, logp_word_t root, logp_word_t comm)
{
    const logp_next_t *next = logp_next_get();
    if (next->tool_reduce_c)
        return LOGP_NEXT_AS(logp_reduce_fn_t, next->tool_reduce_c)(sendbuf, recvbuf, count, datatype, op, root, comm);
    return logp_entry_reduce_c(next, sendbuf, recvbuf, count, datatype, op, root, comm);
}

static int logp_entry_alltoall_c(const logp_next_t *next, const void *sendbuf, logp_word_t sendcount,
                                 logp_word_t sendtype, void *recvbuf, logp_word_t recvcount, logp_word_t recvtype,
                                 logp_word_t comm)
{
    if (next->foreign)
        return LOGP_NEXT_AS(logp_alltoall_fn_t, next->alltoall_c)(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                                 recvtype, comm);
    return logp_shim_alltoall_words(next, LOGP_ENTRY_LARGE_COUNT, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                    recvtype, comm);
}

LOGP_EXPORT int PMPI_Alltoall_c(const void *sendbuf, logp_word_t sendcount, logp_word_t sendtype, void *recvbuf,
                                logp_word_t recvcount, logp_word_t recvtype, logp_word_t comm);
LOGP_EXPORT int PMPI_Alltoall_c(const void *sendbuf, logp_word_t sendcount, logp_word_t sendtype, void *recvbuf,
                                logp_word_t recvcount, logp_word_t recvtype, logp_word_t comm)
{
    return logp_entry_alltoall_c(logp_next_get(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

LOGP_EXPORT int MPI_Alltoall_c(const void *sendbuf, logp_word_t sendcount, logp_word_t sendtype, void *recvbuf,
                               logp_word_t recvcount, logp_word_t recvtype, logp_word_t comm);
LOGP_EXPORT int MPI_Alltoall_c(const void *sendbuf, logp_word_t sendcount, logp_word_t sendtype, void *recvbuf,
                               logp_word_t recvcount, logp_word_t recvtype, logp_word_t comm)
{
    const logp_next_t *next = logp_next_get();
    if (next->tool_alltoall_c)
        return LOGP_NEXT_AS(logp_alltoall_fn_t, next->tool_alltoall_c)(sendbuf, sendcount, sendtype, recvbuf,
                                                                      recvcount, recvtype, comm);
    return logp_entry_alltoall_c(next, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
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
