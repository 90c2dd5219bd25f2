/* Schedules: one algorithm instance (collective, algorithm, P, message size
 * class, machine) as a function rank -> operations.
 *
 * A schedule is built once and is relative to the root: it holds only what
 * every rank shares (for the uniform algorithms O(1) numbers, or the small
 * lattice table of the LogP-optimal tree); a rank asks for its own
 * operations through a view (logp_view_init: O(log P), no allocation) and
 * reads them by index (logp_view_op: O(1)).  src/coll executes exactly
 * these operations with PMPI, and sim.h prices exactly these operations by
 * enumerating every rank's view, so a prediction is the cost of what runs.
 * A new root is a relabeling of the same schedule, never a new one.
 *
 * Every algorithm of the registry (algo.def) names its family: the object
 * below that builds its shared data, gives a rank's place in it, and, where
 * one exists, the exact closed-form completion time in the uniform model.
 * Each family lives in a file of its own, named after its registry name
 * (sched_<name>.c); a shape that only a simulation can choose is refined
 * above, in plan.h, so schedules never depend on the simulator. */
#ifndef LOGP_MODEL_SCHED_H
#define LOGP_MODEL_SCHED_H

#include <stddef.h>

#include "algo.h"
#include "params.h"
#include "status.h"
#include "topo.h"

typedef enum logp_op_kind {
    LOGP_OP_SEND,        /* send `bytes` to peer */
    LOGP_OP_RECV,        /* receive into the accumulator (or, arg RESULT, the result buffer) */
    LOGP_OP_RECV_REDUCE, /* receive and combine into the accumulator (arg: side) */
    LOGP_OP_INIT_OWN,    /* accumulator = own contribution (local copy, free in the model) */
    LOGP_OP_REDUCE_OWN,  /* accumulator = own contribution (op) accumulator */
    LOGP_OP_RESULT_OWN,  /* the result buffer's parts = the accumulator's (the root of a
                            schedule whose result arrives part by part; a local copy, free
                            in the model) */
    LOGP_OP_FOLD         /* accumulator = v_0 (op) (v_1 (op) (... (op) v_{arg-1})), v_peer the
                            accumulator and the others the receive slots in order (v_d in slot
                            d below peer, d - 1 above): the same association on every rank
                            whatever the operands' arrival order; arg - 1 combines */
} logp_op_kind_t;

/* Side of the accumulator an incoming partial result goes to, so that
 * combining keeps rank order: APPEND acc = acc (op) in, PREPEND acc = in (op) acc. */
#define LOGP_SIDE_APPEND 0
#define LOGP_SIDE_PREPEND 1
/* arg of the root's final LOGP_OP_RECV when the tree root is not the root. */
#define LOGP_RECV_RESULT 2
/* arg of a LOGP_OP_RECV into receive slot j: LOGP_RECV_SLOT + j, j < s->slots. */
#define LOGP_RECV_SLOT 3
/* Most receive slots a schedule may use (the executor's table of them). */
#define LOGP_SCHED_SLOTS_MAX 31

typedef struct logp_op {
    int kind;     /* logp_op_kind_t */
    int peer;     /* absolute rank */
    int arg;      /* side, LOGP_RECV_RESULT, or the all-to-all step */
    size_t bytes; /* payload */
    /* bcast/reduce: the op moves parts [part, part + nparts) of the
     * message cut into s->parts parts of equal element counts (part i
     * starts at element floor(i count / parts), so a part never splits an
     * element of a derived datatype); nparts 0: the whole message. */
    int part, nparts;
} logp_op_t;

/* An operation on the whole message. */
static inline logp_op_t logp_op_whole(int kind, int peer, int arg, size_t bytes)
{
    logp_op_t o = {kind, peer, arg, bytes, 0, 0};
    return o;
}

/* An operation on parts [part, part + nparts) of the message (bytes: theirs). */
static inline logp_op_t logp_op_parts(int kind, int peer, int arg, size_t bytes, int part, int nparts)
{
    logp_op_t o = {kind, peer, arg, bytes, part, nparts};
    return o;
}

typedef struct logp_sched logp_sched_t;
typedef struct logp_view logp_view_t;

/* A price the planner simulated for one shape of a schedule (plan.h),
 * kept so that pricing it does not simulate again; parts 0: none. */
typedef struct logp_sched_planned {
    int parts, k; /* the shape: s->parts and s->k it was priced with */
    double t;
} logp_sched_planned_t;

