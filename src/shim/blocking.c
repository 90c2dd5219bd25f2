/* Blocking calls as nonblocking ones that step the engine (see blocking.h).
 * Where progress.c answers them: in the libraries (LOGP_SHIM_CHAIN) and
 * in a program built with the shim for SMPI (LOGP_BUILD_SMPI). */
#if defined(LOGP_SHIM_CHAIN) || defined(LOGP_BUILD_SMPI)
#include "blocking.h"

#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "../coll/engine.h"
#include "driver.h"
#include "next.h"
#include "persist.h"
#include "process.h"
#include "run.h"
#include "state.h"

void *logp_blocking_pmpi(logp_call_id_t id)
{
    void *f = NULL;
#define LOGP_PMPI_CASE(id_, fn_)                                                                                       \
    case id_: {                                                                                                        \
        __typeof__(&fn_) p_ = fn_;                                                                                     \
        memcpy(&f, &p_, sizeof f);                                                                                     \
        break;                                                                                                         \
    }
    switch (id) {
        LOGP_PMPI_CASE(LOGP_CALL_SEND, PMPI_Send)
        LOGP_PMPI_CASE(LOGP_CALL_SSEND, PMPI_Ssend)
        LOGP_PMPI_CASE(LOGP_CALL_RSEND, PMPI_Rsend)
        LOGP_PMPI_CASE(LOGP_CALL_RECV, PMPI_Recv)
        LOGP_PMPI_CASE(LOGP_CALL_SENDRECV, PMPI_Sendrecv)
        LOGP_PMPI_CASE(LOGP_CALL_PROBE, PMPI_Probe)
        LOGP_PMPI_CASE(LOGP_CALL_MPROBE, PMPI_Mprobe)
        LOGP_PMPI_CASE(LOGP_CALL_MRECV, PMPI_Mrecv)
        LOGP_PMPI_CASE(LOGP_CALL_WAIT, PMPI_Wait)
        LOGP_PMPI_CASE(LOGP_CALL_WAITALL, PMPI_Waitall)
#ifdef LOGP_BUILD_SMPI /* SMPI's own mishandle generalized requests (engine.h) */
        LOGP_PMPI_CASE(LOGP_CALL_WAITANY, logp_engine_waitany_tested)
#else
        LOGP_PMPI_CASE(LOGP_CALL_WAITANY, PMPI_Waitany)
#endif
        LOGP_PMPI_CASE(LOGP_CALL_WAITSOME, PMPI_Waitsome)
        LOGP_PMPI_CASE(LOGP_CALL_TEST, PMPI_Test)
        LOGP_PMPI_CASE(LOGP_CALL_TESTALL, PMPI_Testall)
#ifdef LOGP_BUILD_SMPI
        LOGP_PMPI_CASE(LOGP_CALL_TESTANY, logp_engine_testany)
#else
        LOGP_PMPI_CASE(LOGP_CALL_TESTANY, PMPI_Testany)
#endif
        LOGP_PMPI_CASE(LOGP_CALL_TESTSOME, PMPI_Testsome)
        LOGP_PMPI_CASE(LOGP_CALL_IPROBE, PMPI_Iprobe)
        LOGP_PMPI_CASE(LOGP_CALL_IMPROBE, PMPI_Improbe)
        LOGP_PMPI_CASE(LOGP_CALL_BARRIER, PMPI_Barrier)
        LOGP_PMPI_CASE(LOGP_CALL_ALLGATHER, PMPI_Allgather)
        LOGP_PMPI_CASE(LOGP_CALL_ALLGATHERV, PMPI_Allgatherv)
        LOGP_PMPI_CASE(LOGP_CALL_GATHER, PMPI_Gather)
        LOGP_PMPI_CASE(LOGP_CALL_GATHERV, PMPI_Gatherv)
        LOGP_PMPI_CASE(LOGP_CALL_SCATTER, PMPI_Scatter)
        LOGP_PMPI_CASE(LOGP_CALL_SCATTERV, PMPI_Scatterv)
        LOGP_PMPI_CASE(LOGP_CALL_REDUCE_SCATTER, PMPI_Reduce_scatter)
        LOGP_PMPI_CASE(LOGP_CALL_REDUCE_SCATTER_BLOCK, PMPI_Reduce_scatter_block)
        LOGP_PMPI_CASE(LOGP_CALL_SCAN, PMPI_Scan)
        LOGP_PMPI_CASE(LOGP_CALL_EXSCAN, PMPI_Exscan)
        LOGP_PMPI_CASE(LOGP_CALL_ALLTOALLW, PMPI_Alltoallw)
        LOGP_PMPI_CASE(LOGP_CALL_START, PMPI_Start)
        LOGP_PMPI_CASE(LOGP_CALL_STARTALL, PMPI_Startall)
        LOGP_PMPI_CASE(LOGP_CALL_REQUEST_FREE, PMPI_Request_free)
        LOGP_PMPI_CASE(LOGP_CALL_REQUEST_GET_STATUS, PMPI_Request_get_status)
    default:
        break;
    }
#undef LOGP_PMPI_CASE
    return f;
}

