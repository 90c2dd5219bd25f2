/* The one driver of every intercepted call (see driver.h). */
#include "driver.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../coll/engine.h"
#include "../coll/library.h"
#include "agree.h"
#include "args.h"
#include "decide.h"
#include "dispatch.h"
#include "process.h"
#include "run.h"

/* The communicator's state if the shim may run calls on it. */
static logp_comm_state_t *logp_driver_state(MPI_Comm comm)
{
    logp_run_setup();
    logp_comm_state_t *st = logp_state_get(comm);
    return st && st->usable ? st : NULL;
}

/* Nonzero if this rank runs algo's schedule (its view in *v) rather than
 * the library's collective. */
static int logp_driver_ours(logp_algo_t algo, const logp_sched_t *sched, int root, int rank, int commutative,
                            logp_view_t *v)
{
    return algo != LOGP_ALGO_NATIVE && logp_view_init(v, sched, root, rank, commutative) == LOGP_OK;
}

/* Adds one call to the statistics and prints it at verbose level 2; t0:
 * when a blocking call started (a nonblocking call or persistent start is
 * timed by its task when it completes). */
static void logp_driver_account(logp_comm_state_t *st, const logp_call_t *c, logp_decision_t *d, logp_algo_t ran,
                                double t0, const char *label)
{
    logp_stat_t *s = &d->stat;
    s->calls++;
    s->by_entry[c->entry]++;
    s->bytes += (double)c->bytes;
    if (st->timed && logp_next_form(c->entry) == LOGP_ENTRY_BLOCKING) /* else timed when it completes */
        s->time += PMPI_Wtime() - t0;
    s->predicted += d->predicted > 0 ? d->predicted : 0.0;
    /* the entry point said where it is not the blocking call the collective's name says */
    int via = c->entry != LOGP_ENTRY_BLOCKING;
    if (logp_process_env()->verbose >= 2 && st->rank == 0)
        fprintf(stderr, "pmpi-logp: %s: %s %zu B -> %s%s%s%s\n", st->name, logp_coll_name(c->coll), c->bytes,
                logp_algo_name(ran), label, via ? " via " : "", via ? logp_next_entry_name(c->coll, c->entry) : "");
}

/* PMPI_LOGP_TEST_SLOW (tests only): the call ran an algorithm that is to
 * look slow: 20 ms (or ALGO:US microseconds) per rank of the communicator,
 * so that the difference stands above the noise of ranks that
 * oversubscribe the cores; under 1 ms a spin, since a sleep that short
 * oversleeps by about its timer slack (50 us). */
static void logp_driver_test_slow(const logp_comm_state_t *st, logp_algo_t ran)
{
    if (ran < LOGP_ALGO_COUNT && logp_process_env()->test_slow_ns[ran] > 0) {
        long ns = logp_process_env()->test_slow_ns[ran] * st->size;
        if (ns < 1000000L) {
            double end = PMPI_Wtime() + ns * 1e-9;
            while (PMPI_Wtime() < end)
                ;
            return;
        }
        struct timespec pause = {ns / 1000000000L, ns % 1000000000L};
        nanosleep(&pause, NULL);
    }
}

/* An error of ours goes to the application's communicator and its current
 * error handler (which may abort, as the MPI library's would), then back
 * to the caller. */
static int logp_driver_error(const logp_comm_state_t *st, int rc)
{
    if (rc != MPI_SUCCESS)
        PMPI_Comm_call_errhandler(st->comm, rc);
    return rc;
}

/* PMPI_LOGP_DISPATCH: records the call's work since `entry` and, timed
 * again at once, its pure lookups (dispatch.h: warm_median_us).  The
 * confirmation's turn is left out of the repeat: it counts trial calls. */
