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

/* The MPI entry points with every argument as a word: the next
 * definitions are called through these (entry.c, and shim.c for the
 * library's call; a count word carries an int or an MPI_Count alike).
 * The blocking forms: */
typedef int (*logp_bcast_fn_t)(void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t);
typedef int (*logp_reduce_fn_t)(const void *, void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t,
                                logp_word_t);
typedef int (*logp_alltoall_fn_t)(const void *, logp_word_t, logp_word_t, void *, logp_word_t, logp_word_t,
                                  logp_word_t);
typedef int (*logp_allreduce_fn_t)(const void *, void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t);
typedef int (*logp_alltoallv_fn_t)(const void *, const void *, const void *, logp_word_t, void *, const void *,
                                   const void *, logp_word_t, logp_word_t);
/* the nonblocking forms: the same arguments and a request */
typedef int (*logp_ibcast_fn_t)(void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t, void *);
typedef int (*logp_ireduce_fn_t)(const void *, void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t,
                                 logp_word_t, void *);
typedef int (*logp_ialltoall_fn_t)(const void *, logp_word_t, logp_word_t, void *, logp_word_t, logp_word_t,
                                   logp_word_t, void *);
typedef int (*logp_iallreduce_fn_t)(const void *, void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t, void *);
typedef int (*logp_ialltoallv_fn_t)(const void *, const void *, const void *, logp_word_t, void *, const void *,
                                    const void *, logp_word_t, logp_word_t, void *);
/* the persistent forms: the nonblocking ones' arguments with an info before the request */
typedef int (*logp_bcast_init_fn_t)(void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t, logp_word_t, void *);
typedef int (*logp_reduce_init_fn_t)(const void *, void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t,
                                     logp_word_t, logp_word_t, void *);
typedef int (*logp_alltoall_init_fn_t)(const void *, logp_word_t, logp_word_t, void *, logp_word_t, logp_word_t,
                                       logp_word_t, logp_word_t, void *);
typedef int (*logp_allreduce_init_fn_t)(const void *, void *, logp_word_t, logp_word_t, logp_word_t, logp_word_t,
                                        logp_word_t, void *);
typedef int (*logp_alltoallv_init_fn_t)(const void *, const void *, const void *, logp_word_t, void *, const void *,
                                        const void *, logp_word_t, logp_word_t, logp_word_t, void *);

/* The five collectives at any entry point as the shim runs them (shim.c):
 * the entry point, then the arguments of the MPI call, in order, integers
 * and handles as words (a count is an int for the int-count entry points,
 * whose upper half of the word is undefined, and an MPI_Count for the
 * large-count ones, logp_next_large), after the next definitions (looked
 * up once per call by the caller); last the MPI_Info of a persistent call
 * (0 otherwise) and the MPI_Request * of a nonblocking or persistent one
 * (NULL otherwise). */
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
/* MPI_Alltoallv & co: the arrays as the application passed them (int, or
 * MPI_Count and MPI_Aint for a large-count entry point). */
int logp_shim_alltoallv_words(const logp_next_t *next, logp_entry_t entry, const void *sendbuf, const void *sendcounts,
                              const void *sdispls, logp_word_t sendtype, void *recvbuf, const void *recvcounts,
                              const void *rdispls, logp_word_t recvtype, logp_word_t comm, logp_word_t info,
                              void *request);

/* The same calls handed to `f`, a next definition of the collective at
 * that entry point (the library's, or a tool's): its blocking,
 * nonblocking or persistent form by logp_next_form(entry), the words as
 * they are (one place for what entry.c forwards and the library
 * callbacks of shim.c call). */
int logp_shim_bcast_call(void *f, logp_entry_t entry, void *buffer, logp_word_t count, logp_word_t datatype,
                         logp_word_t root, logp_word_t comm, logp_word_t info, void *request);
int logp_shim_reduce_call(void *f, logp_entry_t entry, const void *sendbuf, void *recvbuf, logp_word_t count,
                          logp_word_t datatype, logp_word_t op, logp_word_t root, logp_word_t comm, logp_word_t info,
                          void *request);
int logp_shim_alltoall_call(void *f, logp_entry_t entry, const void *sendbuf, logp_word_t sendcount,
                            logp_word_t sendtype, void *recvbuf, logp_word_t recvcount, logp_word_t recvtype,
                            logp_word_t comm, logp_word_t info, void *request);
int logp_shim_allreduce_call(void *f, logp_entry_t entry, const void *sendbuf, void *recvbuf, logp_word_t count,
                             logp_word_t datatype, logp_word_t op, logp_word_t comm, logp_word_t info, void *request);
int logp_shim_alltoallv_call(void *f, logp_entry_t entry, const void *sendbuf, const void *sendcounts,
                             const void *sdispls, logp_word_t sendtype, void *recvbuf, const void *recvcounts,
                             const void *rdispls, logp_word_t recvtype, logp_word_t comm, logp_word_t info,
                             void *request);

/* The shim's end of run for MPI_Session_finalize, then the next
 * definition's (`session` is an MPI_Session *). */
int logp_shim_session_finalize_words(const logp_next_t *next, void *session);

#endif
