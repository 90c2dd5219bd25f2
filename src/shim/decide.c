/* The decision table of a communicator (see decide.h). */
#include "decide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/plan.h"
#include "../select/native.h"
#include "dispatch.h"
#include "process.h"

/* d runs what needs no agreement and no memory from now on: the
 * library's collective, or where that is unsafe the safe default
 * (logp_select_safe), whose schedule cannot fail for want of memory. */
static void logp_decide_fall_back(logp_comm_state_t *st, logp_decision_t *d)
{
    /* where the ranks' classes differ (alltoallv) the others may run ours:
     * the library only where it is configured for every size */
    int ours = d->unsafe || (logp_coll_local_sizes(d->coll) && st->configured[d->coll] != LOGP_ALGO_NATIVE);
    logp_sched_free(&d->sched);
    d->algo = logp_select_safe(d->coll, ours && st->pcomm != MPI_COMM_NULL);
    if (d->algo != LOGP_ALGO_NATIVE)
        logp_plan_build(&d->sched, d->coll, d->algo, logp_learn_class_mid(d->sclass), &st->topo, NULL);
    d->predicted = -1.0;
}

/* Decides d (its coll, sclass, commutative, unsafe set) for st: a rule of
 * the files, else what st->configured says (auto: priced with what was
 * learned), and plans auto's trial.  `failed`: d could not be allocated
 * (st->fallback). */
static void logp_decide_fill(logp_comm_state_t *st, logp_decision_t *d, int failed)
{
    logp_coll_t coll = d->coll;
    int sc = d->sclass, commutative = d->commutative;
    /* Decide at the class's geometric middle so every size of the class
     * (and every rank) gets the same answer. */
    size_t mid = logp_learn_class_mid(sc);
    /* the files' rules know commutative or not: an idempotent class takes the commutative one's */
    int files = commutative != 0;
    logp_algo_t configured = st->configured[coll], rule = (logp_algo_t)st->rule[coll][sc][files];
    int ruled = configured == LOGP_ALGO_AUTO && rule != LOGP_ALGO_COUNT && rule != LOGP_ALGO_AUTO;
    if (ruled)
        configured = rule;
    if (coll == LOGP_COLL_ALLTOALLV)
        logp_decide_votes(st); /* settled before its first decision: it sets what may run */
    logp_select_query_t q = logp_state_query(st, d);
    const logp_env_t *env = logp_process_env();
    logp_algo_t algo = LOGP_ALGO_NATIVE;
    double predicted = -1.0;
    logp_sched_t sched = {0};
    double t0 = logp_dispatch_on() ? logp_dispatch_now() : 0.0;
    /* a decision that could not be allocated is still made (in the
     * fallback slot), so that this rank knows whether its peers start a
     * trial and takes part in its first call's check */
    double raw[LOGP_ALGO_COUNT]; /* auto's prices without corrections: its trial's candidates */
    int priced = 0;
    int built = logp_select_decide_priced(configured, &q, &algo, &sched, &predicted, raw, &priced) == LOGP_OK &&
                !(logp_process_test_nomem() & LOGP_TEST_NOMEM_SCHEDULE && algo != LOGP_ALGO_NATIVE);
    if (logp_dispatch_on())
        logp_dispatch_decided(coll, logp_dispatch_now() - t0);
    /* No collective here: with erroneous sizes, ranks can be in different
     * classes.  A rank that could not build its schedule (out of memory)
     * takes one that needs no memory where native is known to fail, else
     * native; where auto's trial follows, its first call tells every rank
     * (logp_agree_first), elsewhere (forced algorithms, rules, no trial)
     * its peers may then wait: the case not agreed. */
    d->algo = algo;
    d->predicted = predicted;
    d->sched = sched;
    d->ruled = ruled;
    if (!built || (algo != LOGP_ALGO_NATIVE && st->pcomm == MPI_COMM_NULL))
        logp_decide_fall_back(st, d);
    /* a rule not settled (the learned file's explore): its trial goes on
     * where an earlier run's budget cut it, the rule from the first call */
    uint32_t untried = ruled ? st->explore[coll][sc][files] : 0;
    if ((!ruled || untried) && st->configured[coll] == LOGP_ALGO_AUTO) {
        logp_algo_t runs = d->algo;
        d->algo = algo; /* the model's pick (or the rule), the trial's candidate 0, even if it could not be built */
        logp_trial_start(&d->trial, &q, d->algo, d->sclass,
                         st->confirm && st->size >= 2 && st->pcomm != MPI_COMM_NULL &&
                             !logp_coll_local_sizes(coll), /* its first call's check compares classes */
                         priced ? raw : NULL, untried, untried ? st->after[coll][sc][files] : 0);
        d->algo = runs;
        if (d->trial.phase == LOGP_TRIAL_RUNNING)
            d->trial.broken |= (failed ? LOGP_TRIAL_BROKEN_UNCACHED : 0) | (!built ? LOGP_TRIAL_BROKEN_PICK : 0);
    }
    if (env->verbose >= 1 && st->rank == 0) {
        char native[64] = "", trial[512]; /* which of the library's algorithms the model expects */
        if (d->algo == LOGP_ALGO_NATIVE)
            snprintf(native, sizeof native, " (%s: %s)", logp_native_lib_name(env->native),
                     logp_native_algo(env->native, coll, st->size, mid, commutative));
        fprintf(stderr, "pmpi-logp: %s (P=%d): %s %zu-%zu B%s -> %s%s%s (configured %s, predicted %.3g us)\n",
                st->name, st->size, logp_coll_name(coll), (size_t)1 << sc, ((size_t)2 << sc) - 1,
                logp_state_ops_name(coll, commutative), logp_algo_name(d->algo), native, ruled ? " by a rule" : "",
                logp_algo_name(st->configured[coll]), d->predicted * 1e6);
        logp_trial_describe(&d->trial, st->warmup, trial, sizeof trial);
        if (trial[0]) /* its own line: the decision line keeps its form */
            fprintf(stderr, "pmpi-logp: %s (P=%d): %s %zu-%zu B%s: %s\n", st->name, st->size, logp_coll_name(coll),
                    (size_t)1 << sc, ((size_t)2 << sc) - 1,
                    logp_state_ops_name(coll, commutative), trial);
    }
}