static void logp_driver_dispatch(const logp_call_t *c, double entry)
{
    double end = logp_dispatch_now(), t = end;
    logp_comm_state_t *st = NULL;
    logp_view_t v;
    if ((st = logp_driver_state(c->comm)) != NULL) { /* c->bytes: what screening found (alltoallv's own) */
        logp_decision_t *d = logp_decide_get(st, c->coll, c->bytes, c->commutative, c->unsafe);
        logp_driver_ours(d->algo, &d->sched, c->root, st->rank, c->commutative, &v);
        t = logp_dispatch_now();
    }
    if (st)
        logp_dispatch_call(c->coll, st->size, end - entry, t - end);
}

/* The call's own checks, before the communicator's state: its size
 * (c->bytes) and the collective's screen.  0 sends it to the library. */
static int logp_driver_screen(const logp_coll_ops_t *ops, logp_call_t *c)
{
    return logp_args_bytes(c->comm, c->count, c->type, &c->bytes) && (!ops->screen || ops->screen(c));
}

/* A nonblocking collective on the engine: the call, its rank's view of
 * the schedule, and where its tag slot is kept. */
typedef struct logp_driver_task {
    const logp_coll_ops_t *ops;
    logp_call_t call;
    logp_comm_state_t *st; /* outlives the task: a communicator's end waits for its tasks (run.c) */
    logp_view_t v;
    int slot;
    double t0; /* when it started, where the communicator's calls are timed (st->timed) */
} logp_driver_task_t;

static int logp_driver_task_run(void *arg)
{
    logp_driver_task_t *t = arg;
    int rc = t->ops->execute(&t->call, t->st, &t->v);
    if (t->st->timed) /* the report's time of a nonblocking call: start to completion, overlap included */
        logp_decide_get(t->st, t->call.coll, t->call.bytes, t->call.commutative, t->call.unsafe)->stat.time +=
            PMPI_Wtime() - t->t0;
    t->st->nb_busy[t->slot] = 0;
    t->st->nb_outstanding--;
    return rc;
}

int logp_driver_engine(void)
{
    static int ok = -1;
    if (ok < 0) {
        logp_run_setup(); /* the environment read (a persistent call can be the process's first) */
        int level = MPI_THREAD_SINGLE;
        ok = logp_process_env()->nonblocking && PMPI_Query_thread(&level) == MPI_SUCCESS &&
             level < MPI_THREAD_MULTIPLE && logp_engine_available();
    }
    return ok;
}

int logp_driver_converts(MPI_Comm comm)
{
    int inter = 0;
    return logp_driver_engine() && PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && !inter;
}

/* Nonzero if d's schedule stays as it is while a nonblocking collective
 * runs it (driver.h). */
static int logp_driver_settled(const logp_comm_state_t *st, const logp_decision_t *d)
{
    return d->trial.phase != LOGP_TRIAL_RUNNING && d->trial.phase != LOGP_TRIAL_WAITING &&
           (st->configured[d->coll] != LOGP_ALGO_AUTO || !st->confirm);
}

/* Starts task (its call and view set) on the engine with the next of
 * its communicator's tag slots; the generalized request in *req. */
static int logp_driver_launch(logp_driver_task_t *task, MPI_Request *req)
{
    logp_comm_state_t *st = task->st;
    task->slot = (int)(st->nb_seq++ % LOGP_STATE_NB_SLOTS);
    while (st->nb_busy[task->slot]) /* its earlier collective still runs here: the same tags */
        logp_engine_progress();
    task->call.tag = st->tag + st->nb_stride * (1 + task->slot);
    task->t0 = st->timed ? PMPI_Wtime() : 0.0;
    st->nb_busy[task->slot] = 1;
    st->nb_outstanding++;
    int rc = logp_engine_start(logp_driver_task_run, task, sizeof *task, req);
    if (rc != MPI_SUCCESS) { /* the library could not make a request: nothing started */
        st->nb_busy[task->slot] = 0;
        st->nb_outstanding--;
    }
    return rc;
}

