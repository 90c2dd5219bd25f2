/* Per-communicator state of the shim, cached as an attribute. */
#ifndef LOGP_SHIM_STATE_H
#define LOGP_SHIM_STATE_H

#include <mpi.h>

#include "../model/algo.h"
#include "../coll/buffer.h"
#include "../model/sched.h"
#include "../model/topo.h"
#include "../model/learn.h"
#include "../select/confirm.h"
#include "../select/select.h"
#include "env.h"

/* Size classes floor(log2(bytes)): the shim handles bytes <= INT_MAX. */
#define LOGP_STATE_CLASSES 31
/* Decisions of one collective: [class][commutative][unsafe]. */
#define LOGP_STATE_SLOTS (LOGP_STATE_CLASSES * 4)
#define LOGP_STATE_ALL_SLOTS (LOGP_COLL_COUNT * LOGP_STATE_SLOTS)

typedef struct logp_stat {
    unsigned long calls;
    double bytes, time, predicted; /* time: this rank's own total */
    /* over every rank, filled at the end of the run when every rank timed
     * its calls (logp_comm_state_t.all_timed): slowest and fastest total */
    double max_time, min_time;
    int max_rank, gathered;
} logp_stat_t;

/* Where auto's trial of a decision stands (shim/confirm.c). */
typedef enum logp_trial_phase {
    LOGP_TRIAL_NONE,    /* no trial: forced, ruled, or the model's margin is overwhelming */
    LOGP_TRIAL_RUNNING, /* calls alternate between the candidates */
    LOGP_TRIAL_WAITING, /* every trial call made: the times wait for the next agreement point */
    LOGP_TRIAL_DONE     /* agreed: the winner runs; later calls are sampled for drift */
} logp_trial_phase_t;

typedef struct logp_trial {
    logp_trial_phase_t phase;
    logp_trial_plan_t plan;               /* candidates; [0] is the model's pick */
    logp_sched_t sched[LOGP_CONFIRM_MAX]; /* the other candidates' schedules ([0]: the decision's) */
    double raw[LOGP_CONFIRM_MAX];         /* s: their predictions without corrections */
    int warm;                             /* calls before the trial (the pick, untimed; until the
                                             communicator's warmup), kept when deciding again */
    int checked;                          /* the ranks' plans compared (logp_confirm_first) */
    int calls;                            /* trial calls made */
    int calls_seen;                       /* calls at the last agreement point (progress) */
    double local[LOGP_CONFIRM_CALLS];     /* s: this rank's time of each (with a global clock: its end) */
    double start[LOGP_CONFIRM_CALLS];     /* s: with a global clock, each call's start here */
    logp_trial_verdict_t verdict;         /* on the slowest rank's times (phase DONE) */
    int disagreed;                        /* the ranks' trials did not match: the model's pick stays */
    int broken;                           /* LOGP_TRIAL_BROKEN_*: this rank cannot run the trial it
                                             planned; its first call tells every rank (confirm.h) */
    double ref;                           /* s: this rank's median of its first 5 sampled calls after the
                                             verdict (unsynchronised, as the later samples are) */
    double recent[5];                     /* s: sampled later calls (drift watch): first the reference's,
                                             then a ring of the last 5 */
    unsigned long nrecent;                /* samples taken (ring index) */
    unsigned long seen;                   /* calls since the verdict */
    int reopens;                          /* re-opened after drift */
    int previous;                         /* candidate that is the decision from before a refit of L
                                             or G (its schedule built for the old values), -1 if none */
    logp_algo_t prev_algo;                /* handed to logp_confirm_start by a refit: that decision */
    logp_sched_t prev_sched;
    struct logp_decision *next;           /* in the communicator's waiting list */
} logp_trial_t;

/* What a (collective, size class, commutative, unsafe) runs: decided at
 * its first call, agreed by every rank, then looked up in O(1). */
typedef struct logp_decision {
    logp_stat_t stat; /* calls that took this decision (rank-local times) */
    logp_coll_t coll;
    int sclass;      /* floor(log2(bytes)) */
    int commutative;
    int unsafe;
    logp_algo_t algo;
    double predicted; /* s, < 0 if unknown */
    logp_sched_t sched; /* what runs, relative to the root (algo != native) */
    int ruled;          /* decided by a rule of the tuning or learned file */
    logp_trial_t trial; /* auto's confirmation by measurement */
} logp_decision_t;

