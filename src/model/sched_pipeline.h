/* pipeline (sched_pipeline.c): the segment count of the pipelined chain,
 * and the count search the other segmented families share. */
#ifndef LOGP_MODEL_SCHED_PIPELINE_H
#define LOGP_MODEL_SCHED_PIPELINE_H

#include <stddef.h>

#include "params.h"

/* Most segments a pipelined schedule cuts a message into. */
#define LOGP_PIPELINE_MAX_SEGMENTS 1024

/* The number of segments k of the pipelined chain for an m-byte message
 * on P ranks with parameters p (reduce: `combine`, every hop combines):
 * the integer k in [1, LOGP_PIPELINE_MAX_SEGMENTS] (and k <= m) that
 * minimises the design formula
 *   T(k) = (P - 1) (p2p(s) + c s) + (k - 1) max(gap(s), 2o + c s),
 * s = m / k, c = gamma if combining else 0; about
 *   k* = sqrt((P - 2) m (G + c) / o)
 * where the second term is o + s(G + c) (sched_pipeline.c); a k that
 * divides m (equal segments) when its T is within 0.1% of the least. */
int logp_pipeline_segments(const logp_params_t *p, size_t m, int P, int combine);

/* The design formula T(k) above. */
double logp_pipeline_time(const logp_params_t *p, size_t m, int P, int combine, int k);

/* The k in [kmin, LOGP_PIPELINE_MAX_SEGMENTS] (k <= m; kmin >= 1 wins)
 * of least time(p, m, P, combine, k), a divisor of m when within 0.1%:
 * the search of every segmented family's count. */
int logp_pipeline_segments_from(double (*time)(const logp_params_t *, size_t, int, int, int), const logp_params_t *p,
                                size_t m, int P, int combine, int kmin);

/* A forced segment count k clamped to [1, LOGP_PIPELINE_MAX_SEGMENTS]
 * and to at most one segment per byte of m. */
int logp_pipeline_segments_forced(size_t m, int k);

#endif
