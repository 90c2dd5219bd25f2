/* The all-to-all schedules of seed 004 (ring, butterfly), one rank at a
 * time (sched.h).  The patterns themselves are alltoall.h. */
#ifndef LOGP_MODEL_SCHED_ALLTOALL_H
#define LOGP_MODEL_SCHED_ALLTOALL_H

#include "sched.h"

extern const logp_family_t logp_family_ring;
extern const logp_family_t logp_family_butterfly;

/* The uniform-model time of `steps` exchanges in which every rank sends
 * one message of bytes[i] and receives one of the same size, all ranks
 * alike (ring, butterfly, and the MPI library's pairwise exchange): the
 * simulator's rules applied to one rank. */
double logp_sched_exchange_time(const logp_params_t *p, int steps, size_t (*bytes)(const void *ctx, int step),
                                const void *ctx);

#endif
