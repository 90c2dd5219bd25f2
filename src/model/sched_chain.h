/* The k-chain reduce schedules of seed 001 (chain, chain-opt,
 * chain-adaptive), computed for one rank at a time (sched.h). */
#ifndef LOGP_MODEL_SCHED_CHAIN_H
#define LOGP_MODEL_SCHED_CHAIN_H

#include "sched.h"

/* When `rank` has combined its part of its chain (the root: the whole
 * result) in the uniform model, for a chain schedule s; < 0 if s is not
 * one.  O(1) but for the root (O(number of chain lengths)). */
double logp_sched_chain_ready(const logp_sched_t *s, int root, int rank, int commutative);

#endif
