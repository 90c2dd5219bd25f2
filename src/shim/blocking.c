/* Blocking calls as nonblocking ones that step the engine (see blocking.h).
 * Only in the libraries (LOGP_SHIM_CHAIN), where progress.c answers them. */
#ifdef LOGP_SHIM_CHAIN
#include "blocking.h"

#include <string.h>

#include <mpi.h>

#include "../coll/engine.h"
#include "driver.h"
#include "next.h"
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
        LOGP_PMPI_CASE(LOGP_CALL_WAITANY, PMPI_Waitany)
        LOGP_PMPI_CASE(LOGP_CALL_WAITSOME, PMPI_Waitsome)
        LOGP_PMPI_CASE(LOGP_CALL_TEST, PMPI_Test)
        LOGP_PMPI_CASE(LOGP_CALL_TESTALL, PMPI_Testall)
        LOGP_PMPI_CASE(LOGP_CALL_TESTANY, PMPI_Testany)
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
    default:
        break;
    }
#undef LOGP_PMPI_CASE
    return f;
}

int logp_blocking_busy(void)
{
    return logp_engine_outstanding() != 0;
}

int logp_blocking_engine_on(void)
{
    if (logp_next_get()->foreign) /* another library's process: touch nothing of ours */
        return 0;
    logp_run_setup();
    return logp_driver_engine();
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
    return logp_engine_wait(req, status);
}

int logp_blocking_waitall(logp_word_t n, void *reqs, void *statuses)
{
    for (;;) {
        int flag = 0, rc = PMPI_Testall((int)n, reqs, &flag, statuses);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        logp_engine_progress();
    }
}

int logp_blocking_waitany(logp_word_t n, void *reqs, void *index, void *status)
{
    return logp_engine_waitany((int)n, reqs, index, status);
}

int logp_blocking_waitsome(logp_word_t n, void *reqs, void *outcount, void *indices, void *statuses)
{
    for (;;) { /* Testsome: 0 done so far, MPI_UNDEFINED if none is active */
        int rc = PMPI_Testsome((int)n, reqs, outcount, indices, statuses);
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
