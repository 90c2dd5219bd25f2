/* The application's blocking and polling point-to-point calls, waits and
 * tests, and MPI_Barrier, answered by the shim so that they step its
 * nonblocking collectives (blocking.h says why).  While none is
 * outstanding (always, unless PMPI_LOGP_NONBLOCKING=1 started one) each
 * call goes untouched to the next definition of its MPI name: a PMPI
 * tool's loaded after the shim, else the library's; the cost is one load
 * and one branch.  While some are outstanding, a blocking call runs as its
 * nonblocking form and a wait that steps the engine (through the
 * library's PMPI_ calls: a tool's MPI_ wrapper of that call does not see
 * it then), and a test or probe steps the engine once before the next
 * definition runs.  MPI_Barrier, a collective, runs as MPI_Ibarrier and
 * a stepping wait whenever the engine is on (blocking.h says why).
 *
 * Compiled without mpi.h, as entry.c (shim.h says why): arguments are
 * words and pointers.  In the libraries (LOGP_SHIM_CHAIN) and in a program
 * built with the shim for SMPI (LOGP_BUILD_SMPI: the next definitions are
 * the simulator's PMPI_, there is no tool to chain to). */
#if defined(LOGP_SHIM_CHAIN) || defined(LOGP_BUILD_SMPI)
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "blocking.h"

#define LOGP_EXPORT __attribute__((visibility("default")))

/* The next definitions of the MPI names answered here, looked up once
 * (in blocking.h's order). */
static const char *const logp_progress_names[LOGP_CALL_COUNT] = {
    "MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Recv", "MPI_Sendrecv", "MPI_Probe", "MPI_Mprobe", "MPI_Mrecv",
    "MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test", "MPI_Testall", "MPI_Testany",
    "MPI_Testsome", "MPI_Iprobe", "MPI_Improbe", "MPI_Barrier", "MPI_Allgather", "MPI_Allgatherv", "MPI_Gather",
    "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block", "MPI_Scan",
    "MPI_Exscan", "MPI_Alltoallw", "MPI_Start", "MPI_Startall", "MPI_Request_free", "MPI_Request_get_status"};
static void *logp_progress_next[LOGP_CALL_COUNT];
static pthread_once_t logp_progress_once = PTHREAD_ONCE_INIT;

static void logp_progress_init(void)
{
    for (int i = 0; i < LOGP_CALL_COUNT; i++) {
#ifdef LOGP_SHIM_CHAIN
        logp_progress_next[i] = dlsym(RTLD_NEXT, logp_progress_names[i]);
#endif
        if (logp_progress_next[i] == NULL) /* a static link or SMPI: the library's own */
            logp_progress_next[i] = logp_blocking_pmpi((logp_call_id_t)i);
    }
}

/* The next definition of call i as a function of `type`. */
#define LOGP_PROGRESS_NEXT(type, i)                                                                                    \
    __extension__({                                                                                                    \
        pthread_once(&logp_progress_once, logp_progress_init);                                                         \
        type f_;                                                                                                       \
        memcpy(&f_, &logp_progress_next[i], sizeof f_);                                                                \
        f_;                                                                                                            \
    })

typedef logp_word_t w_t;
typedef int (*logp_send_fn_t)(const void *, w_t, w_t, w_t, w_t, w_t);
typedef int (*logp_recv_fn_t)(void *, w_t, w_t, w_t, w_t, w_t, void *);
typedef int (*logp_sendrecv_fn_t)(const void *, w_t, w_t, w_t, w_t, void *, w_t, w_t, w_t, w_t, w_t, void *);
typedef int (*logp_probe_fn_t)(w_t, w_t, w_t, void *);
typedef int (*logp_mprobe_fn_t)(w_t, w_t, w_t, void *, void *);
typedef int (*logp_mrecv_fn_t)(void *, w_t, w_t, void *, void *);
typedef int (*logp_wait_fn_t)(void *, void *);
typedef int (*logp_waitall_fn_t)(w_t, void *, void *);
typedef int (*logp_waitany_fn_t)(w_t, void *, void *, void *);
typedef int (*logp_waitsome_fn_t)(w_t, void *, void *, void *, void *);
typedef int (*logp_test_fn_t)(void *, void *, void *);
typedef int (*logp_testall_fn_t)(w_t, void *, void *, void *);
typedef int (*logp_testany_fn_t)(w_t, void *, void *, void *, void *);
typedef int (*logp_iprobe_fn_t)(w_t, w_t, w_t, void *, void *);
typedef int (*logp_improbe_fn_t)(w_t, w_t, w_t, void *, void *, void *);
typedef int (*logp_barrier_fn_t)(w_t);

