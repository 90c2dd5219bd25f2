/* Per-communicator state: private duplicate, agreed configuration, decision
 * and plan caches, statistics.  Freed by the attribute's delete callback
 * when the communicator is freed; private communicators are all released
 * when MPI_COMM_SELF's attributes are deleted at the start of MPI_Finalize
 * (this also covers mpi_f08 callers, whose MPI_Finalize we do not see). */
#include "state.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../coll/layout.h"
#include "../config/config.h"
#include "../select/select.h"
#include "dispatch.h"

static pthread_once_t logp_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t logp_lock = PTHREAD_MUTEX_INITIALIZER;
static int logp_comm_key = MPI_KEYVAL_INVALID;
static int logp_self_key = MPI_KEYVAL_INVALID;
static logp_env_t logp_env;
static logp_comm_state_t *logp_live; /* registry, under logp_lock */
static int logp_finalizing;
static int logp_world_rank = -1;
static logp_config_t logp_cfg; /* the tuning file, empty if none or invalid */
static char logp_cfg_path[1024];

#ifndef LOGP_TUNING_DEFAULT
#define LOGP_TUNING_DEFAULT "/usr/local/share/pmpi-logp/default.conf"
#endif

/* Strict mode: abort the job over a configuration error.  Rank 0 has
 * printed the reason; the others wait a moment first, so that their abort
 * cannot kill rank 0 before the launcher has forwarded its message (seen:
 * the message lost in about one run of six), and rank 0 gives the launcher
 * a moment too. */
static void logp_state_abort(int rank)
{
    struct timespec wait = {rank == 0 ? 0 : 1, rank == 0 ? 200000000L : 0};
    nanosleep(&wait, NULL);
    PMPI_Abort(MPI_COMM_WORLD, 1);
}

/* PMPI_LOGP_TUNING, else the installed default if present, else nothing
 * (built-in defaults).  A bad file is reported with file:line and ignored
 * as a whole (strict mode: abort). */
static void logp_state_load_tuning(int rank)
{
    const char *path = logp_env.tuning;
    FILE *probe;
    if (path == NULL && (probe = fopen(LOGP_TUNING_DEFAULT, "r")) != NULL) {
        fclose(probe);
        path = LOGP_TUNING_DEFAULT;
    }
    if (path == NULL)
        return;
    char err[640];
    if (logp_config_load(&logp_cfg, path, err, sizeof err) != 0) {
        if (rank == 0)
            fprintf(stderr, "pmpi-logp: %s\npmpi-logp: %s\n", err,
                    logp_env.strict ? "PMPI_LOGP_STRICT=1: aborting" : "ignoring this tuning file: built-in defaults");
        if (logp_env.strict)
            logp_state_abort(rank);
        return;
    }
    snprintf(logp_cfg_path, sizeof logp_cfg_path, "%s", path);
}

