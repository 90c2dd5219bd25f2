/* chunked-rsg: a reduce-scatter by recursive halving and a direct gather,
 * over chunks of the message that overlap, run as dataflow (sched.h:
 * LOGP_FAMILY_DATAFLOW).  Algorithm, cost and measurements:
 * sched_chunked_rsg.c. */
#ifndef LOGP_MODEL_SCHED_CHUNKED_RSG_H
#define LOGP_MODEL_SCHED_CHUNKED_RSG_H

#include "sched.h"

/* Most chunks a message is cut into. */
#define LOGP_CRSG_MAX_CHUNKS 16

/* Largest power of two <= P the schedule runs on: its root takes every
 * block of every chunk directly, C (P' - 1) messages, so beyond this
 * build refuses (LOGP_ERR_ARG) and auto does not consider it. */
#define LOGP_CRSG_MAX_P2 1024

/* The weights of C chunks (1 <= C <= LOGP_CRSG_MAX_CHUNKS): chunk i is
 * w[i] / sum(w) of the message, w[i] = min(2^i, 2^(C-1-i), 8) (small at
 * both ends: the first exchange and the last gather are waited for, the
 * middle ones overlap).  Returns the sum. */
int logp_crsg_weights(int C, int w[LOGP_CRSG_MAX_CHUNKS]);

/* The chunks for an m-byte message on P ranks: on a network that shares
 * interfaces (rendezvous receives free), C ~ sqrt(m (gamma + G) / (7 og)),
 * og = max(o, g), within 2 .. LOGP_CRSG_MAX_CHUNKS (fitted to the
 * simulator, which SMPI follows within 2%: sched_chunked_rsg.c), and 1 where
 * that is below 1 (nothing to pipeline); on LogGP the
 * C of least design formula (its root pays a receive per block). */
int logp_crsg_chunks(const logp_params_t *p, size_t m, int P, int shared);

/* The design formula of C chunks on P ranks for an m-byte message
 * (sched_chunked_rsg.c), `shared` for a network whose rendezvous receives cost
 * nothing (the direct gather's receives) but their `envelope` bytes each
 * on the root's interface (topo.h). */
double logp_crsg_formula(const logp_params_t *p, size_t m, int P, int C, int shared, double envelope);

#endif