/* Whether a nonblocking or persistent call runs the shim's schedule: the
 * conditions of driver.h, alike on every rank; then *task is the call
 * with this rank's view of the decision's schedule, *dp the decision.
 * `st` is the communicator's state (NULL: not set up).  Where ranks' size
 * classes can differ (alltoallv) so can auto's decisions: unless the
 * caller agrees on the algorithm afterwards (`agrees`, a persistent
 * initialization, which also runs the collective's agreement before
 * deciding: ops->agree), only a forced one. */
static int logp_driver_prepare(const logp_coll_ops_t *ops, logp_call_t *c, logp_comm_state_t *st,
                               logp_driver_task_t *task, logp_decision_t **dp, int agrees)
{
    if (st == NULL || !st->usable || st->nb_stride == 0 || !ops->admit(c, st))
        return 0;
    /* an initialization may synchronize (MPI-4.1 section 7.13): where the
     * collective agrees before deciding (alltoallv's vote), it agrees now,
     * and the starts replay what every rank decided alike */
    if (agrees && ops->agree && (ops->agree(c, st) != MPI_SUCCESS || c->library))
        return 0;
    /* auto's alltoallv unagreed: ranks of different classes may decide
     * unlike, and only the caller's check afterwards (`agrees`) finds out */
    if (logp_coll_local_sizes(c->coll) && !c->agreed && !agrees && st->configured[c->coll] == LOGP_ALGO_AUTO)
        return 0;
    logp_decision_t *d = c->decision ? c->decision : logp_decide_get(st, c->coll, c->bytes, c->commutative, c->unsafe);
    *task = (logp_driver_task_t){.ops = ops, .call = *c, .st = st};
    task->call.req = NULL;
    *dp = d;
    /* an alltoallv that does not mix with the direct exchanges runs where
     * the ranks agreed (c->agreed), else the library's on every rank */
    int direct = logp_sched_mixes(d->algo);
    int mixes = !logp_coll_local_sizes(c->coll) || c->agreed || d->algo == LOGP_ALGO_NATIVE || direct;
    int ours = mixes && logp_driver_settled(st, d) &&
               logp_driver_ours(d->algo, &d->sched, c->root, st->rank, c->commutative, &task->v);
    if (ours && logp_coll_local_sizes(c->coll) && !direct)
        logp_decide_hold_votes(st); /* a persistent request now holds a schedule only the vote lets run */
    return ours;
}

/* The nonblocking form of logp_driver_run (driver.h); `entry` as there. */
static int logp_driver_start(const logp_coll_ops_t *ops, logp_call_t *c, double entry)
{
    logp_comm_state_t *st = NULL;
    logp_driver_task_t task;
    logp_decision_t *d;
    if (!logp_driver_engine() || !logp_driver_screen(ops, c) ||
        !logp_driver_prepare(ops, c, st = logp_state_find(c->comm), &task, &d, 0))
        return ops->library(c);
    if (entry > 0.0) /* the shim's work until the engine takes the task */
        logp_driver_dispatch(c, entry);
    int rc = logp_driver_launch(&task, c->req);
    logp_driver_account(st, c, d, d->algo, 0.0, ""); /* timed by the task when it completes */
    return rc;
}

/* The task's derived datatypes, duplicated (keep = 1) so that the
 * application may free its own before a start (MPI allows it; Open MPI's
 * persistent request does not keep them alive for the shim's copy), or
 * those duplicates freed (keep = 0).  Nonzero if all went well. */
static int logp_driver_task_types(logp_driver_task_t *task, int keep)
{
    /* the types the call uses (a send type beside MPI_IN_PLACE is not significant) */
    logp_call_t *c = &task->call;
    int sends = c->sendbuf != MPI_IN_PLACE, n = 0;
    MPI_Datatype *types[2];
    if (c->coll == LOGP_COLL_ALLTOALLV)
        types[n++] = &c->recvtype;
    else
        types[n++] = &c->type;
    if ((c->coll == LOGP_COLL_ALLTOALL || c->coll == LOGP_COLL_ALLTOALLV) && sends)
        types[n++] = &c->sendtype;
    int ok = 1;
    for (int i = 0; i < n; i++) {
        int ints, addrs, dts, combiner = MPI_COMBINER_NAMED;
        if (*types[i] == MPI_DATATYPE_NULL ||
            PMPI_Type_get_envelope(*types[i], &ints, &addrs, &dts, &combiner) != MPI_SUCCESS ||
            combiner == MPI_COMBINER_NAMED)
            continue;
        if (!keep) {
            PMPI_Type_free(types[i]);
        } else if (PMPI_Type_dup(*types[i], types[i]) != MPI_SUCCESS) {
            *types[i] = MPI_DATATYPE_NULL; /* nothing to free for it */
            ok = 0;
        }
    }
    return ok;
}