static logp_decision_t *logp_decide_new(logp_comm_state_t *st, logp_coll_t coll, int sc, int commutative,
                                              int unsafe)
{
    logp_decision_t *d = logp_process_test_nomem() & LOGP_TEST_NOMEM_DECISION ? NULL : calloc(1, sizeof(*d));
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
    logp_decide_fill(st, d, failed);
    return d;
}

static void logp_decide_again(logp_comm_state_t *st, logp_decision_t *d, int keep_previous)
{
    logp_sched_free(&d->trial.prev_sched);
    d->trial.prev_algo = LOGP_ALGO_COUNT;
    if (keep_previous && d->algo != LOGP_ALGO_COUNT) { /* moved to the trial (logp_trial_start) */
        d->trial.prev_algo = d->algo;
        d->trial.prev_sched = d->sched;
    } else {
        logp_sched_free(&d->sched);
    }
    memset(&d->sched, 0, sizeof d->sched);
    logp_decide_fill(st, d, 0);
    logp_sched_free(&d->trial.prev_sched); /* not taken: no trial */
    d->trial.prev_algo = LOGP_ALGO_COUNT;
}

static logp_decision_t *logp_decide_drop(logp_comm_state_t *st, logp_decision_t *d)
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

logp_decision_t *logp_decide_get(logp_comm_state_t *st, logp_coll_t coll, size_t bytes, int commutative, int unsafe)
{
    int sc = logp_learn_class(bytes);
    logp_decision_t *d = st->decisions[coll][logp_state_slot_of(sc, commutative, unsafe)];
    return d ? d : logp_decide_new(st, coll, sc, logp_state_ops_class(commutative), unsafe != 0);
}

logp_decision_t *logp_decide_disagreed(logp_comm_state_t *st, logp_decision_t *d, logp_agree_action_t action,
                                       const char *why)
{
    if (action == LOGP_AGREE_GO)
        return d;
    if (action != LOGP_AGREE_UNTRIED)
        logp_decide_fall_back(st, d);
    if (logp_process_env()->verbose >= 1 && st->rank == 0)
        fprintf(stderr, "pmpi-logp: %s (P=%d): %s %zu-%zu B: the ranks' decisions differ (%s): %s%s on every rank\n",
                st->name, st->size, logp_coll_name(d->coll), (size_t)1 << d->sclass, ((size_t)2 << d->sclass) - 1, why,
                logp_algo_name(d->algo), action == LOGP_AGREE_UNTRIED ? " untried" : "");
    return action == LOGP_AGREE_DROP ? logp_decide_drop(st, d) : d;
}

