/* Auto that checks itself (MPI layer): trials of auto's decisions on the
 * application's own calls, the ranks' agreement on their times at fixed
 * points of the communicator's call count, what is learned from them
 * (corrections of the model, kept decisions), drift watch, and the
 * learned file.  Pure parts: select/confirm.h, model/learn.h,
 * config/learned.h. */
#ifndef LOGP_SHIM_CONFIRM_H
#define LOGP_SHIM_CONFIRM_H

#include "../coll/barrier.h"
#include "../select/select.h"
#include "state.h"

/* Plans the trial of a decision auto has just made with query q (the
 * candidates from q's corrected prices; the other candidates' schedules
 * built).  Leaves the trial at LOGP_TRIAL_NONE when the model's margin is
 * overwhelming, or the call is unsafe for all but one.  A schedule that
 * cannot be built leaves the trial planned but marked broken
 * (LOGP_TRIAL_BROKEN_TRIAL): its first call tells every rank. */
void logp_confirm_start(logp_comm_state_t *st, logp_decision_t *d, const logp_select_query_t *q);

/* What this call runs: *algo and *sched start as the decision's; during a
 * trial they become the candidate whose turn it is.  A trial's first
 * LOGP_CONFIRM_WARMUP calls (PMPI_LOGP_CONFIRM_WARMUP) run the model's
 * pick untimed: the library's
 * first messages of a size are slow (MPICH over shared memory, n = 2: a
 * 4 KiB one-message reduce measured 8.4 us in every call of a trial at the
 * class's first calls, 1.8 in steady state, while two-tree's 2 KiB
 * segments, warm from the class below, measured 2.4 and won).  Returns nonzero if
 * the call is to be timed for logp_confirm_after (trial calls, and one in
 * 16 later calls for the drift watch).  O(1). */
static inline int logp_confirm_turn(const logp_comm_state_t *st, logp_decision_t *d, logp_algo_t *algo,
                                    const logp_sched_t **sched)
{
    logp_trial_t *t = &d->trial;
    if (t->phase == LOGP_TRIAL_RUNNING && t->broken) { /* a placeholder: its first call's check cancels it */
        *algo = LOGP_ALGO_NATIVE;
        return 1;
    }
    if (t->phase == LOGP_TRIAL_RUNNING) {
        if (t->warm < st->warmup)
            return 0;
        int c = logp_confirm_turn_of(&t->plan, t->calls);
        *algo = t->plan.algo[c];
        *sched = c == 0 ? &d->sched : &t->sched[c];
        return 1;
    }
    return t->phase == LOGP_TRIAL_DONE && !t->disagreed && (++t->seen & 15) == 0;
}

/* What a rank that planned a trial cannot run (out of memory): its
 * decision could not be kept (UNCACHED), the model's pick could not be
 * built (PICK), or the other candidates could not (TRIAL). */
#define LOGP_TRIAL_BROKEN_UNCACHED 1
#define LOGP_TRIAL_BROKEN_PICK 2
#define LOGP_TRIAL_BROKEN_TRIAL 4

/* The first call of a trial: its barrier carries what this rank decided
 * (class, candidates) and what it could not allocate; every rank gets the
 * maximum and the negated minimum of each, so all see the same verdict.
 * If the ranks differ, every rank cancels the trial and runs what needs
 * nothing unagreed: the model's pick untried if only the trials differ,
 * else the library's collective (the safe default where that is unsafe);
 * a decision that some rank could not keep is dropped everywhere (*dp
 * becomes the fallback slot), so that every rank decides it again at its
 * next call.  Returns nonzero if the trial goes ahead as planned. */
int logp_confirm_first(logp_comm_state_t *st, logp_decision_t **dp);

/* Before a trial call's collective (right before it, after the shim's own
 * work, which the dispatch timing measures without it): a dissemination
 * barrier on the private communicator (every rank is in the same trial
 * call of a correct program), so that each call is timed from a common
 * start, within about one message time, and a candidate does not inherit
 * the skew the previous call left; the first call's checks that the ranks
 * decided alike (logp_confirm_first), made at the first call after
 * logp_confirm_start (a warm-up call: no other barrier then).  Returns 0 if the call must run
 * (*dp)->algo instead of the candidate logp_confirm_turn gave. */
static inline int logp_confirm_barrier(logp_comm_state_t *st, logp_decision_t **dp)
{
    logp_trial_t *t = &(*dp)->trial;
    if (t->phase != LOGP_TRIAL_RUNNING)
        return 1;
    if (!t->checked) {
        t->checked = 1;
        return logp_confirm_first(st, dp);
    }
    if (t->warm < st->warmup)
        return 1;
    logp_coll_barrier(st->pcomm, st->tag);
    return 1;
}

/* After every call that reached the communicator's state: records the
 * call's start (MPI_Wtime) and duration in seconds, if it was timed, and
 * counts the call.  With a global clock a call takes from the latest
 * start of a rank that is an `origin` to the latest end: a bcast's root
 * only (the others' data comes from it; measured from the last rank's
 * start, a late leaf whose data was already waiting made a P = 64 tree
 * look 2.6x faster than another run of the same tree, SMPI), every rank
 * of a reduce or all-to-all.  At the
 * agreement points (logp_confirm_agree_next) every rank takes part in one
 * MPI_Allreduce on the application's communicator, then applies the
 * agreed verdicts alike. */
void logp_confirm_after(logp_comm_state_t *st, logp_decision_t *d, int timed, int origin, double start,
                        double seconds);

/* One line (no newline) on d's trial for the verbose output and the run
 * report: candidates, their times on the slowest rank, the winner, the
 * overhead; "" if there was no trial. */
void logp_confirm_describe(const logp_comm_state_t *st, const logp_decision_t *d, char *out, size_t n);

/* Keeps what st learned (rules of its decided classes, corrections) for
 * the learned file: called when a communicator goes or the run ends, on
 * the process that writes the file (world rank 0). */
void logp_confirm_keep(const logp_comm_state_t *st);

/* Writes the kept sections to PMPI_LOGP_LEARN (logp_learned_write): at the
 * end of the run, on world rank 0. */
void logp_confirm_write(const char *path);

#endif