typedef struct logp_sched_opts {
    int chain_k;    /* k of `chain` (<= 0: 4) */
    int long_first; /* chain: long chains first (comparisons in tests only) */
    int window;     /* linear: destinations per window (<= 0: the model's choice); a library's
                       fixed window when its all-to-all is priced (select/native.c) */
    int radix;      /* bruck: the radix, 2 .. LOGP_BRUCK_RADIX_MAX (<= 1: the model's choice) */
    int chunks;     /* chunked-rsg: the chunks (<= 0: the model's choice; comparisons in tests and tools) */
    int segments;   /* pipeline, two-tree: the segments (<= 0: the model's choice; comparisons in tools) */
} logp_sched_opts_t;

/* A rank's place in a tree: its parent and its number of children, plus a
 * cursor from which its family finds child j in O(1). */
typedef struct logp_tnode {
    int parent; /* absolute rank, -1 at the tree's root */
    int nkids;
    long c[4];  /* family cursor */
} logp_tnode_t;

/* Family flags. */
#define LOGP_FAMILY_DESCENDING 1u /* children are sent in descending rank order */
#define LOGP_FAMILY_RANK_ORDER 2u /* rooted at 0, every subtree a contiguous rank
                                     range: a non-commutative reduce can run it */
/* How an all-to-all schedule's messages carry blocks (src/coll picks the
 * executor by it, so a new schedule of a known kind needs no new code):
 * DIRECT, each message is the one block of its peer, and operations with
 * the same arg (phase) may be in flight together; BRUCK, Bruck's index
 * steps in radix r = s->k: the operations of digit `arg` = s are in flight
 * together, and the message to the rank d r^s ahead carries the blocks
 * whose rotated index has digit s equal to d (alltoall_pattern.h; seed 004's
 * butterfly is r = 2); NODES, node aggregation (gather to the
 * node's leader, leaders exchange per node pair, scatter). */
#define LOGP_FAMILY_A2A_DIRECT 4u
#define LOGP_FAMILY_A2A_BRUCK 8u
#define LOGP_FAMILY_A2A_NODES 16u
/* Not a candidate of auto (it runs only when forced or by a rule): a
 * schedule whose model does not yet hold where it would be chosen, so
 * that auto would trade a schedule it prices too high for one it prices
 * too low (say which measurement in the family's header). */
#define LOGP_FAMILY_FORCED_ONLY 32u
/* The executor must not hold a large send back until the rank's sends to
 * other peers are received (buffer.h's rule for LogGP's one-at-a-time
 * injection): the schedule's order is deadlock-free only with sends that
 * wait for nothing but a full window (say why in the family). */
#define LOGP_FAMILY_CONCURRENT 64u
/* Decisions price it by its estimate, by simulation only while it is
 * small (LOGP_PLAN_ESTIMATED_OPS, plan.h): no closed form, and simulating it
 * costs too much per decision at scale (say how much). */
#define LOGP_FAMILY_ESTIMATED 128u
/* Dataflow (reduce): a rank may run its operations out of their listed
 * order, each as soon as it can (coll/reduce_dataflow.c; the simulator
 * alike, sim.c): a combining receive once its message is in and the
 * operation `dep` names is done, a send once its dep is done and the
 * rank's previous send on the same pair and stream has gone (so a pair's
 * messages keep their order), sends and local work before combines and
 * the ready operation listed first before the others.  Every
 * combining receive is posted at the start, into a buffer of its own;
 * plain receives are posted in their order, at most s->recv_window at a
 * time (0: no limit), each once its dep is done, and taken in their
 * order among the oldest LOGP_SCHED_PLAIN_WAIT.  A write (a combine, a
 * plain receive) first completes the rank's sends in flight that read
 * its parts (MPI: no write under a pending send).  Plain receives and the
 * sends that feed them (arg LOGP_SEND_PLAIN) are a stream of their own,
 * matched apart from the rest (logp_op_stream), so the two kinds may
 * interleave differently at the two ends of a pair. */
#define LOGP_FAMILY_DATAFLOW 256u
/* An exchange: in each round every partner posts its receives as the round
 * begins, so the executor sends large messages as plain nonblocking sends,
 * not synchronous ones (buffer.h): waiting for receipt gains nothing there,
 * and a library that makes a synchronous send a handshake delays each
 * (SMPI 3.32, recursive-multiplying at 64 KiB, P = 4: 93 us synchronous,
 * 58 plain, the model's 63). */
