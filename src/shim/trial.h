/* Auto's trial of one decision: which candidates it runs on the
 * application's own calls, whose turn a call is, the calls' times, and
 * the line that describes it.  The candidates and the verdict are pure
 * (select/confirm.h); the ranks' agreement on the times is agree.h's. */
#ifndef LOGP_SHIM_TRIAL_H
#define LOGP_SHIM_TRIAL_H

#include <stddef.h>
#include <stdint.h>

#include "../model/sched.h"
#include "../select/confirm.h"
#include "../select/select.h"

/* Where a trial stands. */
typedef enum logp_trial_phase {
    LOGP_TRIAL_NONE,    /* no trial: forced, ruled, or the model's margin is overwhelming */
    LOGP_TRIAL_RUNNING, /* calls alternate between the candidates */
    LOGP_TRIAL_WAITING, /* every trial call made: the times wait for the next agreement point */
    LOGP_TRIAL_DONE     /* agreed: the winner runs; later calls are sampled for drift */
} logp_trial_phase_t;

struct logp_decision;

typedef struct logp_trial {
    logp_trial_phase_t phase;
    logp_trial_plan_t plan;               /* candidates; [0] is the model's pick */
    logp_sched_t sched[LOGP_CONFIRM_MAX]; /* the candidates' schedules; [current] empty: the decision
                                             holds it */
    double raw[LOGP_CONFIRM_MAX];         /* s: their predictions without corrections */
    int warm;                             /* calls before the trial (the pick, untimed; until the
                                             communicator's warmup), kept when deciding again; < 0:
                                             a rule not settled still waits (explore's after) */
    int pick_first;                       /* the safe start runs the pick, not native
                                             (logp_confirm_pick_first) */
    int of_rule;                          /* the pick is a rule not settled (the learned file's explore) */
    int approved;                         /* its untried candidates: an earlier run's budget approved them,
                                             this one does not stop them (not those logp_trial_extend adds) */
    int checked;                          /* the ranks' plans compared (agree.h: logp_agree_first) */
    int steps;                            /* trial calls made (blocks: warm and timed) */
    int calls;                            /* timed trial calls made */
    int calls_seen;                       /* calls at the last agreement point (progress) */
    double local[LOGP_CONFIRM_CALLS];     /* s: this rank's time of each (with a global clock: its end) */
    double start[LOGP_CONFIRM_CALLS];     /* s: with a global clock, each call's start here */
    double cost[LOGP_CONFIRM_BLOCKS_MAX]; /* s: per block, this rank's time of its calls (untimed and
                                             timed); once the block is agreed, the slowest rank's */
    logp_trial_own_t own;                 /* s: this rank's time in the trial's own barriers and
                                             agreements, per block, and in its first call's check;
                                             agreed at the next block's end (the least rank's) */
    logp_trial_verdict_t verdict;         /* on the slowest rank's times (phase DONE) */
    int current;                          /* the candidate whose schedule the decision holds (its
                                             `pick`): 0 until a verdict adopts another */
    int pending;                          /* the budget stopped the trial before block `pending` (> 0),
                                             whose candidates wait: it resumes there at call resume_at */
    unsigned long resume_at;              /* of `seen` */
    unsigned long waited;                 /* calls after verdicts the budget cut short, in all */
    int fitted;                           /* blocks whose times went to the refit's samples */
    int disagreed;                        /* the ranks' trials did not match: the model's pick stays */
    int broken;                           /* LOGP_TRIAL_BROKEN_*: this rank cannot run the trial it
                                             planned; its first call tells every rank (agree.h) */
    double ref;                           /* s: this rank's median of its first 5 sampled calls after the
                                             verdict (unsynchronised, as the later samples are) */
    double recent[5];                     /* s: sampled later calls (drift watch): first the reference's,
                                             then a ring of the last 5 */
    unsigned long nrecent;                /* samples taken (ring index) */
    unsigned long seen;                   /* calls since the verdict */
    int reopens;                          /* re-opened after drift */
    int verdicts;                         /* verdicts agreed in this run (kept when deciding again) */
    logp_algo_t agreed;                   /* the last of them: what the learned file keeps of a class
                                             whose trial runs again at the end (resumed or re-opened) */
    int previous;                         /* candidate that is the decision from before a refit of L
                                             or G (its schedule built for the old values), -1 if none */
    logp_algo_t prev_algo;                /* handed to logp_trial_start by a refit: that decision */
    logp_sched_t prev_sched;
    struct logp_decision *next;           /* in the communicator's waiting list */
} logp_trial_t;

