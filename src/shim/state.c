/* Per-communicator state: agreed configuration and layout, decisions with
 * their schedules, the private duplicate (made at the communicator's first
 * collective; when none can be had, the communicator stays on the MPI
 * library), statistics.  Freed by the attribute's delete callback
 * when the communicator is freed; private communicators are all released
 * by logp_state_end at the start of MPI_Finalize (MPI_COMM_SELF's delete
 * callback, which mpi_f08 callers reach too) or at MPI_Session_finalize.
 *
 * Locks: logp_lock guards the registry of live states only and is never
 * held across an MPI call (an MPI call may run an error handler or a
 * delete callback that comes back here). */
#include "state.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../coll/layout.h"
#include "../config/config.h"
#include "../config/units.h"
#include "../select/select.h"
#include "confirm.h"
#include "dispatch.h"
#include "report.h"

static pthread_once_t logp_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t logp_lock = PTHREAD_MUTEX_INITIALIZER;
static int logp_comm_key = MPI_KEYVAL_INVALID;
static int logp_self_key = MPI_KEYVAL_INVALID;
static logp_env_t logp_env;
static logp_comm_state_t *logp_live; /* registry, under logp_lock */
static int logp_ended;               /* logp_state_end ran; under logp_lock */
static int logp_world_rank = -1;     /* -1: no MPI_COMM_WORLD (MPI-4 Sessions) */
static int logp_world_size;
static logp_config_t logp_cfg; /* the tuning file, empty if none or invalid */
static logp_config_t logp_learned; /* PMPI_LOGP_LEARN's file as read at the start, empty if none */
static char logp_cfg_path[1024];
static char logp_problems[2048];    /* this rank's configuration errors, "" if none */
static unsigned long long logp_problems_hash;
static int logp_problems_told;      /* printed by this rank */
static logp_scratch_t logp_scratch; /* the executors' staging memory, one per process */
static unsigned logp_test_nomem;     /* LOGP_TEST_NOMEM_* kinds this process fails (a test hook) */

/* Private communicators, one per group of processes (in rank order): a
 * duplicate costs the MPI library a context id, of which MPICH has about
 * 2,000, so one serves every application communicator of its group (each
 * with its own tag).  Kept until the end of the run; under logp_lock.
 * A communicator whose state was created while another creation was under
 * way (threads) gets one of its own (group MPI_GROUP_NULL: never shared),
 * freed with it: see logp_state_create. */
typedef struct logp_private {
    MPI_Group group;
    MPI_Comm comm;
    struct logp_private *next;
} logp_private_t;

static logp_private_t *logp_privates;
static long logp_comm_ids;   /* communicators this process has given a tag */
static int logp_creating;    /* state creations under way in this process */
static int logp_tag_range = 32767 - LOGP_TAG_FIRST; /* tags available (MPI_TAG_UB) */

#ifndef LOGP_TUNING_DEFAULT
#define LOGP_TUNING_DEFAULT "/usr/local/share/pmpi-logp/default.conf"
#endif
#ifndef LOGP_TUNING_SITE
#define LOGP_TUNING_SITE "/usr/local/etc/pmpi-logp.conf"
#endif

static uint64_t logp_hash(const void *p, size_t n, uint64_t h)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

/* Prints this rank's configuration errors once, with its rank and host in
 * front unless it is rank 0 (whose errors everyone shares as a rule). */
static void logp_state_tell(int rank)
{
    if (logp_problems[0] == '\0' || logp_problems_told)
        return;
    logp_problems_told = 1;
    char host[MPI_MAX_PROCESSOR_NAME] = "?";
    int len = 0;
    if (rank != 0)
        PMPI_Get_processor_name(host, &len);
    for (char *line = logp_problems, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        if (rank == 0)
            fprintf(stderr, "pmpi-logp: %.*s\n", (int)(end - line), line);
        else
            fprintf(stderr, "pmpi-logp: rank %d (%s): %.*s\n", rank, host, (int)(end - line), line);
    }
}

/* Strict mode: abort the job over a configuration error, after saying
 * why.  Rank 0 gives the launcher a moment to forward its message; the
 * others wait longer, so that their abort cannot kill rank 0 first (seen:
 * the message lost in about one run of six). */
static void logp_state_abort(MPI_Comm comm, int rank)
{
    logp_state_tell(rank);
    if (rank == 0)
        fprintf(stderr, "pmpi-logp: PMPI_LOGP_STRICT=1: aborting on the configuration errors above\n");
    struct timespec wait = {rank == 0 ? 0 : 1, rank == 0 ? 200000000L : 0};
    nanosleep(&wait, NULL);
    PMPI_Abort(comm, 1);
}

/* Appends one line to this rank's configuration errors. */
static void logp_state_problem(const char *what)
{
    size_t n = strlen(logp_problems);
    snprintf(logp_problems + n, sizeof logp_problems - n, "%s\n", what);
    logp_problems_hash = logp_hash(what, strlen(what), logp_problems_hash ? logp_problems_hash : 1469598103934665603ull);
}

static int logp_state_readable(const char *path)
{
    return path && access(path, R_OK) == 0;
}

/* PMPI_LOGP_TUNING, else the site's file (never overwritten by make
 * install), else the installed default, else nothing (built-in
 * defaults).  A bad file is ignored as a whole. */
static void logp_state_load_tuning(void)
{
    const char *path = logp_env.tuning;
    if (path == NULL)
        path = logp_state_readable(LOGP_TUNING_SITE) ? LOGP_TUNING_SITE
               : logp_state_readable(LOGP_TUNING_DEFAULT) ? LOGP_TUNING_DEFAULT : NULL;
    if (path == NULL)
        return;
    char err[640], line[800];
    if (logp_config_load(&logp_cfg, path, err, sizeof err) != 0) {
        snprintf(line, sizeof line, "%s\n%s", err,
                 logp_env.strict ? "PMPI_LOGP_STRICT=1: aborting" : "ignoring this tuning file: built-in defaults");
        logp_state_problem(line);
        return;
    }
    snprintf(logp_cfg_path, sizeof logp_cfg_path, "%s", path);
}