void logp_decide_agreed(logp_comm_state_t *st, const logp_agree_todo_t *todo)
{
    if (todo->refit)
        for (int c = 0; c < LOGP_COLL_COUNT; c++)
            for (int i = 0; i < LOGP_STATE_SLOTS; i++) {
                logp_decision_t *d = st->decisions[c][i];
                if (d && !d->ruled && st->configured[c] == LOGP_ALGO_AUTO)
                    logp_decide_again(st, d, 1);
            }
    logp_decision_t *d = logp_agree_reopen(st, todo->reopen);
    if (d)
        logp_decide_again(st, d, 0);
}

/* logp_decide_votes' answer for st: 2 always, 1 while it pays, -1 never. */
static int logp_decide_vote_gate(const logp_comm_state_t *st)
{
    logp_coll_t coll = LOGP_COLL_ALLTOALLV;
    logp_algo_t configured = st->configured[coll];
    if (st->pcomm == MPI_COMM_NULL || configured == LOGP_ALGO_NATIVE)
        return -1;
    if (configured != LOGP_ALGO_AUTO) /* one rank too: what was forced runs (its vote is local) */
        return logp_sched_mixes(configured) ? -1 : 2;
    for (int sc = 0; sc < LOGP_LEARN_CLASSES; sc++)
        for (int cm = 0; cm < 2; cm++) {
            logp_algo_t rule = (logp_algo_t)st->rule[coll][sc][cm];
            if (rule != LOGP_ALGO_COUNT && rule != LOGP_ALGO_AUTO && rule != LOGP_ALGO_NATIVE && !logp_sched_mixes(rule))
                return 2;
        }
    if (st->size < 2)
        return -1;
    logp_decision_t smallest = {.coll = coll, .sclass = 0, .commutative = 1};
    logp_select_query_t q = logp_state_query(st, &smallest);
    /* the vote: two numbers, by the library's allreduce (coll/library.h) */
    double vote = logp_native_predict(logp_process_env()->native, LOGP_COLL_ALLREDUCE, 2 * sizeof(unsigned long long),
                                      1, &st->topo, 0);
    return vote >= 0.0 && logp_select_agreement_pays(&q, vote) ? 1 : -1;
}

int logp_decide_votes(logp_comm_state_t *st)
{
    if (st->a2av_vote == 0) {
        st->a2av_vote = logp_decide_vote_gate(st);
        if (logp_process_env()->verbose >= 1 && st->rank == 0 && st->a2av_vote > 0)
            fprintf(stderr, "pmpi-logp: %s (P=%d): alltoallv: the ranks agree on the size class before each call "
                            "(%s)\n", st->name, st->size, st->a2av_vote == 2 ? "the configured algorithm needs it"
                                                                              : "the model says it pays");
    }
    return st->a2av_vote > 0;
}

void logp_decide_voted(logp_comm_state_t *st, const logp_decision_t *d, int library)
{
    if (st->a2av_vote != 1)
        return;
    if (!logp_sched_mixes(d->algo) && !library) {
        st->a2av_misses = 0;
        return;
    }
    if (++st->a2av_misses < LOGP_DECIDE_VOTE_MISSES)
        return;
    st->a2av_vote = -1;
    if (logp_process_env()->verbose >= 1 && st->rank == 0)
        fprintf(stderr, "pmpi-logp: %s (P=%d): alltoallv: %d votes in a row ran a direct exchange anyway: the ranks "
                        "stop voting\n", st->name, st->size, LOGP_DECIDE_VOTE_MISSES);
    /* only what does not mix: a direct exchange stays valid without the
     * vote, and a persistent request may hold its schedule (driver.c) */
    for (int i = 0; i < LOGP_STATE_SLOTS; i++) {
        logp_decision_t *x = st->decisions[LOGP_COLL_ALLTOALLV][i];
        if (x && !logp_sched_mixes(x->algo))
            logp_decide_again(st, x, 0);
    }
}

void logp_decide_hold_votes(logp_comm_state_t *st)
{
    if (st->a2av_vote > 0)
        st->a2av_vote = 2;
}