void logp_driver_persistent_free(logp_persist_t *p)
{
    logp_driver_task_types((logp_driver_task_t *)(void *)p->task, 0); /* the table's task (aligned) */
    logp_persist_remove(p);
}

/* The persistent form of logp_driver_run (driver.h): the application's
 * request is the library's persistent collective; where the shim runs the
 * call, the table keeps what each start replays (persist.h).
 * Initialization is a collective call that may synchronize (MPI-4.1
 * section 7.13): it sets the communicator up, and the ranks agree that
 * every one of them could keep the entry and decided alike (a failed
 * allocation on one rank, or alltoallv's size classes deciding unlike,
 * leave the library's collective to all). */
static int logp_driver_init(const logp_coll_ops_t *ops, logp_call_t *c)
{
    logp_driver_task_t task;
    logp_decision_t *d = NULL;
    logp_comm_state_t *st = logp_driver_engine() && logp_driver_screen(ops, c) ? logp_driver_state(c->comm) : NULL;
    /* every rank with a usable state joins the agreement below, also one
     * whose call the shim does not take (its admission is this rank's) */
    int joins = st != NULL && st->usable && st->nb_stride != 0;
    int ours = joins && logp_driver_prepare(ops, c, st, &task, &d, 1);
    int rc = ops->library(c);
    if (!joins)
        return rc;
    logp_persist_t *p = NULL;
    if (ours && rc == MPI_SUCCESS &&
        (!logp_driver_task_types(&task, 1) || (p = logp_persist_add(*c->req, task.st, &task, sizeof task)) == NULL))
        logp_driver_task_types(&task, 0); /* what was duplicated */
    int algo = ours ? (int)d->algo : -1, mine[3] = {p != NULL, algo, -algo}, all[3] = {0, 0, 0};
    if (logp_coll_library_allreduce(mine, all, 3, MPI_INT, MPI_MIN, c->comm) != MPI_SUCCESS || !all[0] ||
        all[1] != -all[2]) {
        if (p)
            logp_driver_persistent_free(p);
    } else if (logp_process_env()->verbose >= 2 && st->rank == 0) {
        fprintf(stderr, "pmpi-logp: %s: %s %zu B: %s planned for its starts\n", task.st->name,
                logp_next_entry_name(c->coll, c->entry), c->bytes, logp_algo_name(d->algo));
    }
    return rc;
}

int logp_driver_persistent_start(logp_persist_t *p)
{
    double entry = logp_dispatch_on() ? logp_dispatch_now() : 0.0;
    /* the table's task itself (aligned; inactive, so no start uses it):
     * the launch sets its slot and tag, the engine takes a copy */
    logp_driver_task_t *task = (logp_driver_task_t *)(void *)p->task;
    logp_comm_state_t *st = task->st;
    const logp_call_t *c = &task->call;
    logp_decision_t *d = logp_decide_get(st, c->coll, c->bytes, c->commutative, c->unsafe);
    if (entry > 0.0)
        logp_driver_dispatch(c, entry);
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = logp_driver_launch(task, &req);
    if (rc == MPI_SUCCESS)
        logp_persist_started(p, req);
    logp_driver_account(st, c, d, d->algo, 0.0, ""); /* timed by the task when it completes */
    return rc;
}