/* PMPI_LOGP_LEARN's file, if it exists: what earlier runs learned (read
 * after the tuning file, so its rules and corrections win).  A bad file
 * is ignored as a whole, like a bad tuning file. */
static void logp_state_load_learned(void)
{
    static char path[1024];
    if (logp_env.learn == NULL && logp_config_learn_path(&logp_cfg)) { /* the tuning file's learn = FILE */
        snprintf(path, sizeof path, "%s", logp_config_learn_path(&logp_cfg));
        logp_env.learn = path;
    }
    if (logp_env.learn == NULL || access(logp_env.learn, F_OK) != 0)
        return;
    char err[640], line[800];
    if (logp_config_load(&logp_learned, logp_env.learn, err, sizeof err) != 0) {
        snprintf(line, sizeof line, "%s\n%s", err,
                 logp_env.strict ? "PMPI_LOGP_STRICT=1: aborting"
                                  : "ignoring this learned file (the sizes this run learns are replaced in it at the "
                                    "end, the rest is kept: mend it by hand)");
        logp_state_problem(line);
    }
}

static void logp_state_release(logp_comm_state_t *st)
{
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        for (int i = 0; i < LOGP_STATE_SLOTS; i++)
            if (st->decisions[c][i]) {
                logp_sched_free(&st->decisions[c][i]->sched);
                for (int k = 0; k < LOGP_CONFIRM_MAX; k++)
                    logp_sched_free(&st->decisions[c][i]->trial.sched[k]);
                logp_sched_free(&st->decisions[c][i]->trial.prev_sched);
                free(st->decisions[c][i]);
            }
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        logp_sched_free(&st->fallback[c].sched);
    logp_topo_free(&st->topo);
    free(st->end_times);
    free(st);
}

static void logp_state_unlink(logp_comm_state_t *st)
{
    if (st->prev)
        st->prev->next = st->next;
    else if (logp_live == st)
        logp_live = st->next;
    if (st->next)
        st->next->prev = st->prev;
    st->prev = st->next = NULL;
}

/* The report block of one communicator (rank 0 of it adds it; times are
 * rank 0's own: the root's view of a bcast, everyone's for alltoall; and,
 * where gathered at the end, the slowest and fastest rank's totals). */
static void logp_state_report(const logp_comm_state_t *st)
{
    if (logp_env.report == NULL || st->rank != 0)
        return;
    logp_text_t t = {0};
    int csv = logp_report_csv(logp_env.report);
    char name[2 * MPI_MAX_OBJECT_NAME + 3], *q = name;
    if (csv) { /* one row per decision; the name quoted, quotes doubled */
        *q++ = '"';
        for (const char *c = st->name; *c; c++) {
            if (*c == '"')
                *q++ = '"';
            *q++ = *c;
        }
        *q++ = '"';
        *q = '\0';
    } else {
        const logp_params_t *rep = logp_topo_rep(&st->topo);
        logp_text_printf(&t,
                         "comm %s P=%d nodes=%d tuning: %s; L=%.3gus o=%.3gus g=%.3gus G=%.3gns/B gamma=%.3gns/B%s\n",
                         st->name, st->size, st->topo.nnodes, st->matched, rep->L * 1e6, rep->o * 1e6, rep->g * 1e6,
                         rep->G * 1e9, rep->gamma * 1e9,
                         st->no_private ? " (no private communicator could be had: MPI library only)" : "");
    }
    for (int i = 0; i < LOGP_COLL_COUNT * LOGP_STATE_SLOTS; i++) {
        const logp_decision_t *d = st->decisions[i / LOGP_STATE_SLOTS][i % LOGP_STATE_SLOTS];
        if (d == NULL || d->stat.calls == 0)
            continue;
        double mean = d->stat.time / (double)d->stat.calls, pred = d->stat.predicted / (double)d->stat.calls;
        size_t lo = (size_t)1 << d->sclass, hi = ((size_t)2 << d->sclass) - 1;
        const logp_stat_t *x = &d->stat;
        if (csv) {
            logp_text_printf(&t, "%s,%d,%d,%s,%zu,%zu,%s,%lu,%.0f,%.3f,%.3f,%.3f,%.4f,", name, st->size,
                             st->topo.nnodes, logp_coll_name(d->coll), lo, hi, logp_algo_name(d->algo), x->calls,
                             x->bytes, x->time * 1e6, mean * 1e6, pred * 1e6, pred > 0 ? mean / pred : 0.0);
            if (x->gathered)
                logp_text_printf(&t, "%.3f,%d,%.3f,", x->max_time * 1e6, x->max_rank, x->min_time * 1e6);
            else
                logp_text_printf(&t, ",,,");
            const logp_trial_t *tr = &d->trial;
            if (tr->phase == LOGP_TRIAL_DONE && !tr->disagreed && tr->plan.n >= 2) {
                for (int c = 0; c < tr->plan.n; c++)
                    logp_text_printf(&t, "%s%s=%.3f", c ? ";" : "", logp_algo_name(tr->plan.algo[c]),
                                     tr->verdict.time[c] * 1e6);
                logp_text_printf(&t, ",%s,%.3f\n", logp_algo_name(tr->plan.algo[tr->verdict.winner]),
                                 tr->verdict.overhead * 1e6);
            } else {
                logp_text_printf(&t, ",,\n");
            }
        } else {
            logp_text_printf(&t,
                             "  %-8s %9zu-%-9zu %-15s calls %7lu  bytes %12.0f  total %10.1f us  mean %9.2f us  "
                             "predicted %9.2f us  measured/predicted %6.2f",
                             logp_coll_name(d->coll), lo, hi, logp_algo_name(d->algo), x->calls, x->bytes,
                             x->time * 1e6, mean * 1e6, pred * 1e6, pred > 0 ? mean / pred : 0.0);
            if (x->gathered)
                logp_text_printf(&t, "  slowest rank %d total %.1f us, fastest %.1f us", x->max_rank,
                                 x->max_time * 1e6, x->min_time * 1e6);
            char trial[512];
            logp_confirm_describe(st, d, trial, sizeof trial);
            /* the trial on a line of its own that does not start like a row */
            logp_text_printf(&t, "%s%s\n", trial[0] ? "\n^ " : "", trial);
        }
    }
    logp_report_add(&t);
    logp_text_free(&t);
}

