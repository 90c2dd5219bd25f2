/* Auto that checks itself across ranks (see agree.h).
 *
 * Why points of the call count and not "when a trial ends": ranks of an
 * erroneous program can pass sizes of different classes, so their trials
 * end at different calls; a reduction started at a trial's end would then
 * wait for ranks that never start it.  (Since issue 40 a trial without a
 * global clock agrees at each block's end and settles at its own end, in
 * one more barrier of the trial's own, logp_agree_block: like the trial's
 * other barriers it protects only
 * programs whose ranks reached the trial's first call alike, which that
 * call's check verifies; an erroneous program that then passes different
 * classes can hang there as it can in any trial barrier.)  Every rank counts the same calls
 * on a communicator (MPI orders collectives per communicator), and the
 * next point follows from the count and the last agreed result only
 * (logp_confirm_agree_next), so every rank reaches every point, whatever its
 * sizes; the vector has a fixed length (select/confirm.h), and ranks
 * whose trials differ find out from it and keep the model's pick alike.
 *
 * Cost: one barrier of the shim's own carrying LOGP_AGREE_HEAD integers
 * per point, and one MPI_Allreduce of the trials' times (1.2 KB) where some
 * are waiting (a global clock, where the trial's own reduction at its end
 * failed: logp_agree_end_global):
 * every 32 calls while trials are under way, else after a quarter of the
 * calls made so far (at most 4096).  The head's barrier shares the
 * private communicator and tag with the trials' barriers, whose messages
 * have other lengths: where no trial ran, or the ranks' trials passed
 * their first call's check alike, every rank's messages meet their own
 * kind; in an erroneous program whose ranks' trials then differ, a
 * point's message can meet a trial's barrier on one rank, fail there
 * (short message) and not on another, and the ranks can part ways at the
 * body's reduction, as they can hang in any trial barrier there. */
#include "agree.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../coll/library.h"
#include "../select/select.h"
#include "process.h"

/* A decision's key in the agreement vector: the same on every rank that
 * has the decision. */
static int logp_confirm_key(const logp_decision_t *d)
{
    return (int)d->coll * LOGP_STATE_SLOTS + logp_state_slot(d) + 1;
}

logp_agree_action_t logp_agree_first(logp_comm_state_t *st, logp_decision_t *d, const char **why)
{
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
        return LOGP_AGREE_GO;
    logp_trial_cancel(t);
    *why = uncached || pick || trial ? "a rank out of memory"
           : v[0] != -v[PAIRS]       ? "sizes of different classes"
                                     : "a rank priced otherwise";
    if (uncached || v[0] != -v[PAIRS])
        return LOGP_AGREE_DROP;
    /* the class and the model's pick ([0] of the plan) alike, built everywhere */
    return v[3] == -v[PAIRS + 3] && !pick ? LOGP_AGREE_UNTRIED : LOGP_AGREE_FALL_BACK;
}

/* Applies the agreed times of d's trial (NULL: the ranks differed) and,
 * if not NULL, its blocks' costs. */
