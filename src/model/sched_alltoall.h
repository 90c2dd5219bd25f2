/* The all-to-all schedules of seed 004 (ring: sched_ring.c; butterfly:
 * sched_bruck.c), Bruck's in any radix (sched_bruck.c) and the linear
 * exchange (sched_linear.c), one rank at a time (sched.h).  The patterns
 * themselves are alltoall_pattern.h. */
#ifndef LOGP_MODEL_SCHED_ALLTOALL_H
#define LOGP_MODEL_SCHED_ALLTOALL_H

#include "sched.h"

/* Largest radix of the bruck all-to-all: r - 1 messages of a digit are in
 * flight together (two requests each). */
#define LOGP_BRUCK_RADIX_MAX 32

/* Uniform-model time of Bruck's all-to-all of m-byte blocks on P ranks in
 * radix r (2 <= r <= LOGP_BRUCK_RADIX_MAX): the simulator's rules applied
 * to one rank (all alike), O(r log_r P). */
double logp_bruck_time(const logp_params_t *p, int P, size_t m, int r);

/* The same on a shared network (net.h) of ranks alike: a round's
 * transfers share each interface equally while in flight; equal to the
 * simulator's shared network for one uniform node, O(r^2 log_r P). */
double logp_bruck_time_shared(const logp_params_t *p, int P, size_t m, int r);

/* The radix the bruck all-to-all uses: the least logp_bruck_time (or, if
 * `shared`, logp_bruck_time_shared) over 2 .. min(P, LOGP_BRUCK_RADIX_MAX),
 * the smaller on a tie. */
int logp_bruck_radix(const logp_params_t *p, int P, size_t m, int shared);

/* Largest window of the linear exchange: destinations whose send and
 * receive are in flight together (two requests each; the direct
 * executor keeps 64). */
#define LOGP_LINEAR_WINDOW_MAX 32

/* Uniform-model time of the linear exchange of m-byte blocks on P ranks
 * in windows of w destinations (1 <= w <= LOGP_LINEAR_WINDOW_MAX): the
 * simulator's rules applied to one rank, O(P). */
double logp_linear_time(const logp_params_t *p, int P, size_t m, int w);

/* The window the linear exchange uses: the smallest whose time is within
 * 1% of the largest window's (O(P log w)). */
int logp_linear_window(const logp_params_t *p, int P, size_t m);

/* The uniform-model time of `steps` exchanges in which every rank sends
 * one message of bytes[i] and receives one of the same size, all ranks
 * alike (ring, and the MPI library's pairwise exchange): the
 * simulator's rules applied to one rank. */
double logp_sched_exchange_time(const logp_params_t *p, int steps, size_t (*bytes)(const void *ctx, int step),
                                const void *ctx);

#endif