static int logp_comm_delete(MPI_Comm comm, int key, void *value, void *extra);

/* The state of a communicator whose own state this process could not
 * allocate: not usable (its calls go to the MPI library, as its peers'
 * do: they learnt it in the set-up's agreement) and cached like any state,
 * so that no later call sets it up again (a collective its peers would not
 * join).  Never written, never freed. */
static logp_comm_state_t logp_state_none = {.usable = 0};

/* Whether st takes part in the end-of-run gather: the same answer on every
 * rank (all_timed, end_times and the private communicator were agreed). */
static int logp_state_gathers(const logp_comm_state_t *st)
{
    return st->all_timed && st->end_times != NULL && st->pcomm != MPI_COMM_NULL && !st->no_private && st->size > 1;
}

/* rank 0's own totals, then every other rank's in[] (< 0: no such decision). */
static void logp_state_gather_add(logp_comm_state_t *st, const double *in, int from)
{
    for (int k = 0; k < LOGP_STATE_ALL_SLOTS; k++) {
        logp_decision_t *d = st->decisions[k / LOGP_STATE_SLOTS][k % LOGP_STATE_SLOTS];
        if (d == NULL || d->stat.calls == 0 || in[k] < 0.0)
            continue;
        logp_stat_t *x = &d->stat;
        if (!x->gathered || in[k] > x->max_time) {
            x->max_time = in[k];
            x->max_rank = from;
        }
        if (!x->gathered || in[k] < x->min_time)
            x->min_time = in[k];
        x->gathered = 1;
    }
}

/* Every rank's own total time per decision, sent to rank 0 of each
 * communicator whose ranks all time their calls, for the report's slowest
 * and fastest rank.  At the end of the run every rank is here (MPI_Finalize
 * or the session's end); each first posts its sends for every
 * communicator and only then receives, so no order of communicators
 * between ranks can make two ranks wait for each other.  Point to point on
 * the private communicator with the communicator's tag, which no
 * collective uses any more; one receive buffer on the stack.  A failed
 * receive leaves that communicator's rows with rank 0's times. */
static void logp_state_gather(logp_comm_state_t **all, int n)
{
    for (int i = 0; i < n; i++) {
        logp_comm_state_t *st = all[i];
        st->end_req = MPI_REQUEST_NULL;
        if (!logp_state_gathers(st))
            continue;
        for (int k = 0; k < LOGP_STATE_ALL_SLOTS; k++) {
            const logp_decision_t *d = st->decisions[k / LOGP_STATE_SLOTS][k % LOGP_STATE_SLOTS];
            st->end_times[k] = d != NULL && d->stat.calls > 0 ? d->stat.time : -1.0;
        }
        if (st->rank != 0 && PMPI_Isend(st->end_times, LOGP_STATE_ALL_SLOTS, MPI_DOUBLE, 0, st->tag, st->pcomm,
                                        &st->end_req) != MPI_SUCCESS)
            st->end_req = MPI_REQUEST_NULL;
    }
    for (int i = 0; i < n; i++) {
        logp_comm_state_t *st = all[i];
        if (!logp_state_gathers(st) || st->rank != 0)
            continue;
        double in[LOGP_STATE_ALL_SLOTS];
        int ok = 1;
        logp_state_gather_add(st, st->end_times, 0);
        for (int r = 1; r < st->size; r++) { /* all of them, even after a failure: no sender is left waiting */
            MPI_Status status;
            if (PMPI_Recv(in, LOGP_STATE_ALL_SLOTS, MPI_DOUBLE, MPI_ANY_SOURCE, st->tag, st->pcomm, &status) ==
                    MPI_SUCCESS && ok)
                logp_state_gather_add(st, in, status.MPI_SOURCE);
            else
                ok = 0;
        }
        for (int k = 0; !ok && k < LOGP_STATE_ALL_SLOTS; k++) {
            logp_decision_t *d = st->decisions[k / LOGP_STATE_SLOTS][k % LOGP_STATE_SLOTS];
            if (d)
                d->stat.gathered = 0;
        }
    }
    for (int i = 0; i < n; i++)
        if (all[i]->end_req != MPI_REQUEST_NULL)
            PMPI_Wait(&all[i]->end_req, MPI_STATUS_IGNORE);
}

static unsigned long logp_state_gen; /* bumped when a state goes: cached lookups are stale */

static int logp_comm_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm;
    (void)key;
    (void)extra;
    logp_comm_state_t *st = value;
    __atomic_add_fetch(&logp_state_gen, 1, __ATOMIC_RELEASE);
    if (st == &logp_state_none)
        return MPI_SUCCESS;
    logp_private_t *own = NULL, **pp;
    pthread_mutex_lock(&logp_lock);
    int ended = logp_ended;
    logp_state_unlink(st);
    for (pp = &logp_privates; st->own_private && *pp && own == NULL; pp = &(*pp)->next)
        if ((*pp)->comm == st->pcomm) { /* not yet freed by the end of the run */
            own = *pp;
            *pp = own->next;
        }
    pthread_mutex_unlock(&logp_lock);
    if (own) { /* collective like the application's MPI_Comm_free that brought us here */
        PMPI_Comm_free(&own->comm);
        free(own);
    }
    if (!ended) /* freed by the application before the end */
        logp_state_report(st);
    if (logp_env.learn && logp_world_rank == 0 && !ended) /* after the end the file is written */
        logp_confirm_keep(st);
    logp_state_release(st);
    return MPI_SUCCESS;
}