static void logp_confirm_settle(logp_comm_state_t *st, logp_decision_t *d, const double *times, const double *cost,
                                const logp_trial_own_t *own)
{
    logp_trial_t *t = &d->trial;
    t->phase = LOGP_TRIAL_DONE;
    if (times == NULL) {
        t->disagreed = 1;
        logp_trial_free_scheds(t);
        return;
    }
    logp_confirm_verdict(&t->plan, times, cost, own, &t->verdict);
    for (int c = 0; c < t->plan.n; c++)
        logp_learn_record(&st->learn, d->coll, t->plan.algo[c], d->sclass, t->verdict.time[c], t->raw[c]);
    logp_learn_record_default(&st->learn, d->coll, d->sclass);
    int w = t->verdict.winner;
    logp_trial_adopt(t, w, &d->algo, &d->sched);
    t->verdicts++;
    t->agreed = d->algo;
    d->predicted = t->verdict.time[w]; /* what the corrected model expects now */
    t->seen = t->nrecent = 0;          /* the drift watch and the budget's wait start anew */
    t->ref = 0.0;
    /* verbose 2: every rank says what it agreed (tests check they match) */
    int verbose = logp_process_env()->verbose;
    if ((verbose >= 1 && st->rank == 0) || verbose >= 2) {
        char what[512], who[32] = "";
        logp_trial_describe(t, st->warmup, what, sizeof what);
        if (verbose >= 2)
            snprintf(who, sizeof who, "rank %d: ", st->rank);
        fprintf(stderr, "pmpi-logp: %s%s (P=%d): %s %zu-%zu B%s: %s\n", who, st->name, st->size, logp_coll_name(d->coll),
                (size_t)1 << d->sclass, ((size_t)2 << d->sclass) - 1,
                logp_state_ops_name(d->coll, d->commutative), what);
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
            /* (a rule not settled that still waits makes no progress: no dense points for it) */
            int warm = d ? (d->trial.warm > 0 ? d->trial.warm : 0) : 0;
            if (d && d->trial.phase == LOGP_TRIAL_RUNNING && d->trial.steps + warm != d->trial.calls_seen) {
                d->trial.calls_seen = d->trial.steps + warm;
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
 * the same from the same agreed times.  Returns nonzero if L and G moved.
 * A sample's time is that of the schedule built for the parameters of its
 * trial, and the fit prices the schedule built for the scaled ones, which
 * may differ in shape (the LogP-optimal trees): so a refit drops the
 * samples, and the next one fits the new shapes' times alone (kept, the
 * old samples held L where the first refit put it:
 * docs/results/measurements-in-code.md, "refit"). */
static int logp_confirm_refit(logp_comm_state_t *st, logp_decision_t *const *settled, int n)
{
    if (st->confirm < 2) /* PMPI_LOGP_CONFIRM=2 only (README) */
        return 0;
    for (int i = 0; i < n; i++) {
        logp_trial_t *t = &settled[i]->trial;
        int blocks = t->calls / LOGP_CONFIRM_ROUNDS; /* those run; a resumed trial's earlier ones were fed */
        for (int b = t->fitted; !t->disagreed && b < blocks && b < logp_confirm_blocks(&t->plan); b++) {
            int c = logp_confirm_block_of(&t->plan, b);
            if (logp_confirm_fittable(t->plan.algo[c]) && c != t->previous && t->verdict.time[c] > 0.0)
                st->fit[st->nfit++ % LOGP_FIT_SAMPLES] =
                    (logp_fit_sample_t){logp_state_query(st, settled[i]), t->plan.algo[c], t->verdict.time[c]};
        }
        t->fitted = blocks;
    }
    if (st->refits >= LOGP_CONFIRM_REFITS || n == 0)
        return 0;
    double f[2], before;
    int m = st->nfit < LOGP_FIT_SAMPLES ? st->nfit : LOGP_FIT_SAMPLES;
    double after = logp_confirm_fit_joint(st->fit, m, &f[LOGP_FIT_L], &f[LOGP_FIT_G], &before);
    if (after < 0.0 || before <= log(LOGP_CONFIRM_REFIT) || after > 0.5 * before)
        return 0;
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
    if (logp_process_env()->verbose >= 1 && st->rank == 0)
        fprintf(stderr, "pmpi-logp: %s (P=%d): the trials' times say L x %.3g, G x %.3g (%d samples, rms error "
                        "%.2fx -> %.2fx): L=%.3gus G=%.3gns/B now; deciding every class again\n",
                st->name, st->size, f[LOGP_FIT_L], f[LOGP_FIT_G], m, exp(before), exp(after),
                logp_topo_rep(&st->topo)->L * 1e6, logp_topo_rep(&st->topo)->G * 1e9);
    return 1; /* every auto class is decided again (logp_decide_agreed) */
}

/* An agreement point: every rank is here at the same call. */
static logp_agree_todo_t logp_confirm_agree(logp_comm_state_t *st)
{
    logp_agree_todo_t todo = {0, 0};
    double v[LOGP_AGREE_LEN], r[LOGP_AGREE_LEN];
    logp_confirm_agree_init(v);
    int j = 0;
    for (logp_decision_t *d = st->wait_head; d && j < LOGP_AGREE_SLOTS; d = d->trial.next, j++)
        logp_confirm_agree_put(v, j, logp_confirm_key(d), d->trial.local, d->trial.start,
                               logp_confirm_calls(&d->trial.plan));
    logp_confirm_agree_put_drift(v, logp_confirm_drift_key(st));
    if (st->wait_head || logp_confirm_progress(st))
        logp_confirm_agree_put_busy(v);
    /* the head in the shim's own barrier (small integers; a sendrecv at
     * P = 2, cheaper than the library's allreduce of even one double), and
     * the body only if some rank has a trial waiting (the head's answer is
     * every rank's: the same reductions everywhere) */
    int head[LOGP_AGREE_HEAD];
    for (int i = 0; i < LOGP_AGREE_HEAD; i++)
        head[i] = (int)v[LOGP_AGREE_BODY + i];
    int rc = logp_coll_barrier_max(st->pcomm, st->tag, head, LOGP_AGREE_HEAD);
    logp_confirm_agree_init(r);
    for (int i = 0; i < LOGP_AGREE_HEAD; i++)
        r[LOGP_AGREE_BODY + i] = head[i];
    if (rc != MPI_SUCCESS ||
        (logp_confirm_agree_waiting(r) &&
         logp_coll_library_allreduce(v, r, LOGP_AGREE_BODY, MPI_DOUBLE, MPI_MAX, st->comm) != MPI_SUCCESS)) {
        st->next_point = logp_confirm_agree_next(st->ncalls, 1); /* the trials wait for the next point */
        return todo;
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
        logp_confirm_settle(st, d, key == logp_confirm_key(d) ? times : NULL, NULL, NULL);
        settled[i] = d;
    }
    todo.refit = logp_confirm_refit(st, settled, j);
    todo.reopen = logp_confirm_agree_drift(r);
    return todo;
}

logp_decision_t *logp_agree_reopen(logp_comm_state_t *st, int key)
{
    if (key <= 0)
        return NULL;
    logp_decision_t *d = st->decisions[(key - 1) / LOGP_STATE_SLOTS][(key - 1) % LOGP_STATE_SLOTS];
    if (d == NULL || d->trial.phase != LOGP_TRIAL_DONE || d->trial.reopens >= LOGP_CONFIRM_REOPENS)
        return NULL;
    d->trial.reopens++;
    if (logp_process_env()->verbose >= 1 && st->rank == 0)
        fprintf(stderr, "pmpi-logp: %s (P=%d): %s %zu-%zu B: calls drifted %gx from the trial's time: deciding again\n",
                st->name, st->size, logp_coll_name(d->coll), (size_t)1 << d->sclass, ((size_t)2 << d->sclass) - 1,
                LOGP_CONFIRM_DRIFT);
    return d;
}

/* At the end of each of a trial's blocks: one more barrier of the trial's
 * own, right after its last call, carries every rank's times of the timed
 * calls so far and of the blocks' calls (the slowest rank's), the trial's
 * own barriers and agreements (the least rank's) and the trial's key
 * (select/confirm.h: logp_confirm_block_pack), so every rank sees the
 * same numbers at the same call.  The trial then goes on to its next
 * block if the exploration budget allows (logp_confirm_affordable), else
 * it settles at once, as it does after its last block, instead of at the
 * next agreement point.  With a global clock a call's time is not a
 * maximum of durations (agree.h): such trials run every block and wait
 * for the agreement point.  Returns nonzero if L and G moved (a refit). */
_Static_assert(LOGP_CONFIRM_BLOCK_INTS <= LOGP_BARRIER_MAX_INTS, "a trial's times fit one barrier message");
_Static_assert(LOGP_AGREE_HEAD <= LOGP_BARRIER_MAX_INTS, "a point's head fits one barrier message");

static int logp_agree_block(logp_comm_state_t *st, logp_decision_t *d)
{
    logp_trial_t *t = &d->trial;
    int v[LOGP_CONFIRM_BLOCK_INTS], key = logp_confirm_key(d), blocks = t->calls / LOGP_CONFIRM_ROUNDS;
    logp_confirm_block_pack(v, key, t->local, t->calls, t->cost, &t->own, blocks);
    double times[LOGP_CONFIRM_CALLS] = {0}, cost[LOGP_CONFIRM_BLOCKS_MAX] = {0};
    logp_trial_own_t own = {{0}, 0.0};
    double t0 = PMPI_Wtime();
    int same = logp_coll_barrier_max(st->pcomm, st->tag, v, LOGP_CONFIRM_BLOCK_INTS) == MPI_SUCCESS &&
               logp_confirm_block_unpack(v, key, times, t->calls, cost, &own, blocks);
    memcpy(t->local, times, sizeof(double) * (size_t)t->calls); /* the slowest rank's from now on */
    memcpy(t->cost, cost, sizeof(double) * (size_t)blocks);
    t->own = own;
    /* this barrier is the ended block's own cost too: agreed at the next
     * block's end (the last one's is not in the verdict) */
    t->own.block[blocks - 1] += PMPI_Wtime() - t0;
    /* a rule not settled: an earlier run's budget approved its candidates */
    unsigned long paid = t->approved ? 1000000000UL : t->waited;
    if (same && t->phase == LOGP_TRIAL_RUNNING && logp_confirm_affordable(&t->plan, blocks, cost, &own, paid))
        return 0; /* on to the next block */
    t->pending = 0;
    if (same && blocks < logp_confirm_blocks(&t->plan)) { /* the budget: the rest waits until the class has paid for it */
        t->pending = blocks;
        t->resume_at = logp_confirm_resume_after(&t->plan, blocks, cost, &own, t->waited);
    }
    logp_confirm_settle(st, d, same ? times : NULL, cost, &own);
    if (!t->pending) { /* every block run: what the model ranked below them next, once the class pays for it */
        logp_select_query_t q = logp_state_query(st, d);
        logp_trial_extend(t, &q, d->sclass, &own);
    }
    logp_decision_t *settled[1] = {d};
    return logp_confirm_refit(st, settled, 1);
}

/* At the end of a trial under a global clock: its calls' times are the
 * latest end less the latest start over the ranks (agree.h), maxima of
 * absolute times that a block barrier's integers cannot carry, so the
 * trial agrees once, at its end, in one reduction of its slot of the
 * agreement vector (doubles, the library's allreduce as at a point), and
 * its verdict applies from the next call (issue 40: it waited for the
 * next agreement point, up to LOGP_AGREE_BUSY_GAP calls, running the
 * library's collective meanwhile).  Every rank is here at the same call,
 * as at a block barrier: the ranks met the trial's first call's check
 * alike.  Returns -1 if the reduction failed (the trial then waits for
 * the next point), else nonzero if L and G moved (a refit). */
static int logp_agree_end_global(logp_comm_state_t *st, logp_decision_t *d)
{
    double v[LOGP_AGREE_LEN], r[LOGP_AGREE_LEN], times[LOGP_CONFIRM_CALLS];
    logp_confirm_agree_init(v);
    logp_confirm_agree_init(r);
    logp_confirm_agree_put(v, 0, logp_confirm_key(d), d->trial.local, d->trial.start, logp_confirm_calls(&d->trial.plan));
    if (logp_coll_library_allreduce(v, r, LOGP_AGREE_SLOT_LEN, MPI_DOUBLE, MPI_MAX, st->comm) != MPI_SUCCESS)
        return -1;
    int key = logp_confirm_agree_key(r, 0, times);
    logp_confirm_settle(st, d, key == logp_confirm_key(d) ? times : NULL, NULL, NULL);
    logp_decision_t *settled[1] = {d};
    return logp_confirm_refit(st, settled, 1);
}

logp_agree_todo_t logp_agree_after(logp_comm_state_t *st, logp_decision_t *d, int timed, int origin, double start,
                                   double seconds)
{
    logp_agree_todo_t none = {0, 0};
    int ended = logp_trial_record(&d->trial, st->warmup, timed, st->clock_global, origin, start, seconds);
    if (ended && !st->clock_global) {
        none.refit = logp_agree_block(st, d);
    } else if (ended == LOGP_TRIAL_END) {
        int refit = logp_agree_end_global(st, d);
        if (refit >= 0) {
            none.refit = refit;
        } else { /* waits for the next agreement point */
            if (st->wait_tail)
                st->wait_tail->trial.next = d;
            else
                st->wait_head = d;
            st->wait_tail = d;
        }
    }
    if (st->confirm && ++st->ncalls == st->next_point) {
        logp_agree_todo_t todo = logp_confirm_agree(st);
        todo.refit |= none.refit;
        return todo;
    }
    return none;
}
