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
 * the shim does not run is the same entry point's). */
typedef enum logp_entry {
    LOGP_ENTRY_BLOCKING = 0, /* MPI_Bcast, MPI_Reduce, MPI_Alltoall, MPI_Allreduce: int counts */
    LOGP_ENTRY_LARGE_COUNT,  /* MPI_Bcast_c, ... (MPI-4): MPI_Count counts */
    LOGP_ENTRY_NONBLOCKING,  /* MPI_Ibcast, ... (MPI-3): int counts and a request */
    LOGP_ENTRY_PERSISTENT,   /* MPI_Bcast_init, ... (MPI-4): int counts, an info and a request to start */
    LOGP_ENTRY_COUNT
} logp_entry_t;

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
    /* PMPI_Bcast, PMPI_Reduce, PMPI_Alltoall, PMPI_Allreduce, PMPI_Alltoallv of the MPI
     * library (with two shims, of the next one); never NULL */
    void *bcast, *reduce, *alltoall, *allreduce, *alltoallv;
    /* a tool's MPI_X loaded after the shim, or NULL: the shim's MPI_X
     * hands the call to it (it calls PMPI_X, which is the shim's) */
    void *tool_bcast, *tool_reduce, *tool_alltoall, *tool_allreduce, *tool_alltoallv;
    /* MPI-4 large counts: PMPI_Bcast_c, ... PMPI_Allreduce_c and a tool's
     * MPI_X_c after the shim (all NULL in a build for a library without
     * them: the shim does not export them there) */
    void *bcast_c, *reduce_c, *alltoall_c, *allreduce_c, *alltoallv_c;
    void *tool_bcast_c, *tool_reduce_c, *tool_alltoall_c, *tool_allreduce_c, *tool_alltoallv_c;
    /* nonblocking: PMPI_Ibcast, ... PMPI_Ialltoallv of the library and a
     * tool's MPI_Ibcast, ... after the shim (the shim answers MPI_Ibcast &
     * co only: its own agreements call the library's PMPI_Iallreduce) */
    void *ibcast, *ireduce, *ialltoall, *iallreduce, *ialltoallv;
    void *tool_ibcast, *tool_ireduce, *tool_ialltoall, *tool_iallreduce, *tool_ialltoallv;
    /* persistent (MPI-4): PMPI_Bcast_init, ... PMPI_Alltoallv_init of the
     * library and a tool's MPI_Bcast_init, ... after the shim (NULL in a
     * build for a library without them) */
    void *bcast_init, *reduce_init, *alltoall_init, *allreduce_init, *alltoallv_init;
    void *tool_bcast_init, *tool_reduce_init, *tool_alltoall_init, *tool_allreduce_init, *tool_alltoallv_init;
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