void logp_state_end(void)
{
    pthread_mutex_lock(&logp_lock);
    if (logp_ended) {
        pthread_mutex_unlock(&logp_lock);
        return;
    }
    logp_ended = 1;
    int n = 0;
    for (logp_comm_state_t *st = logp_live; st; st = st->next)
        n++;
    logp_comm_state_t **all = malloc(sizeof(*all) * (size_t)(n > 0 ? n : 1));
    n = 0;
    for (logp_comm_state_t *st = logp_live; st && all; st = st->next) {
        all[n++] = st;
        st->usable = 0; /* from now on everything goes to the MPI library */
    }
    pthread_mutex_unlock(&logp_lock);
    if (all)
        logp_state_gather(all, n);
    logp_units_locale_t c = logp_units_c_begin(); /* the report's numbers (a CSV) with '.' whatever the locale */
    for (int i = 0; i < n; i++) {
        logp_state_report(all[i]);
        if (logp_env.learn && logp_world_rank == 0)
            logp_confirm_keep(all[i]);
    }
    free(all);
    if (logp_env.learn && logp_world_rank == 0)
        logp_confirm_write(logp_env.learn);
    pthread_mutex_lock(&logp_lock);
    logp_private_t *priv = logp_privates;
    logp_privates = NULL;
    pthread_mutex_unlock(&logp_lock);
    while (priv) {
        logp_private_t *next = priv->next;
        PMPI_Comm_free(&priv->comm);
        if (priv->group != MPI_GROUP_NULL)
            PMPI_Group_free(&priv->group);
        free(priv);
        priv = next;
    }
    __atomic_add_fetch(&logp_state_gen, 1, __ATOMIC_RELEASE);
    logp_report_write(logp_env.report, logp_world_rank <= 0, logp_world_size,
                      logp_cfg_path[0] ? logp_cfg_path : NULL);
    logp_units_c_end(c);
    if (logp_world_rank == 0)
        logp_dispatch_print();
    logp_scratch_free(&logp_scratch);
}

/* Start of MPI_Finalize. */
static int logp_self_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm;
    (void)key;
    (void)value;
    (void)extra;
    logp_state_end();
    return MPI_SUCCESS;
}

static void logp_state_once(void)
{
    int initialized = 0, finalized = 0;
    PMPI_Initialized(&initialized);
    PMPI_Finalized(&finalized);
    if (initialized && !finalized) { /* MPI_Init was called: there is a world */
        PMPI_Comm_rank(MPI_COMM_WORLD, &logp_world_rank);
        PMPI_Comm_size(MPI_COMM_WORLD, &logp_world_size);
    }
    char msgs[1024] = "";
    logp_env_read(&logp_env, msgs, sizeof msgs);
    for (char *line = msgs, *end; *line && (end = strchr(line, '\n')); line = end + 1) {
        *end = '\0';
        logp_state_problem(line);
    }
    if (logp_env.test_nomem >= 0 && logp_env.test_nomem == logp_world_rank)
        logp_test_nomem = logp_env.test_nomem_kinds;
    logp_scratch.fail = (logp_test_nomem & LOGP_TEST_NOMEM_STAGING) != 0;
    logp_state_load_tuning();
    logp_state_load_learned();
    if (logp_env.dispatch)
        logp_dispatch_enable();
    /* rank 0 tells at once; the others when the ranks turn out to differ
     * (logp_state_agree), or before a strict abort */
    if (logp_world_rank == 0)
        logp_state_tell(0);
    if (logp_problems[0] && logp_env.strict && logp_world_rank >= 0)
        logp_state_abort(MPI_COMM_WORLD, logp_world_rank);
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, logp_comm_delete, &logp_comm_key, NULL);
    if (logp_world_rank >= 0) {
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, logp_self_delete, &logp_self_key, NULL);
        PMPI_Comm_set_attr(MPI_COMM_SELF, logp_self_key, NULL);
    }
}

void logp_state_setup(void)
{
    pthread_once(&logp_once, logp_state_once);
}

const logp_env_t *logp_state_env(void)
{
    return &logp_env;
}

unsigned logp_state_test_nomem(void)
{
    return logp_test_nomem;
}

logp_scratch_t *logp_state_scratch(void)
{
    return &logp_scratch;
}

/* Every rank must take the same decisions: one allreduce checks that the
 * configuration and the layout agree (environment and files can differ
 * between nodes), that every rank could make its state (`ok`), whether
 * every rank already has a private communicator for the group (`found`:
 * all or none, else none is used), and whether the ranks' configuration
 * errors differ (then each tells its own); *id becomes the largest of the
 * ranks' ids, the communicator's id; *concurrent whether any rank saw
 * another creation under way; st->all_timed whether every rank has the run
 * report on (then every rank times its calls).  Returns nonzero if the communicator
 * can use our algorithms. */