typedef struct logp_comm_state {
    int usable;     /* 0: everything goes to PMPI (intercommunicator, finalized) */
    MPI_Comm comm;  /* the application's communicator: errors are raised on it */
    MPI_Comm pcomm; /* private communicator for our traffic: a duplicate of
                       the first communicator with this group, shared by
                       every communicator of the group (MPI_COMM_NULL: none
                       could be had) */
    int tag;        /* this communicator's tag on pcomm */
    int own_private; /* pcomm is this communicator's alone (made while
                        another was being set up), freed with it */
    int no_private; /* no private communicator: the MPI library's
                       collectives only (every rank alike) */
    int size, rank;
    int timed;      /* calls are timed for the run report: MPI_Wtime is not
                       free everywhere (SMPI) */
    int all_timed;  /* every rank has the report on and times its calls:
                       the slowest rank is found at the end of the run */
    double *end_times; /* [LOGP_STATE_ALL_SLOTS]: this rank's totals, sent
                          to rank 0 at the end (allocated with the report on) */
    MPI_Request end_req;
    char name[MPI_MAX_OBJECT_NAME];
    logp_topo_t topo;     /* the machine: nodes, speeds, intra/inter-node parameters
                             (logp_topo_rep: what stands for the whole communicator) */
    int ranks_per_node;   /* layout override in force, 0: from MPI */
    logp_algo_t configured[LOGP_COLL_COUNT];
    int chain_k;
    logp_decision_t *decisions[LOGP_COLL_COUNT][LOGP_STATE_SLOTS]; /* NULL until decided */
    logp_decision_t fallback[LOGP_COLL_COUNT]; /* a decision that could not be allocated */
    char matched[256]; /* tuning sections that apply */
    /* auto's confirmation (shim/confirm.c) */
    int confirm;              /* trials and agreement points on this communicator (alike on every rank) */
    int warmup;               /* a class's calls before its trial (PMPI_LOGP_CONFIRM_WARMUP; alike) */
    int oversubscribed;       /* some rank's node runs more processes than it has processors (agreed) */
    unsigned long ncalls;     /* the shim's calls on it: agreement points are counted in them */
    unsigned long next_point; /* ncalls of the next agreement point (logp_confirm_agree_next) */
    logp_decision_t *wait_head, *wait_tail; /* trials waiting for agreement, in completion order */
    unsigned char rule[LOGP_COLL_COUNT][LOGP_LEARN_CLASSES][2]; /* rules of the files (LOGP_ALGO_COUNT: none) */
    unsigned char learned_rule[LOGP_COLL_COUNT][LOGP_LEARN_CLASSES][2]; /* those of the learned file alone */
    logp_learn_t learn;       /* corrections: the files', then the trials' */
    int refits;               /* times the trials moved L or G (LOGP_CONFIRM_REFITS at most) */
    logp_fit_sample_t fit[LOGP_FIT_SAMPLES]; /* the latest trials' measured candidates (a ring) */
    int nfit;                 /* samples put in fit so far */
    int clock_global;         /* MPI_WTIME_IS_GLOBAL: trial calls are timed start to end across ranks */
    struct logp_comm_state *prev, *next; /* registry of live states */
} logp_comm_state_t;

/* Process-wide set-up (environment, tuning file, attribute keys, end-of-run
 * hook on MPI_COMM_SELF when MPI_Init was called); idempotent and
 * thread-safe.  Works without MPI_COMM_WORLD (MPI-4 Sessions). */
void logp_state_setup(void);

/* The environment read by logp_state_setup. */
const logp_env_t *logp_state_env(void);

/* State of `comm`, created at its first call (collective over comm: all
 * ranks call it from the same collective).  Check ->usable (a rank that
 * could not allocate it gets a shared unusable state, and its peers learn
 * it in the set-up); NULL only if MPI could not be set up at all. */
logp_comm_state_t *logp_state_get(MPI_Comm comm);

/* Decision for a call: the algorithm, its schedule and predicted time,
 * and the statistics of the calls that took it.  O(1) once the call's
 * class is decided; the first call of a class decides (pricing the
 * candidates, building the schedule), locally: every rank decides alike
 * from the same arguments, and no collective is made (ranks of an
 * erroneous call may pass sizes of different classes).  Prints it once
 * when verbose.  Never NULL. */
logp_decision_t *logp_state_decide(logp_comm_state_t *st, logp_coll_t coll, size_t bytes, int commutative,
                                   int unsafe);

/* Decides `d` (of st) again from scratch with what the communicator has
 * learned since: selection, schedule, a new trial.  Called by every rank
 * alike at an agreement point (drift; a refit of L or G, which passes
 * keep_previous: the old decision then runs in the new trial too, so a
 * refit that the measurements do not bear out cannot make a class
 * slower). */
void logp_state_redecide(logp_comm_state_t *st, logp_decision_t *d, int keep_previous);

/* The selection query of d's class: decided at the class's middle size,
 * with st's machine, native model and learned corrections. */
logp_select_query_t logp_state_query(logp_comm_state_t *st, const logp_decision_t *d);

/* The slot in st->decisions[coll] of a size class's decision for an
 * operator that commutes or not and a call that is unsafe or not. */
static inline int logp_state_slot_of(int sclass, int commutative, int unsafe)
{
    return (sclass * 2 + (commutative != 0)) * 2 + (unsafe != 0);
}

/* The decision slot of d in st->decisions (for keys agreed across ranks). */
int logp_state_slot(const logp_decision_t *d);

/* The LOGP_TEST_NOMEM_* kinds of allocation this process is to fail
 * (PMPI_LOGP_TEST_NOMEM, tests only; 0 normally). */
unsigned logp_state_test_nomem(void);

/* d runs what needs no agreement and no memory from now on: the library's
 * collective, or where that is unsafe the safe default (binomial, ring). */
void logp_state_fall_back(logp_comm_state_t *st, logp_decision_t *d);

/* Takes d out of st's table (every rank decides its class again at its
 * next call) into the fallback slot, which it returns. */
logp_decision_t *logp_state_drop(logp_comm_state_t *st, logp_decision_t *d);

/* Staging memory of the executors: one region per process, at most
 * LOGP_SCRATCH_KEEP kept between calls (coll/buffer.h). */
logp_scratch_t *logp_state_scratch(void);

/* Ends the shim's run (report, private communicators): what MPI_COMM_SELF's
 * delete callback does at MPI_Finalize; for MPI-4 Sessions, called from
 * MPI_Session_finalize.  Idempotent. */
void logp_state_end(void);

#endif
