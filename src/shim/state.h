/* Per-communicator state of the shim, cached as an attribute: the
 * configuration and layout its ranks agreed on, the private communicator,
 * the table of decisions (filled by decide.h) and what auto's trials
 * learned on it (agree.h). */
#ifndef LOGP_SHIM_STATE_H
#define LOGP_SHIM_STATE_H

#include <mpi.h>
#include <stdint.h>

#include "../model/algo.h"
#include "../model/learn.h"
#include "../model/sched.h"
#include "../model/topo.h"
#include "../select/confirm.h"
#include "../select/select.h"
#include "next.h"
#include "trial.h"

/* Size classes floor(log2(bytes)): the shim handles bytes <= INT_MAX. */
#define LOGP_STATE_CLASSES 31
/* Decisions of one collective: [class][operator class (algo.h)][unsafe]. */
#define LOGP_STATE_SLOTS (LOGP_STATE_CLASSES * LOGP_OPS_CLASSES * 2)
/* Nonblocking collectives a communicator keeps in flight with tags of
 * their own; a further one waits here for its slot's earlier collective. */
#define LOGP_STATE_NB_SLOTS 16
#define LOGP_STATE_ALL_SLOTS (LOGP_COLL_COUNT * LOGP_STATE_SLOTS)

typedef struct logp_stat {
    unsigned long calls;
    unsigned long by_entry[LOGP_ENTRY_COUNT]; /* of them, by entry point (next.h: MPI_Ibcast, MPI_Bcast_c, ...) */
    double bytes, time, predicted; /* time: this rank's own total */
    /* over every rank, filled at the end of the run when every rank timed
     * its calls (logp_comm_state_t.all_timed): slowest and fastest total */
    double max_time, min_time;
    int max_rank, gathered;
} logp_stat_t;

/* What a (collective, size class, commutative, unsafe) runs: decided at
 * its first call, agreed by every rank, then looked up in O(1). */
typedef struct logp_decision {
    logp_stat_t stat; /* calls that took this decision (rank-local times) */
    logp_coll_t coll;
    int sclass;      /* floor(log2(bytes)) */
    int commutative; /* the operator class: 0, 1 or LOGP_OPS_IDEMPOTENT (algo.h) */
    int unsafe;
    logp_algo_t algo;
    double predicted; /* s, < 0 if unknown */
    logp_sched_t sched; /* what runs, relative to the root (algo != native) */
    int ruled;          /* decided by a rule of the tuning or learned file */
    logp_trial_t trial; /* auto's confirmation by measurement (trial.h) */
} logp_decision_t;

typedef struct logp_comm_state {
    int usable;     /* 0: everything goes to PMPI (intercommunicator, finalized) */
    MPI_Comm comm;  /* the application's communicator: errors are raised on it */
    MPI_Comm pcomm; /* private communicator for our traffic: a duplicate of
                       the first communicator with this group, shared by
                       every communicator of the group (MPI_COMM_NULL: none
                       could be had) */
    int tag;        /* this communicator's tag on pcomm */
    /* nonblocking collectives (PMPI_LOGP_NONBLOCKING): each outstanding one
     * has a tag pair of its own, st->tag + nb_stride * (1 + slot), slots
     * taken in call order (alike on every rank) */
    int nb_stride;                            /* 0: none on this communicator */
    unsigned nb_seq;                          /* nonblocking calls started */
    unsigned char nb_busy[LOGP_STATE_NB_SLOTS]; /* slot's collective outstanding here */
    int nb_outstanding;                       /* started and not yet ended on this rank */
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
    /* auto's confirmation (agree.h) */
    int confirm;              /* trials and agreement points on this communicator (alike on every rank) */
    int warmup;               /* a class's calls before its trial (PMPI_LOGP_CONFIRM_WARMUP; alike) */
    int oversubscribed;       /* some rank's node runs more processes than it has processors (agreed) */
    int warm;                 /* eager messages to warm at set-up, 0 for none (agreed: logp_state_warm) */
    unsigned long ncalls;     /* the shim's calls on it: agreement points are counted in them */
    unsigned long next_point; /* ncalls of the next agreement point (logp_confirm_agree_next) */
    logp_decision_t *wait_head, *wait_tail; /* trials waiting for agreement, in completion order */
    unsigned char rule[LOGP_COLL_COUNT][LOGP_LEARN_CLASSES][2]; /* rules of the files (LOGP_ALGO_COUNT: none) */
    unsigned char learned_rule[LOGP_COLL_COUNT][LOGP_LEARN_CLASSES][2]; /* those of the learned file alone */
    uint32_t explore[LOGP_COLL_COUNT][LOGP_LEARN_CLASSES][2]; /* a rule's untried candidates (config.h: explore) */
    uint32_t learned_explore[LOGP_COLL_COUNT][LOGP_LEARN_CLASSES][2]; /* the learned file's alone */
    uint32_t after[LOGP_COLL_COUNT][LOGP_LEARN_CLASSES][2];         /* explore's calls to wait first */
    uint32_t learned_after[LOGP_COLL_COUNT][LOGP_LEARN_CLASSES][2]; /* the learned file's alone */
    logp_learn_t learn;       /* corrections: the files', then the trials' */
    int refits;               /* times the trials moved L or G (LOGP_CONFIRM_REFITS at most) */
    logp_fit_sample_t fit[LOGP_FIT_SAMPLES]; /* the latest trials' measured candidates (a ring) */
    int nfit;                 /* samples put in fit so far */
    int clock_global;         /* MPI_WTIME_IS_GLOBAL: trial calls are timed start to end across ranks */
    /* alltoallv's vote on the size class before each call (decide.h,
     * logp_decide_votes): 0 not yet known, 1 the ranks vote while it pays,
     * 2 always (a forced algorithm or a rule that needs it), -1 never;
     * alike on every rank */
    int a2av_vote;
    int a2av_misses; /* votes in a row whose class ran a direct exchange anyway */
    struct logp_comm_state *prev, *next; /* registry of live states */
} logp_comm_state_t;

