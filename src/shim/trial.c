/* Auto's trial of one decision (see trial.h). */
#include "trial.h"

#include <stdio.h>
#include <string.h>

#include "../model/learn.h"
#include "../model/plan.h"
#include "env.h"
#include "process.h"

void logp_trial_free_scheds(logp_trial_t *t)
{
    for (int c = 0; c < LOGP_CONFIRM_MAX; c++) /* [current] is empty */
        logp_sched_free(&t->sched[c]);
}

void logp_trial_adopt(logp_trial_t *t, int w, logp_algo_t *algo, logp_sched_t *sched)
{
    if (w != t->current) {
        if (t->pending && logp_confirm_waits(&t->plan, t->pending, t->current))
            t->sched[t->current] = *sched; /* its block waits for the budget: the resumed trial runs it */
        else
            logp_sched_free(sched);
        *sched = t->sched[w];
        memset(&t->sched[w], 0, sizeof t->sched[w]);
        *algo = t->plan.algo[w];
        t->current = w;
    }
    for (int b = 0; b < logp_confirm_blocks(&t->plan); b++) /* a measured candidate that lost never wins later */
        if (!t->pending || b < t->pending)
            logp_sched_free(&t->sched[logp_confirm_block_of(&t->plan, b)]);
}

void logp_trial_release(logp_trial_t *t)
{
    for (int c = 0; c < LOGP_CONFIRM_MAX; c++)
        logp_sched_free(&t->sched[c]);
    logp_sched_free(&t->prev_sched);
}

void logp_trial_cancel(logp_trial_t *t)
{
    logp_trial_free_scheds(t);
    t->plan.n = 0;
    t->previous = -1;
    t->broken = 0;
    t->pending = 0;
    t->phase = LOGP_TRIAL_NONE;
}

/* The candidates' prices for class sclass of q: the model's (raw_given,
 * or priced here), with the class's corrections (cor), and how far each
 * may be off on this kind of network (band). */
static void logp_trial_prices(const logp_select_query_t *q, int sclass, const double *raw_given, double *raw,
                              double *cor, double *band)
{
    if (raw_given) {
        memcpy(raw, raw_given, sizeof(double) * LOGP_ALGO_COUNT);
    } else {
        logp_select_query_t raw_q = *q;
        raw_q.learn = NULL; /* corrections divide what the model says by itself */
        logp_select_prices(&raw_q, raw);
    }
    memcpy(cor, raw, sizeof(double) * LOGP_ALGO_COUNT);
    logp_learn_apply(q->learn, q->coll, sclass, cor);
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        band[a] = logp_algo_error_band((logp_algo_t)a, q->topo->shared);
}

