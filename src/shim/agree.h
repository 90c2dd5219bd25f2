/* Auto that checks itself, across ranks: the first trial call's check
 * that the ranks decided alike, the barrier before each trial call, and
 * the agreement on the trials' times at fixed points of the
 * communicator's call count, with what is learned from them (verdicts,
 * corrections of the model, refits of L and G, drift).  What to do about
 * it is returned to the decision table (decide.h), which applies it.
 * Pure parts: select/confirm.h, model/learn.h. */
#ifndef LOGP_SHIM_AGREE_H
#define LOGP_SHIM_AGREE_H

#include "../coll/barrier.h"
#include "state.h"

/* What every rank does after a trial's first call found the ranks'
 * decisions unlike (logp_agree_first). */
typedef enum logp_agree_action {
    LOGP_AGREE_GO,        /* alike: the trial goes ahead as planned */
    LOGP_AGREE_UNTRIED,   /* the trial is cancelled: the model's pick runs untried */
    LOGP_AGREE_FALL_BACK, /* the trial is cancelled: the library's collective (or the safe default) runs */
    LOGP_AGREE_DROP       /* as FALL_BACK, and the decision leaves the table: decided again next call */
} logp_agree_action_t;

/* The first call of a trial: its barrier carries what this rank decided
 * (class, candidates) and what it could not allocate; every rank gets the
 * maximum and the negated minimum of each, so all see the same verdict.
 * If the ranks differ, the trial is cancelled on every rank and the
 * action says what runs instead: the model's pick untried if only the
 * trials differ, else the library's collective (the safe default where
 * that is unsafe); DROP where some rank could not keep the decision or
 * the ranks' classes differ.  *why: the reason, for the verbose line. */
logp_agree_action_t logp_agree_first(logp_comm_state_t *st, logp_decision_t *d, const char **why);

/* Before a trial call's collective (right before it, after the shim's own
 * work, which the dispatch timing measures without it): a dissemination
 * barrier on the private communicator (every rank is in the same trial
 * call of a correct program), so that each call is timed from a common
 * start, within about one message time, and a candidate does not inherit
 * the skew the previous call left; the first call's check that the ranks
 * decided alike (logp_agree_first), made at the first call after the
 * trial was planned (a warm-up call: no other barrier then).  Returns
 * what the call runs (LOGP_AGREE_GO: as planned). */
static inline logp_agree_action_t logp_agree_barrier(logp_comm_state_t *st, logp_decision_t *d, const char **why)
{
    logp_trial_t *t = &d->trial;
    if (t->phase != LOGP_TRIAL_RUNNING)
        return LOGP_AGREE_GO;
    int first = !t->checked;
    if (!first && (t->warm < st->warmup || !logp_trial_step_timed(t)))
        return LOGP_AGREE_GO; /* untimed: no common start needed */
    double t0 = PMPI_Wtime();
    logp_agree_action_t action = LOGP_AGREE_GO;
    t->checked = 1;
    if (first)
        action = logp_agree_first(st, d, why);
    else
        logp_coll_barrier(st->pcomm, st->tag);
    int block = t->steps / LOGP_CONFIRM_BLOCK; /* the trial's own cost, its block's */
    double took = PMPI_Wtime() - t0;
    if (first)
        t->own.check += took;
    else
        t->own.block[block < LOGP_CONFIRM_BLOCKS_MAX ? block : LOGP_CONFIRM_BLOCKS_MAX - 1] += took;
    return action;
}

/* What an agreement point concluded, for the decision table to apply. */
typedef struct logp_agree_todo {
    int refit;  /* L and G moved: every auto class is to be decided again, its old decision kept as a candidate */
    int reopen; /* key of a decision whose calls drifted (logp_agree_reopen), 0 if none */
} logp_agree_todo_t;

/* After every call that reached the communicator's state: records the
 * call in d's trial (logp_trial_record: `timed`, `origin`, its start by
 * MPI_Wtime and duration in seconds: every call of a trial's blocks is
 * timed), agrees at the end of each of a trial's blocks (one barrier of
 * the trial's own carries the ranks' times) whether the exploration
 * budget allows the next, and settles the trial at its last block or
 * when the budget is spent: the verdict applies from the next call on;
 * with a global clock the trial runs every block and agrees once, at its
 * end, in one MPI_Allreduce of its times on the application's
 * communicator, and its verdict applies from the next call too (if that
 * reduction fails, it waits for the next point), and counts the call.  With a global clock a
 * call takes from the latest start of a rank that is an `origin` to the
 * latest end: a bcast's root only (the others' data comes from it;
 * measured from the last rank's start, a late leaf whose data was already
 * waiting makes a tree look faster than it is), every rank of a reduce or
 * all-to-all.  At the agreement points (logp_confirm_agree_next) every
 * rank takes part in one MPI_Allreduce on the application's
 * communicator, then settles the agreed verdicts alike and moves L and G
 * where the trials say so; returns what the decision table must do
 * (nothing, mostly). */
logp_agree_todo_t logp_agree_after(logp_comm_state_t *st, logp_decision_t *d, int timed, int origin, double start,
                                   double seconds);

/* The decision of key `key` (logp_agree_todo_t.reopen) if it is still
 * settled and may re-open (at most LOGP_CONFIRM_REOPENS times), counted
 * and said (verbose); NULL otherwise. */
logp_decision_t *logp_agree_reopen(logp_comm_state_t *st, int key);

#endif
