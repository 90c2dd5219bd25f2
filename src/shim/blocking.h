/* The application's blocking point-to-point calls, waits and barrier run
 * as their nonblocking forms while the engine has collectives outstanding
 * (progress.c answers the MPI names): each wait then steps the engine, so
 * that a rank blocked on a peer still moves its part of the collectives
 * the peer may be waiting for (MPI's progress rule).  MPICH steps a
 * generalized request only inside a completion call that names it
 * (docs/design.md, "Entry points"): without this, a chain broadcast whose
 * interior rank sits in MPI_Recv deadlocks.
 *
 * Arguments are words as in shim.h (progress.c is compiled without
 * mpi.h); pointers to statuses, requests and messages are the
 * application's.  Each returns the MPI error code of the call. */
#ifndef LOGP_SHIM_BLOCKING_H
#define LOGP_SHIM_BLOCKING_H

#include "shim.h"

/* The calls progress.c answers, in the order of its table. */
typedef enum {
    LOGP_CALL_SEND, LOGP_CALL_SSEND, LOGP_CALL_RSEND, LOGP_CALL_RECV, LOGP_CALL_SENDRECV, LOGP_CALL_PROBE,
    LOGP_CALL_MPROBE, LOGP_CALL_MRECV, LOGP_CALL_WAIT, LOGP_CALL_WAITALL, LOGP_CALL_WAITANY, LOGP_CALL_WAITSOME,
    LOGP_CALL_TEST, LOGP_CALL_TESTALL, LOGP_CALL_TESTANY, LOGP_CALL_TESTSOME, LOGP_CALL_IPROBE, LOGP_CALL_IMPROBE,
    LOGP_CALL_BARRIER, LOGP_CALL_ALLGATHER, LOGP_CALL_ALLGATHERV, LOGP_CALL_GATHER, LOGP_CALL_GATHERV,
    LOGP_CALL_SCATTER, LOGP_CALL_SCATTERV, LOGP_CALL_REDUCE_SCATTER, LOGP_CALL_REDUCE_SCATTER_BLOCK, LOGP_CALL_SCAN,
    LOGP_CALL_EXSCAN, LOGP_CALL_ALLTOALLW, LOGP_CALL_START, LOGP_CALL_STARTALL, LOGP_CALL_REQUEST_FREE,
    LOGP_CALL_REQUEST_GET_STATUS, LOGP_CALL_COUNT
} logp_call_id_t;

/* The library's PMPI_ definition of call `id`: what progress.c calls when
 * the dynamic linker finds no next MPI_ definition (a static link). */
void *logp_blocking_pmpi(logp_call_id_t id);

/* Nonzero while nonblocking collectives of the shim are outstanding on
 * this rank, or persistent ones started and not yet completed (a load or
 * two: every wrapped call asks it). */
int logp_blocking_busy(void);

/* Persistent collectives (persist.h).  logp_blocking_persistent: nonzero
 * while the table has entries: the waits and tests (logp_blocking_wait
 * ... _testsome, _get_status) then answer for the table's requests (a
 * started one's start completed in its place; an inactive one at once)
 * and hand the library the others only (MPICH 4.0.2 hangs in a wait on a
 * persistent collective request never started).  logp_blocking_owned:
 * nonzero if the request `req` points to is in the table (one load while
 * the table is empty). */
int logp_blocking_persistent(void);
int logp_blocking_owned(const void *req);
int logp_blocking_any_owned(logp_word_t n, const void *reqs);
/* MPI_Start of an owned request (an orphaned one: the library's start);
 * MPI_Startall of any (the others: the library's MPI_Start); MPI_Request_free
 * of an owned one (a started one is completed first). */
int logp_blocking_start(void *req);
int logp_blocking_startall(logp_word_t n, void *reqs);
int logp_blocking_request_free(void *req);
/* The polling calls while logp_blocking_persistent() (the waits above
 * too: each then answers for the table's requests). */
int logp_blocking_test(void *req, void *flag, void *status);
int logp_blocking_testall(logp_word_t n, void *reqs, void *flag, void *statuses);
int logp_blocking_testany(logp_word_t n, void *reqs, void *index, void *flag, void *status);
int logp_blocking_testsome(logp_word_t n, void *reqs, void *outcount, void *indices, void *statuses);
int logp_blocking_get_status(logp_word_t req, void *flag, void *status);

/* Nonzero if the engine is on in this process (driver.h), alike on every
 * rank: MPI_Barrier then always runs as MPI_Ibarrier and a stepping wait
 * (a blocking barrier does not match a nonblocking one, so whether this
 * rank has collectives outstanding cannot decide it). */