#define LOGP_SEND_LIKE(name, index, mode)                                                                              \
    LOGP_EXPORT int name(const void *buf, w_t count, w_t dt, w_t dest, w_t tag, w_t comm);                           \
    LOGP_EXPORT int name(const void *buf, w_t count, w_t dt, w_t dest, w_t tag, w_t comm)                            \
    {                                                                                                                  \
        if (logp_blocking_busy())                                                                                      \
            return logp_blocking_send(mode, buf, count, dt, dest, tag, comm);                                          \
        return LOGP_PROGRESS_NEXT(logp_send_fn_t, index)(buf, count, dt, dest, tag, comm);                             \
    }
LOGP_SEND_LIKE(MPI_Send, LOGP_CALL_SEND, LOGP_SEND_STANDARD)
LOGP_SEND_LIKE(MPI_Ssend, LOGP_CALL_SSEND, LOGP_SEND_SYNCHRONOUS)
LOGP_SEND_LIKE(MPI_Rsend, LOGP_CALL_RSEND, LOGP_SEND_READY)

LOGP_EXPORT int MPI_Recv(void *buf, w_t count, w_t dt, w_t source, w_t tag, w_t comm, void *status);
LOGP_EXPORT int MPI_Recv(void *buf, w_t count, w_t dt, w_t source, w_t tag, w_t comm, void *status)
{
    if (logp_blocking_busy())
        return logp_blocking_recv(buf, count, dt, source, tag, comm, status);
    return LOGP_PROGRESS_NEXT(logp_recv_fn_t, LOGP_CALL_RECV)(buf, count, dt, source, tag, comm, status);
}

LOGP_EXPORT int MPI_Sendrecv(const void *sbuf, w_t scount, w_t st, w_t dest, w_t stag, void *rbuf, w_t rcount, w_t rt,
                             w_t source, w_t rtag, w_t comm, void *status);
LOGP_EXPORT int MPI_Sendrecv(const void *sbuf, w_t scount, w_t st, w_t dest, w_t stag, void *rbuf, w_t rcount, w_t rt,
                             w_t source, w_t rtag, w_t comm, void *status)
{
    if (logp_blocking_busy())
        return logp_blocking_sendrecv(sbuf, scount, st, dest, stag, rbuf, rcount, rt, source, rtag, comm, status);
    return LOGP_PROGRESS_NEXT(logp_sendrecv_fn_t, LOGP_CALL_SENDRECV)(sbuf, scount, st, dest, stag, rbuf, rcount, rt,
                                                                   source, rtag, comm, status);
}

LOGP_EXPORT int MPI_Probe(w_t source, w_t tag, w_t comm, void *status);
LOGP_EXPORT int MPI_Probe(w_t source, w_t tag, w_t comm, void *status)
{
    if (logp_blocking_busy())
        return logp_blocking_probe(source, tag, comm, status);
    return LOGP_PROGRESS_NEXT(logp_probe_fn_t, LOGP_CALL_PROBE)(source, tag, comm, status);
}

LOGP_EXPORT int MPI_Mprobe(w_t source, w_t tag, w_t comm, void *message, void *status);
LOGP_EXPORT int MPI_Mprobe(w_t source, w_t tag, w_t comm, void *message, void *status)
{
    if (logp_blocking_busy())
        return logp_blocking_mprobe(source, tag, comm, message, status);
    return LOGP_PROGRESS_NEXT(logp_mprobe_fn_t, LOGP_CALL_MPROBE)(source, tag, comm, message, status);
}

LOGP_EXPORT int MPI_Mrecv(void *buf, w_t count, w_t dt, void *message, void *status);
LOGP_EXPORT int MPI_Mrecv(void *buf, w_t count, w_t dt, void *message, void *status)
{
    if (logp_blocking_busy())
        return logp_blocking_mrecv(buf, count, dt, message, status);
    return LOGP_PROGRESS_NEXT(logp_mrecv_fn_t, LOGP_CALL_MRECV)(buf, count, dt, message, status);
}

