/* Schedules for large messages: the message is cut into parts
 * (logp_op_t.part) that travel separately, one rank at a time (sched.h).
 * Algorithms, costs and sources: sched_large.c. */
#ifndef LOGP_MODEL_SCHED_LARGE_H
#define LOGP_MODEL_SCHED_LARGE_H

#include "sched.h"

extern const logp_family_t logp_family_scatter_allgather;
extern const logp_family_t logp_family_pipeline;
extern const logp_family_t logp_family_rsag;
extern const logp_family_t logp_family_binary_pipeline;
extern const logp_family_t logp_family_two_tree;

/* Most segments a pipelined schedule cuts a message into. */
#define LOGP_PIPELINE_MAX_SEGMENTS 1024

/* The number of segments k of the pipelined chain for an m-byte message
 * on P ranks with parameters p (reduce: `combine`, every hop combines):
 * the integer k in [1, LOGP_PIPELINE_MAX_SEGMENTS] (and k <= m) that
 * minimises the design formula
 *   T(k) = (P - 1) (p2p(s) + c s) + (k - 1) max(gap(s), 2o + c s),
 * s = m / k, c = gamma if combining else 0; about
 *   k* = sqrt((P - 2) m (G + c) / o)
 * where the second term is o + s(G + c) (sched_large.c); a k that divides
 * m (equal segments) when its T is within 0.1% of the least. */
int logp_pipeline_segments(const logp_params_t *p, size_t m, int P, int combine);

/* The design formula T(k) above. */
double logp_pipeline_time(const logp_params_t *p, size_t m, int P, int combine, int k);

/* The number of segments of the pipelined binary tree (binary-pipeline):
 * the k in [1, LOGP_PIPELINE_MAX_SEGMENTS] (k <= m) of least
 *   T(k) = H (p2p(s) + gap(s) + c s) + (k - 1) max(2 gap(s), 3o + 2 c s),
 * H = floor(log2 P), s = m / k, c = gamma if combining else 0 (a divisor
 * of m when within 0.1%). */
int logp_binpipe_segments(const logp_params_t *p, size_t m, int P, int combine);

/* The design formula T(k) above. */
double logp_binpipe_time(const logp_params_t *p, size_t m, int P, int combine, int k);

/* Largest two-tree segment when the message allows: the executors send
 * messages up to this size without waiting for the receiver
 * (LOGP_SENDQ_SERIAL, coll/buffer.h, checked there).  Synchronous
 * segments measured far slower in SMPI (P = 64, 4 MiB: 76 segments of 55
 * KiB 798 us, 384 of 11 KiB 629 us), where LogGP prices them alike. */
#define LOGP_TWOTREE_MAX_SEGMENT ((size_t)16384)

/* The number of segments of two-tree (reduce: `combine`): the k in
 * [ceil(m / LOGP_TWOTREE_MAX_SEGMENT), LOGP_PIPELINE_MAX_SEGMENTS] (k <= m)
 * of least
 *   T(k) = D (p2p(s) + gap(s) + 2 c s) + (k - 1) max(gap(s) + o, 2o + c s),
 * D = 1 + floor(log2 (P - 1)), s = m / k, c = gamma if combining else 0
 * (a divisor of m when within 0.1%). */
int logp_twotree_segments(const logp_params_t *p, size_t m, int P, int combine);

/* The design formula T(k) above. */
double logp_twotree_time(const logp_params_t *p, size_t m, int P, int combine, int k);

/* How many of two-tree's proxy simulations (a shared network's segment
 * count) the calling thread has answered from its memo so far: building
 * the same size again on another communicator costs no simulation. */
unsigned long logp_twotree_memo_hits(void);

#endif