static void logp_state_release(logp_comm_state_t *st)
{
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        for (int i = 0; i < LOGP_STATE_SLOTS; i++)
            if (st->decisions[c][i]) {
                logp_sched_free(&st->decisions[c][i]->sched);
                free(st->decisions[c][i]);
            }
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        logp_sched_free(&st->fallback[c].sched);
    logp_topo_free(&st->topo);
    logp_scratch_free(&st->scratch);
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

/* Appends the run report of one communicator to PMPI_LOGP_REPORT, if set
 * (rank 0 of it writes; times are rank 0's own: the root's view of a bcast,
 * everyone's for alltoall).  One write per communicator, O_APPEND: blocks
 * of different processes do not interleave. */
static void logp_state_report(const logp_comm_state_t *st)
{
    if (logp_env.report == NULL || st->rank != 0 || !st->usable)
        return;
    char buf[16384];
    const logp_params_t *rep = logp_topo_rep(&st->topo);
    size_t n = 0;
    n += (size_t)snprintf(buf + n, sizeof buf - n, "comm %s P=%d nodes=%d tuning: %s; L=%.3gus o=%.3gus g=%.3gus "
                          "G=%.3gns/B gamma=%.3gns/B\n", st->name, st->size, st->topo.nnodes, st->matched,
                          rep->L * 1e6, rep->o * 1e6, rep->g * 1e6, rep->G * 1e9, rep->gamma * 1e9);
    for (int i = 0; i < LOGP_COLL_COUNT * LOGP_STATE_SLOTS && n < sizeof buf - 256; i++) {
        const logp_decision_t *d = st->decisions[i / LOGP_STATE_SLOTS][i % LOGP_STATE_SLOTS];
        if (d == NULL || d->stat.calls == 0)
            continue;
        double mean = d->stat.time / (double)d->stat.calls, pred = d->stat.predicted / (double)d->stat.calls;
        n += (size_t)snprintf(buf + n, sizeof buf - n,
                              "  %-8s %9zu-%-9zu %-15s calls %7lu  bytes %12.0f  total %10.1f us  mean %9.2f us  "
                              "predicted %9.2f us  measured/predicted %6.2f\n",
                              logp_coll_name(d->coll), (size_t)1 << d->sclass, ((size_t)2 << d->sclass) - 1,
                              logp_algo_name(d->algo), d->stat.calls, d->stat.bytes, d->stat.time * 1e6, mean * 1e6,
                              pred * 1e6, pred > 0 ? mean / pred : 0.0);
    }
    int fd = open(logp_env.report, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0 || write(fd, buf, n) < 0)
        perror("pmpi-logp: PMPI_LOGP_REPORT");
    if (fd >= 0)
        close(fd);
}

static unsigned long logp_state_gen;

static int logp_comm_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm;
    (void)key;
    (void)extra;
    logp_comm_state_t *st = value;
    __atomic_add_fetch(&logp_state_gen, 1, __ATOMIC_RELEASE); /* forget cached lookups */
    pthread_mutex_lock(&logp_lock);
    logp_state_unlink(st);
    pthread_mutex_unlock(&logp_lock);
    if (st->pcomm != MPI_COMM_NULL && !logp_finalizing) {
        logp_state_report(st); /* freed by the application before the end */
        PMPI_Comm_free(&st->pcomm);
    }
    logp_state_release(st);
    return MPI_SUCCESS;
}

/* Start of MPI_Finalize: write the run report, release every private
 * communicator while MPI is fully usable; states stay until their
 * communicator's callback. */
static int logp_self_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm;
    (void)key;
    (void)value;
    (void)extra;
    pthread_mutex_lock(&logp_lock);
    for (logp_comm_state_t *st = logp_live; st; st = st->next) {
        logp_state_report(st);
        if (st->pcomm != MPI_COMM_NULL)
            PMPI_Comm_free(&st->pcomm);
        st->usable = 0;
    }
    logp_finalizing = 1;
    pthread_mutex_unlock(&logp_lock);
    if (logp_world_rank == 0) /* asked at set-up: SMPI's world is gone by now */
        logp_dispatch_print();
    return MPI_SUCCESS;
}

static void logp_state_once(void)
{
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    logp_world_rank = rank;
    logp_env_read(&logp_env, rank != 0);
    if (logp_env.errors > 0 && logp_env.strict) {
        if (rank == 0)
            fprintf(stderr, "pmpi-logp: PMPI_LOGP_STRICT=1: aborting on the configuration errors above\n");
        logp_state_abort(rank);
    }
    logp_state_load_tuning(rank);
    if (logp_env.dispatch)
        logp_dispatch_enable();
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, logp_comm_delete, &logp_comm_key, NULL);
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, logp_self_delete, &logp_self_key, NULL);
    PMPI_Comm_set_attr(MPI_COMM_SELF, logp_self_key, NULL);
}

void logp_state_setup(void)
{
    pthread_once(&logp_once, logp_state_once);
}

const logp_env_t *logp_state_env(void)
{
    return &logp_env;
}

static uint64_t logp_hash(const void *p, size_t n, uint64_t h)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

/* Every rank must take the same decisions: check that the configuration
 * agrees (environment and files can differ between nodes); if not, the
 * whole communicator stays native. */
