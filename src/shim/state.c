/* Per-communicator state: agreed configuration and layout, the private
 * duplicate (made at the communicator's first collective; when none can
 * be had, the communicator stays on the MPI library), the decision table
 * and statistics.  Freed through the attribute's delete callback when the
 * communicator is freed (run.c); private communicators are all released
 * at the end of the run (logp_state_free_privates).
 *
 * Locks: logp_lock guards the registry of live states and the private
 * communicators only and is never held across an MPI call (an MPI call
 * may run an error handler or a delete callback that comes back here). */
#include "state.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../coll/engine.h"
#include "../coll/layout.h"
#include "../coll/library.h"
#include "../coll/warm.h"
#include "../config/config.h"
#include "process.h"

static pthread_mutex_t logp_lock = PTHREAD_MUTEX_INITIALIZER;
static int logp_comm_key = MPI_KEYVAL_INVALID;
static logp_comm_state_t *logp_live; /* registry, under logp_lock */
static int logp_ended;               /* logp_state_end_all ran; under logp_lock */
static unsigned long logp_state_gen; /* bumped when a state goes: cached lookups are stale */

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
static int logp_warmed;      /* this process's eager path is warm (logp_state_warm) */

/* FNV-1a's step on 8 bytes at a time (a xorshift after each multiply
 * carries high bits down): the learned rules hashed here are 14 KB, which
 * byte by byte cost about 20 us of every communicator's set-up. */
static uint64_t logp_hash(const void *p, size_t n, uint64_t h)
{
    const unsigned char *c = p;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, c + i, sizeof w);
        h = (h ^ w) * 1099511628211ull;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

void logp_state_init(int keyval)
{
    logp_comm_key = keyval;
}