/* The attribute key under which states are cached; its delete callback
 * (run.c) ends a state with logp_state_detach and logp_state_release.
 * Called once, before any other function here. */
void logp_state_init(int keyval);

/* State of `comm`, created at its first call (collective over comm: all
 * ranks call it from the same collective).  Check ->usable (a rank that
 * could not allocate it gets a shared unusable state, and its peers learn
 * it in the set-up); NULL only if MPI could not be set up at all.  O(1)
 * for the communicator the calling thread used last. */
logp_comm_state_t *logp_state_get(MPI_Comm comm);

/* As logp_state_get for a communicator already set up; NULL if it is not
 * (its first call was not yet made: a nonblocking call cannot make it,
 * since setting up is a blocking collective). */
logp_comm_state_t *logp_state_find(MPI_Comm comm);

/* The selection query of d's class: decided at the class's middle size,
 * with st's machine, native model and learned corrections. */
logp_select_query_t logp_state_query(const logp_comm_state_t *st, const logp_decision_t *d);

/* The operator class of a call's `commutative` (algo.h): 0, 1 or
 * LOGP_OPS_IDEMPOTENT. */
static inline int logp_state_ops_class(int commutative)
{
    return commutative == LOGP_OPS_IDEMPOTENT ? LOGP_OPS_IDEMPOTENT : commutative != 0;
}

/* How the verbose lines name an operator class of coll ("" where coll
 * does not combine). */
static inline const char *logp_state_ops_name(logp_coll_t coll, int commutative)
{
    static const char *const name[LOGP_OPS_CLASSES] = {" non-commutative", " commutative", " idempotent"};
    return logp_coll_combines(coll) ? name[logp_state_ops_class(commutative)] : "";
}

/* The slot in st->decisions[coll] of a size class's decision for an
 * operator class and a call that is unsafe or not. */
static inline int logp_state_slot_of(int sclass, int commutative, int unsafe)
{
    return (sclass * LOGP_OPS_CLASSES + logp_state_ops_class(commutative)) * 2 + (unsafe != 0);
}

/* The decision slot of d in st->decisions (for keys agreed across ranks). */
int logp_state_slot(const logp_decision_t *d);

/* A communicator goes (its attribute's delete callback): forgets every
 * thread's cached lookup, takes st out of the registry and frees a
 * private communicator of its own (collective, like the application's
 * MPI_Comm_free that brought it here).  Returns -1 for the shared
 * unusable state (nothing more to do), 1 if the run had ended already
 * (logp_state_end_all), else 0. */
int logp_state_detach(logp_comm_state_t *st);

/* Frees st and everything it holds. */
void logp_state_release(logp_comm_state_t *st);

/* The end of the run: every live state becomes unusable (calls go to the
 * MPI library from now on) and is returned in a malloc'd array *all (NULL
 * if there is no memory: then none is returned).  Returns their number,
 * or -1 if the run had ended already (the first call only ends it). */
int logp_state_end_all(logp_comm_state_t ***all);

/* After the end of the run: frees the private communicators and forgets
 * every cached lookup. */
void logp_state_free_privates(void);

#endif
