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

typedef struct logp_params {
    double L;     /* latency: network time of one message, s */
    double o;     /* CPU overhead of one send or one receive, s */
    double g;     /* minimum gap between consecutive sends (or receives), s */
    double G;     /* LogGP gap per byte (1 / bandwidth), s/B */
    double gamma; /* reduction operator cost per byte, s/B */
} logp_params_t;

/* The built-in defaults, used when no tuning file says otherwise:
 * a commodity cluster (L 1.6us, o 0.4us, g 0.6us, G 0.1ns/B, gamma 0.3ns/B). */
logp_params_t logp_params_default(void);

/* 0 if every parameter is finite and >= 0, -1 otherwise. */
int logp_params_check(const logp_params_t *p);

/* Injection time (m - 1) G of an m-byte message (0 for m = 0). */
double logp_params_inj(const logp_params_t *p, size_t bytes);

/* Spacing of consecutive sends (or receives) of m-byte messages: max(g, o + inj(m)). */
double logp_params_gap(const logp_params_t *p, size_t bytes);

/* End-to-end time of one m-byte message: 2o + L + inj(m). */
double logp_params_p2p(const logp_params_t *p, size_t bytes);

#endif