#define LOGP_FAMILY_EXCHANGE 512u
/* Only for idempotent operators (the operator class LOGP_OPS_IDEMPOTENT,
 * algo.h): ranks combine ranges that overlap, so some contributions are
 * combined more than once, which changes nothing for MIN, MAX and the
 * bitwise and logical AND and OR on integers, and every rank's result is
 * the same bits whatever the order.  Not a candidate, and a forced run
 * falls back (select.h), for any other operator. */
#define LOGP_FAMILY_IDEMPOTENT 1024u
/* Every combining receive (LOGP_OP_RECV_REDUCE) of a rank is posted as the
 * rank begins, the j-th into receive slot j (s->slots of them), so that a
 * send never waits for its receiver to reach the receive: a rank whose
 * sends still read the accumulator may combine into it once they are
 * received, however many steps ahead of its receives it sends (MPI
 * lets a library hold any send until its receive is posted). */
#define LOGP_FAMILY_PREPOST 2048u

/* What an algorithm's family provides.  Tree families (bcast, reduce) give
 * node and kid, and the generic views turn the tree into operations (a
 * bcast receives from the parent and sends to the children in order; a
 * reduce combines its children's results in reverse order, then sends up);
 * other families give nops and op.  NULL entries are absent. */
typedef struct logp_family {
    /* Fills the shared data of s (s->coll, algo, P, bytes, topo, p are
     * set).  LOGP_OK, LOGP_ERR_ARG or LOGP_ERR_NOMEM. */
    logp_status_t (*build)(logp_sched_t *s, const logp_sched_opts_t *o);
    /* Releases what build allocated. */
    void (*release)(logp_sched_t *s);
    /* Trees: the place of `rank` in the tree rooted at `root`, O(log P). */
    void (*node)(const logp_sched_t *s, int root, int rank, logp_tnode_t *n);
    /* Trees: child j (0 <= j < n->nkids, in send order) as an absolute rank, O(1). */
    int (*kid)(const logp_sched_t *s, int root, const logp_tnode_t *n, int j);
    /* Others: number of operations of v->rank for v->root and
     * v->commutative (it may keep O(1) cursors in v->node.c and, for a
     * reduce, names in v->tree_root the rank whose accumulator ends as the
     * result: the root, unless the root receives it as LOGP_RECV_RESULT),
     * and operation i of that view. */
    int (*nops)(logp_view_t *v);
    logp_op_t (*op)(const logp_view_t *v, int i);
    /* Exact completion time under the uniform model (every pair and rank
     * alike, parameters s->p), the same as the simulator's; NULL if only
     * the simulator can price it. */
    double (*time)(const logp_sched_t *s, int root, int commutative);
    /* A quick estimate under a layout (the design formula in the family's
     * header), for when simulating would cost too much; NULL: `time` with
     * the representative parameters. */
    double (*estimate)(const logp_sched_t *s, int root, int commutative);
    /* Total operations of all ranks (the simulator's work); NULL for trees:
     * at most 3P. */
    long (*count)(const logp_sched_t *s);
    /* Dataflow families: the earlier operation that operation i of the view
     * must follow (its data's producer), -1 if none; O(log P). */
    int (*dep)(const logp_view_t *v, int i);
    unsigned flags;
} logp_family_t;

/* Every family object the registry names (algo.def), declared from it:
 * each is defined in its family file, and sched.c's table takes them from
 * the same rows, so a new algorithm needs no declaration of its own. */
#define LOGP_ALGO_X(id, name, colls, family, band_loggp, band_shared, desc) extern const logp_family_t family;
#include "algo.def"
#undef LOGP_ALGO_X

struct logp_sched {
    logp_coll_t coll;
    logp_algo_t algo;          /* as requested */
    const logp_family_t *fam;  /* may stand in for another family (e.g. a
                                  layout tree on one uniform node) */
    int P;
    size_t bytes;              /* bcast/reduce: the message; alltoall: one block */
    logp_topo_t topo;          /* the machine; arrays borrowed from the caller */
    logp_params_t p;           /* logp_topo_rep(&topo): what uniform shapes use */
    int k;                     /* chains: number of chains (informative);
                                  linear all-to-all: the window; two-tree:
                                  the lag of its order (sched_two_tree.c);
                                  BRUCK all-to-all: the radix */
    int parts;                 /* the message is cut into this many parts
                                  (logp_op_t.part; 1: whole messages only) */
    int window;                /* 0: the executors' default, up to 32 sends of a
                                  rank in flight and only large ones synchronous;
                                  w > 0 (paced): every send synchronous and at
                                  most w in flight, so that the transfers of a
                                  rank do not share its interface many ways
                                  (two-tree's bcast on a shared network) */
    int recv_window;           /* dataflow: plain receives a rank keeps posted (0: all) */
    int slots;                 /* receive slots a rank may fill (LOGP_RECV_SLOT) before a
                                  LOGP_OP_FOLD: the executor's buffers beside the accumulator */
    unsigned lib_sends;        /* 0: our executors' sends; else LOGP_LIB_SENDS_* bits, how a
                                  library's own collective sends (select/native.c prices
                                  one of our schedules of its shape) */
    void *data;                /* family data, owned */
    logp_sched_planned_t planned; /* set by plan.h's refinements */
};

