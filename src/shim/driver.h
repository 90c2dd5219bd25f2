/* The one driver of every intercepted call.  A call is a descriptor (what
 * the application passed) and the collective's callbacks (what differs:
 * its checks, its executor, the library's call); the driver screens it,
 * finds the decision of (communicator, collective, size class), takes the
 * trial's turn, runs the rank's schedule or the library's collective,
 * counts and times it, and raises our errors on the application's
 * communicator.  A new collective or entry point is a descriptor and
 * callbacks, never another copy of this sequence.
 *
 * Screening sends a call the shim cannot run, or an erroneous one, to the
 * library unchanged, so that the library reports it as it always does:
 * NULL buffers with a nonzero count, aliased buffers, MPI_IN_PLACE where
 * it is not allowed, a predefined operator on a type it is not defined
 * for.  The library rejects such a call locally, without traffic, and so
 * does the shim, after the communicator's set-up (a collective, reached
 * by every rank's first call on the communicator whatever its arguments)
 * and before its decision: the call is not one of the communicator's
 * collectives and is not counted, so a rank that calls again correctly
 * meets its peers' calls (MPICH's errors/coll/noalias* tests do that).
 * When only some ranks fail (a NULL buffer at the root only), the others
 * wait for them, exactly as when the library runs alone. */
#ifndef LOGP_SHIM_DRIVER_H
#define LOGP_SHIM_DRIVER_H

#include <stddef.h>

#include <mpi.h>

#include "../coll/alltoall_direct.h"
#include "../model/sched.h"
#include "next.h"
#include "persist.h"
#include "state.h"

/* One call: the application's arguments, then what screening found. */
typedef struct logp_call {
    logp_coll_t coll;
    logp_entry_t entry;
    const void *sendbuf;     /* reduce, all-to-all (MPI_IN_PLACE as given) */
    void *recvbuf;           /* the result; a bcast's buffer */
    MPI_Count count;         /* bcast, reduce: elements; all-to-all: the receive count; alltoallv: 1 */
    MPI_Datatype type;       /* bcast, reduce: the datatype; all-to-all: the receive type; alltoallv: MPI_BYTE */
    MPI_Count sendcount;     /* all-to-all */
    MPI_Datatype sendtype;   /* all-to-all, alltoallv */
    /* alltoallv: the receive type (its checks are admit's, after the
     * communicator's set-up, which every rank then reaches: ranks' types
     * differ), the counts and displacements */
    MPI_Datatype recvtype;
    logp_alltoallv_t v;
    MPI_Op op;               /* reduce */
    int root;                /* bcast, reduce; 0 for all-to-all */
    MPI_Comm comm;
    const logp_next_t *next; /* the next definitions (the library's collective) */
    MPI_Request *req;        /* nonblocking and persistent entry points: the application's request */
    MPI_Info info;           /* persistent entry points: the info argument */
    /* screening: */
    size_t bytes;     /* of `count` elements of `type`: the size class's (alltoallv: the rank's mean block) */
    size_t sendbytes; /* all-to-all: of one send block */
    int commutative;  /* reduce, allreduce: the operator class (algo.h; 1 for the others) */
    int unsafe;       /* the library is known to fail on such a call (logp_native_unsafe) */
    int origin;       /* a trial call's time starts at this rank (agree.h) */
    int tag;          /* the driver's: the tag pair the executor uses on the private communicator */
    size_t most;      /* alltoallv: its largest block in bytes (after agree: over every rank) */
    int library;      /* agree: every rank runs the library's collective on this call */
    int agreed;       /* agree: the ranks agreed on the class, so every rank decides alike */
    int error;        /* alltoallv: the library's error for this rank's arguments, which it returns
                         after taking part with nothing to move (an idle rank's: its peers go on) */
    struct logp_decision *decision; /* agree: the agreed class's decision if it looked it up (NULL: not) */
} logp_call_t;

