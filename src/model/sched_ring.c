/* ring (registry: ring; all-to-all; seed 004, Sun, Zhang, Song, "Data
 *   redistribution of parallel computing", 2002: the "circle"
 *   algorithm): n - 1 phases; in phase k rank i sends its block for
 *   (i + k) mod n and receives the block of (i - k) mod n.  Per rank n - 1
 *   messages of m bytes: about (n-1) max(2o + L + (m-1)G, gap(m)); the seed
 *   prints T = (n-1) n [max(2o, g) + L - g].
 * allreduce (commutative operators): the message is cut into P parts;
 *   P - 1 steps of a ring reduce-scatter (step t: rank i sends part
 *   i - t to i + 1 and combines part i - t - 1 from i - 1, so that it ends
 *   with part i + 1 reduced), then P - 1 steps of a ring allgather (rank i
 *   passes on part i + 1 - t and receives part i - t).  Each part is
 *   combined once, along the ring, and copied: every rank gets the same
 *   bits.  Bandwidth-optimal: 2 (P-1)/P m G + (P-1)/P m gamma, with
 *   2 (P-1) (2o + L) of latency (Patarasuk and Yuan 2009; Rabenseifner's
 *   ring variant).  `time` runs the steps of a rank with params.h's rules
 *   where every rank is alike (P divides m); otherwise that is the
 *   estimate, and `time` replays every rank's steps (O(P^2), exact).
 * Every rank's operations are a closed form of (rank, phase): O(1) each. */
#include <stdlib.h>

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

static logp_status_t logp_ring_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    if (s->coll == LOGP_COLL_ALLREDUCE)
        s->parts = s->P;
    return LOGP_OK;
}

static int logp_ring_nops(logp_view_t *v)
{
    if (v->s->coll == LOGP_COLL_ALLREDUCE)
        return 1 + 4 * (v->s->P - 1); /* the own contribution first */
    return 2 * (v->s->P - 1);
}

/* Allreduce operation i of `rank`: its own contribution, then two per
 * step, the send first. */
static logp_op_t logp_ring_allreduce_op(const logp_sched_t *s, int rank, int i)
{
    if (i-- == 0)
        return logp_op_whole(LOGP_OP_INIT_OWN, rank, 0, s->bytes);
    int P = s->P, t = i / 2, send = i % 2 == 0, gather = t >= P - 1;
    if (gather)
        t -= P - 1;
    /* part of the send and of the receive of step t, in 0 .. P-1 */
    long part = ((long)rank - t + (gather ? 1 : 0) - (send ? 0 : 1) + 2L * P) % P;
    int peer = send ? (rank + 1) % P : (rank - 1 + P) % P;
    size_t bytes = logp_sched_part_bytes(s->bytes, P, (int)part, 1);
    int kind = send ? LOGP_OP_SEND : gather ? LOGP_OP_RECV : LOGP_OP_RECV_REDUCE;
    return logp_op_parts(kind, peer, LOGP_SIDE_APPEND, bytes, (int)part, 1);
}

static logp_op_t logp_ring_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    int rank = v->rank;
    if (s->coll == LOGP_COLL_ALLREDUCE)
        return logp_ring_allreduce_op(s, rank, i);
    int k = i / 2 + 1, send = i % 2 == 0;
    return logp_op_whole(send ? LOGP_OP_SEND : LOGP_OP_RECV,
                       send ? logp_ring_send_peer(s->P, rank, k) : logp_ring_recv_peer(s->P, rank, k), k, s->bytes);
}

static size_t logp_ring_bytes(const void *ctx, int step)
{
    (void)step;
    return ((const logp_sched_t *)ctx)->bytes;
}

/* Allreduce: every rank alike, each step's part the largest one: exact
 * when P divides the message (every part alike); otherwise parts differ by
 * a byte, ranks differ, and this is an estimate (within 0.6% of the
 * simulator on random parameters). */
static double logp_ring_allreduce_time(const logp_sched_t *s)
{
    const logp_params_t *p = &s->p;
    size_t part = logp_sched_part_bytes(s->bytes, s->P, 0, 1);
    double next_send = 0.0;
    logp_recv_state_t st = {0.0, 0.0};
    for (int i = 0; i < 2 * (s->P - 1); i++) {
        double arrive = logp_params_post(p, part, &st.cpu, &next_send);
        logp_params_take(p, part, i < s->P - 1, arrive, &st);
    }
    return st.cpu;
}

/* Allreduce where P does not divide the message: parts differ by a byte,
 * so ranks differ.  Replayed step by step, as the simulator runs it on the
 * uniform model: at step t every rank posts its send (it waits for its
 * own clocks only), then takes what its left neighbour sent at step t.
 * Exact (check_sim test_closed_forms_equal_sim), O(P^2) arithmetic
 * without the simulator's event queue and matching: a decision at
 * P = 200, 1 MiB, simulated it in 32 ms.  O(P) memory; -1 without it. */
static double logp_ring_allreduce_replay(const logp_sched_t *s)
{
    const logp_params_t *p = &s->p;
    int P = s->P;
    double *clk = malloc(sizeof(double) * 4 * (size_t)P), done = 0.0;
    if (clk == NULL)
        return -1.0;
    double *cpu = clk, *next_send = clk + P, *next_recv = clk + 2 * P, *arrive = clk + 3 * P;
    for (int i = 0; i < 3 * P; i++)
        clk[i] = 0.0;
    for (int t = 0; t < 2 * (P - 1); t++) {
        for (int i = 0; i < P; i++)
            arrive[i] = logp_params_post(p, logp_ring_allreduce_op(s, i, 1 + 2 * t).bytes, &cpu[i], &next_send[i]);
        for (int i = 0; i < P; i++) {
            logp_recv_state_t st = {cpu[i], next_recv[i]};
            logp_params_take(p, logp_ring_allreduce_op(s, i, 2 + 2 * t).bytes, t < P - 1, arrive[(i - 1 + P) % P], &st);
            cpu[i] = st.cpu;
            next_recv[i] = st.next;
        }
    }
    for (int i = 0; i < P; i++)
        done = cpu[i] > done ? cpu[i] : done;
    free(clk);
    return done;
}

static double logp_ring_time(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    if (s->coll == LOGP_COLL_ALLREDUCE)
        return s->bytes % (size_t)s->P == 0 ? logp_ring_allreduce_time(s) : logp_ring_allreduce_replay(s);
    return logp_sched_exchange_time(&s->p, s->P - 1, logp_ring_bytes, s);
}

static double logp_ring_estimate(const logp_sched_t *s, int root, int commutative)
{
    return s->coll == LOGP_COLL_ALLREDUCE ? logp_ring_allreduce_time(s) : logp_ring_time(s, root, commutative);
}

static long logp_ring_count(const logp_sched_t *s)
{
    return s->coll == LOGP_COLL_ALLREDUCE ? s->P * (1 + 4L * (s->P - 1)) : 2L * s->P * (s->P - 1);
}

const logp_family_t logp_family_ring = {
    .build = logp_ring_build,
    .nops = logp_ring_nops,
    .op = logp_ring_op,
    .time = logp_ring_time,
    .estimate = logp_ring_estimate,
    .count = logp_ring_count,
    .flags = LOGP_FAMILY_A2A_DIRECT,
};

