/* All-to-all (data redistribution / distributed transpose): seed 004 (Sun,
 * Zhang, Song, "Data redistribution of parallel computing", 2002).
 *
 * ring ("circle"): n - 1 phases; in phase k rank i sends its block for
 *   (i + k) mod n and receives from (i - k) mod n.  Per rank n - 1 messages of
 *   m bytes: about (n-1) (2o + L + (m-1)G) when phases do not overlap, down
 *   to (n-1) gap(m) + 2o + L when they pipeline; the seed prints
 *   T = (n-1) n [max(2o, g) + L - g].
 * butterfly: log2 n phases each moving n/2 packed blocks ("structured data
 *   exchange": one message per destination per phase).  For any n we use
 *   Bruck's index steps: ceil(log2 n) phases, phase s moving the blocks whose
 *   rotated index has bit s set to rank i + 2^s.  Per phase one message of
 *   about n/2 blocks: ceil(log2 n) (2o + L + (nm/2 - 1)G).
 * bruck: the same index steps in radix r (Bruck, Ho, Kipnis, Upfal,
 *   Weathersby, "Efficient algorithms for all-to-all communications in
 *   multiport message-passing systems", IEEE TPDS 8(11), 1997):
 *   ceil(log_r n) digits of r - 1 messages of about n/r blocks each. */
#include "alltoall_pattern.h"

int logp_ring_send_peer(int P, int r, int k)
{
    return (r + k) % P;
}

int logp_ring_recv_peer(int P, int r, int k)
{
    return (r - k % P + P) % P;
}

int logp_butterfly_steps(int P)
{
    int s = 0;
    while (s < 31 && (1 << s) < P)
        s++;
    return s;
}

int logp_butterfly_nblocks(int P, int step)
{
    return logp_bruck_nblocks(P, 1L << step, 2, 1); /* j in [0, P) with bit `step` set */
}

int logp_bruck_digits(int P, int r)
{
    int s = 0;
    for (long w = 1; w < P; w *= r)
        s++;
    return s;
}

int logp_bruck_values(int P, int r, long w)
{
    long n = ((long)P - 1) / w;
    return (int)(n < r - 1 ? n : r - 1);
}

int logp_bruck_nblocks(int P, long w, int r, int d)
{
    /* j = q r w + d w + e (0 <= e < w): w per full period, then the tail */
    long period = (long)r * w, full = P / period, rest = P % period - (long)d * w;
    return (int)(full * w + (rest <= 0 ? 0 : rest < w ? rest : w));
}

static double logp_a2a_seed_step(const logp_params_t *p)
{
    double m = 2.0 * p->o > p->g ? 2.0 * p->o : p->g;
    return m + p->L - p->g;
}

double logp_alltoall_seed_ring(const logp_params_t *p, int P)
{
    return (double)(P - 1) * (double)P * logp_a2a_seed_step(p);
}

double logp_alltoall_seed_butterfly(const logp_params_t *p, int P)
{
    int r = logp_butterfly_steps(P);
    return logp_a2a_seed_step(p) * 2.0 * (double)r;
}
