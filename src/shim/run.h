/* The shim's run in a process: its set-up at the first intercepted call,
 * the end of a communicator's state, and the end of the run (the report,
 * the learned file, the private communicators). */
#ifndef LOGP_SHIM_RUN_H
#define LOGP_SHIM_RUN_H

/* Process-wide set-up (process.h: environment and files; the attribute
 * keys: communicator states, whose delete callback reports and releases a
 * state, and an end-of-run hook on MPI_COMM_SELF when MPI_Init was
 * called); idempotent and thread-safe.  Works without MPI_COMM_WORLD
 * (MPI-4 Sessions).  Before any state is looked up (state.h). */
void logp_run_setup(void);

/* Ends the shim's run (the ranks' times gathered, the report, the learned
 * file, the private communicators): what MPI_COMM_SELF's delete callback
 * does at the start of MPI_Finalize (mpi_f08 callers reach it too, where
 * they call PMPI_Finalize directly); for MPI-4 Sessions, called from
 * MPI_Session_finalize.  Idempotent. */
void logp_run_end(void);

#endif
