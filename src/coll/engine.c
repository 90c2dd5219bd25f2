/* The engine of nonblocking collectives: coroutines behind generalized
 * requests (see engine.h). */
/* The coroutines switch by _setjmp/_longjmp between their stacks (below);
 * a fortified build would check each jump against the current stack and
 * abort, so this file is built without that check. */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE /* RTLD_DEFAULT, MAP_STACK */
#include "engine.h"

#include <dlfcn.h>
#include <sched.h>
#include <setjmp.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

/* A collective's stack, reserved (pages are committed only as they are
 * touched): the executors keep their request windows on the stack (a few
 * KiB); 1 MiB leaves room for the MPI library's own calls below them. */
#define LOGP_ENGINE_STACK ((size_t)1 << 20)

/* A collective enters its stack once by swapcontext; from then on it and
 * the step that resumes it switch by _setjmp/_longjmp, which keep the
 * signal mask as it is (swapcontext sets it by a system call each time:
 * 0.5 us a round trip here, a large part of a small collective's cost).
 * Under AddressSanitizer swapcontext throughout: it follows that, not
 * jumps between stacks. */
#if defined(__SANITIZE_ADDRESS__)
#define LOGP_ENGINE_JUMPS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOGP_ENGINE_JUMPS 0
#endif
#endif
#ifndef LOGP_ENGINE_JUMPS
#define LOGP_ENGINE_JUMPS 1
#endif

typedef enum { LOGP_TASK_FREE, LOGP_TASK_RUNNING, LOGP_TASK_DONE } logp_task_state_t;

typedef struct logp_task {
    ucontext_t ctx; /* its first entry */
    jmp_buf at;     /* where it yielded (LOGP_ENGINE_JUMPS) */
    int entered;    /* it has run since its start: resumed by a jump */
    char *stack; /* guard page, then LOGP_ENGINE_STACK bytes */
    logp_engine_fn_t fn;
    MPI_Request req;
    int rc;
    logp_task_state_t state;
    int freed;              /* the application's request is gone (free_fn ran) */
    struct logp_task *next; /* outstanding, in start order; or the pool */
    alignas(max_align_t) unsigned char arg[LOGP_ENGINE_ARG_MAX];
} logp_task_t;

static logp_task_t *logp_engine_head, *logp_engine_tail; /* outstanding */
static logp_task_t *logp_engine_pool;                    /* finished, stacks kept for reuse */
static int logp_engine_busy;                             /* outstanding collectives */
static logp_task_t *logp_engine_current;                 /* the collective running now */
static int logp_engine_stepping;                         /* inside a step */
static int logp_engine_yielding;                         /* waits test and sched_yield (oversubscribed) */
static ucontext_t logp_engine_main;                      /* where a running collective yields to */
#if LOGP_ENGINE_JUMPS
static jmp_buf logp_engine_main_at; /* the same, for the jumps */
#endif
static const logp_task_t *logp_engine_awaited;           /* the one the application waits for, or NULL */
/* requests of collectives that ran to their end without a stack of their
 * own (their query reports the result) */
static logp_task_t logp_engine_ran_ok = {.rc = MPI_SUCCESS}, logp_engine_ran_failed = {.rc = MPI_ERR_OTHER};

/* ---- coroutines */

static void logp_engine_entry(void)
{
    logp_task_t *t = logp_engine_current;
    t->rc = t->fn(t->arg);
    t->state = LOGP_TASK_DONE;
#if LOGP_ENGINE_JUMPS
    _longjmp(logp_engine_main_at, 1); /* to the step that resumed it */
#endif
    /* (else returning switches to uc_link: the step that resumed it) */
}

/* t's context: logp_engine_entry on t's own stack, back to the step that
 * resumed it when it returns.  (getcontext only fills the structure here:
 * nothing returns to this frame twice.) */
static void logp_engine_prepare(logp_task_t *t)
{
    getcontext(&t->ctx);
    t->ctx.uc_stack.ss_sp = t->stack;
    t->ctx.uc_stack.ss_size = LOGP_ENGINE_STACK;
    t->ctx.uc_link = &logp_engine_main;
    makecontext(&t->ctx, logp_engine_entry, 0);
    t->entered = 0;
}

/* Runs t up to its next yield or its end. */
static void logp_engine_resume(logp_task_t *t)
{
    logp_engine_current = t;
#if LOGP_ENGINE_JUMPS
    if (_setjmp(logp_engine_main_at) == 0) { /* (it comes back by a jump, to here) */
        if (t->entered)
            _longjmp(t->at, 1);
        t->entered = 1;
        swapcontext(&logp_engine_main, &t->ctx);
    }
#else
    swapcontext(&logp_engine_main, &t->ctx);
#endif
    logp_engine_current = NULL;
}