/* What a collective gives the driver. */
typedef struct logp_coll_ops {
    /* Checks of the call's own arguments, before the communicator's state
     * (NULL: none); 0 sends the call to the library. */
    int (*screen)(logp_call_t *c);
    /* Checks that need the communicator's size and rank, and what the
     * call shares with its peers (commutative, unsafe, origin); 0 sends
     * the call to the library. */
    int (*admit)(logp_call_t *c, const logp_comm_state_t *st);
    /* Runs this rank's operations v on the private communicator; an MPI
     * error code. */
    int (*execute)(const logp_call_t *c, const logp_comm_state_t *st, const logp_view_t *v);
    /* The library's own collective (c->next); its return value is the
     * call's. */
    int (*library)(const logp_call_t *c);
    /* Where the ranks' arguments may put them in different classes
     * (alltoallv): a blocking call's agreement on what every rank decides
     * (NULL: none), after admit, before the decision; every rank that
     * admitted the call reaches it; also a persistent initialization's
     * (whose starts then replay what was agreed).  May set c->bytes and
     * c->most to what the ranks agreed, c->agreed, c->library, and
     * c->decision (the driver then looks it up no second time).  An MPI
     * error code. */
    int (*agree)(logp_call_t *c, logp_comm_state_t *st);
} logp_coll_ops_t;

/* Runs call c of the collective `ops` describes: the library's collective
 * where screening says so, else the communicator's decision.  Returns the
 * call's MPI error code (an error of ours has gone through the
 * communicator's error handler first, as the library's would).
 *
 * A nonblocking call (LOGP_ENTRY_NONBLOCKING) starts the decision's
 * schedule on the engine (coll/engine.h) and returns its request in
 * *c->req, where three things hold on every rank alike: the communicator
 * was set up by an earlier call (setting up is a blocking collective), the
 * class's decision cannot change while the collective runs (a forced
 * algorithm, or auto without trials: a trial's calls and agreements are
 * blocking ones) and the engine can progress in this library; else the
 * library's nonblocking collective.  It takes no part in trials, is
 * counted in the class's calls (its time: the start's), and its errors
 * come back through the request.
 *
 * A persistent call (LOGP_ENTRY_PERSISTENT) makes the library's persistent
 * collective (the application's request) and, where the same conditions
 * hold (the communicator set up here if it was not: initialization is a
 * collective call), enters it in persist.h's table with the decision's
 * schedule for its starts (logp_driver_persistent_start). */
int logp_driver_run(const logp_coll_ops_t *ops, logp_call_t *c);

/* MPI_Start of a persistent collective in the table (persist.h): starts
 * the schedule planned at its initialization on the engine (a tag slot
 * taken now, as a nonblocking call takes one) and marks p started.
 * Counted in its class's calls.  An MPI error code. */
int logp_driver_persistent_start(logp_persist_t *p);

/* Frees p (inactive) and what its initialization kept (its copies of the
 * call's derived datatypes). */
void logp_driver_persistent_free(logp_persist_t *p);

/* Nonzero if nonblocking collectives run on the engine in this process
 * (PMPI_LOGP_NONBLOCKING=1, a library the engine can progress, below
 * MPI_THREAD_MULTIPLE): alike on every rank.  Then the library's blocking
 * collectives that the shim calls run as their nonblocking forms and a
 * wait that steps the engine. */
int logp_driver_engine(void);

/* Nonzero if the library's blocking collectives on comm run as their
 * nonblocking forms and a stepping wait: the engine on, and comm not an
 * intercommunicator.  The engine never runs a schedule on one, and Open
 * MPI 4.1.4's nonblocking collectives there hang where a rank passes
 * MPI_PROC_NULL (MPI_Ibcast, MPI_Ireduce; without the shim too: mpi4py's
 * intercommunicator tests under PMPI_LOGP_NONBLOCKING=1).  Alike on every
 * rank of both groups, so blocking calls still meet blocking ones.  The
 * price: blocked in a collective on an intercommunicator, a rank does not
 * step its nonblocking collectives on others. */
int logp_driver_converts(MPI_Comm comm);

#endif
