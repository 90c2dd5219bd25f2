/* The simulator's message matching (sim_match.c): every receive paired
 * up front with its send, so that the event loop needs no mailbox. */
#ifndef LOGP_MODEL_SIM_MATCH_H
#define LOGP_MODEL_SIM_MATCH_H

#include "sched.h"
#include "status.h"

/* For the n operations op[0 .. n) of s (owner[i]: the rank of op i),
 * match[i]: for a receive, its send; for a send, its receive; -1 for
 * local work.  FIFO per pair and stream (logp_op_stream) in program
 * order.  link[0 .. n) is scratch.  LOGP_OK, LOGP_ERR_NOMEM, or
 * LOGP_ERR_DEADLOCK if a message has no partner. */
logp_status_t logp_sim_match(const logp_sched_t *s, long n, const logp_op_t *op, const int *owner, long *match,
                             long *link);

#endif
