/* Auto that checks itself: trials on the application's calls, agreement
 * at points of the call count, learning, drift, the learned file.
 *
 * Why points of the call count and not "when a trial ends": ranks of an
 * erroneous program can pass sizes of different classes, so their trials
 * end at different calls; a reduction started at a trial's end would then
 * wait for ranks that never start it.  Every rank counts the same calls
 * on a communicator (MPI orders collectives per communicator), and the
 * next point follows from the count and the last agreed result only
 * (logp_confirm_agree_next), so every rank reaches every point, whatever its
 * sizes; the vector has a fixed length (select/confirm.h), and ranks
 * whose trials differ find out from it and keep the model's pick alike.
 *
 * Cost: one MPI_Allreduce of LOGP_AGREE_LEN doubles (~0.5 KB) per point:
 * every 32 calls while trials are under way, else after a quarter of the
 * calls made so far (at most 4096). */
#include "confirm.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../config/learned.h"
#include "../config/units.h"
#include "report.h"

/* A decision's key in the agreement vector: the same on every rank that
 * has the decision. */
static int logp_confirm_key(const logp_decision_t *d)
{
    return (int)d->coll * LOGP_STATE_SLOTS + logp_state_slot(d) + 1;
}

static void logp_confirm_free_scheds(logp_trial_t *t)
{
    for (int c = 1; c < LOGP_CONFIRM_MAX; c++)
        logp_sched_free(&t->sched[c]);
}

/* Drops d's trial (its candidates' schedules freed): d runs its algorithm
 * untried. */
static void logp_confirm_cancel(logp_decision_t *d)
{
    logp_trial_t *t = &d->trial;
    logp_confirm_free_scheds(t);
    t->plan.n = 0;
    t->previous = -1;
    t->broken = 0;
    t->phase = LOGP_TRIAL_NONE;
}

int logp_confirm_first(logp_comm_state_t *st, logp_decision_t **dp)
{
    logp_decision_t *d = *dp;
    logp_trial_t *t = &d->trial;
    enum { PAIRS = 3 + LOGP_CONFIRM_MAX, N = 2 * PAIRS + 3 };
    int x[PAIRS] = {d->sclass, t->plan.n, t->previous}, v[N];
    for (int c = 0; c < LOGP_CONFIRM_MAX; c++)
        x[3 + c] = c < t->plan.n ? (int)t->plan.algo[c] : -1;
    for (int i = 0; i < PAIRS; i++) { /* alike on every rank iff max(x) == -max(-x) */
        v[i] = x[i];
        v[PAIRS + i] = -x[i];
    }
    for (int k = 0; k < 3; k++)
        v[2 * PAIRS + k] = (t->broken >> k) & 1;
    int same = logp_coll_barrier_max(st->pcomm, st->tag, v, N) == MPI_SUCCESS;
    for (int i = 0; i < PAIRS && same; i++)
        same = v[i] == -v[PAIRS + i];
    int uncached = v[2 * PAIRS], pick = v[2 * PAIRS + 1], trial = v[2 * PAIRS + 2];
    if (same && !uncached && !pick && !trial)
        return 1;
    /* the class and the model's pick ([0] of the plan) alike, built everywhere */
    int same_pick = v[0] == -v[PAIRS] && v[3] == -v[PAIRS + 3] && !uncached && !pick;
    logp_confirm_cancel(d);
    if (!same_pick)
        logp_state_fall_back(st, d);
    if (logp_state_env()->verbose >= 1 && st->rank == 0)
        fprintf(stderr, "pmpi-logp: %s (P=%d): %s %zu-%zu B: the ranks' decisions differ (%s): %s%s on every rank\n",
                st->name, st->size, logp_coll_name(d->coll), (size_t)1 << d->sclass, ((size_t)2 << d->sclass) - 1,
                uncached || pick || trial ? "a rank out of memory"
                : v[0] != -v[PAIRS]       ? "sizes of different classes"
                                          : "a rank priced otherwise",
                logp_algo_name(d->algo), same_pick ? " untried" : "");
    if (uncached || v[0] != -v[PAIRS])
        *dp = logp_state_drop(st, d);
    return 0;
}

