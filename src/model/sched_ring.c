/* ring (registry: ring; all-to-all; seed 004, Sun, Zhang, Song, "Data
 *   redistribution of parallel computing", 2002: the "circle"
 *   algorithm): n - 1 phases; in phase k rank i sends its block for
 *   (i + k) mod n and receives the block of (i - k) mod n.  Per rank n - 1
 *   messages of m bytes: about (n-1) max(2o + L + (m-1)G, gap(m)); the seed
 *   prints T = (n-1) n [max(2o, g) + L - g].
 * Every rank's operations are a closed form of (rank, phase): O(1) each. */
#include "sched_alltoall.h"

#include "alltoall_pattern.h"

double logp_sched_exchange_time(const logp_params_t *p, int steps, size_t (*bytes)(const void *ctx, int step),
                                const void *ctx)
{
    /* every rank alike: what arrives from the left is what this rank sent */
    double next_send = 0.0;
    logp_recv_state_t st = {0.0, 0.0};
    for (int i = 0; i < steps; i++) {
        size_t m = bytes(ctx, i);
        double arrive = logp_params_post(p, m, &st.cpu, &next_send);
        logp_params_take(p, m, 0, arrive, &st);
    }
    return st.cpu;
}

static int logp_ring_nops(logp_view_t *v)
{
    return 2 * (v->s->P - 1);
}

static logp_op_t logp_ring_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    int rank = v->rank;
    int k = i / 2 + 1, send = i % 2 == 0;
    return logp_op_whole(send ? LOGP_OP_SEND : LOGP_OP_RECV,
                       send ? logp_ring_send_peer(s->P, rank, k) : logp_ring_recv_peer(s->P, rank, k), k, s->bytes);
}

static size_t logp_ring_bytes(const void *ctx, int step)
{
    (void)step;
    return ((const logp_sched_t *)ctx)->bytes;
}

static double logp_ring_time(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    return logp_sched_exchange_time(&s->p, s->P - 1, logp_ring_bytes, s);
}

static long logp_ring_count(const logp_sched_t *s)
{
    return 2L * s->P * (s->P - 1);
}

const logp_family_t logp_family_ring = {
    .nops = logp_ring_nops,
    .op = logp_ring_op,
    .time = logp_ring_time,
    .count = logp_ring_count,
    .flags = LOGP_FAMILY_A2A_DIRECT,
};

