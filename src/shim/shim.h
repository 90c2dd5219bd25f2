/* The shim's collectives (shim.c) with every argument as a machine word,
 * for the exported entry points (entry.c), which are compiled without
 * mpi.h.
 *
 * Why: an MPICH build preloaded into an Open MPI program (or the reverse)
 * receives handles of another width (Open MPI's are pointers, MPICH's
 * ints).  Passed through prototypes of the build's own mpi.h they would be
 * truncated before the shim could even forward them.  On the LP64 ABIs
 * this library targets (x86-64, AArch64, POWER) every integer or pointer
 * argument travels in its own 64-bit register or stack slot, so reading it
 * as a word and passing the word on is exact for both libraries; the
 * implementations below convert words to the build's own types. */
#ifndef LOGP_SHIM_SHIM_H
#define LOGP_SHIM_SHIM_H

#include <stdint.h>

#include "next.h"

typedef intptr_t logp_word_t;

/* MPI_Bcast / MPI_Reduce / MPI_Alltoall and their large-count forms as the
 * shim runs them (shim.c): the entry point, then the arguments of the MPI
 * call, in order, integers and handles as words (a count is an int for
 * LOGP_ENTRY_BLOCKING, whose upper half of the word is undefined, and an
 * MPI_Count for LOGP_ENTRY_LARGE_COUNT), after the next definitions
 * (looked up once per call by the caller); last the MPI_Info of a
 * persistent call (LOGP_ENTRY_PERSISTENT; 0 otherwise) and the
 * MPI_Request * of a nonblocking or persistent one (NULL otherwise). */
int logp_shim_bcast_words(const logp_next_t *next, logp_entry_t entry, void *buffer, logp_word_t count,
                          logp_word_t datatype, logp_word_t root, logp_word_t comm, logp_word_t info, void *request);
int logp_shim_reduce_words(const logp_next_t *next, logp_entry_t entry, const void *sendbuf, void *recvbuf,
                           logp_word_t count, logp_word_t datatype, logp_word_t op, logp_word_t root, logp_word_t comm,
                           logp_word_t info, void *request);
int logp_shim_alltoall_words(const logp_next_t *next, logp_entry_t entry, const void *sendbuf, logp_word_t sendcount,
                             logp_word_t sendtype, void *recvbuf, logp_word_t recvcount, logp_word_t recvtype,
                             logp_word_t comm, logp_word_t info, void *request);
int logp_shim_allreduce_words(const logp_next_t *next, logp_entry_t entry, const void *sendbuf, void *recvbuf,
                              logp_word_t count, logp_word_t datatype, logp_word_t op, logp_word_t comm,
                              logp_word_t info, void *request);
/* MPI_Alltoallv(_c): the arrays as the application passed them (int, or
 * MPI_Count and MPI_Aint for LOGP_ENTRY_LARGE_COUNT). */
int logp_shim_alltoallv_words(const logp_next_t *next, logp_entry_t entry, const void *sendbuf, const void *sendcounts,
                              const void *sdispls, logp_word_t sendtype, void *recvbuf, const void *recvcounts,
                              const void *rdispls, logp_word_t recvtype, logp_word_t comm, logp_word_t info,
                              void *request);

/* The shim's end of run for MPI_Session_finalize, then the next
 * definition's (`session` is an MPI_Session *). */
int logp_shim_session_finalize_words(const logp_next_t *next, void *session);

#endif