static void logp_engine_yield(void)
{
#if LOGP_ENGINE_JUMPS
    if (_setjmp(logp_engine_current->at) == 0)
        _longjmp(logp_engine_main_at, 1);
#else
    swapcontext(&logp_engine_current->ctx, &logp_engine_main);
#endif
}

/* ---- the pool */

static logp_task_t *logp_engine_task_get(void)
{
    logp_task_t *t = logp_engine_pool;
    if (t) {
        logp_engine_pool = t->next;
        return t;
    }
    t = malloc(sizeof *t);
    if (!t)
        return NULL;
    long page = sysconf(_SC_PAGESIZE);
    size_t guard = page > 0 ? (size_t)page : 4096;
    void *m = mmap(NULL, guard + LOGP_ENGINE_STACK, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (m == MAP_FAILED) {
        free(t);
        return NULL;
    }
    mprotect(m, guard, PROT_NONE); /* an overflow faults instead of writing over the heap */
    t->stack = (char *)m + guard;
    return t;
}

/* Back to the pool once the collective has ended and the application's
 * request is gone (in either order). */
static void logp_engine_task_release(logp_task_t *t)
{
    if (t == &logp_engine_ran_ok || t == &logp_engine_ran_failed || t->state != LOGP_TASK_DONE || !t->freed)
        return;
    t->state = LOGP_TASK_FREE;
    t->next = logp_engine_pool;
    logp_engine_pool = t;
}

/* ---- the generalized request's functions */

static int logp_engine_query(void *extra, MPI_Status *status)
{
    const logp_task_t *t = extra;
    PMPI_Status_set_elements(status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return t->rc;
}

static int logp_engine_free(void *extra)
{
    logp_task_t *t = extra;
    t->freed = 1;
    logp_engine_task_release(t);
    return MPI_SUCCESS;
}

static int logp_engine_cancel(void *extra, int complete)
{
    (void)extra; /* a collective cannot be cancelled (MPI-4 3.8.4: erroneous) */
    (void)complete;
    return MPI_SUCCESS;
}

#ifdef LOGP_HAVE_MPIX_GREQUEST
/* MPICH: inside MPI_Test/Wait on the request (and each pass of
 * Waitany/Testsome) */
static int logp_engine_poll(void *extra, MPI_Status *status)
{
    (void)extra;
    (void)status;
    logp_engine_progress();
    return MPI_SUCCESS;
}

/* MPICH: inside MPI_Waitall, which then expects the requests complete */
static int logp_engine_waitfn(int count, void **states, double timeout, MPI_Status *status)
{
    (void)timeout;
    (void)status;
    for (int i = 0; i < count; i++)
        while (((logp_task_t *)states[i])->state == LOGP_TASK_RUNNING)
            logp_engine_progress();
    return MPI_SUCCESS;
}
#elif !defined(LOGP_BUILD_SMPI)
/* Open MPI: a progress callback, run inside every MPI call that progresses
 * (millions of times a second while blocked: nothing to do is one branch) */
static int logp_engine_opal_progress(void)
{
    if (logp_engine_busy)
        logp_engine_progress();
    return 0;
}
#endif

static int logp_engine_request(logp_task_t *t, MPI_Request *req)
{
#ifdef LOGP_HAVE_MPIX_GREQUEST
    return MPIX_Grequest_start(logp_engine_query, logp_engine_free, logp_engine_cancel, logp_engine_poll,
                               logp_engine_waitfn, t, req);
#else
    return PMPI_Grequest_start(logp_engine_query, logp_engine_free, logp_engine_cancel, t, req);
#endif
}

static int logp_engine_complete(MPI_Request req)
{
    return PMPI_Grequest_complete(req);
}

int logp_engine_available(void)
{
#if defined(LOGP_BUILD_SMPI)
    return 1; /* plain generalized requests: the shim's waits and tests step the engine (progress.c) */
#elif defined(LOGP_HAVE_MPIX_GREQUEST)
    return 1;
#else
    static int available = -1;
    if (available < 0) {
        typedef int (*logp_opal_register_t)(int (*)(void));
        void *sym = dlsym(RTLD_DEFAULT, "opal_progress_register");
        logp_opal_register_t reg;
        memcpy(&reg, &sym, sizeof reg);
        available = sym != NULL && reg(logp_engine_opal_progress) == 0;
    }
    return available;
#endif
}

/* ---- running */

/* t ended: off the outstanding list, its request completed (which may
 * free it at once if the application already let it go). */
static void logp_engine_finish(logp_task_t *t)
{
    logp_task_t *prev = NULL; /* a few outstanding at most: a walk */
    for (logp_task_t *p = logp_engine_head; p != t; p = p->next)
        prev = p;
    if (prev)
        prev->next = t->next;
    else
        logp_engine_head = t->next;
    if (logp_engine_tail == t)
        logp_engine_tail = prev;
    logp_engine_busy--;
    int freed = t->freed;
    logp_engine_complete(t->req);
    if (freed) /* MPI_Request_free came first: nothing will call free_fn again */
        logp_engine_task_release(t);
}

void logp_engine_progress(void)
{
    if (logp_engine_busy == 0 || logp_engine_stepping || logp_engine_current)
        return;
    logp_engine_stepping = 1;
    for (logp_task_t *t = logp_engine_head, *next; t; t = next) {
        next = t->next;
        logp_engine_resume(t);
        if (t->state == LOGP_TASK_DONE)
            logp_engine_finish(t);
    }
    logp_engine_stepping = 0;
}

int logp_engine_outstanding(void)
{
    return logp_engine_busy;
}

int logp_engine_start(logp_engine_fn_t fn, const void *arg, size_t size, MPI_Request *req)
{
    logp_task_t *t = size <= LOGP_ENGINE_ARG_MAX ? logp_engine_task_get() : NULL;
    if (!t) { /* no stack: the whole collective here (its peers run the same schedule) */
        alignas(max_align_t) unsigned char copy[LOGP_ENGINE_ARG_MAX];
        memcpy(copy, arg, size < sizeof copy ? size : sizeof copy);
        logp_task_t *ran = fn(copy) == MPI_SUCCESS ? &logp_engine_ran_ok : &logp_engine_ran_failed;
        int rc = logp_engine_request(ran, req);
        return rc == MPI_SUCCESS ? logp_engine_complete(*req) : rc;
    }
    memcpy(t->arg, arg, size);
    t->fn = fn;
    t->rc = MPI_SUCCESS;
    t->state = LOGP_TASK_RUNNING;
    t->freed = 0;
    t->next = NULL;
    int rc = logp_engine_request(t, &t->req);
    if (rc != MPI_SUCCESS) {
        t->state = LOGP_TASK_DONE;
        t->freed = 1;
        logp_engine_task_release(t);
        return rc;
    }
    *req = t->req;
    logp_engine_prepare(t);
    if (logp_engine_tail)
        logp_engine_tail->next = t;
    else
        logp_engine_head = t;
    logp_engine_tail = t;
    logp_engine_busy++;
    if (!logp_engine_stepping && !logp_engine_current) { /* up to its first incomplete operation */
        logp_engine_stepping = 1;
        logp_engine_resume(t);
        if (t->state == LOGP_TASK_DONE)
            logp_engine_finish(t);
        logp_engine_stepping = 0;
    }
    return MPI_SUCCESS;
}

/* ---- blocking points */

void logp_engine_set_yielding(int on)
{
    __atomic_store_n(&logp_engine_yielding, on != 0, __ATOMIC_RELAXED);
}

int logp_engine_wait_setting(const char *value)
{
    if (value == NULL || *value == '\0' || strcmp(value, "auto") == 0)
        return -1;
    return strcmp(value, "yield") == 0 ? 1 : strcmp(value, "poll") == 0 ? 0 : -2;
}

/* A blocking point waits in the library's own call: nothing of ours to
 * step and no processor to give up. */
static int logp_engine_idle(void)
{
    return !logp_engine_current && logp_engine_busy == 0 && !__atomic_load_n(&logp_engine_yielding, __ATOMIC_RELAXED);
}

/* A blocking point's operation is incomplete: back to the engine inside a
 * collective, else a step of the outstanding ones and, yielding, the
 * processor to whichever rank the scheduler runs next. */
static void logp_engine_pass(void)
{
    if (logp_engine_current) {
        logp_engine_yield();
        return;
    }
    logp_engine_progress();
    if (__atomic_load_n(&logp_engine_yielding, __ATOMIC_RELAXED))
        sched_yield();
}

/* The collective still running here whose request is `req`, or NULL (a
 * walk: a few outstanding at most). */
static logp_task_t *logp_engine_running(MPI_Request req)
{
    for (logp_task_t *t = logp_engine_head; t != NULL && req != MPI_REQUEST_NULL; t = t->next)
        if (t->req == req)
            return t->state == LOGP_TASK_RUNNING ? t : NULL;
    return NULL;
}

/* Nonzero if the running collective may block in the library's own wait:
 * it is the only one outstanding and the application waits for it alone
 * (nothing else of this rank's can move meanwhile, and the library
 * progresses its messages inside the wait), and the processor is not to
 * be given up.  Its operations then complete without a poll's delay. */
static int logp_engine_alone(void)
{
    return logp_engine_current != NULL && logp_engine_current == logp_engine_awaited && logp_engine_busy == 1 &&
           !__atomic_load_n(&logp_engine_yielding, __ATOMIC_RELAXED);
}

int logp_engine_wait(MPI_Request *req, MPI_Status *status)
{
    /* a null request is done: its wait returns at once (SimGrid 3.32's
     * MPI_Test leaves the flag unset for it under MPI_STATUS_IGNORE, which
     * made a test loop spin forever) */
    if (*req == MPI_REQUEST_NULL || logp_engine_idle())
        return PMPI_Wait(req, status);
    /* the application's wait on one of ours: step until it ended, then the
     * test that completes it (testing before could only say no) */
    logp_task_t *ours = logp_engine_current == NULL ? logp_engine_running(*req) : NULL;
    int rc;
    for (;;) {
        if (logp_engine_alone()) /* (checked again after each yield: the application may wait now) */
            return PMPI_Wait(req, status);
        int flag = 0;
        rc = MPI_SUCCESS;
        if (ours && ours->state == LOGP_TASK_RUNNING)
            logp_engine_awaited = ours;
        else
            rc = PMPI_Test(req, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            break;
        logp_engine_pass();
    }
    if (ours)
        logp_engine_awaited = NULL;
    return rc;
}

int logp_engine_testany(int n, MPI_Request *reqs, int *index, int *flag, MPI_Status *status)
{
#ifdef LOGP_BUILD_SMPI
    int active = 0;
    for (int i = 0; i < n; i++) {
        if (reqs[i] == MPI_REQUEST_NULL)
            continue;
        active = 1;
        int rc = PMPI_Test(&reqs[i], flag, status);
        if (rc != MPI_SUCCESS || *flag) {
            *index = i;
            return rc;
        }
    }
    *index = MPI_UNDEFINED;
    *flag = !active;
    return MPI_SUCCESS;
#else
    return PMPI_Testany(n, reqs, index, flag, status);
#endif
}

int logp_engine_waitany(int n, MPI_Request *reqs, int *index, MPI_Status *status)
{
    if (logp_engine_idle()) /* the executors': point-to-point requests */
        return PMPI_Waitany(n, reqs, index, status);
    return logp_engine_waitany_tested(n, reqs, index, status);
}

int logp_engine_waitany_tested(int n, MPI_Request *reqs, int *index, MPI_Status *status)
{
    for (;;) {
        if (logp_engine_alone()) /* a collective's own requests: point-to-point ones */
            return PMPI_Waitany(n, reqs, index, status);
        int flag = 0, rc = logp_engine_testany(n, reqs, index, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        logp_engine_pass();
    }
}

int logp_engine_send(const void *buf, int count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm)
{
    if (logp_engine_idle())
        return PMPI_Send(buf, count, dt, peer, tag, comm);
    MPI_Request r;
    int rc = PMPI_Isend(buf, count, dt, peer, tag, comm, &r);
    return rc == MPI_SUCCESS ? logp_engine_wait(&r, MPI_STATUS_IGNORE) : rc;
}

int logp_engine_recv(void *buf, int count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm, MPI_Status *status)
{
    if (logp_engine_idle())
        return PMPI_Recv(buf, count, dt, peer, tag, comm, status);
    MPI_Request r;
    int rc = PMPI_Irecv(buf, count, dt, peer, tag, comm, &r);
    return rc == MPI_SUCCESS ? logp_engine_wait(&r, status) : rc;
}

int logp_engine_sendrecv(const void *sbuf, int scount, MPI_Datatype st, int dest, int stag, void *rbuf, int rcount,
                         MPI_Datatype rt, int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    if (logp_engine_idle())
        return PMPI_Sendrecv(sbuf, scount, st, dest, stag, rbuf, rcount, rt, source, rtag, comm, status);
    MPI_Request r[2];
    int rc = PMPI_Irecv(rbuf, rcount, rt, source, rtag, comm, &r[0]);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Isend(sbuf, scount, st, dest, stag, comm, &r[1]);
    if (rc != MPI_SUCCESS) { /* the receive must not outlive the call */
        PMPI_Cancel(&r[0]);
        PMPI_Wait(&r[0], MPI_STATUS_IGNORE);
        return rc;
    }
    int rs = logp_engine_wait(&r[1], MPI_STATUS_IGNORE), rr = logp_engine_wait(&r[0], status);
    return rr != MPI_SUCCESS ? rr : rs;
}