static void logp_state_agree(logp_comm_state_t *st)
{
    uint64_t h = logp_hash(&st->topo.intra, sizeof(st->topo.intra), 1469598103934665603ull);
    h = logp_hash(&st->topo.inter, sizeof(st->topo.inter), h);
    h = logp_hash(&st->topo.nnodes, sizeof(st->topo.nnodes), h); /* a rank whose layout failed */
    h = logp_hash(st->configured, sizeof(st->configured), h);
    h = logp_hash(&st->chain_k, sizeof(st->chain_k), h);
    long v[4] = {(long)(h >> 33), (long)(h & 0x7fffffff), -(long)(h >> 33), -(long)(h & 0x7fffffff)}, r[4];
    if (PMPI_Allreduce(v, r, 4, MPI_LONG, MPI_MAX, st->pcomm) != MPI_SUCCESS || r[0] != -r[2] || r[1] != -r[3]) {
        if (st->rank == 0)
            fprintf(stderr, "pmpi-logp: %s: ranks disagree on the configuration; using the MPI library's "
                            "collectives on this communicator\n", st->name);
        for (int c = 0; c < LOGP_COLL_COUNT; c++)
            st->configured[c] = LOGP_ALGO_NATIVE;
    }
}

static double logp_state_host_speed(const char *host, void *ctx)
{
    (void)ctx;
    return logp_config_host_speed(&logp_cfg, host);
}

static logp_comm_state_t *logp_state_create(MPI_Comm comm)
{
    logp_comm_state_t *st = calloc(1, sizeof(*st));
    if (st == NULL)
        return NULL;
    int inter = 0, len = 0;
    st->pcomm = MPI_COMM_NULL;
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_size(comm, &st->size);
    PMPI_Comm_rank(comm, &st->rank);
    PMPI_Comm_get_name(comm, st->name, &len);
    logp_comm_facts_t facts = {st->size, st->name, 1};
    if (len == 0)
        snprintf(st->name, sizeof(st->name), "comm(P=%d)", st->size);
    /* the parameters of both pair classes; which one stands for the whole
     * communicator depends on the layout */
    logp_resolved_t res_intra, res_inter;
    logp_config_resolve(&logp_cfg, &facts, &res_intra);
    facts.intra_node = 0;
    logp_config_resolve(&logp_cfg, &facts, &res_inter);
    st->ranks_per_node = logp_env.ranks_per_node > 0 ? logp_env.ranks_per_node : res_inter.ranks_per_node;
    st->topo = logp_topo_uniform(st->size, &res_inter.params);
    if (!inter && !logp_finalizing && PMPI_Comm_dup(comm, &st->pcomm) == MPI_SUCCESS) {
        PMPI_Comm_set_name(st->pcomm, "pmpi-logp private");
        st->usable = 1;
        logp_layout_discover(st->pcomm, st->ranks_per_node, logp_state_host_speed, NULL, &res_intra.params,
                             &res_inter.params, &st->topo);
        facts.intra_node = st->topo.nnodes == 1;
    }
    const logp_resolved_t res = facts.intra_node ? res_intra : res_inter;
    snprintf(st->matched, sizeof st->matched, "%s", res.matched);
    st->chain_k = res.chain_k;
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        st->configured[c] = logp_env.forced[c] != LOGP_ALGO_COUNT ? logp_env.forced[c] : res.algo[c];
    if (st->usable)
        logp_state_agree(st);
    const logp_params_t *rep = logp_topo_rep(&st->topo);
    if (logp_env.verbose >= 1 && st->rank == 0 && st->usable)
        fprintf(stderr,
                "pmpi-logp: %s (P=%d, %d node%s%s): tuning %s: %s; L=%.3gus o=%.3gus g=%.3gus G=%.3gns/B "
                "gamma=%.3gns/B; bcast=%s reduce=%s alltoall=%s\n",
                st->name, st->size, st->topo.nnodes, st->topo.nnodes == 1 ? "" : "s",
                st->ranks_per_node > 0 ? " by ranks_per_node" : "", logp_cfg_path[0] ? logp_cfg_path : "none",
                res.matched, rep->L * 1e6, rep->o * 1e6, rep->g * 1e6, rep->G * 1e9, rep->gamma * 1e9, logp_algo_name(st->configured[0]), logp_algo_name(st->configured[1]),
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
 * microseconds).  A communicator's delete callback bumps the generation,
 * which invalidates every thread's entry (handles are reused).  Under SMPI
 * ranks may share a thread, but each has its own copy of the shim's
 * globals: a plain variable there. */
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

static int logp_size_class(size_t bytes)
{
    int c = 0;
    while (bytes > 1) {
        bytes >>= 1;
        c++;
    }
    return c;
}

/* Every rank of the communicator learns whether all of them could build
 * what they decided (the decision itself is deterministic). */
static int logp_state_all_ok(logp_comm_state_t *st, int ok)
{
    int all = 0;
    return PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, st->pcomm) == MPI_SUCCESS && all;
}