static int logp_state_agree(logp_comm_state_t *st, MPI_Comm comm, int ok, int found, int *concurrent, long *id,
                            int oversubscribed)
{
    uint64_t h = logp_hash(&st->topo.intra, sizeof(st->topo.intra), 1469598103934665603ull);
    h = logp_hash(&st->topo.inter, sizeof(st->topo.inter), h);
    h = logp_hash(&st->topo.nnodes, sizeof(st->topo.nnodes), h); /* a rank whose layout failed */
    h = logp_hash(&st->topo.shared, sizeof(st->topo.shared), h);
    h = logp_hash(st->configured, sizeof(st->configured), h);
    h = logp_hash(&st->chain_k, sizeof(st->chain_k), h);
    h = logp_hash(&st->confirm, sizeof(st->confirm), h);
    h = logp_hash(&st->warmup, sizeof(st->warmup), h);
    h = logp_hash(&st->clock_global, sizeof(st->clock_global), h);
    /* environment that changes decisions: the library whose algorithms
     * "native" models, and whether auto stays on oversubscribed nodes */
    h = logp_hash(&logp_env.native, sizeof(logp_env.native), h);
    h = logp_hash(&logp_env.oversubscribed_model, sizeof(logp_env.oversubscribed_model), h);
    uint64_t e = logp_problems_hash;
    uint64_t l = logp_hash(st->rule, sizeof(st->rule), 1469598103934665603ull);
    l = logp_hash(&st->learn, sizeof(st->learn), l);
    long report = logp_env.report != NULL && st->end_times != NULL;
    long v[15] = {(long)(h >> 33), (long)(h & 0x7fffffff), -(long)(h >> 33), -(long)(h & 0x7fffffff),
                  (long)(e >> 33), -(long)(e >> 33), !ok, found, -found, *id, *concurrent, !report,
                  (long)(l >> 33), -(long)(l >> 33), oversubscribed},
         r[15];
    if (PMPI_Allreduce(v, r, 15, MPI_LONG, MPI_MAX, comm) != MPI_SUCCESS)
        return 0;
    st->oversubscribed = r[14] != 0;
    if (r[12] != -r[13]) { /* learned files differ between nodes (not on a shared file system?) */
        if (st->rank == 0 && logp_env.verbose >= 1)
            fprintf(stderr, "pmpi-logp: %s: ranks read different learned rules (PMPI_LOGP_LEARN); ignoring them on "
                            "this communicator\n", st->name);
        memset(st->rule, LOGP_ALGO_COUNT, sizeof st->rule);
        memset(st->learned_rule, LOGP_ALGO_COUNT, sizeof st->learned_rule);
        memset(&st->learn, 0, sizeof st->learn);
    }
    st->all_timed = r[11] == 0; /* every rank writes a report: each times its calls */
    st->timed = st->all_timed || (report && st->rank == 0);
    *id = r[9]; /* the same on every rank: a tag for this communicator */
    *concurrent = (int)r[10];
    if (r[4] != -r[5]) /* configuration errors differ between ranks: each says its own */
        logp_state_tell(st->rank);
    if (r[6])
        return 0; /* a rank could not make its state */
    st->no_private = r[7] != -r[8]; /* some have a private communicator for the group, some not: none is used */
    if (r[0] != -r[2] || r[1] != -r[3]) {
        if (st->rank == 0)
            fprintf(stderr, "pmpi-logp: %s: ranks disagree on the configuration; using the MPI library's "
                            "collectives on this communicator\n", st->name);
        for (int c = 0; c < LOGP_COLL_COUNT; c++)
            st->configured[c] = LOGP_ALGO_NATIVE;
        st->confirm = 0;
    }
    /* On an oversubscribed node the model's machine (a processor per rank)
     * is not there: a hand-off can wait for a time slice, so schedules of
     * many dependent messages are slowest (4 ranks on 2 cores: our
     * schedules from 0.3x to 16x native, binary-pipeline bcast 1 MiB 132 ms
     * against 8.1 ms), and trials cannot tell candidates apart (every time
     * a multiple of the 4 ms tick).  auto hands such communicators to the
     * MPI library; forced algorithms still run. */
    if (st->oversubscribed && !logp_env.oversubscribed_model) {
        int any = 0;
        for (int c = 0; c < LOGP_COLL_COUNT; c++)
            if (st->configured[c] == LOGP_ALGO_AUTO) {
                st->configured[c] = LOGP_ALGO_NATIVE;
                any = 1;
            }
        if (any && st->rank == 0 && logp_env.verbose >= 1)
            fprintf(stderr, "pmpi-logp: %s: a node runs more MPI processes than it has processors: auto is the MPI "
                            "library's own collectives here (PMPI_LOGP_OVERSUBSCRIBED=model keeps the model)\n",
                    st->name);
    }
    return 1;
}

/* The private communicator of comm's group, if this process has one. */
static MPI_Comm logp_state_find_private(MPI_Group group)
{
    MPI_Comm found = MPI_COMM_NULL;
    pthread_mutex_lock(&logp_lock); /* comparing groups cannot call back here */
    for (logp_private_t *p = logp_privates; p && found == MPI_COMM_NULL; p = p->next) {
        int same = MPI_UNEQUAL;
        if (p->group != MPI_GROUP_NULL && PMPI_Group_compare(p->group, group, &same) == MPI_SUCCESS && same == MPI_IDENT)
            found = p->comm;
    }
    pthread_mutex_unlock(&logp_lock);
    return found;
}

/* A communicator of the application's group for our traffic, without
 * letting a failure (out of context ids) reach its error handler; our
 * errors come back to us as codes (MPI_ERRORS_RETURN).  Made by a split
 * (one color, ranks in order), not a dup: a dup would run the copy
 * callbacks of the application's attributes on it (a reference count
 * taken, a delete callback run at our MPI_Finalize).  Registers it for
 * the group if `shared` (else for st alone).  Nonzero on success. */
static int logp_state_private(logp_comm_state_t *st, int shared)
{
    MPI_Errhandler user = MPI_ERRHANDLER_NULL;
    MPI_Comm dup = MPI_COMM_NULL;
    logp_private_t *p = malloc(sizeof(*p));
    int have = PMPI_Comm_get_errhandler(st->comm, &user) == MPI_SUCCESS;
    if (have)
        PMPI_Comm_set_errhandler(st->comm, MPI_ERRORS_RETURN);
    int rc = PMPI_Comm_split(st->comm, 0, 0, &dup); /* collective: every rank is here (the agreement said none has one) */
    if (have) {
        PMPI_Comm_set_errhandler(st->comm, user);
        PMPI_Errhandler_free(&user);
    }
    if (rc != MPI_SUCCESS || p == NULL) {
        if (dup != MPI_COMM_NULL)
            PMPI_Comm_free(&dup);
        free(p);
        return 0;
    }
    PMPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    PMPI_Comm_set_name(dup, "pmpi-logp private");
    p->group = MPI_GROUP_NULL;
    if (shared)
        PMPI_Comm_group(dup, &p->group);
    p->comm = dup;
    pthread_mutex_lock(&logp_lock);
    p->next = logp_privates;
    logp_privates = p;
    pthread_mutex_unlock(&logp_lock);
    st->pcomm = dup;
    st->own_private = !shared;
    return 1;
}

static double logp_state_host_speed(const char *host, void *ctx)
{
    (void)ctx;
    return logp_config_host_speed(&logp_cfg, host);
}