/* A library's sends (logp_sched_t.lib_sends), on a shared network:
 * STANDARD, every send a standard-mode one, which SMPI delivers into a
 * mailbox whatever its size, so its receiver pays the receive overhead
 * (no rendezvous: sim_shared.c); TOGETHER, a rank's sends posted at once
 * (nonblocking) and sharing its interface, not held back one after
 * another (params.h's rule for ours).  Measured in SMPI 3.32 (mpich
 * selector, docs/results/smpi-fidelity): its recursive-doubling allreduce
 * at 64 KiB pays one receive overhead per round more than ours, and its
 * binomial bcast of 1 MiB takes (log2 P)(log2 P + 1)/2 m G (P = 16: 10.3 m
 * G), a rank's children's transfers sharing its link. */
#define LOGP_LIB_SENDS_STANDARD 1u
#define LOGP_LIB_SENDS_TOGETHER 2u

/* Receives the executors post ahead of their turn in a part-wise bcast
 * (coll/buffer.h), which the simulator follows (sim.h). */
#define LOGP_SCHED_RECV_AHEAD 8

/* The oldest plain receives a dataflow rank waits on at once (posted
 * ones beyond wait their turn): the root of chunked-rsg keeps P' - 1
 * posted, and waiting on all of them would cost every wait O(P). */
#define LOGP_SCHED_PLAIN_WAIT 16

/* Most sends a paced schedule keeps in flight (coll/buffer.h's queue). */
#define LOGP_SCHED_WINDOW_MAX 32

/* The sends a rank of s keeps in flight when paced: s->window, at most
 * LOGP_SCHED_WINDOW_MAX; 0 if s is not paced.  The executors and the
 * simulator both take it from here. */
static inline int logp_sched_window(const logp_sched_t *s)
{
    return s->window <= 0 ? 0 : s->window < LOGP_SCHED_WINDOW_MAX ? s->window : LOGP_SCHED_WINDOW_MAX;
}

/* Receives a rank of s keeps posted, the one it waits for included:
 * LOGP_SCHED_RECV_AHEAD in a part-wise bcast (its executor posts them
 * ahead), else 1.  The bcast executor and the simulator both take it
 * from here. */
static inline int logp_sched_recv_ahead(const logp_sched_t *s)
{
    return s->coll == LOGP_COLL_BCAST && s->parts > 1 ? LOGP_SCHED_RECV_AHEAD : 1;
}

/* Builds the schedule of `algo` for `coll` on P = topo->P ranks for
 * messages of `bytes` (the shape a size class runs).  `topo` is the
 * machine: every parameter comes from it (logp_topo_uniform for one
 * uniform node); its arrays must outlive the schedule.  Not for native or
 * auto.  Returns LOGP_OK, LOGP_ERR_ARG or LOGP_ERR_NOMEM; on error *s is
 * zeroed. */
logp_status_t logp_sched_build(logp_sched_t *s, logp_coll_t coll, logp_algo_t algo, size_t bytes,
                               const logp_topo_t *topo, const logp_sched_opts_t *opts);

/* Releases a schedule; safe on a zeroed one. */
void logp_sched_free(logp_sched_t *s);

/* The family object of a registered algorithm (native and auto: one with
 * no entries). */
const logp_family_t *logp_sched_family(logp_algo_t algo);

/* Nonzero if algo's alltoallv runs where the ranks did not agree on the
 * size class: a direct exchange (each message one peer's block), which
 * matches the other direct exchanges whatever each rank decided (algo.h).
 * The others (Bruck's, and the library's own) run only where they agree. */
static inline int logp_sched_mixes(logp_algo_t algo)
{
    return (logp_sched_family(algo)->flags & LOGP_FAMILY_A2A_DIRECT) != 0;
}

