/* A LogGP model of what the MPI library does by default (MPICH 4.0.2 or
 * Open MPI 4.1's coll/tuned), so that `auto` only leaves native when it
 * predicts a gain. */
#ifndef LOGP_SELECT_NATIVE_H
#define LOGP_SELECT_NATIVE_H

#include <stddef.h>

#include "../model/algo.h"
#include "../model/topo.h"

/* Which library's defaults are modelled.  0 is MPICH, so a zeroed query
 * keeps the historical behaviour. */
typedef enum logp_native_lib {
    LOGP_NATIVE_MPICH = 0,   /* MPICH 4.0.2 (Debian 12), also used for SMPI */
    LOGP_NATIVE_OPENMPI = 1, /* Open MPI 4.1's coll/tuned fixed decisions */
    LOGP_NATIVE_SMPI = 2,    /* SimGrid 3.32 SMPI's mpich selector (as measured:
                                bcast binomial at every size; else MPICH's),
                                its sends as SMPI's (sched.h, LOGP_LIB_SENDS_*) */
    LOGP_NATIVE_LIB_COUNT
} logp_native_lib_t;

/* The library this build was configured for (configure defines
 * LOGP_BUILD_OPENMPI for Open MPI; the SMPI scripts LOGP_BUILD_SMPI;
 * MPICH otherwise). */
logp_native_lib_t logp_native_lib_default(void);

/* "mpich", "openmpi" or "smpi". */
const char *logp_native_lib_name(logp_native_lib_t lib);

/* The library named `name` ("mpich", "openmpi", "smpi"; also "open-mpi", "ompi"),
 * or LOGP_NATIVE_LIB_COUNT if unknown. */
logp_native_lib_t logp_native_lib_lookup(const char *name);

/* Name of the algorithm `lib` runs by default for `coll` on P ranks with
 * `bytes` (bcast/reduce: the message; alltoall: one block), e.g.
 * "binomial", "knomial", "scatter-allgather-ring", "pairwise"; "none" for
 * P <= 1.  Never NULL.
 *   MPICH 4.0.2:
 *   bcast: binomial below 12288 B or 8 ranks; scatter + recursive-doubling
 *     allgather below 512 KiB on powers of two; else scatter + ring allgather.
 *   reduce: binomial below 2048 B or non-commutative; else reduce-scatter
 *     (recursive halving) + binomial gather.
 *   alltoall: Bruck below 256 B with >= 8 ranks; all isend/irecv at once
 *     below 32768 B; else pairwise exchange.
 *   Open MPI 4.1: the fixed decision tables of coll/tuned (by communicator
 *     size and message or block size; unsegmented; knomial radix 4, chain
 *     fan-out 4), transcribed as data in native.c. */
const char *logp_native_algo(logp_native_lib_t lib, logp_coll_t coll, int P, size_t bytes, int commutative);

/* Nonzero if the MPI library `lib` (the one this build runs on, not the
 * one modelled) is known to fail on such a call, so that auto must not
 * hand it to the library: MPICH 4.0.2 (and SMPI, built on MPICH's
 * rules; kept there, untested) crashes in its reduce-scatter-gather path
 * (a commutative reduce above 2 KiB) with MPI_IN_PLACE at a root other
 * than 0, which only the root knows, so every such reduce counts; its
 * MPI_Alltoall and MPI_Alltoallv (and their nonblocking forms) on a
 * 1-rank communicator hang while an MPI_ANY_SOURCE, MPI_ANY_TAG receive is
 * pending on it (reproduced without the shim; docs/design.md, "MPI
 * library quirks").  Open MPI 4.1: none (the same program passes).
 * Depends only on arguments every rank shares. */
int logp_native_unsafe(logp_native_lib_t lib, logp_coll_t coll, int P, int root, size_t bytes, int commutative);

/* Predicted time of that algorithm on topo->P ranks.  Binomial, linear,
 * Bruck and pairwise are priced as our schedules of the same shape (under
 * the layout: simulated if `exact`, else estimated, logp_plan_price); the
 * others by closed forms in the communicator's representative parameters
 * (logp_topo_rep), which know nothing of nodes (a known gap:
 * docs/results/smpi-hetero/README.md).  Negative on error. */
double logp_native_predict(logp_native_lib_t lib, logp_coll_t coll, size_t bytes, int commutative,
                           const logp_topo_t *topo, int exact);

#endif
