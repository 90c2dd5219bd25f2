/* A rank that cannot run its part of a schedule (out of memory for staging)
 * still moves its messages, so that no peer waits for it. */
#ifndef LOGP_COLL_DRAIN_H
#define LOGP_COLL_DRAIN_H

#include <mpi.h>

#include "../model/sched.h"

/* Runs the messages of this rank's operations `v` on `comm` with `tag`, in
 * their order: every send empty, every receive taken and discarded (its
 * truncation is expected).  No memory needed.  The peers see the empty
 * messages as short ones (the executors check every count) and report an
 * error in turn, as after a count mismatch.  Returns rc, the error that
 * made this rank drain. */
int logp_coll_drain(const logp_view_t *v, MPI_Comm comm, int tag, int rc);

#endif