void logp_confirm_start(logp_comm_state_t *st, logp_decision_t *d, const logp_select_query_t *q)
{
    logp_trial_t *t = &d->trial;
    int reopens = t->reopens, warm = t->warm; /* deciding again does not make the library's messages cold */
    logp_algo_t prev_algo = t->prev_algo;
    logp_sched_t prev_sched = t->prev_sched; /* ours now: the trial takes it or it is freed */
    int has_prev = prev_algo != LOGP_ALGO_COUNT && t->prev_sched.algo == prev_algo;
    if (prev_algo == LOGP_ALGO_NATIVE)
        has_prev = 1;
    logp_confirm_free_scheds(t);
    memset(t, 0, sizeof(*t));
    t->reopens = reopens;
    t->warm = warm;
    t->previous = -1;
    t->prev_algo = LOGP_ALGO_COUNT;
    if (!st->confirm || st->size < 2 || st->pcomm == MPI_COMM_NULL) {
        logp_sched_free(&prev_sched);
        return;
    }
    logp_select_query_t raw_q = *q;
    raw_q.learn = NULL; /* corrections divide what the model says by itself */
    double raw[LOGP_ALGO_COUNT], cor[LOGP_ALGO_COUNT];
    logp_select_prices(&raw_q, raw);
    memcpy(cor, raw, sizeof raw);
    logp_learn_apply(q->learn, q->coll, d->sclass, cor);
    logp_confirm_plan(cor, raw, d->algo, &t->plan);
    int n = t->plan.n; /* the model's candidates; the previous decision joins after them */
    if (has_prev && n >= 1 && n < LOGP_CONFIRM_MAX && !(prev_algo == LOGP_ALGO_NATIVE && d->algo == LOGP_ALGO_NATIVE)) {
        int dup = 0;
        for (int c = 0; c < n; c++)
            dup |= prev_algo == LOGP_ALGO_NATIVE && t->plan.algo[c] == LOGP_ALGO_NATIVE;
        if (!dup) {
            t->previous = t->plan.n;
            t->plan.algo[t->plan.n] = prev_algo;
            t->plan.predicted[t->plan.n++] = 0.0; /* priced for the old L and G: nothing to learn from it */
        }
    }
    if (t->plan.n < 2) {
        t->plan.n = 0;
        t->previous = -1;
        logp_sched_free(&prev_sched);
        return;
    }
    logp_sched_opts_t opts = {q->chain_k, 0, 0, 0, 0};
    for (int c = 0; c < t->plan.n; c++) {
        t->raw[c] = c == t->previous ? 0.0 : raw[t->plan.algo[c]];
        if (c == t->previous) {
            t->sched[c] = prev_sched;
            memset(&prev_sched, 0, sizeof prev_sched);
        } else if (c > 0 && t->plan.algo[c] != LOGP_ALGO_NATIVE &&
                   (logp_state_test_nomem() & LOGP_TEST_NOMEM_TRIAL ||
                    logp_sched_build(&t->sched[c], q->coll, t->plan.algo[c], q->bytes, q->topo, &opts) != LOGP_OK)) {
            /* out of memory: the trial stays planned, so that its first
             * call tells every rank, which then run the model's pick */
            logp_confirm_free_scheds(t);
            t->broken |= LOGP_TRIAL_BROKEN_TRIAL;
            break;
        }
    }
    logp_sched_free(&prev_sched);
    t->phase = LOGP_TRIAL_RUNNING;
}

