/* bruck (registry: bruck; all-to-all) and butterfly (registry:
 * butterfly), its radix-2 case.
 *
 * bruck: Bruck's index steps in radix r (not a seed: Bruck, Ho, Kipnis,
 *   Upfal, Weathersby, IEEE TPDS 8(11), 1997; the butterfly is r = 2):
 *   D = ceil(log_r n) rounds; in round s (w = r^s) rank i sends, for each
 *   d = 1 .. r - 1 with d w < n, the blocks whose rotated index has digit
 *   s equal to d, packed, to i + d w, all of them before it takes the
 *   round's r - 1 receives.  With o <= g and about n/r blocks of m bytes
 *   per message, a round costs about
 *     (r - 2) gap(b) + 2o + L + inj(b) + (r - 2) max(o, gap(b)),  b = n m / r,
 *   so T ~ D [2o + L + 2(r - 2) g] for small blocks (one latency per round
 *   where the butterfly pays one per bit) and ~ D (r - 1)/r n m G bytes-
 *   wise (less than the butterfly's log2 n n m G / 2 from r = 3).  The
 *   radix is the least of the exact time over r = 2 .. 32
 *   (logp_bruck_radix): on LogGP 3 - 5 for small blocks, on a shared
 *   network (the round's transfers sharing the link) 4 - 16; up to 32 (a
 *   linear-like exchange) for large blocks.  The butterfly runs as bruck
 *   in radix 2.
 * butterfly (seed 004, Sun, Zhang, Song, "Data redistribution of
 *   parallel computing", 2002): log2 n phases each moving n/2 packed
 *   blocks ("structured data exchange": one message per destination per
 *   phase).  For any n we use
 *   Bruck's index steps: ceil(log2 n) phases, phase s moving the blocks
 *   whose rotated index has bit s set to rank i + 2^s.  Per phase one
 *   message of about n/2 blocks: ceil(log2 n) (2o + L + (nm/2 - 1)G).
 * Every rank's operations are a closed form of (rank, phase): O(1) each. */
#include "sched_alltoall.h"

#include <math.h>

#include "alltoall_pattern.h"

double logp_bruck_time(const logp_params_t *p, int P, size_t m, int r)
{
    /* every rank alike: the message that arrives from i - d w left when
     * this rank sent its own d-th message of the digit; the executor's
     * copies (p->copy per byte) around it: every block packed first, each
     * message's blocks copied out before its send and in after its
     * receive, every block unpacked last */
    double next_send = 0.0, arrive[LOGP_BRUCK_RADIX_MAX], all = P > 1 ? (double)P * (double)m * p->copy : 0.0;
    logp_recv_state_t st = {all, 0.0};
    for (long w = 1; w < P; w *= r) {
        int n = logp_bruck_values(P, r, w);
        for (int d = 1; d <= n; d++) {
            size_t b = (size_t)logp_bruck_nblocks(P, w, r, d) * m;
            st.cpu += (double)b * p->copy;
            arrive[d - 1] = logp_params_post(p, b, &st.cpu, &next_send);
        }
        for (int d = 1; d <= n; d++) {
            size_t b = (size_t)logp_bruck_nblocks(P, w, r, d) * m;
            logp_params_take(p, b, 0, arrive[d - 1], &st);
            st.cpu += (double)b * p->copy;
        }
    }
    return st.cpu + all;
}

double logp_bruck_time_shared(const logp_params_t *p, int P, size_t m, int r)
{
    /* every rank alike, so every interface carries the same flows at the
     * same times: a round's flows out of a rank (and into it) share its
     * interface equally while in flight (processor sharing), each entering
     * after its send's overhead and the latency */
    double all = P > 1 ? (double)P * (double)m * p->copy : 0.0; /* packing and unpacking, as logp_bruck_time */
    double cpu = all, next_send = 0.0, next_recv = 0.0, gap = p->g > p->o ? p->g : p->o;
    double enter[LOGP_BRUCK_RADIX_MAX], work[LOGP_BRUCK_RADIX_MAX], done[LOGP_BRUCK_RADIX_MAX];
    for (long w = 1; w < P; w *= r) {
        int n = logp_bruck_values(P, r, w), in = 0, left = n;
        for (int d = 0; d < n; d++) {
            cpu += (double)logp_bruck_nblocks(P, w, r, d + 1) * (double)m * p->copy;
            double start = cpu > next_send ? cpu : next_send;
            cpu = start + p->o;
            next_send = start + gap;
            enter[d] = start + p->o + p->L;
            work[d] = logp_params_inj(p, (size_t)logp_bruck_nblocks(P, w, r, d + 1) * m);
            done[d] = -1.0;
        }
        for (double t = enter[0]; left > 0;) {
            while (in < n && enter[in] <= t)
                in++;
            int k = 0;
            double least = 0.0;
            for (int d = 0; d < in; d++)
                if (done[d] < 0.0 && (k++ == 0 || work[d] < least))
                    least = work[d];
            if (k == 0) { /* nothing in flight until the next flow enters */
                t = enter[in];
                continue;
            }
            double end = t + least * k, until = in < n && enter[in] < end ? enter[in] : end;
            for (int d = 0; d < in; d++) {
                if (done[d] >= 0.0)
                    continue;
                if (until == end && work[d] <= least) { /* the least work left ends first */
                    done[d] = end;
                    left--;
                } else {
                    work[d] -= (until - t) / k;
                }
            }
            t = until;
        }
        for (int d = 0; d < n; d++) { /* the bytes are in: each receive costs o, max(g, o) apart */
            double start = cpu > next_recv ? cpu : next_recv;
            start = start > done[d] ? start : done[d];
            cpu = start + p->o + (double)logp_bruck_nblocks(P, w, r, d + 1) * (double)m * p->copy;
            next_recv = start + gap;
        }
    }
    return cpu + all;
}

