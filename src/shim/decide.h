/* The decision table of a communicator: what a (collective, size class,
 * commutative, unsafe) runs, decided at its first call and looked up in
 * O(1) after; and where auto's confirmation says so (agree.h), decided
 * again, dropped or sent back to what is safe. */
#ifndef LOGP_SHIM_DECIDE_H
#define LOGP_SHIM_DECIDE_H

#include <stddef.h>

#include "agree.h"
#include "state.h"

/* Decision for a call: the algorithm, its schedule and predicted time,
 * and the statistics of the calls that took it.  O(1) once the call's
 * class is decided; the first call of a class decides (a rule of the
 * files, else what the communicator is configured for; auto prices the
 * candidates, builds the winner's schedule and plans its trial), locally:
 * every rank decides alike from the same arguments, and no collective is
 * made (ranks of an erroneous call may pass sizes of different classes).
 * Prints it once when verbose.  Never NULL. */
logp_decision_t *logp_decide_get(logp_comm_state_t *st, logp_coll_t coll, size_t bytes, int commutative,
                                 int unsafe);

/* What every rank does when the first call of a trial found that the
 * ranks' decisions differ (logp_agree_first's action and reason): the
 * model's pick untried, or what needs no agreement and no memory (the
 * library's collective, or where that is unsafe the safe default), and
 * the decision dropped from the table (every rank decides its class again
 * at its next call) where some rank could not keep it or the classes
 * differ.  Prints one verbose line.  Returns the decision the call runs
 * (the communicator's fallback slot after a drop). */
logp_decision_t *logp_decide_disagreed(logp_comm_state_t *st, logp_decision_t *d, logp_agree_action_t action,
                                       const char *why);

/* Applies what an agreement point concluded (logp_agree_after), alike on
 * every rank: after a refit of L and G every auto class is decided again
 * (its old decision a candidate of the new trial, so a refit the
 * measurements do not bear out cannot make a class slower), then a class
 * whose calls drifted is decided again from scratch. */
void logp_decide_agreed(logp_comm_state_t *st, const logp_agree_todo_t *todo);

/* Votes in a row whose agreed class ran a direct exchange anyway, after
 * which an auto communicator stops voting (its alltoallvs are not of the
 * sizes where agreeing pays). */
#define LOGP_DECIDE_VOTE_MISSES 2

/* Whether the ranks of st vote on alltoallv's size class before each
 * blocking call (one small allreduce), so that they decide alike and any
 * algorithm may run (select.h's q->agreed).  Settled at the
 * communicator's first alltoallv decision, alike on every rank: a forced
 * algorithm or a rule that does not mix with the direct exchanges always
 * votes (then bruck runs: it needs the vote); auto votes where the model
 * says agreeing pays at the smallest size (logp_select_agreement_pays, the
 * vote priced as the library's allreduce), until LOGP_DECIDE_VOTE_MISSES
 * votes in a row bought nothing (logp_decide_voted); the library, or one
 * rank, never. */
int logp_decide_votes(logp_comm_state_t *st);

/* After a vote: d is the decision of the agreed class, `library`
 * nonzero if the call runs the library's instead (alltoallv_bruck.h's
 * bound).  Counts a vote that bought nothing (a direct exchange, which
 * needs no vote, or the library's); after LOGP_DECIDE_VOTE_MISSES in a
 * row of an auto communicator, it stops voting and the alltoallv classes
 * that decided what does not mix are decided again without agreement (a
 * direct exchange stays as it is: it needs no vote, and a persistent
 * request may hold it).  Alike on every rank (the same agreed classes). */
void logp_decide_voted(logp_comm_state_t *st, const logp_decision_t *d, int library);

/* st keeps voting for good: a persistent alltoallv holds a schedule that
 * runs only where the ranks agree, which the stop rule would rebuild.
 * Alike on every rank (an initialization's agreed decision). */
void logp_decide_hold_votes(logp_comm_state_t *st);

#endif