void logp_confirm_describe(const logp_comm_state_t *st, const logp_decision_t *d, char *out, size_t n)
{
    const logp_trial_t *t = &d->trial;
    size_t len = 0;
    out[0] = '\0';
    if (t->plan.n < 2)
        return;
    if (t->phase == LOGP_TRIAL_RUNNING || t->phase == LOGP_TRIAL_WAITING) {
        char warm[48] = ""; /* the pick's untimed calls still to come before the trial's first */
        if (t->phase == LOGP_TRIAL_RUNNING && t->warm < st->warmup)
            snprintf(warm, sizeof warm, ", after %d warm-up call%s", st->warmup - t->warm,
                     st->warmup - t->warm == 1 ? "" : "s");
        len += (size_t)snprintf(out, n, "trial %s (%d of %d calls%s):",
                                t->phase == LOGP_TRIAL_RUNNING ? "running" : "waiting for agreement", t->calls,
                                logp_confirm_calls(&t->plan), warm);
        for (int c = 0; c < t->plan.n && len < n; c++)
            len += (size_t)snprintf(out + len, n - len, c == t->previous ? "%s %s (the decision before the refit)"
                                                                          : "%s %s (predicted %.4g us)",
                                    c ? "," : "", logp_algo_name(t->plan.algo[c]), t->plan.predicted[c] * 1e6);
        return;
    }
    if (t->disagreed) {
        snprintf(out, n, "trial: the ranks' trials differed (sizes of different classes?): the model's pick %s kept",
                 logp_algo_name(t->plan.algo[0]));
        return;
    }
    const logp_trial_verdict_t *v = &t->verdict;
    len += (size_t)snprintf(out, n, "trial (fastest of %d, slowest rank):", LOGP_CONFIRM_ROUNDS);
    for (int c = 0; c < t->plan.n && len < n; c++)
        if (c == t->previous)
            len += (size_t)snprintf(out + len, n - len, "%s %s %.4g us (the decision before the refit)", c ? "," : "",
                                    logp_algo_name(t->plan.algo[c]), v->time[c] * 1e6);
        else
            len += (size_t)snprintf(out + len, n - len, "%s %s %.4g us (predicted %.4g)", c ? "," : "",
                                    logp_algo_name(t->plan.algo[c]), v->time[c] * 1e6, t->plan.predicted[c] * 1e6);
    double w = v->time[v->winner];
    if (len < n)
        snprintf(out + len, n - len, " -> %s (%s), overhead %.3g us = %.2g calls%s", logp_algo_name(t->plan.algo[v->winner]),
                 v->winner == 0 ? "the model's pick" : "overturned the model", v->overhead * 1e6,
                 w > 0 ? v->overhead / w : 0.0, t->reopens ? " (re-opened after drift)" : "");
}

/* Applies the agreed times of d's trial (NULL: the ranks differed). */
static void logp_confirm_settle(logp_comm_state_t *st, logp_decision_t *d, const double *times)
{
    logp_trial_t *t = &d->trial;
    t->phase = LOGP_TRIAL_DONE;
    if (times == NULL) {
        t->disagreed = 1;
        logp_confirm_free_scheds(t);
        return;
    }
    logp_confirm_verdict(&t->plan, times, &t->verdict);
    for (int c = 0; c < t->plan.n; c++)
        logp_learn_record(&st->learn, d->coll, t->plan.algo[c], d->sclass, t->verdict.time[c], t->raw[c]);
    logp_learn_record_default(&st->learn, d->coll, d->sclass);
    int w = t->verdict.winner;
    if (w != 0) {
        logp_sched_free(&d->sched);
        d->sched = t->sched[w];
        memset(&t->sched[w], 0, sizeof t->sched[w]);
        d->algo = t->plan.algo[w];
    }
    d->predicted = t->verdict.time[w]; /* what the corrected model expects now */
    logp_confirm_free_scheds(t);
    /* verbose 2: every rank says what it agreed (tests check they match) */
    int verbose = logp_state_env()->verbose;
    if ((verbose >= 1 && st->rank == 0) || verbose >= 2) {
        char what[512], who[32] = "";
        logp_confirm_describe(st, d, what, sizeof what);
        if (verbose >= 2)
            snprintf(who, sizeof who, "rank %d: ", st->rank);
        fprintf(stderr, "pmpi-logp: %s%s (P=%d): %s %zu-%zu B%s: %s\n", who, st->name, st->size, logp_coll_name(d->coll),
                (size_t)1 << d->sclass, ((size_t)2 << d->sclass) - 1,
                d->coll == LOGP_COLL_REDUCE ? (d->commutative ? " commutative" : " non-commutative") : "", what);
    }
}

