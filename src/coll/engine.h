/* The engine of nonblocking collectives (PMPI only).
 *
 * Each outstanding collective runs the blocking executor of its schedule
 * on a stack of its own (a coroutine: POSIX ucontext), so that no executor
 * is written twice.  The executors' blocking points (logp_engine_wait and
 * the calls below it) yield to the engine while their operation is
 * incomplete; a step (logp_engine_progress) resumes every outstanding
 * collective once, never only the one the application asked about (two
 * collectives that ranks complete in opposite orders need both to move:
 * docs/results/progress/greq_order.c).
 *
 * The application holds a generalized request per collective.  Its steps
 * run where the MPI library lets them (docs/design.md, "Entry points"):
 * MPICH's extended generalized requests (MPIX_Grequest_start) call the
 * poll function inside MPI_Test/Wait/Waitany/Testsome on them and the wait
 * function inside MPI_Waitall; Open MPI's progress callbacks
 * (opal_progress_register, looked up at run time) run inside every MPI
 * call that progresses; in SMPI (LOGP_BUILD_SMPI) plain generalized
 * requests, stepped by the shim's own answered waits and tests alone.
 * Where none of these exists the engine is unavailable and the caller
 * uses the library's own nonblocking collective.
 *
 * One engine per process, not thread-safe: the caller uses it only below
 * MPI_THREAD_MULTIPLE. */
#ifndef LOGP_COLL_ENGINE_H
#define LOGP_COLL_ENGINE_H

#include <stddef.h>

#include <mpi.h>

/* A collective's body: runs its blocking executor with the argument block
 * the engine keeps; returns an MPI error code (the request's). */
typedef int (*logp_engine_fn_t)(void *arg);

/* Largest argument block a collective may hand the engine (a call
 * descriptor, its view and schedule). */
#define LOGP_ENGINE_ARG_MAX 2048

/* Nonzero if this process can run collectives nonblockingly: the library
 * offers a way to step the engine inside the application's MPI calls. */
int logp_engine_available(void);

/* Starts fn on a copy of arg (size bytes, at most LOGP_ENGINE_ARG_MAX) and
 * runs it up to its first incomplete blocking point; *req is the
 * application's request, complete when fn has returned.  If no stack can
 * be had, fn runs to its end here, blocking (the peers run the same
 * schedule either way: nothing to agree).  Returns MPI_SUCCESS, or the
 * library's error from making the request (fn not run). */
int logp_engine_start(logp_engine_fn_t fn, const void *arg, size_t size, MPI_Request *req);

/* One step of every outstanding collective.  Returns at once when none is
 * outstanding or when called from inside a step. */
void logp_engine_progress(void);

/* Collectives started and not yet returned (this rank). */
int logp_engine_outstanding(void);

/* Whether the blocking points below give up the processor while they wait
 * (a test, then sched_yield) instead of the library's wait, which polls:
 * on a node with more ranks than processors a polling rank holds a
 * processor that the rank it waits for needs, until the scheduler's time
 * slice ends (4 ms here).  Off (the library's waits) until set; the
 * setting is the process's (every communicator's). */
void logp_engine_set_yielding(int on);

/* PMPI_LOGP_WAIT's value: 1 (yield), 0 (poll), -1 (auto, or NULL or
 * empty: yield where the node is oversubscribed), -2 (not a setting). */
int logp_engine_wait_setting(const char *value);

/* The executors' blocking points.  As PMPI_Wait / PMPI_Waitany: inside a
 * collective of the engine, test and yield until complete; outside one
 * with collectives outstanding (or with yielding set), test and step the
 * engine (a blocking collective then keeps the outstanding ones moving)
 * and give up the processor if yielding; else the library's call itself. */
int logp_engine_wait(MPI_Request *req, MPI_Status *status);
int logp_engine_waitany(int n, MPI_Request *reqs, int *index, MPI_Status *status);

/* logp_engine_waitany's loop alone, also when idle: tests with
 * logp_engine_testany and a pass of the engine between, never the
 * library's MPI_Waitany (SMPI's ignores generalized requests: the
 * application's MPI_Waitany there, blocking.c). */
int logp_engine_waitany_tested(int n, MPI_Request *reqs, int *index, MPI_Status *status);

/* As PMPI_Testany, also where the library's mishandles generalized
 * requests (SimGrid 3.32 SMPI: it reports every array with one as having
 * no active request; there each request is tested in turn, and an
 * inactive persistent request counts as complete).  logp_engine_waitany
 * tests with it while collectives are outstanding; idle it is the
 * library's wait, for the executors' point-to-point requests. */
int logp_engine_testany(int n, MPI_Request *reqs, int *index, int *flag, MPI_Status *status);

/* As PMPI_Send / PMPI_Recv / PMPI_Sendrecv, through logp_engine_wait. */
int logp_engine_send(const void *buf, int count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm);
int logp_engine_recv(void *buf, int count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm, MPI_Status *status);
int logp_engine_sendrecv(const void *sbuf, int scount, MPI_Datatype st, int dest, int stag, void *rbuf, int rcount,
                         MPI_Datatype rt, int source, int rtag, MPI_Comm comm, MPI_Status *status);

#endif
