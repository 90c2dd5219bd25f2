/* binary-pipeline (sched_binary_pipeline.c): its segment count. */
#ifndef LOGP_MODEL_SCHED_BINARY_PIPELINE_H
#define LOGP_MODEL_SCHED_BINARY_PIPELINE_H

#include <stddef.h>

#include "params.h"

/* The number of segments of the pipelined binary tree (binary-pipeline):
 * the k in [1, LOGP_PIPELINE_MAX_SEGMENTS] (k <= m) of least
 *   T(k) = H (p2p(s) + gap(s) + c s) + (k - 1) max(2 gap(s), 3o + 2 c s),
 * H = floor(log2 P), s = m / k, c = gamma if combining else 0 (a divisor
 * of m when within 0.1%). */
int logp_binpipe_segments(const logp_params_t *p, size_t m, int P, int combine);

/* The design formula T(k) above. */
double logp_binpipe_time(const logp_params_t *p, size_t m, int P, int combine, int k);

#endif