LOGP_EXPORT int MPI_Wait(void *req, void *status);
LOGP_EXPORT int MPI_Wait(void *req, void *status)
{
    if (logp_blocking_busy() || logp_blocking_persistent())
        return logp_blocking_wait(req, status);
    return LOGP_PROGRESS_NEXT(logp_wait_fn_t, LOGP_CALL_WAIT)(req, status);
}

LOGP_EXPORT int MPI_Waitall(w_t n, void *reqs, void *statuses);
LOGP_EXPORT int MPI_Waitall(w_t n, void *reqs, void *statuses)
{
    if (logp_blocking_busy() || logp_blocking_persistent())
        return logp_blocking_waitall(n, reqs, statuses);
    return LOGP_PROGRESS_NEXT(logp_waitall_fn_t, LOGP_CALL_WAITALL)(n, reqs, statuses);
}

LOGP_EXPORT int MPI_Waitany(w_t n, void *reqs, void *index, void *status);
LOGP_EXPORT int MPI_Waitany(w_t n, void *reqs, void *index, void *status)
{
    if (logp_blocking_busy() || logp_blocking_persistent())
        return logp_blocking_waitany(n, reqs, index, status);
    return LOGP_PROGRESS_NEXT(logp_waitany_fn_t, LOGP_CALL_WAITANY)(n, reqs, index, status);
}

LOGP_EXPORT int MPI_Waitsome(w_t n, void *reqs, void *outcount, void *indices, void *statuses);
LOGP_EXPORT int MPI_Waitsome(w_t n, void *reqs, void *outcount, void *indices, void *statuses)
{
    if (logp_blocking_busy() || logp_blocking_persistent())
        return logp_blocking_waitsome(n, reqs, outcount, indices, statuses);
    return LOGP_PROGRESS_NEXT(logp_waitsome_fn_t, LOGP_CALL_WAITSOME)(n, reqs, outcount, indices, statuses);
}

/* the polling calls: a step first, then the call itself (with persistent
 * collectives of the shim's: blocking.h) */
LOGP_EXPORT int MPI_Test(void *req, void *flag, void *status);
LOGP_EXPORT int MPI_Test(void *req, void *flag, void *status)
{
    if (logp_blocking_busy())
        logp_blocking_step();
    if (logp_blocking_persistent())
        return logp_blocking_test(req, flag, status);
    return LOGP_PROGRESS_NEXT(logp_test_fn_t, LOGP_CALL_TEST)(req, flag, status);
}

LOGP_EXPORT int MPI_Testall(w_t n, void *reqs, void *flag, void *statuses);
LOGP_EXPORT int MPI_Testall(w_t n, void *reqs, void *flag, void *statuses)
{
    if (logp_blocking_busy())
        logp_blocking_step();
    if (logp_blocking_persistent())
        return logp_blocking_testall(n, reqs, flag, statuses);
    return LOGP_PROGRESS_NEXT(logp_testall_fn_t, LOGP_CALL_TESTALL)(n, reqs, flag, statuses);
}

LOGP_EXPORT int MPI_Testany(w_t n, void *reqs, void *index, void *flag, void *status);
LOGP_EXPORT int MPI_Testany(w_t n, void *reqs, void *index, void *flag, void *status)
{
    if (logp_blocking_busy())
        logp_blocking_step();
    if (logp_blocking_persistent())
        return logp_blocking_testany(n, reqs, index, flag, status);
    return LOGP_PROGRESS_NEXT(logp_testany_fn_t, LOGP_CALL_TESTANY)(n, reqs, index, flag, status);
}

LOGP_EXPORT int MPI_Testsome(w_t n, void *reqs, void *outcount, void *indices, void *statuses);
LOGP_EXPORT int MPI_Testsome(w_t n, void *reqs, void *outcount, void *indices, void *statuses)
{
    if (logp_blocking_busy())
        logp_blocking_step();
    if (logp_blocking_persistent())
        return logp_blocking_testsome(n, reqs, outcount, indices, statuses);
    return LOGP_PROGRESS_NEXT(logp_waitsome_fn_t, LOGP_CALL_TESTSOME)(n, reqs, outcount, indices, statuses);
}