int logp_bruck_radix(const logp_params_t *p, int P, size_t m, int shared)
{
    double (*time)(const logp_params_t *, int, size_t, int) = shared ? logp_bruck_time_shared : logp_bruck_time;
    int best = 2, hi = P < LOGP_BRUCK_RADIX_MAX ? P : LOGP_BRUCK_RADIX_MAX;
    double best_t = time(p, P, m, 2);
    for (int r = 3; r <= hi; r++) {
        double t = time(p, P, m, r);
        if (t < best_t) {
            best = r;
            best_t = t;
        }
    }
    return best;
}

/* The radix: forced, or the least time for the machine's network (on a
 * shared one the r - 1 transfers of a round share the link: larger radices
 * than LogGP's one injection at a time would pick; SMPI agrees:
 * docs/results/measurements-in-code.md, "bruck: radix on a shared
 * network"). */
static logp_status_t logp_bruck_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    if (o->radix > 1)
        s->k = o->radix < LOGP_BRUCK_RADIX_MAX ? o->radix : LOGP_BRUCK_RADIX_MAX;
    else
        s->k = logp_bruck_radix(&s->p, s->P, s->bytes, s->topo.shared);
    return LOGP_OK;
}

/* Operations per digit but the last: r - 1 sends, then r - 1 receives. */
static int logp_bruck_nops(logp_view_t *v)
{
    const logp_sched_t *s = v->s;
    int D = logp_bruck_digits(s->P, s->k);
    if (D == 0)
        return 0;
    long w = 1;
    for (int i = 1; i < D; i++)
        w *= s->k;
    v->node.c[0] = w; /* the last digit's weight and values, and the digits */
    v->node.c[1] = logp_bruck_values(s->P, s->k, w);
    v->node.c[2] = D;
    return 2 * ((D - 1) * (s->k - 1) + (int)v->node.c[1]);
}

static logp_op_t logp_bruck_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    int r = s->k, P = s->P, digit = i / (2 * (r - 1)), n = r - 1, last = (int)v->node.c[2] - 1;
    long w = 1;
    if (digit >= last) { /* the last digit: its weight and values from the cursor */
        digit = last;
        w = v->node.c[0];
        n = (int)v->node.c[1];
    } else {
        for (int k = 0; k < digit; k++)
            w *= r;
    }
    i -= 2 * digit * (r - 1);
    int send = i < n, d = send ? i + 1 : i - n + 1;
    long dist = d * w; /* < P */
    size_t bytes = (size_t)logp_bruck_nblocks(P, w, r, d) * s->bytes;
    return logp_op_whole(send ? LOGP_OP_SEND : LOGP_OP_RECV, (int)(send ? (v->rank + dist) % P : (v->rank - dist + P) % P),
                         digit, bytes);
}

static double logp_bruck_sched_time(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    return logp_bruck_time(&s->p, s->P, s->bytes, s->k);
}

/* On a shared network (where only the simulator is exact) the same
 * ranks-alike replay with the round's transfers sharing the link. */
static double logp_bruck_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    if (s->topo.shared)
        return logp_bruck_time_shared(&s->p, s->P, s->bytes, s->k);
    return logp_bruck_time(&s->p, s->P, s->bytes, s->k);
}

static long logp_bruck_count(const logp_sched_t *s)
{
    return 2L * s->P * (s->k - 1) * logp_bruck_digits(s->P, s->k);
}

const logp_family_t logp_family_bruck = {
    .build = logp_bruck_build,
    .nops = logp_bruck_nops,
    .op = logp_bruck_op,
    .time = logp_bruck_sched_time,
    .estimate = logp_bruck_estimate,
    .count = logp_bruck_count,
    .flags = LOGP_FAMILY_A2A_BRUCK,
};

/* Seed 004's butterfly is bruck in radix 2: the same operations, times and
 * executor (one message of about n/2 blocks per bit). */
static logp_status_t logp_butterfly_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    s->k = 2;
    return LOGP_OK;
}

const logp_family_t logp_family_butterfly = {
    .build = logp_butterfly_build,
    .nops = logp_bruck_nops,
    .op = logp_bruck_op,
    .time = logp_bruck_sched_time,
    .count = logp_bruck_count,
    .flags = LOGP_FAMILY_A2A_BRUCK,
};