/* What a rank that planned a trial cannot run (out of memory): its
 * decision could not be kept (UNCACHED), the model's pick could not be
 * built (PICK), or the other candidates could not (TRIAL). */
#define LOGP_TRIAL_BROKEN_UNCACHED 1
#define LOGP_TRIAL_BROKEN_PICK 2
#define LOGP_TRIAL_BROKEN_TRIAL 4

/* Plans the trial of the decision `pick` auto has just made for size
 * class sclass with query q (the candidates from q's corrected prices;
 * the other candidates' schedules built).  A refit's previous decision
 * (t->prev_algo, t->prev_sched: taken over or freed here) joins as a
 * candidate.  Leaves the trial at LOGP_TRIAL_NONE when trials are not
 * `enabled` on the communicator, when the model's margin is overwhelming,
 * or the call is unsafe for all but one.  A schedule that cannot be built
 * leaves the trial planned but marked broken (LOGP_TRIAL_BROKEN_TRIAL):
 * its first call tells every rank.  The warm-up count and re-openings
 * survive.  raw: the prices without corrections the decision computed
 * (logp_select_decide_priced), or NULL to price here.  untried (bit per
 * algorithm), nonzero: `pick` is a rule of the learned file whose trial
 * an earlier run's budget cut short, and the candidates are it and these
 * (logp_confirm_plan_untried), the rule running from the first call and,
 * for a new decision, `after` calls more before the warm-up (the rest of
 * what the budget asked the class to pay); that budget approved them, so
 * this one does not stop them. */
void logp_trial_start(logp_trial_t *t, const logp_select_query_t *q, logp_algo_t pick, int sclass, int enabled,
                      const double *raw, uint32_t untried, uint32_t after);

/* After the verdict on a trial's every block (agreed, so every rank does
 * the same at the same call): the candidate the model ranked below the
 * plan joins it (logp_confirm_plan_extend: prices with t's class's
 * corrections; its schedule built, or the trial marked broken so that
 * its resumed first call tells every rank), its block where native's
 * second was (that one runs again after it), waiting, as a candidate the
 * budget cut, until the class has paid for it (resume_at from the
 * blocks' agreed costs and `own`, the agreed time of the trial's own
 * barriers: the same number on every rank).  Returns nonzero if one
 * joined.  The one planning a decided class does after its trial: at
 * most LOGP_CONFIRM_MAX - plan size times per decision. */
int logp_trial_extend(logp_trial_t *t, const logp_select_query_t *q, int sclass, const logp_trial_own_t *own);

/* Drops the trial (its candidates' schedules freed): the decision runs
 * its algorithm untried. */
void logp_trial_cancel(logp_trial_t *t);

/* Frees the other candidates' schedules (not the decision's). */
void logp_trial_free_scheds(logp_trial_t *t);

/* The verdict `w` (index into plan) becomes the decision's algorithm:
 * its schedule moves into *sched (the decision's, whose own is freed, or
 * kept in the trial where that candidate's block still waits for the
 * budget: the exploration budget can cut even the model's pick where
 * the trial's own barriers spent it), unless the decision runs it
 * already; the schedules of candidates that were measured are freed,
 * those of candidates still waiting for the budget (pending) are kept. */
void logp_trial_adopt(logp_trial_t *t, int w, logp_algo_t *algo, logp_sched_t *sched);

/* Frees every schedule the trial holds (when its decision goes). */
void logp_trial_release(logp_trial_t *t);

/* Nonzero if the trial's current call (RUNNING, after the warm-up) is
 * one of its timed calls, not a candidate's untimed block warm-up. */
