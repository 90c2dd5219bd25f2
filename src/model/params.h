/* LogP / LogGP machine parameters and the cost convention of the whole library.
 *
 * All times are in seconds (doubles), per-byte costs in seconds per byte.
 *
 * Cost convention (used by the simulator, every closed form and every tree
 * builder; stated once here):
 *   An m-byte message sent by rank s to rank r, starting at time t:
 *     - the sender's CPU is busy during [t, t + o];
 *     - the last byte leaves at t + o + inj(m), inj(m) = (m - 1) G for m >= 1
 *       (0 for m = 0);
 *     - it arrives at r at t + o + inj(m) + L;
 *     - the receiver's CPU is busy o from when it takes the message, then
 *       m gamma more if it combines the payload with a reduction operator.
 *   Consecutive sends of one rank start at least gap(m) = max(g, o + inj(m))
 *   apart, and so do consecutive receives.
 *   One point-to-point message therefore costs 2o + L + inj(m) end to end,
 *   the seeds' L + 2o for one-word messages (seed 000 section 1, seed 001 s.3). */
#ifndef LOGP_MODEL_PARAMS_H
#define LOGP_MODEL_PARAMS_H

#include <stddef.h>

#include "status.h"

typedef struct logp_params {
    double L;     /* latency: network time of one message, s */
    double o;     /* CPU overhead of one send or one receive, s */
    double g;     /* minimum gap between consecutive sends (or receives), s */
    double G;     /* LogGP gap per byte (1 / bandwidth), s/B */
    double gamma; /* reduction operator cost per byte, s/B */
    double copy;  /* a local memory copy per byte, s/B: the packing and unpacking that
                     schedules moving packed blocks do besides their messages (Bruck's
                     all-to-all; MPICH's large reduce copies its send buffer:
                     select/native.c); 0 where local work is free (a simulator that
                     does not simulate computation) */
    double fresh; /* first touch of memory allocated for one call, per byte, s/B: the page
                     faults and the kernel's zeroing of pages a library's temporary buffers
                     get back from the allocator at every call (MPICH's large reduce:
                     select/native.c); 0 where local work is free */
} logp_params_t;

/* The revision of the model's prices: raise it with every change that
 * moves a price (a schedule's cost, a native library's model, a term such
 * as copy or fresh).  Learned corrections are measured / predicted ratios,
 * so those written under another revision are dropped
 * (select/confirm.h, logp_confirm_basis). */
#define LOGP_MODEL_REVISION 20261202

/* The built-in defaults, used when no tuning file says otherwise:
 * a commodity cluster (L 1.6us, o 0.4us, g 0.6us, G 0.1ns/B, gamma 0.3ns/B,
 * copy 0.05ns/B, fresh 0.25ns/B; the last two 0 in the SMPI build,
 * LOGP_BUILD_SMPI, whose simulations leave local work out). */
logp_params_t logp_params_default(void);

/* LOGP_OK if every parameter is finite and >= 0, LOGP_ERR_ARG otherwise. */
logp_status_t logp_params_check(const logp_params_t *p);

/* Injection time (m - 1) G of an m-byte message (0 for m = 0). */
double logp_params_inj(const logp_params_t *p, size_t bytes);

/* Spacing of consecutive sends (or receives) of m-byte messages: max(g, o + inj(m)). */
double logp_params_gap(const logp_params_t *p, size_t bytes);

/* Sends of more than this many bytes are synchronous (complete once
 * received), and the bcast and reduce executors never let one be in
 * flight beside a send to another peer (src/coll/buffer.h, except for
 * LOGP_FAMILY_CONCURRENT schedules): a rank's next send to another peer
 * starts only when the large one has arrived.  The simulator and the
 * closed forms price that rule. */
#define LOGP_PARAMS_SERIAL_BYTES ((size_t)16384)

/* Spacing of consecutive m-byte sends of one rank to different peers
 * under that rule: gap(m), and for a large message at least o + inj(m) +
 * L (the previous one has arrived). */
double logp_params_send_gap(const logp_params_t *p, size_t bytes);

/* End-to-end time of one m-byte message: 2o + L + inj(m). */
double logp_params_p2p(const logp_params_t *p, size_t bytes);

/* A rank's receive side: when its CPU is free and when it may take its
 * next message.  The simulator and every closed form advance it with the
 * same two functions, so that they agree to the last bit where they can. */
typedef struct logp_recv_state {
    double cpu;  /* CPU free */
    double next; /* earliest start of the next receive */
} logp_recv_state_t;

/* Takes an m-byte message whose last byte arrives at `arrive`: the receive
 * starts at max(cpu, next, arrive), costs o (plus m gamma if `combine`),
 * and the next one may start a gap(m) later.  Returns the start. */
double logp_params_take(const logp_params_t *p, size_t bytes, int combine, double arrive, logp_recv_state_t *st);

/* A rank's send side: it may start a send when its CPU is free and its
 * previous send is a gap(m) behind.  Starts an m-byte send at the earliest
 * such time (CPU busy o), and returns when the message's last byte
 * arrives: start + o + inj(m) + L. */
double logp_params_post(const logp_params_t *p, size_t bytes, double *cpu, double *next_send);

/* logp_params_take of n >= 1 messages that all arrive at `arrive`, the
 * first one combined or not (`first_combine`), the others combined if
 * `combine`: O(1).  (After the first, each starts max(o [+ m gamma], gap)
 * after the previous one.) */
void logp_params_take_equal(const logp_params_t *p, size_t bytes, int first_combine, int combine, double arrive,
                            long n, logp_recv_state_t *st);

#endif