void logp_trial_start(logp_trial_t *t, const logp_select_query_t *q, logp_algo_t pick, int sclass, int enabled,
                      const double *raw_given, uint32_t untried, uint32_t after)
{
    int reopens = t->reopens, warm = t->warm; /* deciding again does not make the library's messages cold */
    int verdicts = t->verdicts;
    logp_algo_t agreed = t->agreed;
    logp_algo_t prev_algo = t->prev_algo;
    logp_sched_t prev_sched = t->prev_sched; /* ours now: the trial takes it or it is freed */
    int has_prev = prev_algo != LOGP_ALGO_COUNT && t->prev_sched.algo == prev_algo;
    if (prev_algo == LOGP_ALGO_NATIVE)
        has_prev = 1;
    logp_trial_free_scheds(t);
    memset(t, 0, sizeof(*t));
    t->reopens = reopens;
    t->warm = warm;
    t->verdicts = verdicts;
    t->agreed = agreed;
    t->previous = -1;
    t->prev_algo = LOGP_ALGO_COUNT;
    if (!enabled) {
        logp_sched_free(&prev_sched);
        return;
    }
    double raw[LOGP_ALGO_COUNT], cor[LOGP_ALGO_COUNT], band[LOGP_ALGO_COUNT];
    logp_trial_prices(q, sclass, raw_given, raw, cor, band);
    if (untried)
        logp_confirm_plan_untried(cor, band, pick, untried, &t->plan);
    else
        logp_confirm_plan(cor, raw, band, pick, &t->plan);
    int n = t->plan.n; /* the model's candidates; the previous decision joins after them */
    if (has_prev && n >= 1 && n < LOGP_CONFIRM_MAX && !(prev_algo == LOGP_ALGO_NATIVE && pick == LOGP_ALGO_NATIVE)) {
        int dup = 0;
        for (int c = 0; c < n; c++)
            dup |= prev_algo == LOGP_ALGO_NATIVE && t->plan.algo[c] == LOGP_ALGO_NATIVE;
        if (!dup) {
            t->previous = t->plan.n;
            t->plan.algo[t->plan.n] = prev_algo;
            t->plan.band[t->plan.n] = -1.0;
            t->plan.predicted[t->plan.n++] = 0.0; /* priced for the old L and G: nothing to learn from it */
        }
    }
    if (t->plan.n < 2) {
        t->plan.n = 0;
        t->previous = -1;
        logp_sched_free(&prev_sched);
        return;
    }
    /* a rule whose trial resumes runs from the first call: it is the class's
     * steady choice so far (native among the untried: measured after it) */
    t->pick_first = untried ? 1 : logp_confirm_pick_first(&t->plan, raw);
    t->of_rule = t->approved = untried != 0;
    if (untried && t->warm == 0 && after > 0) /* a new decision: the calls the class still owes the budget */
        t->warm = after > 1000000000u ? -1000000000 : -(int)after;
    logp_sched_opts_t opts = {q->chain_k, 0, 0, 0, 0, 0};
    for (int c = 0; c < t->plan.n; c++) {
        t->raw[c] = c == t->previous ? 0.0 : raw[t->plan.algo[c]];
        if (c == t->previous) {
            t->sched[c] = prev_sched;
            memset(&prev_sched, 0, sizeof prev_sched);
        } else if (c > 0 && t->plan.algo[c] != LOGP_ALGO_NATIVE &&
                   (logp_process_test_nomem() & LOGP_TEST_NOMEM_TRIAL ||
                    logp_plan_build(&t->sched[c], q->coll, t->plan.algo[c], q->bytes, q->topo, &opts) != LOGP_OK)) {
            /* out of memory: the trial stays planned, so that its first
             * call tells every rank, which then run the model's pick */
            logp_trial_free_scheds(t);
            t->broken |= LOGP_TRIAL_BROKEN_TRIAL;
            break;
        }
    }
    logp_sched_free(&prev_sched);
    t->phase = LOGP_TRIAL_RUNNING;
}

int logp_trial_extend(logp_trial_t *t, const logp_select_query_t *q, int sclass, const logp_trial_own_t *own)
{
    if (t->phase != LOGP_TRIAL_DONE || t->pending || t->disagreed || t->broken || t->plan.n < 2)
        return 0;
    double raw[LOGP_ALGO_COUNT], cor[LOGP_ALGO_COUNT], band[LOGP_ALGO_COUNT];
    logp_trial_prices(q, sclass, NULL, raw, cor, band);
    int blocks = logp_confirm_blocks(&t->plan), c = logp_confirm_plan_extend(&t->plan, cor, raw, band);
    if (c < 0)
        return 0;
    t->raw[c] = raw[t->plan.algo[c]];
    t->approved = 0; /* this one the class pays for in this run */
    logp_sched_opts_t opts = {q->chain_k, 0, 0, 0, 0, 0};
    if (logp_process_test_nomem() & LOGP_TEST_NOMEM_TRIAL ||
        logp_plan_build(&t->sched[c], q->coll, t->plan.algo[c], q->bytes, q->topo, &opts) != LOGP_OK)
        t->broken |= LOGP_TRIAL_BROKEN_TRIAL;
    int b = logp_confirm_native_index(&t->plan) >= 0 ? blocks - 1 : blocks; /* its block */
    logp_trial_own_t agreed = *own; /* every rank's the same: not t->own, which holds this rank's last barrier */
    for (int x = b; x < LOGP_CONFIRM_BLOCKS_MAX; x++) /* native's second block is measured again after it */
        t->cost[x] = t->own.block[x] = agreed.block[x] = 0.0;
    t->steps = b * LOGP_CONFIRM_BLOCK;
    t->calls = b * LOGP_CONFIRM_ROUNDS;
    t->pending = b;
    t->resume_at = logp_confirm_resume_after(&t->plan, b, t->cost, &agreed, t->waited);
    return 1;
}