LOGP_EXPORT int MPI_Iprobe(w_t source, w_t tag, w_t comm, void *flag, void *status);
LOGP_EXPORT int MPI_Iprobe(w_t source, w_t tag, w_t comm, void *flag, void *status)
{
    if (logp_blocking_busy())
        logp_blocking_step();
    return LOGP_PROGRESS_NEXT(logp_iprobe_fn_t, LOGP_CALL_IPROBE)(source, tag, comm, flag, status);
}

LOGP_EXPORT int MPI_Improbe(w_t source, w_t tag, w_t comm, void *flag, void *message, void *status);
LOGP_EXPORT int MPI_Improbe(w_t source, w_t tag, w_t comm, void *flag, void *message, void *status)
{
    if (logp_blocking_busy())
        logp_blocking_step();
    return LOGP_PROGRESS_NEXT(logp_improbe_fn_t, LOGP_CALL_IMPROBE)(source, tag, comm, flag, message, status);
}

/* Persistent collectives of the shim's (persist.h): their starts, their
 * release, and the status query that must not look at the application's
 * request (never started by the shim) while the shim's start runs. */
typedef int (*logp_start_fn_t)(void *);
typedef int (*logp_startall_fn_t)(w_t, void *);
typedef int (*logp_get_status_fn_t)(w_t, void *, void *);

LOGP_EXPORT int MPI_Start(void *req);
LOGP_EXPORT int MPI_Start(void *req)
{
    if (logp_blocking_owned(req))
        return logp_blocking_start(req);
    return LOGP_PROGRESS_NEXT(logp_start_fn_t, LOGP_CALL_START)(req);
}

LOGP_EXPORT int MPI_Startall(w_t n, void *reqs);
LOGP_EXPORT int MPI_Startall(w_t n, void *reqs)
{
    if (logp_blocking_any_owned(n, reqs))
        return logp_blocking_startall(n, reqs);
    return LOGP_PROGRESS_NEXT(logp_startall_fn_t, LOGP_CALL_STARTALL)(n, reqs);
}

LOGP_EXPORT int MPI_Request_free(void *req);
LOGP_EXPORT int MPI_Request_free(void *req)
{
    if (logp_blocking_owned(req))
        return logp_blocking_request_free(req);
    return LOGP_PROGRESS_NEXT(logp_start_fn_t, LOGP_CALL_REQUEST_FREE)(req);
}

LOGP_EXPORT int MPI_Request_get_status(w_t req, void *flag, void *status);
LOGP_EXPORT int MPI_Request_get_status(w_t req, void *flag, void *status)
{
    if (logp_blocking_busy())
        logp_blocking_step();
    if (logp_blocking_persistent())
        return logp_blocking_get_status(req, flag, status);
    return LOGP_PROGRESS_NEXT(logp_get_status_fn_t, LOGP_CALL_REQUEST_GET_STATUS)(req, flag, status);
}

LOGP_EXPORT int MPI_Barrier(w_t comm);
LOGP_EXPORT int MPI_Barrier(w_t comm)
{
    if (logp_blocking_converts(comm)) {
        logp_blocking_setup(comm);
        return logp_blocking_barrier(comm);
    }
    return LOGP_PROGRESS_NEXT(logp_barrier_fn_t, LOGP_CALL_BARRIER)(comm);
}

/* The library's other blocking collectives: with the engine on, always
 * their nonblocking forms and a stepping wait (a blocking collective does
 * not match a nonblocking one: blocking.h), except on intercommunicators
 * (logp_blocking_converts); else the next definition. */
typedef int (*logp_gather_fn_t)(const void *, w_t, w_t, void *, w_t, w_t, w_t, w_t);
typedef int (*logp_gatherv_fn_t)(const void *, w_t, w_t, void *, const void *, const void *, w_t, w_t, w_t);
typedef int (*logp_scatterv_fn_t)(const void *, const void *, const void *, w_t, void *, w_t, w_t, w_t, w_t);
typedef int (*logp_allgather_fn_t)(const void *, w_t, w_t, void *, w_t, w_t, w_t);
typedef int (*logp_allgatherv_fn_t)(const void *, w_t, w_t, void *, const void *, const void *, w_t, w_t);
typedef int (*logp_rs_fn_t)(const void *, void *, const void *, w_t, w_t, w_t);
typedef int (*logp_scan_fn_t)(const void *, void *, w_t, w_t, w_t, w_t);
typedef int (*logp_alltoallw_fn_t)(const void *, const void *, const void *, const void *, void *, const void *,
                                   const void *, const void *, w_t);