/* The largest key of a decided class whose sampled calls drifted. */
static int logp_confirm_drift_key(logp_comm_state_t *st)
{
    int key = 0;
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        for (int i = 0; i < LOGP_STATE_SLOTS; i++) {
            logp_decision_t *d = st->decisions[c][i];
            if (d && d->trial.phase == LOGP_TRIAL_DONE && d->trial.reopens < LOGP_CONFIRM_REOPENS &&
                d->trial.nrecent >= 5 && logp_confirm_drifted(d->trial.ref, d->trial.recent, 5))
                key = logp_confirm_key(d);
        }
    return key;
}

/* Nonzero if a running trial made calls since the last point (a trial
 * whose class is no longer called does not keep the points dense). */
static int logp_confirm_progress(logp_comm_state_t *st)
{
    int any = 0;
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        for (int i = 0; i < LOGP_STATE_SLOTS; i++) {
            logp_decision_t *d = st->decisions[c][i];
            if (d && d->trial.phase == LOGP_TRIAL_RUNNING && d->trial.calls + d->trial.warm != d->trial.calls_seen) {
                d->trial.calls_seen = d->trial.calls + d->trial.warm;
                any = 1;
            }
        }
    return any;
}

/* Learning the machine (select/confirm.h): the trials settled at one
 * point add their measured candidates (our exactly priced ones) to the
 * communicator's samples; when L and G fitted to all of them explain the
 * times far better than the current ones, the communicator's parameters
 * move, the corrections learned against the old ones are dropped and
 * every auto class is decided again (new trials).  Every rank computes
 * the same from the same agreed times.  A sample's time is that of the
 * schedule built for the parameters of its trial, and the fit prices the
 * schedule built for the scaled ones, which may differ in shape (the
 * LogP-optimal trees): so a refit drops the samples, and the next one
 * fits the new shapes' times alone (kept, the old samples held L where
 * the first refit put it: SMPI, P = 256, wrong file, 8-byte bcast L x
 * 0.625, then the re-shaped tree 13.8 us against 18.6 predicted and no
 * second refit; 12.0 us with the right file). */
static void logp_confirm_refit(logp_comm_state_t *st, logp_decision_t *const *settled, int n)
{
    if (st->confirm < 2) /* PMPI_LOGP_CONFIRM=2 only (README) */
        return;
    for (int i = 0; i < n; i++) {
        const logp_trial_t *t = &settled[i]->trial;
        for (int c = 0; !t->disagreed && c < t->plan.n; c++)
            if (logp_confirm_fittable(t->plan.algo[c]) && c != t->previous && t->verdict.time[c] > 0.0)
                st->fit[st->nfit++ % LOGP_FIT_SAMPLES] =
                    (logp_fit_sample_t){logp_state_query(st, settled[i]), t->plan.algo[c], t->verdict.time[c]};
    }
    if (st->refits >= LOGP_CONFIRM_REFITS || n == 0)
        return;
    double f[2], before;
    int m = st->nfit < LOGP_FIT_SAMPLES ? st->nfit : LOGP_FIT_SAMPLES;
    double after = logp_confirm_fit_joint(st->fit, m, &f[LOGP_FIT_L], &f[LOGP_FIT_G], &before);
    if (after < 0.0 || before <= log(LOGP_CONFIRM_REFIT) || after > 0.5 * before)
        return;
    st->refits++;
    logp_params_t *p[2] = {&st->topo.intra, &st->topo.inter};
    for (int k = 0; k < 2; k++) {
        p[k]->L *= f[LOGP_FIT_L];
        p[k]->G *= f[LOGP_FIT_G];
    }
    memset(&st->learn, 0, sizeof st->learn);
    st->nfit = 0; /* measured on shapes built for the old parameters (below) */
    for (logp_decision_t *d = st->wait_head, *next; d; d = next) { /* re-decided below */
        next = d->trial.next;
        d->trial.next = NULL;
    }
    st->wait_head = st->wait_tail = NULL;
    if (logp_state_env()->verbose >= 1 && st->rank == 0)
        fprintf(stderr, "pmpi-logp: %s (P=%d): the trials' times say L x %.3g, G x %.3g (%d samples, rms error "
                        "%.2fx -> %.2fx): L=%.3gus G=%.3gns/B now; deciding every class again\n",
                st->name, st->size, f[LOGP_FIT_L], f[LOGP_FIT_G], m, exp(before), exp(after),
                logp_topo_rep(&st->topo)->L * 1e6, logp_topo_rep(&st->topo)->G * 1e9);
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        for (int i = 0; i < LOGP_STATE_SLOTS; i++) {
            logp_decision_t *d = st->decisions[c][i];
            if (d && !d->ruled && st->configured[c] == LOGP_ALGO_AUTO)
                logp_state_redecide(st, d, 1);
        }
}

