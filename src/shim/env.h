/* The shim's environment (read once per process). */
#ifndef LOGP_SHIM_ENV_H
#define LOGP_SHIM_ENV_H

#include <stddef.h>

#include "../model/algo.h"
#include "../select/native.h"

/* What PMPI_LOGP_TEST_NOMEM makes fail: the executors' staging memory, a
 * decision, the schedule of a decision, the schedules of a trial. */
#define LOGP_TEST_NOMEM_STAGING 1u
#define LOGP_TEST_NOMEM_DECISION 2u
#define LOGP_TEST_NOMEM_SCHEDULE 4u
#define LOGP_TEST_NOMEM_TRIAL 8u

typedef struct logp_env {
    logp_algo_t forced[LOGP_COLL_COUNT]; /* PMPI_LOGP_BCAST/REDUCE/ALLTOALL/ALLREDUCE/ALLTOALLV, LOGP_ALGO_COUNT if unset */
    int verbose;                         /* PMPI_LOGP_VERBOSE: 0, 1 (decisions), 2 (every call) */
    int strict;                          /* PMPI_LOGP_STRICT=1: configuration errors abort */
    const char *tuning;                  /* PMPI_LOGP_TUNING or NULL */
    const char *report;                  /* PMPI_LOGP_REPORT or NULL */
    int ranks_per_node;                  /* PMPI_LOGP_RANKS_PER_NODE, 0 if unset */
    int dispatch;                        /* PMPI_LOGP_DISPATCH=1: time the shim's own work */
    int oversubscribed_model;            /* PMPI_LOGP_OVERSUBSCRIBED=model: auto keeps the model on a node
                                            with more processes than processors (default native: 0) */
    int wait_yield;                      /* PMPI_LOGP_WAIT: the schedules' waits give up the processor, 1 (yield),
                                            0 (poll: the library's waits), -1 (auto, the default: yield where the
                                            node has more processes than processors) */
    logp_native_lib_t native;            /* PMPI_LOGP_NATIVE=mpich|openmpi, else the build's library */
    int confirm;                         /* PMPI_LOGP_CONFIRM: 1 (default) auto confirms by trials, 0 pure model,
                                            2 trials and refits of L and G */
    int confirm_warmup;                  /* PMPI_LOGP_CONFIRM_WARMUP: a class's calls before its trial
                                            (default LOGP_CONFIRM_WARMUP) */
    int warm;                            /* PMPI_LOGP_WARM: eager messages each process receives from a rank
                                            of its node before its first trial (0: none; default 64, 0 under
                                            SMPI) */
    const char *learn;                   /* PMPI_LOGP_LEARN: learned file, read at start, written at the end */
    int reproducible;                    /* PMPI_LOGP_REPRODUCIBLE=1: decisions by the model alone (no trials,
                                            no learned file), no dataflow reduce: a floating-point reduce
                                            gives the same bits run after run */
    int nonblocking;                     /* PMPI_LOGP_NONBLOCKING=1: MPI_Ibcast, MPI_Ireduce, MPI_Ialltoall,
                                            MPI_Iallreduce, MPI_Ialltoallv run the shim's schedules where
                                            their class is settled (default 0 while the engine is new) */
    long test_slow_ns[LOGP_ALGO_COUNT];  /* PMPI_LOGP_TEST_SLOW=ALGO[:US][,ALGO[:US]..] (tests only): every
                                            call that runs ALGO takes this much longer per rank (20 ms unless
                                            US microseconds are given); 0: not slowed */
    int test_nomem;                      /* PMPI_LOGP_TEST_NOMEM=RANK[:KIND] (tests only): on world rank RANK
                                            allocations of KIND fail; -1 if unset */
    unsigned test_nomem_kinds;           /* LOGP_TEST_NOMEM_*: staging (the default), decision, schedule, trial */
    int errors;                          /* number of invalid settings found */
} logp_env_t;

/* Reads the environment into *env.  An invalid value is ignored, counted
 * in env->errors and described (what is accepted) in a line appended to
 * msgs (n bytes; the caller decides who prints it). */
void logp_env_read(logp_env_t *env, char *msgs, size_t n);

#endif
