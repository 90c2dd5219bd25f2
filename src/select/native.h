/* A LogGP model of what the MPI library (MPICH 4.0.2's defaults) does, so
 * that `auto` only leaves native when it predicts a gain. */
#ifndef LOGP_SELECT_NATIVE_H
#define LOGP_SELECT_NATIVE_H

#include <stddef.h>

#include "../model/algo.h"
#include "../model/topo.h"

/* Predicted time of the native algorithm MPICH 4.0.2 picks by default for
 * `coll` on topo->P ranks with `bytes` (bcast/reduce: the message;
 * alltoall: one block):
 *   bcast: binomial below 12288 B or 8 ranks; scatter + recursive-doubling
 *     allgather below 512 KiB on powers of two; else scatter + ring allgather.
 *   reduce: binomial below 2048 B or non-commutative; else reduce-scatter
 *     (recursive halving) + binomial gather.
 *   alltoall: Bruck below 256 B with >= 8 ranks; all isend/irecv at once
 *     below 32768 B; else pairwise exchange.
 * Binomial, Bruck and pairwise are priced as our schedules of the same
 * shape (under the layout: simulated if `exact`, else estimated,
 * logp_sim_price); the others by closed forms in the
 * communicator's representative parameters (logp_topo_rep), which know
 * nothing of nodes (a known gap: docs/smpi-hetero/README.md).  Negative
 * on error. */
double logp_native_predict(logp_coll_t coll, size_t bytes, int commutative, const logp_topo_t *topo, int exact);

#endif
