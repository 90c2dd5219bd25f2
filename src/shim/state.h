/* Per-communicator state of the shim, cached as an attribute. */
#ifndef LOGP_SHIM_STATE_H
#define LOGP_SHIM_STATE_H

#include <mpi.h>

#include "../model/algo.h"
#include "../model/params.h"
#include "../coll/buffer.h"
#include "../model/plan.h"
#include "../model/topo.h"
#include "env.h"

#define LOGP_STATE_DECISIONS 128
#define LOGP_STATE_PLANS 8

typedef struct logp_stat {
    unsigned long calls;
    double bytes, time, predicted;
} logp_stat_t;

typedef struct logp_decision {
    int used;
    logp_stat_t stat; /* calls that took this decision (rank-local times) */
    logp_coll_t coll;
    int sclass;      /* floor(log2(bytes)) */
    int commutative;
    int unsafe;
    logp_algo_t algo;
    double predicted; /* s, < 0 if unknown */
} logp_decision_t;

typedef struct logp_cached_plan {
    int used;
    unsigned long stamp; /* last use, for replacement */
    logp_algo_t algo; /* requested (the plan may say what ran instead) */
    int root, commutative;
    size_t bytes;
    logp_plan_t plan;
} logp_cached_plan_t;

typedef struct logp_comm_state {
    int usable;   /* 0: everything goes to PMPI (intercommunicator, setup failed) */
    MPI_Comm pcomm; /* private duplicate: all our traffic */
    int size, rank;
    char name[MPI_MAX_OBJECT_NAME];
    logp_params_t params; /* uniform stand-in: logp_topo_rep(&topo) */
    logp_topo_t topo;     /* nodes, speeds, intra/inter-node parameters */
    int ranks_per_node;   /* layout override in force, 0: from MPI */
    logp_algo_t configured[LOGP_COLL_COUNT];
    int chain_k;
    logp_decision_t decisions[LOGP_STATE_DECISIONS];
    int next_decision;
    logp_cached_plan_t plans[LOGP_STATE_PLANS];
    unsigned long clock;
    char matched[256]; /* tuning sections that apply */
    logp_scratch_t scratch; /* reusable staging memory of the executors */
    struct logp_comm_state *prev, *next; /* registry of live states */
} logp_comm_state_t;

/* Process-wide set-up (environment, attribute keys, end-of-run hook on
 * MPI_COMM_SELF); idempotent and thread-safe.  Needs MPI initialised. */
void logp_state_setup(void);

/* The environment read by logp_state_setup. */
const logp_env_t *logp_state_env(void);

/* State of `comm`, created at the first call (collective over comm: all
 * ranks call it from the same collective).  Never NULL after MPI_Init except
 * on allocation failure; check ->usable. */
logp_comm_state_t *logp_state_get(MPI_Comm comm);

/* Decision for a call (cached per collective and size class): the
 * algorithm and its predicted time, and the statistics of the calls that
 * took it.  Prints it once when verbose. */
logp_decision_t *logp_state_decide(logp_comm_state_t *st, logp_coll_t coll, size_t bytes, int commutative,
                                         int unsafe);

/* Plan of `algo` for this call, built once and cached; NULL on failure. */
const logp_plan_t *logp_state_plan(logp_comm_state_t *st, logp_coll_t coll, logp_algo_t algo, int root,
                                   size_t bytes, int commutative);

#endif