/* The library's collective for a blocking call.  With the engine on, its
 * nonblocking form and a wait that steps the engine: blocked in the
 * library's collective, this rank would not move its part of the
 * outstanding nonblocking collectives, which a peer may be waiting for
 * (MPI's progress rule; coll/engine.h).  On every call, not only while
 * some are outstanding here: a blocking collective does not match a
 * nonblocking one, and the peers' engines are not this rank's. */
static int logp_driver_library(const logp_coll_ops_t *ops, const logp_call_t *c)
{
    if (logp_next_form(c->entry) != LOGP_ENTRY_BLOCKING || !logp_driver_converts(c->comm))
        return ops->library(c);
    MPI_Request req = MPI_REQUEST_NULL;
    logp_call_t nb = *c;
    nb.entry = logp_next_entry(LOGP_ENTRY_NONBLOCKING, c->entry);
    nb.req = &req;
    int rc = ops->library(&nb);
    return rc == MPI_SUCCESS ? logp_engine_wait(&req, MPI_STATUS_IGNORE) : rc;
}

int logp_driver_run(const logp_coll_ops_t *ops, logp_call_t *c)
{
    double entry = logp_dispatch_on() ? logp_dispatch_now() : 0.0;
    logp_comm_state_t *st;
    c->commutative = 1;
    c->unsafe = 0;
    c->origin = 1;
    if (logp_next_form(c->entry) == LOGP_ENTRY_NONBLOCKING)
        return logp_driver_start(ops, c, entry);
    if (logp_next_form(c->entry) == LOGP_ENTRY_PERSISTENT)
        return logp_driver_init(ops, c);
    if (!logp_driver_screen(ops, c) || (st = logp_driver_state(c->comm)) == NULL || !ops->admit(c, st))
        return logp_driver_library(ops, c);
    double t0 = st->timed ? PMPI_Wtime() : 0.0;
    if (ops->agree) {
        int rc = ops->agree(c, st);
        if (rc != MPI_SUCCESS)
            return logp_driver_error(st, rc);
        if (c->library)
            return logp_driver_library(ops, c);
    }
    c->tag = st->tag;
    logp_decision_t *d = c->decision ? c->decision : logp_decide_get(st, c->coll, c->bytes, c->commutative, c->unsafe);
    logp_algo_t algo = d->algo;
    const logp_sched_t *sched = &d->sched;
    int timed = logp_trial_turn(&d->trial, st->warmup, &d->sched, &algo, &sched);
    logp_view_t v;
    int rc, ours = logp_driver_ours(algo, sched, c->root, st->rank, c->commutative, &v);
    if (entry > 0.0)
        logp_driver_dispatch(c, entry);
    const char *why = "";
    logp_agree_action_t action = logp_agree_barrier(st, d, &why);
    if (action != LOGP_AGREE_GO) { /* the ranks decided unlike: what every rank runs instead */
        d = logp_decide_disagreed(st, d, action, why);
        algo = d->algo;
        timed = 0;
        ours = logp_driver_ours(algo, &d->sched, c->root, st->rank, c->commutative, &v);
    }
    /* what the call was to the trial, before recording it moves the trial on */
    const char *label = d->trial.phase != LOGP_TRIAL_RUNNING ? ""
                        : d->trial.warm < st->warmup         ? " (warm-up)"
                                                             : " (trial)";
    int clock = timed || logp_trial_exploring(&d->trial, st->warmup); /* a block's calls: its cost */
    double tc = clock ? PMPI_Wtime() : 0.0;
    rc = ours ? ops->execute(c, st, &v) : logp_driver_library(ops, c);
    logp_driver_test_slow(st, algo);
    logp_agree_todo_t todo = logp_agree_after(st, d, timed, c->origin, tc, clock ? PMPI_Wtime() - tc : 0.0);
    if (todo.refit || todo.reopen)
        logp_decide_agreed(st, &todo);
    logp_driver_account(st, c, d, algo, t0, label);
    return ours ? logp_driver_error(st, rc) : rc; /* last: a handler may not return, or free the communicator */
}
