/* All-to-all exchange patterns of seed 004 as pure rank arithmetic. */
#ifndef LOGP_MODEL_ALLTOALL_H
#define LOGP_MODEL_ALLTOALL_H

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

/* Seed 004 closed forms (LogP, one-word blocks, n = P):
 * ring T = (n-1) n [max(2o, g) + L - g] as printed in section 2.1, and the
 * butterfly on a butterfly network T = [max(2o, g) + L - g] 2 log2 n. */
double logp_alltoall_seed_ring(const logp_params_t *p, int P);
double logp_alltoall_seed_butterfly(const logp_params_t *p, int P);

#endif