int logp_blocking_engine_on(void);

/* Nonzero if the library's blocking collectives on comm run as their
 * nonblocking forms and a stepping wait: the engine on in this process
 * (above) and comm not an intercommunicator (logp_driver_converts). */
int logp_blocking_converts(logp_word_t comm);

/* One step of every outstanding collective (before a polling call: a
 * test or a probe). */
void logp_blocking_step(void);

/* Which blocking send: MPI_Send, MPI_Ssend or MPI_Rsend. */
typedef enum { LOGP_SEND_STANDARD, LOGP_SEND_SYNCHRONOUS, LOGP_SEND_READY } logp_send_mode_t;

int logp_blocking_send(logp_send_mode_t mode, const void *buf, logp_word_t count, logp_word_t dt, logp_word_t dest,
                       logp_word_t tag, logp_word_t comm);
int logp_blocking_recv(void *buf, logp_word_t count, logp_word_t dt, logp_word_t source, logp_word_t tag,
                       logp_word_t comm, void *status);
int logp_blocking_sendrecv(const void *sbuf, logp_word_t scount, logp_word_t st, logp_word_t dest, logp_word_t stag,
                           void *rbuf, logp_word_t rcount, logp_word_t rt, logp_word_t source, logp_word_t rtag,
                           logp_word_t comm, void *status);
int logp_blocking_probe(logp_word_t source, logp_word_t tag, logp_word_t comm, void *status);
int logp_blocking_mprobe(logp_word_t source, logp_word_t tag, logp_word_t comm, void *message, void *status);
int logp_blocking_mrecv(void *buf, logp_word_t count, logp_word_t dt, void *message, void *status);
int logp_blocking_wait(void *req, void *status);
int logp_blocking_waitall(logp_word_t n, void *reqs, void *statuses);
int logp_blocking_waitany(logp_word_t n, void *reqs, void *index, void *status);
int logp_blocking_waitsome(logp_word_t n, void *reqs, void *outcount, void *indices, void *statuses);
int logp_blocking_barrier(logp_word_t comm);

/* The library's other blocking collectives, as their nonblocking forms
 * and a stepping wait (with the engine on, on every call: see
 * logp_blocking_engine_on). */
typedef logp_word_t logp_w_t;
int logp_blocking_allgather(const void *sb, logp_w_t sc, logp_w_t st, void *rb, logp_w_t rc, logp_w_t rt,
                            logp_w_t comm);
int logp_blocking_allgatherv(const void *sb, logp_w_t sc, logp_w_t st, void *rb, const void *rcs, const void *displs,
                             logp_w_t rt, logp_w_t comm);
int logp_blocking_gather(const void *sb, logp_w_t sc, logp_w_t st, void *rb, logp_w_t rc, logp_w_t rt, logp_w_t root,
                         logp_w_t comm);
int logp_blocking_gatherv(const void *sb, logp_w_t sc, logp_w_t st, void *rb, const void *rcs, const void *displs,
                          logp_w_t rt, logp_w_t root, logp_w_t comm);
int logp_blocking_scatter(const void *sb, logp_w_t sc, logp_w_t st, void *rb, logp_w_t rc, logp_w_t rt, logp_w_t root,
                          logp_w_t comm);
int logp_blocking_scatterv(const void *sb, const void *scs, const void *displs, logp_w_t st, void *rb, logp_w_t rc,
                           logp_w_t rt, logp_w_t root, logp_w_t comm);
int logp_blocking_reduce_scatter(const void *sb, void *rb, const void *rcs, logp_w_t dt, logp_w_t op, logp_w_t comm);
int logp_blocking_reduce_scatter_block(const void *sb, void *rb, logp_w_t rc, logp_w_t dt, logp_w_t op, logp_w_t comm);
int logp_blocking_scan(const void *sb, void *rb, logp_w_t count, logp_w_t dt, logp_w_t op, logp_w_t comm);
int logp_blocking_exscan(const void *sb, void *rb, logp_w_t count, logp_w_t dt, logp_w_t op, logp_w_t comm);
int logp_blocking_alltoallw(const void *sb, const void *scs, const void *sds, const void *sts, void *rb,
                            const void *rcs, const void *rds, const void *rts, logp_w_t comm);

/* MPI_Barrier's first call on a communicator under
 * PMPI_LOGP_NONBLOCKING=1 (the shim running for this library): sets the
 * communicator up, a collective like the barrier itself, so that the
 * nonblocking collectives after it can run the shim's schedules (a
 * nonblocking call cannot set a communicator up).  Else nothing. */
void logp_blocking_setup(logp_word_t comm);

#endif