static void logp_confirm_agree(logp_comm_state_t *st)
{
    double v[LOGP_AGREE_LEN], r[LOGP_AGREE_LEN];
    logp_confirm_agree_init(v);
    int j = 0;
    for (logp_decision_t *d = st->wait_head; d && j < LOGP_AGREE_SLOTS; d = d->trial.next, j++)
        logp_confirm_agree_put(v, j, logp_confirm_key(d), d->trial.local, d->trial.start,
                               logp_confirm_calls(&d->trial.plan));
    logp_confirm_agree_put_drift(v, logp_confirm_drift_key(st));
    if (st->wait_head || logp_confirm_progress(st))
        logp_confirm_agree_put_busy(v);
    if (PMPI_Allreduce(v, r, LOGP_AGREE_LEN, MPI_DOUBLE, MPI_MAX, st->comm) != MPI_SUCCESS) {
        st->next_point = logp_confirm_agree_next(st->ncalls, 1); /* the trials wait for the next point */
        return;
    }
    st->next_point = logp_confirm_agree_next(st->ncalls, logp_confirm_agree_busy(r));
    logp_decision_t *settled[LOGP_AGREE_SLOTS];
    for (int i = 0; i < j; i++) {
        logp_decision_t *d = st->wait_head;
        st->wait_head = d->trial.next;
        if (st->wait_head == NULL)
            st->wait_tail = NULL;
        d->trial.next = NULL;
        double times[LOGP_CONFIRM_CALLS];
        int key = logp_confirm_agree_key(r, i, times);
        logp_confirm_settle(st, d, key == logp_confirm_key(d) ? times : NULL);
        settled[i] = d;
    }
    logp_confirm_refit(st, settled, j);
    int key = logp_confirm_agree_drift(r);
    if (key > 0) {
        logp_decision_t *d = st->decisions[(key - 1) / LOGP_STATE_SLOTS][(key - 1) % LOGP_STATE_SLOTS];
        if (d && d->trial.phase == LOGP_TRIAL_DONE && d->trial.reopens < LOGP_CONFIRM_REOPENS) {
            d->trial.reopens++;
            if (logp_state_env()->verbose >= 1 && st->rank == 0)
                fprintf(stderr, "pmpi-logp: %s (P=%d): %s %zu-%zu B: calls drifted %gx from the trial's time: "
                                "deciding again\n", st->name, st->size, logp_coll_name(d->coll),
                        (size_t)1 << d->sclass, ((size_t)2 << d->sclass) - 1, LOGP_CONFIRM_DRIFT);
            logp_state_redecide(st, d, 0);
        }
    }
}

void logp_confirm_after(logp_comm_state_t *st, logp_decision_t *d, int timed, int origin, double start,
                        double seconds)
{
    logp_trial_t *t = &d->trial;
    if (t->phase == LOGP_TRIAL_RUNNING && t->warm < st->warmup) {
        t->warm++;
    } else if (timed && t->phase == LOGP_TRIAL_RUNNING) {
        seconds = seconds > 0.0 ? seconds : 1e-9;
        t->start[t->calls] = st->clock_global && origin ? start : 0.0;
        t->local[t->calls++] = st->clock_global ? start + seconds : seconds;
        if (t->calls == logp_confirm_calls(&t->plan)) {
            t->phase = LOGP_TRIAL_WAITING;
            if (st->wait_tail)
                st->wait_tail->trial.next = d;
            else
                st->wait_head = d;
            st->wait_tail = d;
        }
    } else if (timed && t->phase == LOGP_TRIAL_DONE) {
        t->recent[t->nrecent++ % 5] = seconds; /* a ring of the last 5 */
        if (t->ref == 0.0 && t->nrecent == 5) { /* the first 5: the reference */
            t->ref = logp_confirm_median(t->recent, 5);
            t->nrecent = 0;
        }
    }
    if (st->confirm && ++st->ncalls == st->next_point)
        logp_confirm_agree(st);
}