/* Nonzero if every rank of s is alike: every speed 1, and one node or one
 * rank per node (no interface is shared by ranks; parameters s->p). */
int logp_sched_alike(const logp_sched_t *s);

/* Nonzero if s's layout is the uniform model: ranks alike on a LogGP
 * network (not topo.shared), where the closed forms hold. */
int logp_sched_uniform(const logp_sched_t *s);

/* Exact completion time of s with this root and operator in the uniform
 * model, if s's layout is uniform and its family has a closed form; < 0
 * otherwise (then only the simulator prices it). */
double logp_sched_time(const logp_sched_t *s, int root, int commutative);

/* For the families' closed forms: completion of a reduce whose rank-order
 * result is ready at rank 0 at done0 and goes to another root, which was
 * done with its own part at done_root (receive side `at_root` then) and
 * has sent it up. */
double logp_sched_handover_time(const logp_params_t *p, size_t bytes, double done0, double done_root,
                                logp_recv_state_t at_root);

/* Total operations of all ranks: the simulator's work for s. */
long logp_sched_ops(const logp_sched_t *s);

/* A quick estimate of s's time when simulating it would cost too much:
 * the family's closed form with the communicator's representative
 * parameters (s->p: inter-node ones when the layout spans nodes, so every
 * message is priced as crossing, and nothing shares an interface), or a
 * layout family's design formula.  < 0 if there is none. */
double logp_sched_estimate(const logp_sched_t *s, int root, int commutative);

/* A rank's place counted from the root (0 .. P-1), and back: the root
 * relabeling every family applies (long arithmetic: P may be near INT_MAX). */
static inline int logp_sched_rel(const logp_sched_t *s, int root, int rank)
{
    return (int)(((long)rank - root + s->P) % s->P);
}

static inline int logp_sched_abs(const logp_sched_t *s, int root, long rel)
{
    return (int)((rel + root) % s->P);
}

/* Bytes of parts [part, part + n) of an m-byte message cut into `parts`
 * parts (the model's twin of the executors' element split). */
size_t logp_sched_part_bytes(size_t m, int parts, int part, int n);

/* One rank's operations of a schedule for one call. */
struct logp_view {
    const logp_sched_t *s;
    int rank, root;
    int tree_root;   /* trees: the absolute rank at the tree's root */
    int commutative; /* reduce: the operator commutes */
    int nops;
    int prepend;     /* reduce: combines children by prepending (rank order) */
    int handover;    /* reduce: 1 at the tree root, 2 at the root, when they differ */
    logp_tnode_t node;
};

/* The operations of `rank` when the collective's root is `root` (0 for
 * all-to-all) and, for a reduce, the operator commutes or not.  A
 * non-commutative reduce runs the tree rooted at rank 0 (rank order) and
 * hands the result to `root`; a family without LOGP_FAMILY_RANK_ORDER
 * cannot run it (LOGP_ERR_ARG).  O(log P) for the uniform families, no
 * allocation.  Returns LOGP_OK or LOGP_ERR_ARG. */
logp_status_t logp_view_init(logp_view_t *v, const logp_sched_t *s, int root, int rank, int commutative);

/* Operation i (0 <= i < v->nops). */
logp_op_t logp_view_op(const logp_view_t *v, int i);

/* The rank's messages (its sends and receives): each costs its processor
 * LogP's o, which computation beside a nonblocking call cannot overlap.
 * O(nops). */
int logp_view_messages(const logp_view_t *v);

/* The earlier operation operation i waits for in a dataflow schedule
 * (LOGP_FAMILY_DATAFLOW), -1 if none or not such a schedule. */
int logp_view_dep(const logp_view_t *v, int i);

/* arg of a dataflow schedule's send whose receive is a plain one. */
#define LOGP_SEND_PLAIN 1

/* The stream of operation o of s: 1 for a dataflow schedule's plain
 * receives and the sends that feed them, else 0.  Messages are matched in
 * order per (sender, receiver, stream); the executors send stream x with
 * their tag + x, so every communicator's tags come in pairs. */
static inline int logp_op_stream(const logp_sched_t *s, const logp_op_t *o)
{
    if (!(s->fam->flags & LOGP_FAMILY_DATAFLOW))
        return 0;
    return o->kind == LOGP_OP_SEND ? o->arg == LOGP_SEND_PLAIN : o->kind == LOGP_OP_RECV;
}

#endif