static inline int logp_trial_step_timed(const logp_trial_t *t)
{
    int c;
    return logp_confirm_step_of(&t->plan, t->steps, &c);
}

/* What this call runs: *algo and *sched start as the decision's (`pick`
 * its schedule); during a trial they become the candidate whose turn it
 * is.  Until the trial has evidence the class runs safe: its first
 * `warmup` calls (PMPI_LOGP_CONFIRM_WARMUP), and the calls that wait for
 * the verdict, run the library's collective where it is a candidate (else
 * the pick): never the class's first calls spent warming an unproven
 * pick (docs/results/auto-confirm.md); unless the model prices the
 * library far above the pick (t->pick_first).  The trial then gives each
 * candidate a block of calls, the first ones untimed (the schedule's own
 * warm-up).  Returns nonzero if the call is to be timed for
 * logp_trial_record (timed trial calls, and one in 16 later calls for the
 * drift watch).  O(1). */
static inline int logp_trial_turn(logp_trial_t *t, int warmup, const logp_sched_t *pick, logp_algo_t *algo,
                                  const logp_sched_t **sched)
{
    if (t->phase == LOGP_TRIAL_RUNNING && t->broken) { /* a placeholder: its first call's check cancels it */
        *algo = LOGP_ALGO_NATIVE;
        return 1;
    }
    if (t->phase == LOGP_TRIAL_DONE && t->pending && t->seen >= t->resume_at) {
        /* the class has paid for the candidates the budget cut: their blocks
         * now, after the same check of the ranks' trials as a first call */
        t->waited += t->seen;
        t->seen = 0;
        t->phase = LOGP_TRIAL_RUNNING;
        t->checked = 0;
    }
    if ((t->phase == LOGP_TRIAL_RUNNING && t->warm < warmup) || t->phase == LOGP_TRIAL_WAITING) {
        if (logp_confirm_native_index(&t->plan) >= 0 && !t->pick_first)
            *algo = LOGP_ALGO_NATIVE;
        return 0;
    }
    if (t->phase == LOGP_TRIAL_RUNNING) {
        int c, timed = logp_confirm_step_of(&t->plan, t->steps, &c);
        *algo = t->plan.algo[c];
        *sched = c == t->current ? pick : &t->sched[c];
        return timed;
    }
    if (t->phase == LOGP_TRIAL_DONE && !t->disagreed)
        return (++t->seen & 15) == 0;
    return 0;
}

/* Nonzero if this call of the decision is one of its trial's blocks
 * (untimed or timed): its duration counts to the block's cost. */
static inline int logp_trial_exploring(const logp_trial_t *t, int warmup)
{
    return t->phase == LOGP_TRIAL_RUNNING && !t->broken && t->warm >= warmup;
}

/* What logp_trial_record says the call ended. */
#define LOGP_TRIAL_BLOCK_END 1 /* a candidate's block, others to follow: agree on it (agree.h) */
#define LOGP_TRIAL_END 2       /* the trial (phase WAITING now) */

/* After a call of the trial's decision: counts a warm-up call, adds a
 * block call's duration `seconds` to its block's cost, and records a
 * timed call's start (MPI_Wtime) and duration: with a global clock
 * (`global`) its start if this rank is an `origin` (a bcast's root, every
 * rank of a reduce or all-to-all; agree.h) and its end, else its
 * duration; or, after the verdict, a sampled call for the drift watch.
 * Returns LOGP_TRIAL_END after the trial's last call (the caller settles
 * it or queues it for the next agreement point), LOGP_TRIAL_BLOCK_END
 * after the last call of another block, else 0. */
int logp_trial_record(logp_trial_t *t, int warmup, int timed, int global, int origin, double start, double seconds);

/* One line (no newline) on the trial for the verbose output, the run
 * report and the learned file: candidates, their times on the slowest
 * rank, the winner, the overhead; "" if there was no trial.  `warmup`:
 * the communicator's warm-up count. */
void logp_trial_describe(const logp_trial_t *t, int warmup, char *out, size_t n);

#endif