/* The learned file's sections, kept on the writing process (world rank
 * 0) per communicator size until the end of the run. */
#define LOGP_CONFIRM_KEPT 64
static struct {
    int size;
    char *text;
} logp_kept[LOGP_CONFIRM_KEPT];
static int logp_nkept;
static pthread_mutex_t logp_kept_lock = PTHREAD_MUTEX_INITIALIZER;

/* The class's settled algorithm for the learned file, LOGP_ALGO_COUNT if
 * none: a decision taken by a rule, without a trial (the model's margin),
 * or by an agreed trial (*which: it); else the rule the learned file gave
 * the class (*which NULL), so that a run that never calls a class keeps
 * what earlier runs learnt of it; a class still in trial is left for the
 * next run. */
static logp_algo_t logp_confirm_settled(const logp_comm_state_t *st, logp_coll_t coll, int sc, int commutative,
                                        const logp_decision_t **which)
{
    int called = 0;
    *which = NULL;
    for (int unsafe = 0; unsafe <= 1; unsafe++) { /* the safe call's decision first */
        const logp_decision_t *d = st->decisions[coll][logp_state_slot_of(sc, commutative, unsafe)];
        called |= d != NULL;
        if (d == NULL || (d->trial.phase != LOGP_TRIAL_NONE && d->trial.phase != LOGP_TRIAL_DONE) || d->trial.disagreed)
            continue;
        *which = d;
        return d->algo;
    }
    return called ? LOGP_ALGO_COUNT : (logp_algo_t)st->learned_rule[coll][sc][commutative];
}

/* Rules (runs of classes with one algorithm as one range) and corrections
 * of st as a [size P-P] section; the trials' times as comments. */
static void logp_confirm_format(const logp_comm_state_t *st, logp_text_t *t)
{
    char name[sizeof st->name];
    size_t i = 0;
    for (; st->name[i] && i + 1 < sizeof name; i++) /* one comment line whatever the name holds */
        name[i] = (unsigned char)st->name[i] < ' ' || st->name[i] == 127 ? ' ' : st->name[i];
    name[i] = '\0';
    logp_text_printf(t, "\n# communicator %s (P=%d), MPI library %s: auto's decisions and the model's corrections\n",
                     name, st->size, logp_native_lib_name(logp_state_env()->native));
    logp_text_printf(t, "[size %d-%d]\n", st->size, st->size);
    const logp_params_t *rep = logp_topo_rep(&st->topo);
    /* as a comment: a [size] section would give them to communicators of
     * this size across nodes too, whose pairs these trials never saw */
    if (st->refits && st->topo.nnodes == 1)
        logp_text_printf(t, "# auto's trials moved L to %.6gus and G to %.6gns/B on one node (the tuning file said "
                            "otherwise; copy them into an [intra-node] section to keep them)\n",
                         rep->L * 1e6, rep->G * 1e9);
    for (int c = 0; c < LOGP_COLL_COUNT; c++) {
        if (st->configured[c] != LOGP_ALGO_AUTO)
            continue;
        for (int k = c == LOGP_COLL_REDUCE ? 0 : 1; k <= 1; k++) {
            const char *qual = c != LOGP_COLL_REDUCE ? "" : k ? " commutative" : " non-commutative";
            for (int sc = 0; sc < LOGP_LEARN_CLASSES;) {
                const logp_decision_t *d = NULL;
                logp_algo_t a = logp_confirm_settled(st, (logp_coll_t)c, sc, k, &d);
                if (a == LOGP_ALGO_COUNT) {
                    sc++;
                    continue;
                }
                int end = sc;
                while (end + 1 < LOGP_LEARN_CLASSES) {
                    const logp_decision_t *e = NULL;
                    if (logp_confirm_settled(st, (logp_coll_t)c, end + 1, k, &e) != a)
                        break;
                    end++;
                }
                for (int x = sc; x <= end; x++) {
                    const logp_decision_t *e = NULL;
                    logp_confirm_settled(st, (logp_coll_t)c, x, k, &e);
                    char what[512] = "";
                    if (e)
                        logp_confirm_describe(st, e, what, sizeof what);
                    if (what[0])
                        logp_text_printf(t, "# %s %zu-%zu B%s: %s\n", logp_coll_name((logp_coll_t)c), (size_t)1 << x,
                                         ((size_t)2 << x) - 1, qual, what);
                }
                logp_text_printf(t, "rule = %s %zu-%zu%s %s\n", logp_coll_name((logp_coll_t)c), (size_t)1 << sc,
                                 ((size_t)2 << end) - 1, qual, logp_algo_name(a));
                sc = end + 1;
            }
        }
    }
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            for (int sc = 0; sc < LOGP_LEARN_CLASSES; sc++)
                if (st->learn.ratio[c][a][sc] > 0.0f)
                    logp_text_printf(t, "correction = %s %s %zu %.4g\n", logp_coll_name((logp_coll_t)c),
                                     logp_algo_name((logp_algo_t)a), (size_t)1 << sc, st->learn.ratio[c][a][sc]);
}