static logp_decision_t *logp_state_decide_new(logp_comm_state_t *st, logp_coll_t coll, int sc, int commutative,
                                              int unsafe)
{
    logp_decision_t *d = calloc(1, sizeof(*d));
    /* Decide at the class's geometric middle so every size of the class
     * (and every rank) gets the same answer. */
    size_t mid = (size_t)1 << sc;
    if (sc > 0)
        mid += mid / 2 - (mid >> 3); /* ~ 2^sc * sqrt(2) */
    logp_select_query_t q = {coll, mid, commutative, unsafe, st->chain_k, &st->topo};
    logp_algo_t algo = LOGP_ALGO_NATIVE;
    double predicted = -1.0;
    logp_sched_t sched = {0};
    double t0 = logp_dispatch_on() ? logp_dispatch_now() : 0.0;
    int ok = d != NULL && logp_select_decide(st->configured[coll], &q, &algo, &sched, &predicted) == LOGP_OK;
    if (logp_dispatch_on())
        logp_dispatch_decided(coll, logp_dispatch_now() - t0);
    if (!logp_state_all_ok(st, ok)) {
        /* some rank could not build it: the same fallback everywhere, one
         * that needs no memory (binomial, ring) where native is unsafe */
        logp_sched_free(&sched);
        algo = unsafe ? (coll == LOGP_COLL_ALLTOALL ? LOGP_ALGO_RING : LOGP_ALGO_BINOMIAL) : LOGP_ALGO_NATIVE;
        if (algo != LOGP_ALGO_NATIVE)
            logp_sched_build(&sched, coll, algo, mid, &st->topo, NULL);
        predicted = -1.0;
        if (d == NULL) {
            d = &st->fallback[coll];
            logp_sched_free(&d->sched);
        }
    }
    d->coll = coll;
    d->sclass = sc;
    d->commutative = commutative;
    d->unsafe = unsafe;
    d->algo = algo;
    d->predicted = predicted;
    d->sched = sched;
    if (d != &st->fallback[coll])
        st->decisions[coll][(sc * 2 + commutative) * 2 + unsafe] = d;
    if (logp_env.verbose >= 1 && st->rank == 0)
        fprintf(stderr, "pmpi-logp: %s (P=%d): %s %zu-%zu B%s -> %s (configured %s, predicted %.3g us)\n",
                st->name, st->size, logp_coll_name(coll), (size_t)1 << sc, ((size_t)2 << sc) - 1,
                coll == LOGP_COLL_REDUCE ? (commutative ? " commutative" : " non-commutative") : "",
                logp_algo_name(d->algo), logp_algo_name(st->configured[coll]), d->predicted * 1e6);
    return d;
}

logp_decision_t *logp_state_decide(logp_comm_state_t *st, logp_coll_t coll, size_t bytes, int commutative,
                                   int unsafe)
{
    int sc = logp_size_class(bytes);
    logp_decision_t *d = st->decisions[coll][(sc * 2 + (commutative != 0)) * 2 + (unsafe != 0)];
    return d ? d : logp_state_decide_new(st, coll, sc, commutative != 0, unsafe != 0);
}