int logp_trial_record(logp_trial_t *t, int warmup, int timed, int global, int origin, double start, double seconds)
{
    if (t->phase == LOGP_TRIAL_RUNNING && t->warm < warmup) {
        t->warm++;
    } else if (t->phase == LOGP_TRIAL_RUNNING) { /* a block's call, untimed (warming) or timed */
        seconds = timed && !(seconds > 0.0) ? 1e-9 : seconds;
        t->cost[t->steps++ / LOGP_CONFIRM_BLOCK] += seconds;
        if (!timed)
            return 0;
        t->start[t->calls] = global && origin ? start : 0.0;
        t->local[t->calls++] = global ? start + seconds : seconds;
        if (t->calls == logp_confirm_calls(&t->plan)) {
            t->phase = LOGP_TRIAL_WAITING;
            return LOGP_TRIAL_END;
        }
        if (t->calls % LOGP_CONFIRM_ROUNDS == 0)
            return LOGP_TRIAL_BLOCK_END;
    } else if (timed && t->phase == LOGP_TRIAL_DONE) {
        t->recent[t->nrecent++ % 5] = seconds; /* a ring of the last 5 */
        if (t->ref == 0.0 && t->nrecent == 5) { /* the first 5: the reference */
            t->ref = logp_confirm_median(t->recent, 5);
            t->nrecent = 0;
        }
    }
    return 0;
}

void logp_trial_describe(const logp_trial_t *t, int warmup, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    if (t->plan.n < 2)
        return;
    if (t->phase == LOGP_TRIAL_RUNNING || t->phase == LOGP_TRIAL_WAITING) {
        char warm[48] = ""; /* the safe start's calls still to come before the trial's first */
        if (t->phase == LOGP_TRIAL_RUNNING && t->warm < warmup)
            snprintf(warm, sizeof warm, ", after %d warm-up call%s%s", warmup - t->warm, warmup - t->warm == 1 ? "" : "s",
                     t->pick_first ? (t->of_rule ? " of the rule" : " of the pick") : "");
        len += (size_t)snprintf(out, n, "trial %s (%d of %d calls%s):",
                                t->phase == LOGP_TRIAL_RUNNING ? "running" : "waiting for agreement", t->steps,
                                logp_confirm_steps(&t->plan), warm);
        for (int c = 0; c < t->plan.n && len < n; c++) {
            char band[32] = ""; /* how far the price may be off (algo.def) */
            if (t->plan.band[c] >= 0.0)
                snprintf(band, sizeof band, " +-%.2g%%", t->plan.band[c] * 100.0);
            len += (size_t)snprintf(out + len, n - len, c == t->previous ? "%s %s (the decision before the refit)"
                                                                          : "%s %s (predicted %.4g us%s)",
                                    c ? "," : "", logp_algo_name(t->plan.algo[c]), t->plan.predicted[c] * 1e6, band);
        }
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
        if (!(v->time[c] > 0.0) && t->pending)
            len += (size_t)snprintf(out + len, n - len, "%s %s waits for the exploration budget (%lu calls)",
                                    c ? "," : "", logp_algo_name(t->plan.algo[c]), t->resume_at);
        else if (!(v->time[c] > 0.0))
            len += (size_t)snprintf(out + len, n - len, "%s %s not measured", c ? "," : "",
                                    logp_algo_name(t->plan.algo[c]));
        else if (c == t->previous)
            len += (size_t)snprintf(out + len, n - len, "%s %s %.4g us (the decision before the refit)", c ? "," : "",
                                    logp_algo_name(t->plan.algo[c]), v->time[c] * 1e6);
        else
            len += (size_t)snprintf(out + len, n - len, "%s %s %.4g us (predicted %.4g)", c ? "," : "",
                                    logp_algo_name(t->plan.algo[c]), v->time[c] * 1e6, t->plan.predicted[c] * 1e6);
    char own[48] = ""; /* the trial's own barriers and agreements in the exploration, as agreed */
    if (v->barriers >= 0.0)
        snprintf(own, sizeof own, " (%.3g us the trial's barriers)", v->barriers * 1e6);
    if (len < n)
        snprintf(out + len, n - len, " -> %s (%s), exploration %.3g us = %.2g %s calls%s%s",
                 logp_algo_name(t->plan.algo[v->winner]), v->winner == 0 ? (t->of_rule ? "the rule" : "the model's pick")
                 : t->of_rule ? "overturned the rule" : "overturned the model",
                 v->overhead * 1e6, v->base > 0 ? v->overhead / v->base : 0.0,
                 logp_confirm_native_index(&t->plan) >= 0 ? "native" : "winner's", own,
                 t->reopens ? " (re-opened after drift)" : "");
}
