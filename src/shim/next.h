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
 * are the MPI library's PMPI_X and no tool is looked for. */
#ifndef LOGP_SHIM_NEXT_H
#define LOGP_SHIM_NEXT_H

#include <mpi.h>

typedef struct logp_next {
    /* the MPI library's collectives (or, with two shims, the next one's) */
    int (*bcast)(void *, int, MPI_Datatype, int, MPI_Comm);
    int (*reduce)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
    int (*alltoall)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
    /* a tool's MPI_X loaded after the shim, or NULL: the shim's MPI_X
     * hands the call to it (it calls PMPI_X, which is the shim's) */
    int (*tool_bcast)(void *, int, MPI_Datatype, int, MPI_Comm);
    int (*tool_reduce)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
    int (*tool_alltoall)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
#if MPI_VERSION >= 4
    int (*session_finalize)(MPI_Session *);
    int (*tool_session_finalize)(MPI_Session *);
#endif
} logp_next_t;

/* The next definitions, looked up once (thread-safe; dlsym(RTLD_NEXT)).
 * Never NULL members except the tool_ ones and session_finalize (NULL if
 * the dynamic linker cannot find it).  If the dynamic linker cannot
 * find the library's collectives (a fully static link), the nonblocking
 * form and a wait stand in for them: never the shim's own symbol, which
 * would recurse. */
const logp_next_t *logp_next_get(void);

#endif