static logp_comm_state_t *logp_state_create(MPI_Comm comm)
{
    int inter = 0, len = 0;
    logp_comm_state_t spare, *st = calloc(1, sizeof(*st)), *mine = st;
    if (st == NULL) { /* still take part in the collectives below, then say so */
        memset(&spare, 0, sizeof spare);
        st = &spare;
    }
    st->comm = comm;
    st->pcomm = MPI_COMM_NULL;
    memset(st->rule, LOGP_ALGO_COUNT, sizeof st->rule);
    memset(st->learned_rule, LOGP_ALGO_COUNT, sizeof st->learned_rule);
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_size(comm, &st->size);
    PMPI_Comm_rank(comm, &st->rank);
    st->timed = logp_env.report != NULL && st->rank == 0;
    if (logp_env.report != NULL && mine != NULL)
        st->end_times = malloc(sizeof(double) * LOGP_STATE_ALL_SLOTS);
    PMPI_Comm_get_name(comm, st->name, &len);
    logp_comm_facts_t facts = {st->size, st->name, 1};
    if (len == 0)
        snprintf(st->name, sizeof(st->name), "comm(P=%d)", st->size);
    /* the parameters of both pair classes; which one stands for the whole
     * communicator depends on the layout */
    logp_resolved_t res_intra, res_inter;
    logp_config_resolve(&logp_cfg, &facts, &res_intra);
    logp_config_resolve_more(&logp_learned, &facts, &res_intra);
    facts.intra_node = 0;
    logp_config_resolve(&logp_cfg, &facts, &res_inter);
    logp_config_resolve_more(&logp_learned, &facts, &res_inter);
    st->ranks_per_node = logp_env.ranks_per_node > 0 ? logp_env.ranks_per_node : res_inter.ranks_per_node;
    st->topo = logp_topo_uniform(st->size, &res_inter.params);
    pthread_mutex_lock(&logp_lock);
    int ended = logp_ended;
    pthread_mutex_unlock(&logp_lock);
    if (!inter && !ended) { /* the same on every rank: no collective otherwise */
        logp_layout_discover(comm, logp_world_rank >= 0 ? logp_world_rank : st->rank, st->ranks_per_node,
                             logp_state_host_speed, NULL, &res_intra.params, &res_inter.params, &st->topo);
        facts.intra_node = st->topo.nnodes == 1;
        const logp_resolved_t *res = facts.intra_node ? &res_intra : &res_inter;
        snprintf(st->matched, sizeof st->matched, "%s", res->matched);
        st->chain_k = res->chain_k;
        st->topo.shared = res->shared;
        for (int c = 0; c < LOGP_COLL_COUNT; c++)
            st->configured[c] = logp_env.forced[c] != LOGP_ALGO_COUNT ? logp_env.forced[c] : res->algo[c];
        memcpy(st->rule, res->rules.algo, sizeof st->rule);
        st->learn = res->rules.learn;
        logp_resolved_t learnt; /* the learned file's rules alone: written back for classes not called */
        logp_config_resolve(&logp_learned, &facts, &learnt);
        memcpy(st->learned_rule, learnt.rules.algo, sizeof st->learned_rule);
        st->confirm = st->size > 1 ? logp_env.confirm : 0; /* 0, 1, or 2 (with refits) */
        st->warmup = logp_env.confirm_warmup;
        int *global = NULL, has = 0; /* a clock all ranks share (SMPI): trial calls timed across ranks */
        st->clock_global = PMPI_Comm_get_attr(comm, MPI_WTIME_IS_GLOBAL, &global, &has) == MPI_SUCCESS && has &&
                           global && *global;
        st->next_point = 8;
        /* The private communicator is found or made here, at the first
         * call on the communicator, which every rank reaches alike whatever
         * its arguments: a later collective (one per size class) would hang
         * when ranks of an erroneous call pass different sizes. */
        MPI_Group group = MPI_GROUP_NULL;
        PMPI_Comm_group(comm, &group);
        st->pcomm = logp_state_find_private(group);
        /* An id reserved here, the largest of the ranks' agreed, then every
         * rank's counter moved past it: distinct from the ids of this
         * process's other communicators of the group, as long as no two
         * creations overlap in time.  Overlapping ones (threads) could
         * reserve in different orders on different ranks and agree on one
         * id; a creation that finds another under way says so, and if any
         * rank says so the communicator takes a private communicator of its
         * own.  Two creations that overlap on no rank run in one order on
         * every rank (each waits in the other's allreduce otherwise), so
         * their ids differ. */
        int concurrent = __atomic_fetch_add(&logp_creating, 1, __ATOMIC_ACQ_REL) > 0;
        long id = __atomic_fetch_add(&logp_comm_ids, 1, __ATOMIC_RELAXED), next;
        int local = logp_topo_size(&st->topo, logp_topo_node(&st->topo, st->rank)); /* this node's ranks */
        st->usable = logp_state_agree(st, comm, mine != NULL, st->pcomm != MPI_COMM_NULL, &concurrent, &id,
                                      logp_layout_oversubscribed(local));
        while ((next = __atomic_load_n(&logp_comm_ids, __ATOMIC_RELAXED)) <= id &&
               !__atomic_compare_exchange_n(&logp_comm_ids, &next, id + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
        __atomic_fetch_sub(&logp_creating, 1, __ATOMIC_ACQ_REL);
        if (concurrent) { /* a shared one (found or not) is not used: every rank makes its own */
            st->pcomm = MPI_COMM_NULL;
            st->no_private = 0;
        }
        if (st->usable && !st->no_private && st->pcomm == MPI_COMM_NULL) { /* nobody has one: all make it */
            int made = logp_state_private(st, !concurrent), all = 0;
            if (PMPI_Allreduce(&made, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS || !all)
                st->no_private = 1; /* a made one stays registered for later communicators of the group */
        }
        if (st->no_private)
            st->pcomm = MPI_COMM_NULL;
        int any_auto = 0;
        for (int c = 0; c < LOGP_COLL_COUNT; c++)
            any_auto |= st->configured[c] == LOGP_ALGO_AUTO;
        if (!(st->usable && any_auto && st->pcomm != MPI_COMM_NULL)) /* agreed inputs only */
            st->confirm = 0;
        if (st->pcomm != MPI_COMM_NULL && logp_tag_range == 32767 - LOGP_TAG_FIRST) {
            int *ub = NULL, flag = 0; /* the tags this MPI offers */
            if (PMPI_Comm_get_attr(st->pcomm, MPI_TAG_UB, &ub, &flag) == MPI_SUCCESS && flag && *ub > LOGP_TAG_FIRST)
                logp_tag_range = *ub - LOGP_TAG_FIRST;
        }
        st->tag = LOGP_TAG_FIRST + 2 * (int)(id % (logp_tag_range / 2)); /* tag and tag + 1: a dataflow schedule's two streams */
        PMPI_Group_free(&group);
        if (st->no_private && st->rank == 0 && logp_env.verbose >= 1)
            fprintf(stderr, "pmpi-logp: %s: no private communicator could be made (too many communicators?); "
                            "the MPI library's collectives on this communicator\n", st->name);
        if (logp_problems[0] && logp_env.strict) /* no world to abort at set-up (Sessions): now */
            logp_state_abort(comm, st->rank);
    }
    if (mine == NULL) {
        logp_topo_free(&st->topo);
        PMPI_Comm_set_attr(comm, logp_comm_key, &logp_state_none);
        return &logp_state_none;
    }
    st = mine;
    const logp_params_t *rep = logp_topo_rep(&st->topo);
    if (logp_env.verbose >= 1 && st->rank == 0 && st->usable)
        fprintf(stderr,
                "pmpi-logp: %s (P=%d, %d node%s%s): tuning %s: %s; L=%.3gus o=%.3gus g=%.3gus G=%.3gns/B "
                "gamma=%.3gns/B%s; bcast=%s reduce=%s alltoall=%s\n",
                st->name, st->size, st->topo.nnodes, st->topo.nnodes == 1 ? "" : "s",
                st->ranks_per_node > 0 ? " by ranks_per_node" : "", logp_cfg_path[0] ? logp_cfg_path : "none",
                st->matched, rep->L * 1e6, rep->o * 1e6, rep->g * 1e6, rep->G * 1e9, rep->gamma * 1e9,
                st->topo.shared ? " network=shared" : "",
                logp_algo_name(st->configured[0]), logp_algo_name(st->configured[1]),
                logp_algo_name(st->configured[2]));
    pthread_mutex_lock(&logp_lock);
    st->next = logp_live;
    if (logp_live)
        logp_live->prev = st;
    logp_live = st;
    pthread_mutex_unlock(&logp_lock);
    PMPI_Comm_set_attr(comm, logp_comm_key, st);
    return st;
}

/* The last communicator a thread used and its state: most programs call
 * collectives on one communicator, and the attribute lookup is the
 * costliest step of a call (a PMPI call; under SMPI several
 * microseconds).  A state's end bumps the generation, which invalidates
 * every thread's entry (handles are reused).  Under SMPI ranks may share a
 * thread, but each has its own copy of the shim's globals: a plain
 * variable there. */
typedef struct {
    MPI_Comm comm;
    logp_comm_state_t *st;
    unsigned long gen;
} logp_state_cache_t;

#ifdef SMPI_H
static logp_state_cache_t logp_state_last;
#else
static _Thread_local logp_state_cache_t logp_state_last;
#endif

logp_comm_state_t *logp_state_get(MPI_Comm comm)
{
    unsigned long gen = __atomic_load_n(&logp_state_gen, __ATOMIC_ACQUIRE);
    if (logp_state_last.st && logp_state_last.comm == comm && logp_state_last.gen == gen)
        return logp_state_last.st;
    void *value = NULL;
    int found = 0;
    logp_state_setup();
    logp_comm_state_t *st = NULL;
    if (PMPI_Comm_get_attr(comm, logp_comm_key, &value, &found) == MPI_SUCCESS && found)
        st = value;
    else
        st = logp_state_create(comm);
    logp_state_last = (logp_state_cache_t){comm, st, gen};
    return st;
}

logp_select_query_t logp_state_query(logp_comm_state_t *st, const logp_decision_t *d)
{
    logp_select_query_t q = {d->coll,      logp_learn_class_mid(d->sclass), d->commutative, d->unsafe, st->chain_k,
                             &st->topo, logp_env.native,                   &st->learn};
    return q;
}

int logp_state_slot(const logp_decision_t *d)
{
    return logp_state_slot_of(d->sclass, d->commutative, d->unsafe);
}

/* Decides d (its coll, sclass, commutative, unsafe set) for st: a rule of
 * the files, else what st->configured says (auto: priced with what was
 * learned), and plans auto's trial.  `failed`: d could not be allocated
 * (st->fallback). */
static void logp_state_fill(logp_comm_state_t *st, logp_decision_t *d, int failed)
{
    logp_coll_t coll = d->coll;
    int sc = d->sclass, commutative = d->commutative;
    /* Decide at the class's geometric middle so every size of the class
     * (and every rank) gets the same answer. */
    size_t mid = logp_learn_class_mid(sc);
    logp_algo_t configured = st->configured[coll], rule = (logp_algo_t)st->rule[coll][sc][commutative];
    int ruled = configured == LOGP_ALGO_AUTO && rule != LOGP_ALGO_COUNT && rule != LOGP_ALGO_AUTO;
    if (ruled)
        configured = rule;
    logp_select_query_t q = logp_state_query(st, d);
    logp_algo_t algo = LOGP_ALGO_NATIVE;
    double predicted = -1.0;
    logp_sched_t sched = {0};
    double t0 = logp_dispatch_on() ? logp_dispatch_now() : 0.0;
    /* a decision that could not be allocated is still made (in the
     * fallback slot), so that this rank knows whether its peers start a
     * trial and takes part in its first call's check */
    int built = logp_select_decide(configured, &q, &algo, &sched, &predicted) == LOGP_OK &&
                !(logp_test_nomem & LOGP_TEST_NOMEM_SCHEDULE && algo != LOGP_ALGO_NATIVE);
    if (logp_dispatch_on())
        logp_dispatch_decided(coll, logp_dispatch_now() - t0);
    /* No collective here: with erroneous sizes, ranks can be in different
     * classes.  A rank that could not build its schedule (out of memory)
     * takes one that needs no memory where native is known to fail, else
     * native; where auto's trial follows, its first call tells every rank
     * (logp_confirm_first), elsewhere (forced algorithms, rules, no trial)
     * its peers may then wait: the case not agreed. */
    d->algo = algo;
    d->predicted = predicted;
    d->sched = sched;
    d->ruled = ruled;
    if (!built || (algo != LOGP_ALGO_NATIVE && st->pcomm == MPI_COMM_NULL))
        logp_state_fall_back(st, d);
    if (!ruled && st->configured[coll] == LOGP_ALGO_AUTO) {
        logp_algo_t runs = d->algo;
        d->algo = algo; /* the model's pick, the trial's candidate 0, even if it could not be built */
        logp_confirm_start(st, d, &q);
        d->algo = runs;
        if (d->trial.phase == LOGP_TRIAL_RUNNING)
            d->trial.broken |= (failed ? LOGP_TRIAL_BROKEN_UNCACHED : 0) | (!built ? LOGP_TRIAL_BROKEN_PICK : 0);
    }
    if (logp_env.verbose >= 1 && st->rank == 0) {
        char native[64] = "", trial[512]; /* which of the library's algorithms the model expects */
        if (d->algo == LOGP_ALGO_NATIVE)
            snprintf(native, sizeof native, " (%s: %s)", logp_native_lib_name(logp_env.native),
                     logp_native_algo(logp_env.native, coll, st->size, mid, commutative));
        fprintf(stderr, "pmpi-logp: %s (P=%d): %s %zu-%zu B%s -> %s%s%s (configured %s, predicted %.3g us)\n",
                st->name, st->size, logp_coll_name(coll), (size_t)1 << sc, ((size_t)2 << sc) - 1,
                coll == LOGP_COLL_REDUCE ? (commutative ? " commutative" : " non-commutative") : "",
                logp_algo_name(d->algo), native, ruled ? " by a rule" : "", logp_algo_name(st->configured[coll]),
                d->predicted * 1e6);
        logp_confirm_describe(st, d, trial, sizeof trial);
        if (trial[0]) /* its own line: the decision line keeps its form */
            fprintf(stderr, "pmpi-logp: %s (P=%d): %s %zu-%zu B%s: %s\n", st->name, st->size, logp_coll_name(coll),
                    (size_t)1 << sc, ((size_t)2 << sc) - 1,
                    coll == LOGP_COLL_REDUCE ? (commutative ? " commutative" : " non-commutative") : "", trial);
    }
}

static logp_decision_t *logp_state_decide_new(logp_comm_state_t *st, logp_coll_t coll, int sc, int commutative,
                                              int unsafe)
{
    logp_decision_t *d = logp_test_nomem & LOGP_TEST_NOMEM_DECISION ? NULL : calloc(1, sizeof(*d));
    int failed = d == NULL;
    if (failed) {
        d = &st->fallback[coll];
        logp_sched_free(&d->sched);
        memset(d, 0, sizeof(*d));
    }
    d->coll = coll;
    d->sclass = sc;
    d->commutative = commutative;
    d->unsafe = unsafe;
    d->trial.prev_algo = LOGP_ALGO_COUNT; /* no decision before this one */
    if (!failed)
        st->decisions[coll][logp_state_slot(d)] = d;
    logp_state_fill(st, d, failed);
    return d;
}

void logp_state_redecide(logp_comm_state_t *st, logp_decision_t *d, int keep_previous)
{
    logp_sched_free(&d->trial.prev_sched);
    d->trial.prev_algo = LOGP_ALGO_COUNT;
    if (keep_previous && d->algo != LOGP_ALGO_COUNT) { /* moved to the trial (logp_confirm_start) */
        d->trial.prev_algo = d->algo;
        d->trial.prev_sched = d->sched;
    } else {
        logp_sched_free(&d->sched);
    }
    memset(&d->sched, 0, sizeof d->sched);
    logp_state_fill(st, d, 0);
    logp_sched_free(&d->trial.prev_sched); /* not taken: no trial */
    d->trial.prev_algo = LOGP_ALGO_COUNT;
}

void logp_state_fall_back(logp_comm_state_t *st, logp_decision_t *d)
{
    logp_sched_free(&d->sched);
    d->algo = d->unsafe && st->pcomm != MPI_COMM_NULL
                  ? (d->coll == LOGP_COLL_ALLTOALL ? LOGP_ALGO_RING : LOGP_ALGO_BINOMIAL)
                  : LOGP_ALGO_NATIVE;
    if (d->algo != LOGP_ALGO_NATIVE) /* binomial and ring need no memory */
        logp_sched_build(&d->sched, d->coll, d->algo, logp_learn_class_mid(d->sclass), &st->topo, NULL);
    d->predicted = -1.0;
}

logp_decision_t *logp_state_drop(logp_comm_state_t *st, logp_decision_t *d)
{
    logp_decision_t *fb = &st->fallback[d->coll];
    if (d == fb)
        return d;
    logp_decision_t **slot = &st->decisions[d->coll][logp_state_slot(d)];
    if (*slot == d)
        *slot = NULL;
    logp_sched_free(&fb->sched);
    *fb = *d; /* its trial is cancelled: nothing else to hand over */
    free(d);
    return fb;
}

logp_decision_t *logp_state_decide(logp_comm_state_t *st, logp_coll_t coll, size_t bytes, int commutative,
                                   int unsafe)
{
    int sc = logp_learn_class(bytes);
    logp_decision_t *d = st->decisions[coll][logp_state_slot_of(sc, commutative, unsafe)];
    return d ? d : logp_state_decide_new(st, coll, sc, commutative != 0, unsafe != 0);
}
