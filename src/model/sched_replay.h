/* Helpers the part-wise schedules share (scatter-allgather, pipeline,
 * reduce-scatter-gather, binary-pipeline, two-tree): a rank's clocks
 * replayed under the simulator's rules (params.h), so that a family's
 * exact uniform time is the simulator's without running it, and small
 * rank arithmetic.  All static inline: each family file includes this and
 * nothing links against it. */
#ifndef LOGP_MODEL_SCHED_REPLAY_H
#define LOGP_MODEL_SCHED_REPLAY_H

#include "params.h"
#include "sched.h"

/* Exact uniform-model times (the simulator's rules, params.h, replayed
 * rank by rank in dependency order) are evaluated when they take at most
 * this many message steps; beyond it the schedule is priced like a layout
 * (simulator or the design formula, plan.h). */
#define LOGP_REPLAY_EXACT_STEPS (1L << 20)

/* One rank's clocks under the simulator's rules: CPU free, next send,
 * next receive, and when its large sends to one peer have arrived (a send
 * to another peer waits for that: params.h). */
typedef struct {
    double cpu, nsend, nrecv;
    double serial;
    long serial_peer; /* that peer + 1; 0: none */
} logp_replay_clock_t;

/* A b-byte send to `peer` (any number that tells peers apart); returns
 * its arrival. */
static inline double logp_replay_send(const logp_params_t *p, size_t b, long peer, logp_replay_clock_t *c)
{
    if (c->serial_peer != 0 && c->serial_peer != peer + 1 && c->serial > c->nsend)
        c->nsend = c->serial;
    double at = logp_params_post(p, b, &c->cpu, &c->nsend);
    if (b > LOGP_PARAMS_SERIAL_BYTES) {
        c->serial = c->serial_peer == peer + 1 && c->serial > at ? c->serial : at;
        c->serial_peer = peer + 1;
    }
    return at;
}

/* A b-byte receive (combined if `combine`) of a message arriving at `arrive`. */
static inline void logp_replay_recv(const logp_params_t *p, size_t b, int combine, double arrive,
                                    logp_replay_clock_t *c)
{
    logp_recv_state_t rs = {c->cpu, c->nrecv};
    logp_params_take(p, b, combine, arrive, &rs);
    c->cpu = rs.cpu;
    c->nrecv = rs.next;
}

static inline double logp_replay_max(double a, double b)
{
    return a > b ? a : b;
}

static inline long logp_replay_lowbit(long x)
{
    return x & -x;
}

/* Largest power of two <= x (x >= 1). */
static inline long logp_replay_pow2_floor(long x)
{
    long p = 1;
    while (p <= x / 2)
        p *= 2;
    return p;
}

/* An operation on parts [part, part + n) of s's message. */
static inline logp_op_t logp_replay_op(const logp_sched_t *s, int kind, int peer, int arg, long part, long n)
{
    return logp_op_parts(kind, peer, arg, logp_sched_part_bytes(s->bytes, s->parts, (int)part, (int)n), (int)part,
                         (int)n);
}

#endif
