/* The shim's own work per call, timed (PMPI_LOGP_DISPATCH=1): from the
 * entry of MPI_Bcast / MPI_Reduce / MPI_Alltoall to the start of the
 * executor or of the MPI library's call (argument checks, state and
 * decision lookup, the rank's view of the schedule), and, separately, the
 * decisions (the first call of a size class: pricing the candidates and
 * building the winner's schedule).  Printed at the end of the run by rank
 * 0 of MPI_COMM_WORLD, one line per collective:
 *   dispatch coll=bcast P=1024 calls=N median_us=X p99_us=Y first_ms=Z warm_median_us=W
 * Wall-clock time between two points of one rank with no communication in
 * between (also under SMPI, which charges no simulated time for it).
 * warm_median_us: the call's lookups (datatype size, state, decision, the
 * rank's view) timed again right after the call's own, so with the code
 * and data in cache: the shim's instructions alone.  The two differ by
 * what the memory hierarchy adds when other work ran between two calls
 * (under SMPI, hundreds of simulated ranks in one thread, each with its
 * own copy of the program's code and data). */
#ifndef LOGP_SHIM_DISPATCH_H
#define LOGP_SHIM_DISPATCH_H

#include "../model/algo.h"

/* Starts recording (allocates the sample buffers); idempotent. */
void logp_dispatch_enable(void);

/* Nonzero when recording. */
int logp_dispatch_on(void);

/* A monotonic clock, seconds. */
double logp_dispatch_now(void);

/* One call of `coll` on P ranks spent `seconds` in the shim, and `warm`
 * seconds repeating its lookups; calls that made a decision are left out
 * (they are counted by logp_dispatch_decided). */
void logp_dispatch_call(logp_coll_t coll, int P, double seconds, double warm);

/* The calling thread's current call made a decision that took `seconds`. */
void logp_dispatch_decided(logp_coll_t coll, double seconds);

/* Prints the lines above for every collective that was called. */
void logp_dispatch_print(void);

#endif
