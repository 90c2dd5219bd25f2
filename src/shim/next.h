/* The next definitions of the entry points the shim answers, so that the
 * shim sits in a chain of PMPI tools instead of hiding calls from them.
 *
 * The shim answers both MPI_X and PMPI_X for its collectives (and for
 * MPI_Session_finalize).  A tool loaded before it calls PMPI_X, which is
 * the shim's; a tool loaded after it is reached from the shim's MPI_X,
 * and its PMPI_X call comes back to the shim's PMPI_X.  Either way the
 * tool sees the application's call once and the shim's algorithms run once.
 * The MPI library's own PMPI_X is the shim's "native" path.
 *
 * Built with LOGP_SHIM_CHAIN (the shared and static libraries); without it
 * (the shim compiled into a program, as under SMPI) the next definitions
 * are the MPI library's PMPI_X and no tool is looked for.
 *
 * No mpi.h here: the entry points (entry.c) forward calls without knowing
 * the MPI library's types (see `foreign`).  Functions are kept as void *
 * (POSIX: dlsym's pointers convert to function pointers). */
#ifndef LOGP_SHIM_NEXT_H
#define LOGP_SHIM_NEXT_H

#include <string.h>

#include "../model/algo.h"

/* How the application reached the shim: which entry point of the
 * collective (the verbose line names it; the library's call for a call
 * the shim does not run is the same entry point's).  An entry point is a
 * form (blocking, nonblocking, persistent) and a count width: the low bit
 * says MPI_Count counts (the MPI-4 MPI_X_c names), so that every form has
 * its large-count twin without a second set of cases. */
typedef enum logp_entry {
    LOGP_ENTRY_BLOCKING = 0,    /* MPI_Bcast, MPI_Reduce, MPI_Alltoall, MPI_Allreduce, MPI_Alltoallv: int counts */
    LOGP_ENTRY_LARGE_COUNT = 1, /* MPI_Bcast_c, ... (MPI-4): MPI_Count counts */
    LOGP_ENTRY_NONBLOCKING = 2, /* MPI_Ibcast, ... (MPI-3): a request */
    LOGP_ENTRY_NONBLOCKING_LARGE_COUNT = 3, /* MPI_Ibcast_c, ... (MPI-4) */
    LOGP_ENTRY_PERSISTENT = 4,  /* MPI_Bcast_init, ... (MPI-4): an info and a request to start */
    LOGP_ENTRY_PERSISTENT_LARGE_COUNT = 5, /* MPI_Bcast_init_c, ... (MPI-4) */
    LOGP_ENTRY_COUNT
} logp_entry_t;

/* The form of `entry`: LOGP_ENTRY_BLOCKING, _NONBLOCKING or _PERSISTENT. */
static inline logp_entry_t logp_next_form(logp_entry_t entry)
{
    return (logp_entry_t)(entry & ~1);
}

/* Nonzero if `entry` takes MPI_Count counts (and MPI_Aint displacements). */
static inline int logp_next_large(logp_entry_t entry)
{
    return entry & 1;
}

/* `form`'s entry point with the count width of `like`. */
static inline logp_entry_t logp_next_entry(logp_entry_t form, logp_entry_t like)
{
    return (logp_entry_t)(form | (like & 1));
}

/* The persistent forms' names: MPI_X_init (MPI-4), or MPIX_X_init where
 * the library has them as an extension only (Open MPI 4.1, mpi-ext.h;
 * configure.ac).  LOGP_INIT_SYMBOL(Bcast) is the exported name. */
#ifdef LOGP_PERSISTENT_MPIX
#define LOGP_INIT_SYMBOL(c) MPIX_##c##_init
#define LOGP_PINIT_SYMBOL(c) PMPIX_##c##_init
#define LOGP_INIT_NAME(c) "MPIX_" #c "_init"
#else
#define LOGP_INIT_SYMBOL(c) MPI_##c##_init
#define LOGP_PINIT_SYMBOL(c) PMPI_##c##_init
#define LOGP_INIT_NAME(c) "MPI_" #c "_init"
#endif

/* The MPI name of collective `coll`'s entry point `entry` ("MPI_Bcast",
 * "MPI_Reduce_c", ...), for the verbose line and the report. */
const char *logp_next_entry_name(logp_coll_t coll, logp_entry_t entry);

typedef struct logp_next {
    /* The MPI library in the process is not the one the shim was built
     * for (an MPICH build preloaded into an Open MPI program, or the
     * reverse): the shim only forwards calls, untouched, to the next
     * definitions (its handles and constants would mean nothing there). */
    int foreign;
    /* By entry point and collective: the next PMPI_X (the MPI library's;
     * with two shims, the next one's), and a tool's MPI_X loaded after the
     * shim or NULL (the shim's MPI_X hands the call to it; it calls PMPI_X,
     * which is the shim's).  The blocking ones are never NULL; the others
     * are NULL where the library has no such entry point (the shim does not
     * export it there).  The shim answers the nonblocking and persistent
     * forms' MPI_X only (its own agreements call the library's
     * PMPI_Iallreduce). */
    void *lib[LOGP_ENTRY_COUNT][LOGP_COLL_COUNT];
    void *tool[LOGP_ENTRY_COUNT][LOGP_COLL_COUNT];
    /* MPI-4: PMPI_Session_finalize (NULL if the library has none) and a
     * tool's MPI_Session_finalize after the shim */
    void *session_finalize, *tool_session_finalize;
} logp_next_t;

/* The next definitions, looked up once (thread-safe; dlsym(RTLD_NEXT)).
 * If the dynamic linker cannot find the library's collectives (a fully
 * static link), the nonblocking form and a wait stand in for them: never
 * the shim's own symbol, which would recurse. */
const logp_next_t *logp_next_get(void);

/* One of the pointers above as a function of `type` (POSIX allows the
 * conversion; memcpy keeps it within C's aliasing rules). */
#define LOGP_NEXT_AS(type, ptr)                                                                                        \
    __extension__({                                                                                                    \
        type f_;                                                                                                       \
        memcpy(&f_, &(ptr), sizeof f_);                                                                                \
        f_;                                                                                                            \
    })

#endif