void logp_state_release(logp_comm_state_t *st)
{
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        for (int i = 0; i < LOGP_STATE_SLOTS; i++)
            if (st->decisions[c][i]) {
                logp_sched_free(&st->decisions[c][i]->sched);
                logp_trial_release(&st->decisions[c][i]->trial);
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

/* The state of a communicator whose own state this process could not
 * allocate: not usable (its calls go to the MPI library, as its peers'
 * do: they learnt it in the set-up's agreement) and cached like any state,
 * so that no later call sets it up again (a collective its peers would not
 * join).  Never written, never freed. */
static logp_comm_state_t logp_state_none = {.usable = 0};

int logp_state_detach(logp_comm_state_t *st)
{
    __atomic_add_fetch(&logp_state_gen, 1, __ATOMIC_RELEASE);
    if (st == &logp_state_none)
        return -1;
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
    return ended;
}

int logp_state_end_all(logp_comm_state_t ***out)
{
    int n = 0;
    *out = NULL;
    pthread_mutex_lock(&logp_lock);
    if (logp_ended) {
        pthread_mutex_unlock(&logp_lock);
        return -1;
    }
    logp_ended = 1;
    int count = 0;
    for (logp_comm_state_t *st = logp_live; st; st = st->next)
        count++;
    logp_comm_state_t **all = malloc(sizeof(*all) * (size_t)(count > 0 ? count : 1));
    for (logp_comm_state_t *st = logp_live; st && all; st = st->next) {
        all[n++] = st;
        st->usable = 0; /* from now on everything goes to the MPI library */
    }
    pthread_mutex_unlock(&logp_lock);
    *out = all;
    return n;
}

void logp_state_free_privates(void)
{
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
    const logp_env_t *env = logp_process_env();
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
    h = logp_hash(&env->native, sizeof(env->native), h);
    h = logp_hash(&env->oversubscribed_model, sizeof(env->oversubscribed_model), h);
    h = logp_hash(&env->reproducible, sizeof(env->reproducible), h); /* it changes which reduces run */
    h = logp_hash(&env->nonblocking, sizeof(env->nonblocking), h);   /* and the tags */
    uint64_t e = logp_process_problems_hash();
    uint64_t l = logp_hash(st->rule, sizeof(st->rule), 1469598103934665603ull);
    l = logp_hash(st->explore, sizeof(st->explore), l);
    l = logp_hash(st->after, sizeof(st->after), l);
    l = logp_hash(&st->learn, sizeof(st->learn), l);
    long report = env->report != NULL && st->end_times != NULL;
    /* warming (logp_state_warm): wanted by a rank not yet warmed, the
     * most messages any such rank asks for, none if a rank says none */
    int unwarmed = !__atomic_load_n(&logp_warmed, __ATOMIC_ACQUIRE);
    long v[17] = {(long)(h >> 33), (long)(h & 0x7fffffff), -(long)(h >> 33), -(long)(h & 0x7fffffff),
                  (long)(e >> 33), -(long)(e >> 33), !ok, found, -found, *id, *concurrent, !report,
                  (long)(l >> 33), -(long)(l >> 33), oversubscribed, unwarmed ? env->warm : 0, -env->warm},
         r[17];
    if (logp_coll_library_allreduce(v, r, 17, MPI_LONG, MPI_MAX, comm) != MPI_SUCCESS)
        return 0;
    st->oversubscribed = r[14] != 0;
    st->warm = r[16] < 0 ? (int)r[15] : 0;
    if (r[12] != -r[13]) { /* learned files differ between nodes (not on a shared file system?) */
        if (st->rank == 0 && env->verbose >= 1)
            fprintf(stderr, "pmpi-logp: %s: ranks read different learned rules (PMPI_LOGP_LEARN); ignoring them on "
                            "this communicator\n", st->name);
        memset(st->rule, LOGP_ALGO_COUNT, sizeof st->rule);
        memset(st->learned_rule, LOGP_ALGO_COUNT, sizeof st->learned_rule);
        memset(st->explore, 0, sizeof st->explore);
        memset(st->learned_explore, 0, sizeof st->learned_explore);
        memset(st->after, 0, sizeof st->after);
        memset(st->learned_after, 0, sizeof st->learned_after);
        memset(&st->learn, 0, sizeof st->learn);
    }
    st->all_timed = r[11] == 0; /* every rank writes a report: each times its calls */
    st->timed = st->all_timed || (report && st->rank == 0);
    *id = r[9]; /* the same on every rank: a tag for this communicator */
    *concurrent = (int)r[10];
    if (r[4] != -r[5]) /* configuration errors differ between ranks: each says its own */
        logp_process_tell(st->rank);
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
     * many dependent messages are slowest, and trials cannot tell
     * candidates apart (times are multiples of the scheduler's tick):
     * docs/results/measurements-in-code.md, "oversubscribed".  auto hands
     * such communicators to the
     * MPI library; forced algorithms still run. */
    if (st->oversubscribed && !env->oversubscribed_model) {
        int any = 0;
        for (int c = 0; c < LOGP_COLL_COUNT; c++)
            if (st->configured[c] == LOGP_ALGO_AUTO) {
                st->configured[c] = LOGP_ALGO_NATIVE;
                any = 1;
            }
        if (any && st->rank == 0 && env->verbose >= 1)
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

/* Before the communicator's first trial times anything: st->warm eager
 * messages around each node's ring of ranks (coll/warm.h), so that a
 * trial's blocks see the candidates as they run once the process is
 * warm, not the first uses of the library's shared-memory FIFO (there
 * the part-wise schedules were 10 - 20x native for 7 - 30 calls, and the
 * trials kept slower choices: docs/results/fresh/README.md, "Warming the
 * eager path").  Once per process: the set-up agreement asks whether any
 * rank is not warm yet, so every rank of a node warms alike. */
static void logp_state_warm(logp_comm_state_t *st)
{
    int node = logp_topo_node(&st->topo, st->rank), local = logp_topo_size(&st->topo, node);
    if (st->warm <= 0 || !st->confirm || local < 2 || st->oversubscribed) /* (times there are the scheduler's) */
        return;
    int i = logp_topo_index(&st->topo, st->rank);
    int next = logp_topo_member(&st->topo, node, (i + 1) % local);
    int prev = logp_topo_member(&st->topo, node, (i + local - 1) % local);
    double t0 = PMPI_Wtime();
    if (logp_coll_warm(st->pcomm, next, prev, st->warm, st->tag) == MPI_SUCCESS)
        __atomic_store_n(&logp_warmed, 1, __ATOMIC_RELEASE);
    if (st->rank == 0 && logp_process_env()->verbose >= 1)
        fprintf(stderr, "pmpi-logp: %s: warmed the eager path between the ranks of each node before trials: "
                        "%d messages of %d B, %.0f us (PMPI_LOGP_WARM)\n",
                st->name, st->warm, LOGP_WARM_BYTES, (PMPI_Wtime() - t0) * 1e6);
}

static logp_comm_state_t *logp_state_create(MPI_Comm comm)
{
    const logp_env_t *env = logp_process_env();
    const logp_config_t *cfg = logp_process_tuning(), *learned = logp_process_learned();
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
    st->timed = env->report != NULL && st->rank == 0;
    if (env->report != NULL && mine != NULL)
        st->end_times = malloc(sizeof(double) * LOGP_STATE_ALL_SLOTS);
    PMPI_Comm_get_name(comm, st->name, &len);
    logp_comm_facts_t facts = {st->size, st->name, 1};
    if (len == 0)
        snprintf(st->name, sizeof(st->name), "comm(P=%d)", st->size);
    /* the parameters of both pair classes; which one stands for the whole
     * communicator depends on the layout */
    logp_resolved_t res_intra, res_inter;
    logp_config_resolve(cfg, &facts, &res_intra);
    logp_config_resolve_more(learned, &facts, &res_intra);
    facts.intra_node = 0;
    logp_config_resolve(cfg, &facts, &res_inter);
    logp_config_resolve_more(learned, &facts, &res_inter);
    st->ranks_per_node = env->ranks_per_node > 0 ? env->ranks_per_node : res_inter.ranks_per_node;
    st->topo = logp_topo_uniform(st->size, &res_inter.params);
    pthread_mutex_lock(&logp_lock);
    int ended = logp_ended;
    pthread_mutex_unlock(&logp_lock);
    if (!inter && !ended) { /* the same on every rank: no collective otherwise */
        logp_layout_discover(comm, logp_process_world_rank() >= 0 ? logp_process_world_rank() : st->rank,
                             st->ranks_per_node, logp_process_host_speed, NULL, &res_intra.params, &res_inter.params, &st->topo);
        facts.intra_node = st->topo.nnodes == 1;
        const logp_resolved_t *res = facts.intra_node ? &res_intra : &res_inter;
        snprintf(st->matched, sizeof st->matched, "%s", res->matched);
        st->chain_k = res->chain_k;
        st->topo.shared = res->shared;
        for (int c = 0; c < LOGP_COLL_COUNT; c++)
            st->configured[c] = env->forced[c] != LOGP_ALGO_COUNT ? env->forced[c] : res->algo[c];
        memcpy(st->rule, res->rules.algo, sizeof st->rule);
        memcpy(st->explore, res->rules.explore, sizeof st->explore);
        memcpy(st->after, res->rules.after, sizeof st->after);
        st->learn = res->rules.learn;
        logp_resolved_t learnt; /* the learned file's rules alone: written back for classes not called */
        logp_config_resolve(learned, &facts, &learnt);
        memcpy(st->learned_rule, learnt.rules.algo, sizeof st->learned_rule);
        memcpy(st->learned_explore, learnt.rules.explore, sizeof st->learned_explore);
        memcpy(st->learned_after, learnt.rules.after, sizeof st->learned_after);
        /* its corrections (measured / predicted) hold only against the
         * prices they were measured against: under another model revision,
         * tuning file or layout, the tuning file's own alone */
        uint64_t basis = logp_confirm_basis(&st->topo, env->native);
        if (learnt.basis != 0 && learnt.basis != basis) {
            if (st->rank == 0 && env->verbose >= 1)
                fprintf(stderr, "pmpi-logp: %s: the learned file's corrections were measured against other prices "
                                "(basis %016llx, now %016llx: another model revision, tuning file or layout): "
                                "dropped; its rules stay\n",
                        st->name, (unsigned long long)learnt.basis, (unsigned long long)basis);
            logp_config_resolve(cfg, &facts, &learnt);
            st->learn = learnt.rules.learn;
        }
        st->confirm = st->size > 1 ? env->confirm : 0; /* 0, 1, or 2 (with refits) */
        st->warmup = env->confirm_warmup;
        int *global = NULL, has = 0; /* a clock all ranks share (SMPI): trial calls timed across ranks */
        st->clock_global = PMPI_Comm_get_attr(comm, MPI_WTIME_IS_GLOBAL, &global, &has) == MPI_SUCCESS && has &&
                           global && *global;
        st->next_point = logp_confirm_agree_first(st->warmup);
        /* The private communicator is found or made here, at the first
         * call on the communicator, which every rank reaches alike whatever
         * its arguments: a later collective (one per size class) would hang
         * when ranks of an erroneous call pass different sizes. */
        MPI_Group group = MPI_GROUP_NULL;
        PMPI_Comm_group(comm, &group);
        /* An id reserved here, the largest of the ranks' agreed, then every
         * rank's counter moved past it: distinct from the ids of this
         * process's other communicators of the group, as long as no two
         * creations overlap in time.  Overlapping ones (threads) could
         * reserve in different orders on different ranks and agree on one
         * id; a creation that finds another under way says so, and if any
         * rank says so the communicator takes a private communicator of its
         * own.  Two creations that overlap on no rank run in one order on
         * every rank (each waits in the other's allreduce otherwise), so
         * their ids differ.  A creation lasts from before it looks for the
         * group's private communicator to after it registered one it made:
         * else a second creation could look between the first's agreement
         * and its registration, find none, make a second one for the group,
         * and the two registrations could land in different orders on
         * different ranks, so that a third communicator found different
         * private communicators on different ranks and its first agreement
         * waited forever (test_threads under auto, n = 2: 1 run in 8 - 45). */
        int concurrent = __atomic_fetch_add(&logp_creating, 1, __ATOMIC_ACQ_REL) > 0;
        st->pcomm = logp_state_find_private(group);
        long id = __atomic_fetch_add(&logp_comm_ids, 1, __ATOMIC_RELAXED), next;
        int local = logp_topo_size(&st->topo, logp_topo_node(&st->topo, st->rank)); /* this node's ranks */
        int over = logp_layout_oversubscribed(local);
        /* where this node is oversubscribed, the schedules' waits yield
         * (PMPI_LOGP_WAIT; docs/results/oversubscribed) */
        int yield = logp_process_env()->wait_yield;
        if (yield > 0 || (yield < 0 && over)) {
            static int said; /* at the process's first communicator set up (normally every rank's alike) */
            logp_engine_set_yielding(1);
            if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED) && st->rank == 0 && logp_process_env()->verbose >= 1)
                fprintf(stderr, "pmpi-logp: %s: the schedules' waits give up the processor (%s)\n", st->name,
                        yield > 0 ? "PMPI_LOGP_WAIT=yield" : "a node runs more MPI processes than it has processors");
        }
        st->usable = logp_state_agree(st, comm, mine != NULL, st->pcomm != MPI_COMM_NULL, &concurrent, &id, over);
        while ((next = __atomic_load_n(&logp_comm_ids, __ATOMIC_RELAXED)) <= id &&
               !__atomic_compare_exchange_n(&logp_comm_ids, &next, id + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
        if (concurrent) { /* a shared one (found or not) is not used: every rank makes its own */
            st->pcomm = MPI_COMM_NULL;
            st->no_private = 0;
        }
        if (st->usable && !st->no_private && st->pcomm == MPI_COMM_NULL) { /* nobody has one: all make it */
            int made = logp_state_private(st, !concurrent), all = 0;
            if (logp_coll_library_allreduce(&made, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS || !all)
                st->no_private = 1; /* a made one stays registered for later communicators of the group */
        }
        if (st->no_private)
            st->pcomm = MPI_COMM_NULL;
        __atomic_fetch_sub(&logp_creating, 1, __ATOMIC_ACQ_REL); /* (after the registration: above) */
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
        /* tag and tag + 1: a dataflow schedule's two streams; with
         * nonblocking collectives on, the range is cut in planes: the
         * blocking calls' and one per nonblocking slot */
        int planes = env->nonblocking ? 1 + LOGP_STATE_NB_SLOTS : 1, ids = logp_tag_range / (2 * planes);
        st->tag = LOGP_TAG_FIRST + 2 * (int)(id % ids);
        st->nb_stride = env->nonblocking ? 2 * ids : 0;
        logp_state_warm(st);
        PMPI_Group_free(&group);
        if (st->no_private && st->rank == 0 && env->verbose >= 1)
            fprintf(stderr, "pmpi-logp: %s: no private communicator could be made (too many communicators?); "
                            "the MPI library's collectives on this communicator\n", st->name);
        if (logp_process_has_problems() && env->strict) /* no world to abort at set-up (Sessions): now */
            logp_process_abort(comm, st->rank);
    }
    if (mine == NULL) {
        logp_topo_free(&st->topo);
        PMPI_Comm_set_attr(comm, logp_comm_key, &logp_state_none);
        return &logp_state_none;
    }
    st = mine;
    const logp_params_t *rep = logp_topo_rep(&st->topo);
    if (env->verbose >= 1 && st->rank == 0 && st->usable)
        fprintf(stderr,
                "pmpi-logp: %s (P=%d, %d node%s%s): tuning %s: %s; L=%.3gus o=%.3gus g=%.3gus G=%.3gns/B "
                "gamma=%.3gns/B%s; bcast=%s reduce=%s alltoall=%s\n",
                st->name, st->size, st->topo.nnodes, st->topo.nnodes == 1 ? "" : "s",
                st->ranks_per_node > 0 ? " by ranks_per_node" : "", logp_process_tuning_path()[0] ? logp_process_tuning_path() : "none",
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

logp_comm_state_t *logp_state_find(MPI_Comm comm)
{
    unsigned long gen = __atomic_load_n(&logp_state_gen, __ATOMIC_ACQUIRE);
    if (logp_state_last.st && logp_state_last.comm == comm && logp_state_last.gen == gen)
        return logp_state_last.st;
    void *value = NULL;
    int found = 0;
    if (PMPI_Comm_get_attr(comm, logp_comm_key, &value, &found) != MPI_SUCCESS || !found)
        return NULL;
    logp_state_last = (logp_state_cache_t){comm, value, gen};
    return value;
}

logp_comm_state_t *logp_state_get(MPI_Comm comm)
{
    unsigned long gen = __atomic_load_n(&logp_state_gen, __ATOMIC_ACQUIRE);
    logp_comm_state_t *st = logp_state_find(comm);
    if (st == NULL) {
        st = logp_state_create(comm);
        logp_state_last = (logp_state_cache_t){comm, st, gen};
    }
    return st;
}

logp_select_query_t logp_state_query(const logp_comm_state_t *st, const logp_decision_t *d)
{
    logp_select_query_t q = {d->coll,      logp_learn_class_mid(d->sclass), d->commutative, d->unsafe, st->chain_k,
                             &st->topo, logp_process_env()->native,      &st->learn,
                             logp_process_env()->reproducible, d->coll == LOGP_COLL_ALLTOALLV && st->a2av_vote > 0};
    return q;
}

int logp_state_slot(const logp_decision_t *d)
{
    return logp_state_slot_of(d->sclass, d->commutative, d->unsafe);
}

