/* A barrier of the shim's own on its private communicator (PMPI only). */
#ifndef LOGP_COLL_BARRIER_H
#define LOGP_COLL_BARRIER_H

#include <mpi.h>

/* Dissemination barrier: ceil(log2 P) rounds, in round k rank r sends an
 * empty message to r + 2^k and receives one from r - 2^k (mod P).  Every
 * rank leaves within about one message time of the others, so calls
 * timed from its exit start together (a tree barrier releases its root
 * first, by the tree's depth).  Uses `tag` on `comm`: ordered before and
 * after the collectives that use it, as MPI keeps messages of one source
 * and tag in order.  Returns an MPI error code. */
int logp_coll_barrier(MPI_Comm comm, int tag);

/* The same barrier carrying v[0 .. n): every message holds the sender's
 * v, and a receiver keeps the element-wise maximum, so after the last
 * round every rank holds the maximum over all ranks (dissemination
 * reaches every rank from every other; the maximum ignores repeats).  n <=
 * LOGP_BARRIER_MAX_INTS.  Returns an MPI error code (v then partial),
 * MPI_ERR_OTHER if a message held fewer than n ints. */
int logp_coll_barrier_max(MPI_Comm comm, int tag, int *v, int n);

#define LOGP_BARRIER_MAX_INTS 40

#endif