int logp_blocking_busy(void)
{
    return logp_engine_outstanding() != 0 || logp_persist_active() != 0;
}

/* ---- persistent collectives
 *
 * The application's request of a table entry is the library's persistent
 * collective, never started (persist.h); MPICH 4.0.2 hangs in a wait or
 * test of such a request, so the library never sees one here: the calls
 * below answer for the table's requests (inactive: at once, an empty
 * status) and give the library the others, in a copy of the array with
 * MPI_REQUEST_NULL in the table's places. */

int logp_blocking_persistent(void)
{
    return logp_persist_count() != 0;
}

int logp_blocking_owned(const void *req)
{
    return logp_persist_count() != 0 && logp_persist_find(*(const MPI_Request *)req) != NULL;
}

int logp_blocking_any_owned(logp_word_t n, const void *reqs)
{
    for (int i = 0; i < (int)n && logp_persist_count() != 0; i++)
        if (logp_persist_find(((const MPI_Request *)reqs)[i]) != NULL)
            return 1;
    return 0;
}

/* An empty status (MPI: that of an inactive or null request). */
static void logp_blocking_empty(MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
    PMPI_Status_set_elements(status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(status, 0);
}

/* Element i of a status array, or MPI_STATUS_IGNORE. */
static MPI_Status *logp_blocking_status_at(void *statuses, int i)
{
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : (MPI_Status *)statuses + i;
}

/* Tests p's start (inactive: done, an empty status); done: p inactive
 * again. */
static int logp_blocking_test_entry(logp_persist_t *p, int *flag, MPI_Status *status)
{
    if (p->active == MPI_REQUEST_NULL) {
        *flag = 1;
        logp_blocking_empty(status);
        return MPI_SUCCESS;
    }
    int rc = PMPI_Test(&p->active, flag, status);
    if (p->active == MPI_REQUEST_NULL) /* completed (with an error, too): the library freed it */
        logp_persist_done(p);
    return rc;
}

/* Waits for p's start (stepping the engine); p inactive again. */
static int logp_blocking_wait_entry(logp_persist_t *p, MPI_Status *status)
{
    if (p->active == MPI_REQUEST_NULL) {
        logp_blocking_empty(status);
        return MPI_SUCCESS;
    }
    int rc = logp_engine_wait(&p->active, status);
    logp_persist_done(p);
    return rc;
}

/* A copy of reqs for the library, the table's requests MPI_REQUEST_NULL
 * (`local` if n fits, else allocated; NULL if that failed), and its
 * return: the library's changes (completed requests freed) back into
 * reqs, the table's places untouched. */
#define LOGP_BLOCKING_LOCAL 64
static MPI_Request *logp_blocking_hide(int n, const MPI_Request *reqs, MPI_Request *local)
{
    MPI_Request *copy = n <= LOGP_BLOCKING_LOCAL ? local : malloc(sizeof *copy * (size_t)n);
    for (int i = 0; copy && i < n; i++)
        copy[i] = logp_persist_find(reqs[i]) ? MPI_REQUEST_NULL : reqs[i];
    return copy;
}

static void logp_blocking_show(int n, MPI_Request *reqs, MPI_Request *copy, MPI_Request *local)
{
    for (int i = 0; i < n; i++)
        if (!logp_persist_find(reqs[i]))
            reqs[i] = copy[i];
    if (copy != local)
        free(copy);
}

int logp_blocking_start(void *req)
{
    logp_persist_t *p = logp_persist_find(*(MPI_Request *)req);
    if (p == NULL || p->owner == NULL) /* the communicator went: the library's collective */
        return PMPI_Start(req);
    if (p->active != MPI_REQUEST_NULL) /* started twice without completing: erroneous */
        return MPI_ERR_REQUEST;
    return logp_driver_persistent_start(p);
}

int logp_blocking_startall(logp_word_t n, void *reqs)
{
    for (int i = 0; i < (int)n; i++) {
        MPI_Request *r = (MPI_Request *)reqs + i;
        int rc = logp_blocking_owned(r) ? logp_blocking_start(r) : PMPI_Start(r);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int logp_blocking_request_free(void *req)
{
    logp_persist_t *p = logp_persist_find(*(MPI_Request *)req);
    if (p != NULL) {
        logp_blocking_wait_entry(p, MPI_STATUS_IGNORE); /* freed while started: completed here first */
        logp_driver_persistent_free(p);
    }
    return PMPI_Request_free(req);
}

int logp_blocking_test(void *req, void *flag, void *status)
{
    logp_persist_t *p = logp_persist_find(*(MPI_Request *)req);
    return p ? logp_blocking_test_entry(p, flag, status) : PMPI_Test(req, flag, status);
}

int logp_blocking_get_status(logp_word_t req, void *flag, void *status)
{
    MPI_Request r = (MPI_Request)req;
    logp_persist_t *p = logp_persist_find(r);
    if (p && p->active == MPI_REQUEST_NULL) {
        *(int *)flag = 1;
        logp_blocking_empty(status);
        return MPI_SUCCESS;
    }
    return PMPI_Request_get_status(p ? p->active : r, flag, status);
}

/* The table's started entries among reqs tested (done ones inactive
 * again, their indices in `done` if not NULL, their statuses at those
 * places of `statuses`); the count of done ones in *ndone, of those still
 * running in *running. */
static int logp_blocking_test_array(int n, MPI_Request *reqs, int *done, int *ndone, int *running, void *statuses)
{
    *ndone = 0;
    *running = 0;
    for (int i = 0; i < n && logp_persist_active(); i++) {
        logp_persist_t *p = logp_persist_find(reqs[i]);
        if (p == NULL || p->active == MPI_REQUEST_NULL)
            continue;
        int flag = 0, rc = logp_blocking_test_entry(p, &flag, logp_blocking_status_at(statuses, *ndone));
        if (rc != MPI_SUCCESS)
            return rc;
        if (flag && done)
            done[*ndone] = i;
        *ndone += flag;
        *running += !flag;
    }
    return MPI_SUCCESS;
}

int logp_blocking_testall(logp_word_t n, void *reqs, void *flag, void *statuses)
{
    int ndone, running, rc = logp_blocking_test_array((int)n, reqs, NULL, &ndone, &running, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS || running) { /* the others untouched, as Testall leaves them when not all are done */
        *(int *)flag = 0;
        return rc;
    }
    /* the others: done only if all are (MPI_Request_get_status leaves
     * them as they are), then each completed (not MPI_Testall: see
     * logp_blocking_waitall) */
    MPI_Request local[LOGP_BLOCKING_LOCAL], *copy = logp_blocking_hide((int)n, reqs, local);
    if (copy == NULL)
        return MPI_ERR_NO_MEM;
    int all = 1;
    for (int i = 0; i < (int)n && all && rc == MPI_SUCCESS; i++)
        rc = PMPI_Request_get_status(copy[i], &all, MPI_STATUS_IGNORE);
    *(int *)flag = all && rc == MPI_SUCCESS;
    for (int i = 0; i < (int)n && *(int *)flag; i++) {
        int done = 0;
        MPI_Status *st = logp_blocking_status_at(statuses, i);
        rc = PMPI_Test(&copy[i], &done, st);
        if (rc != MPI_SUCCESS && st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = rc;
    }
    logp_blocking_show((int)n, reqs, copy, local);
    return rc;
}

int logp_blocking_testany(logp_word_t n, void *reqs, void *index, void *flag, void *status)
{
    int running = 0;
    for (int i = 0; i < (int)n && logp_persist_active(); i++) {
        logp_persist_t *p = logp_persist_find(((MPI_Request *)reqs)[i]);
        if (p == NULL || p->active == MPI_REQUEST_NULL)
            continue;
        int rc = logp_blocking_test_entry(p, flag, status);
        if (rc != MPI_SUCCESS || *(int *)flag) {
            *(int *)index = i;
            return rc;
        }
        running = 1;
    }
    MPI_Request local[LOGP_BLOCKING_LOCAL], *copy = logp_blocking_hide((int)n, reqs, local);
    if (copy == NULL)
        return MPI_ERR_NO_MEM;
    int rc = logp_engine_testany((int)n, copy, index, flag, status);
    logp_blocking_show((int)n, reqs, copy, local);
    if (rc == MPI_SUCCESS && *(int *)flag && *(int *)index == MPI_UNDEFINED && running)
        *(int *)flag = 0; /* none of the others active, but one of ours runs on */
    return rc;
}

int logp_blocking_testsome(logp_word_t n, void *reqs, void *outcount, void *indices, void *statuses)
{
    int ndone, running, *out = outcount, *idx = indices;
    int rc = logp_blocking_test_array((int)n, reqs, idx, &ndone, &running, statuses);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Request local[LOGP_BLOCKING_LOCAL], *copy = logp_blocking_hide((int)n, reqs, local);
    if (copy == NULL)
        return MPI_ERR_NO_MEM;
    int more = 0;
    rc = PMPI_Testsome((int)n, copy, &more, idx + ndone,
                       statuses == MPI_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : (MPI_Status *)statuses + ndone);
    logp_blocking_show((int)n, reqs, copy, local);
    if (rc != MPI_SUCCESS)
        return rc;
    int none = more == MPI_UNDEFINED; /* no other active request */
    *out = none && ndone == 0 && running == 0 ? MPI_UNDEFINED : ndone + (none ? 0 : more);
    return MPI_SUCCESS;
}

int logp_blocking_engine_on(void)
{
    if (logp_next_get()->foreign) /* another library's process: touch nothing of ours */
        return 0;
    logp_run_setup();
    return logp_driver_engine();
}

int logp_blocking_converts(logp_word_t comm)
{
    return logp_blocking_engine_on() && logp_driver_converts((MPI_Comm)comm);
}

void logp_blocking_step(void)
{
    logp_engine_progress();
}

int logp_blocking_send(logp_send_mode_t mode, const void *buf, logp_word_t count, logp_word_t dt, logp_word_t dest,
                       logp_word_t tag, logp_word_t comm)
{
    MPI_Request r;
    int (*start)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *) =
        mode == LOGP_SEND_SYNCHRONOUS ? PMPI_Issend : mode == LOGP_SEND_READY ? PMPI_Irsend : PMPI_Isend;
    int rc = start(buf, (int)count, (MPI_Datatype)dt, (int)dest, (int)tag, (MPI_Comm)comm, &r);
    return rc == MPI_SUCCESS ? logp_engine_wait(&r, MPI_STATUS_IGNORE) : rc;
}

int logp_blocking_recv(void *buf, logp_word_t count, logp_word_t dt, logp_word_t source, logp_word_t tag,
                       logp_word_t comm, void *status)
{
    return logp_engine_recv(buf, (int)count, (MPI_Datatype)dt, (int)source, (int)tag, (MPI_Comm)comm, status);
}

int logp_blocking_sendrecv(const void *sbuf, logp_word_t scount, logp_word_t st, logp_word_t dest, logp_word_t stag,
                           void *rbuf, logp_word_t rcount, logp_word_t rt, logp_word_t source, logp_word_t rtag,
                           logp_word_t comm, void *status)
{
    return logp_engine_sendrecv(sbuf, (int)scount, (MPI_Datatype)st, (int)dest, (int)stag, rbuf, (int)rcount,
                                (MPI_Datatype)rt, (int)source, (int)rtag, (MPI_Comm)comm, status);
}

int logp_blocking_probe(logp_word_t source, logp_word_t tag, logp_word_t comm, void *status)
{
    for (;;) {
        int flag = 0, rc = PMPI_Iprobe((int)source, (int)tag, (MPI_Comm)comm, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        logp_engine_progress();
    }
}

int logp_blocking_mprobe(logp_word_t source, logp_word_t tag, logp_word_t comm, void *message, void *status)
{
    for (;;) {
        int flag = 0, rc = PMPI_Improbe((int)source, (int)tag, (MPI_Comm)comm, &flag, message, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        logp_engine_progress();
    }
}

int logp_blocking_mrecv(void *buf, logp_word_t count, logp_word_t dt, void *message, void *status)
{
    MPI_Request r;
    int rc = PMPI_Imrecv(buf, (int)count, (MPI_Datatype)dt, message, &r);
    return rc == MPI_SUCCESS ? logp_engine_wait(&r, status) : rc;
}

int logp_blocking_wait(void *req, void *status)
{
    logp_persist_t *p = logp_persist_count() ? logp_persist_find(*(MPI_Request *)req) : NULL;
    return p ? logp_blocking_wait_entry(p, status) : logp_engine_wait(req, status);
}

int logp_blocking_waitall(logp_word_t n, void *reqs, void *statuses)
{
    int failed = MPI_SUCCESS;
    MPI_Request local[LOGP_BLOCKING_LOCAL], *copy = reqs;
    if (logp_persist_count()) { /* ours first (each wait steps everything), then the others */
        for (int i = 0; i < (int)n && logp_persist_active(); i++) {
            logp_persist_t *p = logp_persist_find(((MPI_Request *)reqs)[i]);
            int rc = p ? logp_blocking_wait_entry(p, MPI_STATUS_IGNORE) : MPI_SUCCESS;
            if (failed == MPI_SUCCESS)
                failed = rc;
        }
        if ((copy = logp_blocking_hide((int)n, reqs, local)) == NULL)
            return MPI_ERR_NO_MEM;
    }
    /* One request at a time, each through the engine's wait (a test and a
     * step while collectives are outstanding): MPICH 4.0.2's MPI_Testall
     * fails (MPI_ERR_IN_STATUS, nothing wrong) on arrays with started
     * persistent collectives and point-to-point requests, its Test and
     * Wait do not (docs/results/progress/pcoll_inactive.c). */
    int errors = 0;
    for (int i = 0; i < (int)n; i++) {
        MPI_Status *st = logp_blocking_status_at(statuses, i);
        int rc = logp_engine_wait(&copy[i], st);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = rc;
        errors += rc != MPI_SUCCESS;
        if (failed == MPI_SUCCESS)
            failed = rc;
    }
    if (copy != reqs)
        logp_blocking_show((int)n, reqs, copy, local);
    return errors && statuses != MPI_STATUSES_IGNORE ? MPI_ERR_IN_STATUS : failed;
}

int logp_blocking_waitany(logp_word_t n, void *reqs, void *index, void *status)
{
    if (!logp_persist_count())
        return logp_engine_waitany((int)n, reqs, index, status);
    for (;;) {
        int flag = 0, rc = logp_blocking_testany(n, reqs, index, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        logp_engine_progress();
    }
}

int logp_blocking_waitsome(logp_word_t n, void *reqs, void *outcount, void *indices, void *statuses)
{
    for (;;) { /* Testsome: 0 done so far, MPI_UNDEFINED if none is active */
        int rc = logp_persist_count() ? logp_blocking_testsome(n, reqs, outcount, indices, statuses)
                                      : PMPI_Testsome((int)n, reqs, outcount, indices, statuses);
        if (rc != MPI_SUCCESS || *(int *)outcount != 0)
            return rc;
        logp_engine_progress();
    }
}

/* Returns from the caller: `start` (a nonblocking call whose request is
 * r_) and a stepping wait on it. */
#define LOGP_BLOCKING_AS_NONBLOCKING(start)                                                                            \
    do {                                                                                                               \
        MPI_Request r_;                                                                                                \
        int rc_ = (start);                                                                                             \
        return rc_ == MPI_SUCCESS ? logp_engine_wait(&r_, MPI_STATUS_IGNORE) : rc_;                                    \
    } while (0)
#define T_(x) ((MPI_Datatype)(x))
#define C_(x) ((MPI_Comm)(x))

int logp_blocking_allgather(const void *sb, logp_w_t sc, logp_w_t st, void *rb, logp_w_t rc, logp_w_t rt, logp_w_t comm)
{
    LOGP_BLOCKING_AS_NONBLOCKING(PMPI_Iallgather(sb, (int)sc, T_(st), rb, (int)rc, T_(rt), C_(comm), &r_));
}

int logp_blocking_allgatherv(const void *sb, logp_w_t sc, logp_w_t st, void *rb, const void *rcs, const void *displs,
                             logp_w_t rt, logp_w_t comm)
{
    LOGP_BLOCKING_AS_NONBLOCKING(PMPI_Iallgatherv(sb, (int)sc, T_(st), rb, rcs, displs, T_(rt), C_(comm), &r_));
}

int logp_blocking_gather(const void *sb, logp_w_t sc, logp_w_t st, void *rb, logp_w_t rc, logp_w_t rt, logp_w_t root,
                         logp_w_t comm)
{
    LOGP_BLOCKING_AS_NONBLOCKING(PMPI_Igather(sb, (int)sc, T_(st), rb, (int)rc, T_(rt), (int)root, C_(comm), &r_));
}

int logp_blocking_gatherv(const void *sb, logp_w_t sc, logp_w_t st, void *rb, const void *rcs, const void *displs,
                          logp_w_t rt, logp_w_t root, logp_w_t comm)
{
    LOGP_BLOCKING_AS_NONBLOCKING(
        PMPI_Igatherv(sb, (int)sc, T_(st), rb, rcs, displs, T_(rt), (int)root, C_(comm), &r_));
}

int logp_blocking_scatter(const void *sb, logp_w_t sc, logp_w_t st, void *rb, logp_w_t rc, logp_w_t rt, logp_w_t root,
                          logp_w_t comm)
{
    LOGP_BLOCKING_AS_NONBLOCKING(PMPI_Iscatter(sb, (int)sc, T_(st), rb, (int)rc, T_(rt), (int)root, C_(comm), &r_));
}

int logp_blocking_scatterv(const void *sb, const void *scs, const void *displs, logp_w_t st, void *rb, logp_w_t rc,
                           logp_w_t rt, logp_w_t root, logp_w_t comm)
{
    LOGP_BLOCKING_AS_NONBLOCKING(
        PMPI_Iscatterv(sb, scs, displs, T_(st), rb, (int)rc, T_(rt), (int)root, C_(comm), &r_));
}

int logp_blocking_reduce_scatter(const void *sb, void *rb, const void *rcs, logp_w_t dt, logp_w_t op, logp_w_t comm)
{
    LOGP_BLOCKING_AS_NONBLOCKING(PMPI_Ireduce_scatter(sb, rb, rcs, T_(dt), (MPI_Op)op, C_(comm), &r_));
}

int logp_blocking_reduce_scatter_block(const void *sb, void *rb, logp_w_t rc, logp_w_t dt, logp_w_t op, logp_w_t comm)
{
    LOGP_BLOCKING_AS_NONBLOCKING(PMPI_Ireduce_scatter_block(sb, rb, (int)rc, T_(dt), (MPI_Op)op, C_(comm), &r_));
}

int logp_blocking_scan(const void *sb, void *rb, logp_w_t count, logp_w_t dt, logp_w_t op, logp_w_t comm)
{
    LOGP_BLOCKING_AS_NONBLOCKING(PMPI_Iscan(sb, rb, (int)count, T_(dt), (MPI_Op)op, C_(comm), &r_));
}

int logp_blocking_exscan(const void *sb, void *rb, logp_w_t count, logp_w_t dt, logp_w_t op, logp_w_t comm)
{
    LOGP_BLOCKING_AS_NONBLOCKING(PMPI_Iexscan(sb, rb, (int)count, T_(dt), (MPI_Op)op, C_(comm), &r_));
}

int logp_blocking_alltoallw(const void *sb, const void *scs, const void *sds, const void *sts, void *rb,
                            const void *rcs, const void *rds, const void *rts, logp_w_t comm)
{
    LOGP_BLOCKING_AS_NONBLOCKING(PMPI_Ialltoallw(sb, scs, sds, sts, rb, rcs, rds, rts, C_(comm), &r_));
}

void logp_blocking_setup(logp_word_t comm)
{
    if (logp_next_get()->foreign)
        return;
    logp_run_setup();
    if (logp_process_env()->nonblocking && (MPI_Comm)comm != MPI_COMM_NULL)
        logp_state_get((MPI_Comm)comm); /* O(1) once set up */
}

int logp_blocking_barrier(logp_word_t comm)
{
    LOGP_BLOCKING_AS_NONBLOCKING(PMPI_Ibarrier(C_(comm), &r_));
}
#endif
