/* All-to-all exchange patterns of seed 004 as pure rank arithmetic. */
#ifndef LOGP_MODEL_ALLTOALL_PATTERN_H
#define LOGP_MODEL_ALLTOALL_PATTERN_H

#include "params.h"

/* Ring phase k (1 <= k < P) of rank r: sends its block for (r + k) mod P
 * there and receives the block of (r - k) mod P from there. */
int logp_ring_send_peer(int P, int r, int k);
int logp_ring_recv_peer(int P, int r, int k);

/* Butterfly (Bruck index) steps: ceil(log2 P).  Step s moves every block
 * whose rotated index j has bit s set, 2^s ranks forward: to (r + 2^s) mod P,
 * from (r - 2^s) mod P.  For P a power of two this is the seed's log2 n
 * phases of n/2 blocks each. */
int logp_butterfly_steps(int P);
int logp_butterfly_nblocks(int P, int step);

/* Bruck's index algorithm in radix r >= 2 (the butterfly is r = 2):
 * digit s (weight w = r^s < P) moves, for each digit value d = 1 .. r - 1
 * with d w < P, the blocks whose rotated index j has digit s equal to d
 * (logp_bruck_carries) d w ranks forward, all r - 1 messages at once.
 * After every digit a block has moved j ranks: it is home.
 * logp_bruck_digits: how many digits (weights below P); 0 for P <= 1. */
int logp_bruck_digits(int P, int r);

/* The digit values d >= 1 of the digit of weight w that move blocks
 * (d w < P): min(r - 1, (P - 1) / w). */
int logp_bruck_values(int P, int r, long w);

/* Whether slot j goes in the message of digit value d at weight w. */
static inline int logp_bruck_carries(long j, long w, int r, int d)
{
    return (j / w) % r == d;
}

/* How many slots j in [0, P) that message carries. */
int logp_bruck_nblocks(int P, long w, int r, int d);

/* Seed 004 closed forms (LogP, one-word blocks, n = P):
 * ring T = (n-1) n [max(2o, g) + L - g] as printed in section 2.1, and the
 * butterfly on a butterfly network T = [max(2o, g) + L - g] 2 log2 n. */
double logp_alltoall_seed_ring(const logp_params_t *p, int P);
double logp_alltoall_seed_butterfly(const logp_params_t *p, int P);

#endif