void logp_confirm_keep(const logp_comm_state_t *st)
{
    if (!st->confirm && !logp_learn_any(&st->learn))
        return;
    logp_text_t t = {0};
    logp_units_locale_t c = logp_units_c_begin(); /* numbers the next run's parser reads: '.' */
    logp_confirm_format(st, &t);
    logp_units_c_end(c);
    if (t.buf == NULL)
        return;
    if (strstr(t.buf, "\nrule = ") == NULL && strstr(t.buf, "\ncorrection = ") == NULL) {
        logp_text_free(&t);
        return;
    }
    pthread_mutex_lock(&logp_kept_lock);
    int i = 0;
    while (i < logp_nkept && logp_kept[i].size != st->size)
        i++;
    if (i == logp_nkept && logp_nkept < LOGP_CONFIRM_KEPT)
        logp_kept[logp_nkept].size = st->size, logp_kept[logp_nkept++].text = NULL;
    /* one section per size: the communicator that decided most */
    if (i < logp_nkept && (logp_kept[i].text == NULL || strlen(logp_kept[i].text) < strlen(t.buf))) {
        free(logp_kept[i].text);
        logp_kept[i].text = t.buf;
        t.buf = NULL;
    }
    pthread_mutex_unlock(&logp_kept_lock);
    logp_text_free(&t);
}

void logp_confirm_write(const char *path)
{
    pthread_mutex_lock(&logp_kept_lock);
    char *texts[LOGP_CONFIRM_KEPT];
    int sizes[LOGP_CONFIRM_KEPT], n = 0;
    for (int i = 0; i < logp_nkept; i++) {
        if (logp_kept[i].text == NULL)
            continue;
        sizes[n] = logp_kept[i].size;
        texts[n++] = logp_kept[i].text; /* ours now */
        logp_kept[i].text = NULL;
    }
    logp_nkept = 0;
    pthread_mutex_unlock(&logp_kept_lock);
    char err[1200];
    if (n > 0 && logp_learned_write(path, (const char *const *)texts, sizes, n, err, sizeof err) != 0)
        fprintf(stderr, "pmpi-logp: PMPI_LOGP_LEARN: %s (nothing learned was written)\n", err);
    else if (n > 0 && err[0])
        fprintf(stderr, "pmpi-logp: PMPI_LOGP_LEARN: %s\n", err);
    else if (n > 0 && logp_state_env()->verbose >= 1)
        fprintf(stderr, "pmpi-logp: learned decisions and corrections of %d communicator size%s written to %s\n", n,
                n == 1 ? "" : "s", path);
    for (int i = 0; i < n; i++)
        free(texts[i]);
}
