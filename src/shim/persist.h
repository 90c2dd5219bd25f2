/* The persistent collectives that run the shim's schedules (MPI-4
 * MPI_Bcast_init & co, then MPI_Start): a table from the application's
 * request to what each start replays.
 *
 * The application's request is the library's own persistent collective,
 * made at initialization with the same arguments and never started by the
 * shim: a valid request for every call the shim does not answer (and,
 * started by a binding that calls PMPI_Start directly, the library's
 * collective with the same effect).  Each MPI_Start of a request in the
 * table starts the decision's schedule on the engine instead, behind a
 * generalized request of its own (`active`); the completion calls the shim
 * answers (blocking.h) complete that one in the application's request's
 * place, which stays as it was (persistent, inactive again).
 *
 * One table per process; the engine's thread rule applies (below
 * MPI_THREAD_MULTIPLE).  Lookups are O(1) (hashed). */
#ifndef LOGP_SHIM_PERSIST_H
#define LOGP_SHIM_PERSIST_H

#include <stdalign.h>
#include <stddef.h>

#include <mpi.h>

#include "../coll/engine.h"

typedef struct logp_persist {
    MPI_Request handle;        /* the application's request */
    MPI_Request active;        /* the running start's generalized request; MPI_REQUEST_NULL while inactive */
    const void *owner;         /* the communicator state the starts run on (orphaned: NULL) */
    struct logp_persist *next; /* the hash chain */
    size_t size;               /* of `task` */
    alignas(max_align_t) unsigned char task[LOGP_ENGINE_ARG_MAX]; /* the driver's: what a start replays */
} logp_persist_t;

/* Adds the request `handle` with what its starts replay (size bytes, at
 * most LOGP_ENGINE_ARG_MAX) on the communicator state `owner`.  NULL if
 * memory ran out. */
logp_persist_t *logp_persist_add(MPI_Request handle, const void *owner, const void *task, size_t size);

/* The table's entry of `handle`, or NULL (also while the table is empty:
 * one load). */
logp_persist_t *logp_persist_find(MPI_Request handle);

/* Removes p from the table and frees it (it must be inactive). */
void logp_persist_remove(logp_persist_t *p);

/* Marks p started (its generalized request `req`) and done again. */
void logp_persist_started(logp_persist_t *p, MPI_Request req);
void logp_persist_done(logp_persist_t *p);

/* The number of entries (one load). */
int logp_persist_count(void);

/* The number of started entries not yet done (one load: every completion
 * call the shim answers asks it). */
int logp_persist_active(void);

/* The communicator state `owner` goes: its entries' starts become the
 * library's (MPI_Start of an orphaned entry starts the application's
 * request itself). */
void logp_persist_orphan(const void *owner);

#endif
