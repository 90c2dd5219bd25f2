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
    logp_run_setup();
    return !logp_next_get()->foreign && logp_driver_engine();
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
    MPI_Request r;
    int rc = PMPI_Irecv(buf, (int)count, (MPI_Datatype)dt, (int)source, (int)tag, (MPI_Comm)comm, &r);
    return rc == MPI_SUCCESS ? logp_engine_wait(&r, status) : rc;
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
    for (;;) {
        int flag = 0, rc = PMPI_Testany((int)n, reqs, index, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        logp_engine_progress();
    }
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

void logp_blocking_setup(logp_word_t comm)
{
    logp_run_setup();
    if (logp_process_env()->nonblocking && !logp_next_get()->foreign && (MPI_Comm)comm != MPI_COMM_NULL)
        logp_state_get((MPI_Comm)comm); /* O(1) once set up */
}

int logp_blocking_barrier(logp_word_t comm)
{
    MPI_Request r;
    int rc = PMPI_Ibarrier((MPI_Comm)comm, &r);
    return rc == MPI_SUCCESS ? logp_engine_wait(&r, MPI_STATUS_IGNORE) : rc;
}
#endif