#define LOGP_COLLECTIVE(name, index, fn_t, blocking, params, args)                                                     \
    LOGP_EXPORT int name params;                                                                                       \
    LOGP_EXPORT int name params                                                                                        \
    {                                                                                                                  \
        if (logp_blocking_converts(comm)) /* every params list names its communicator comm */                        \
            return blocking args;                                                                                      \
        return LOGP_PROGRESS_NEXT(fn_t, index) args;                                                                   \
    }
LOGP_COLLECTIVE(MPI_Allgather, LOGP_CALL_ALLGATHER, logp_allgather_fn_t, logp_blocking_allgather,
                (const void *sb, w_t sc, w_t st, void *rb, w_t rc, w_t rt, w_t comm), (sb, sc, st, rb, rc, rt, comm))
LOGP_COLLECTIVE(MPI_Allgatherv, LOGP_CALL_ALLGATHERV, logp_allgatherv_fn_t, logp_blocking_allgatherv,
                (const void *sb, w_t sc, w_t st, void *rb, const void *rcs, const void *ds, w_t rt, w_t comm),
                (sb, sc, st, rb, rcs, ds, rt, comm))
LOGP_COLLECTIVE(MPI_Gather, LOGP_CALL_GATHER, logp_gather_fn_t, logp_blocking_gather,
                (const void *sb, w_t sc, w_t st, void *rb, w_t rc, w_t rt, w_t root, w_t comm),
                (sb, sc, st, rb, rc, rt, root, comm))
LOGP_COLLECTIVE(MPI_Gatherv, LOGP_CALL_GATHERV, logp_gatherv_fn_t, logp_blocking_gatherv,
                (const void *sb, w_t sc, w_t st, void *rb, const void *rcs, const void *ds, w_t rt, w_t root,
                 w_t comm),
                (sb, sc, st, rb, rcs, ds, rt, root, comm))
LOGP_COLLECTIVE(MPI_Scatter, LOGP_CALL_SCATTER, logp_gather_fn_t, logp_blocking_scatter,
                (const void *sb, w_t sc, w_t st, void *rb, w_t rc, w_t rt, w_t root, w_t comm),
                (sb, sc, st, rb, rc, rt, root, comm))
LOGP_COLLECTIVE(MPI_Scatterv, LOGP_CALL_SCATTERV, logp_scatterv_fn_t, logp_blocking_scatterv,
                (const void *sb, const void *scs, const void *ds, w_t st, void *rb, w_t rc, w_t rt, w_t root,
                 w_t comm),
                (sb, scs, ds, st, rb, rc, rt, root, comm))
LOGP_COLLECTIVE(MPI_Reduce_scatter, LOGP_CALL_REDUCE_SCATTER, logp_rs_fn_t, logp_blocking_reduce_scatter,
                (const void *sb, void *rb, const void *rcs, w_t dt, w_t op, w_t comm), (sb, rb, rcs, dt, op, comm))
LOGP_COLLECTIVE(MPI_Reduce_scatter_block, LOGP_CALL_REDUCE_SCATTER_BLOCK, logp_scan_fn_t,
                logp_blocking_reduce_scatter_block, (const void *sb, void *rb, w_t rc, w_t dt, w_t op, w_t comm),
                (sb, rb, rc, dt, op, comm))
LOGP_COLLECTIVE(MPI_Scan, LOGP_CALL_SCAN, logp_scan_fn_t, logp_blocking_scan,
                (const void *sb, void *rb, w_t count, w_t dt, w_t op, w_t comm), (sb, rb, count, dt, op, comm))
LOGP_COLLECTIVE(MPI_Exscan, LOGP_CALL_EXSCAN, logp_scan_fn_t, logp_blocking_exscan,
                (const void *sb, void *rb, w_t count, w_t dt, w_t op, w_t comm), (sb, rb, count, dt, op, comm))
LOGP_COLLECTIVE(MPI_Alltoallw, LOGP_CALL_ALLTOALLW, logp_alltoallw_fn_t, logp_blocking_alltoallw,
                (const void *sb, const void *scs, const void *sds, const void *sts, void *rb, const void *rcs,
                 const void *rds, const void *rts, w_t comm),
                (sb, scs, sds, sts, rb, rcs, rds, rts, comm))
#endif
