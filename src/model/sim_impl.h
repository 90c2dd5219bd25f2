/* The simulator's internal state and the functions its files share
 * (sim.c: the driver; sim_rank.c: a rank's timing; sim_shared.c: the
 * shared network; sim_dataflow.c: dataflow ranks).  Not for use outside
 * the simulator. */
#ifndef LOGP_MODEL_SIM_IMPL_H
#define LOGP_MODEL_SIM_IMPL_H

#include "net.h"
#include "params.h"
#include "sched.h"
#include "sim_heap.h"
#include "status.h"
#include "topo.h"

static inline double logp_sim_max(double a, double b)
{
    return a > b ? a : b;
}

/* A rank's state. */
typedef struct {
    double cpu, nsend, nrecv; /* CPU free, earliest next send, earliest next receive */
    double serial;            /* its large sends to serial_peer have arrived (params.h's rule) */
    long serial_op;           /* shared network: its last large send, whose arrival is known later (-1: none) */
    int serial_peer;          /* -1: none */
    long pc, end;             /* next operation and the end of its operations in the array */
    int waiting;              /* blocked on a receive whose send has not started */
    long *sent;               /* paced schedule (sched.h: window): its last `window` sends, */
    long nsent;               /* by count (sent[nsent % window] is the oldest once full) */
    long paced_op;            /* the send whose arrival its next send waits for (-1: none) */
    /* a dataflow schedule's rank (sched.h: LOGP_FAMILY_DATAFLOW), as
     * coll/reduce_dataflow.c runs it: */
    long pnext;               /* its next plain receive to post (in order) */
    long left;                /* operations not done */
    long *ready, nready;      /* combining receives whose earlier operations are done */
    long *sready, nsready;    /* sends whose earlier operations are done */
    long *plain, ph, pt;      /* plain receives posted and not done, in order: plain[ph .. pt) */
    double wake;              /* when its pending event is due (-1: none) */
    double copy;              /* packed all-to-all (LOGP_FAMILY_A2A_BRUCK): its local copies per byte
                                 (intra-node copy / speed), else 0: each message's blocks are copied
                                 out before its send and in after its receive */
} logp_sim_rank_t;

/* A shared network's state beside the ranks' (net.h).  Large sends are
 * synchronous (params.h), so under a rendezvous protocol, as SimGrid
 * runs synchronous sends, their bytes leave only once the receive is
 * posted; the executors post a rank's next receive while it waits for
 * the current one (its first at the start), which `posted` follows. */
typedef struct {
    logp_net_t net;
    double *posted; /* receive op: when posted (-1: not yet) */
    double *leave;  /* large send op: when its bytes are ready, waiting for the receive (-1: not waiting) */
    int rendezvous; /* large sends wait for their receive */
    int ahead;      /* receives a rank keeps posted (logp_sched_recv_ahead) */
} logp_sim_shared_t;

/* Everything one run shares. */
typedef struct {
    const logp_sched_t *s;
    const logp_topo_t *topo;
    logp_sim_rank_t *st;
    double *nic_out, *nic_in; /* node interfaces: free to inject, done delivering */
    logp_sim_event_t *heap;
    int nheap, window, serial, shared;
    logp_op_t *op;
    int *owner;
    long *match, *dep, *kids, *kid_at; /* dataflow: dep[i]; the operations that follow i: kids[kid_at[i] ..) */
    int *wait;                         /* dataflow: earlier operations i waits for, not yet done */
    double *arrive, *got;
    char *done;
    int nomem; /* a dataflow rank could not post a receive */
    logp_sim_shared_t sh;
} logp_sim_ctx_t;

static inline int logp_sim_dataflow(const logp_sim_ctx_t *x)
{
    return (x->s->fam->flags & LOGP_FAMILY_DATAFLOW) != 0;
}

/* ---- a rank's timing (sim_rank.c) ---- */

/* Earliest start of a rank's next operation, or -1 if it waits for a
 * message that has not been sent yet.  A send to another peer than the
 * last large one's waits until that one has arrived, and a paced
 * schedule's send until the rank's `window`-th last send has. */
double logp_sim_next(logp_sim_rank_t *st, const logp_op_t *op, const long *match, const double *arrive, int window);

/* Rank r runs its operation i, starting at `start`. */
logp_status_t logp_sim_exec(logp_sim_ctx_t *x, int r, long i, double start);

/* Wakes whoever may now go on after message i arrived: its receiver, and
 * a sender whose next send waits for it. */
void logp_sim_arrived(logp_sim_ctx_t *x, long i);

/* ---- the shared network (sim_shared.c) ---- */

/* Nonzero if send op o goes as a rendezvous on a shared network. */
int logp_sim_rendezvous(const logp_sim_shared_t *sh, const logp_op_t *o, int window);

/* Nonzero if a message from a to b goes through the shared network (not
 * within one node of a layout). */
int logp_sim_networked(const logp_topo_t *topo, int a, int b);

/* Starts send op i's transfer, its bytes leaving at t. */
logp_status_t logp_sim_flow(logp_sim_shared_t *sh, const logp_topo_t *topo, const logp_op_t *op, const int *owner,
                            long i, double t);

/* Receive op j is posted at t: a large send waiting for it starts. */
logp_status_t logp_sim_post(logp_sim_shared_t *sh, const logp_topo_t *topo, const logp_op_t *op, const int *owner,
                            const long *match, long j, double t);

/* A rank reaches op pc at t (its CPU free): the receives it posts then. */
logp_status_t logp_sim_reach(logp_sim_shared_t *sh, const logp_topo_t *topo, const logp_op_t *op, const int *owner,
                             const long *match, long pc, long end, double t, int first);

/* ---- dataflow ranks (sim_dataflow.c) ---- */

/* A dataflow rank's next operation and when it can start (-1: none can
 * until a message arrives). */
long logp_sim_pick(logp_sim_ctx_t *x, int r, double *start);

/* Schedules dataflow rank r's next event if it is earlier than the one
 * pending (an arrival may make an earlier one possible). */
void logp_sim_wake_dataflow(logp_sim_ctx_t *x, int r);

/* Dataflow rank r did operation i: what follows it may now go. */
logp_status_t logp_sim_did(logp_sim_ctx_t *x, int r, long i);

/* Dataflow set-up for n operations, as the executor's. */
logp_status_t logp_sim_dataflow_init(logp_sim_ctx_t *x, long n);

#endif
