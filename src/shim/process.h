/* What the shim knows of its process, read once: the environment, the
 * tuning file and the learned file, this rank's configuration errors
 * (told once; strict mode aborts), the executors' staging memory, and the
 * tests' failure hooks.  Nothing of communicators here (state.h). */
#ifndef LOGP_SHIM_PROCESS_H
#define LOGP_SHIM_PROCESS_H

#include <mpi.h>

#include "../coll/buffer.h"
#include "../config/config.h"
#include "env.h"

/* Reads the environment and the files, notes the world's rank and size
 * (none under MPI-4 Sessions without MPI_Init), tells rank 0's
 * configuration errors and, in strict mode, aborts the job on them.  Call
 * once (run.c does, under its pthread_once) before anything below. */
void logp_process_setup(void);

/* The environment (PMPI_LOGP_*; learn also from the tuning file's
 * `learn = FILE`). */
const logp_env_t *logp_process_env(void);

/* The tuning file as read (empty if none or invalid), and its path ("" if
 * none). */
const logp_config_t *logp_process_tuning(void);
const char *logp_process_tuning_path(void);

/* PMPI_LOGP_LEARN's file as read at the start (empty if none or invalid). */
const logp_config_t *logp_process_learned(void);

/* This process's rank and size in MPI_COMM_WORLD; rank -1 if there is no
 * world (MPI-4 Sessions). */
int logp_process_world_rank(void);
int logp_process_world_size(void);

/* A hash of this rank's configuration errors (0 if none): ranks compare
 * them at a communicator's set-up. */
unsigned long long logp_process_problems_hash(void);

/* Nonzero if this rank has configuration errors. */
int logp_process_has_problems(void);

/* Prints this rank's configuration errors once, with its rank and host in
 * front unless it is rank 0 (whose errors everyone shares as a rule). */
void logp_process_tell(int rank);

/* Strict mode: aborts the job on comm over a configuration error, after
 * saying why (rank 0 first: the others wait a moment, so that their abort
 * cannot kill rank 0 before its message is out). */
void logp_process_abort(MPI_Comm comm, int rank);

/* The LOGP_TEST_NOMEM_* kinds of allocation this process is to fail
 * (PMPI_LOGP_TEST_NOMEM, tests only; 0 normally). */
unsigned logp_process_test_nomem(void);

/* The executors' staging memory: one region per process, at most
 * LOGP_SCRATCH_KEEP kept between calls (coll/buffer.h). */
logp_scratch_t *logp_process_scratch(void);

/* The relative speed of a host by the tuning file's [host] sections (a
 * callback of logp_layout_discover; ctx unused). */
double logp_process_host_speed(const char *host, void *ctx);

#endif
