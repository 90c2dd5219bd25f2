/* The shim's MPI_Bcast, MPI_Reduce, MPI_Alltoall and MPI_Session_finalize
 * (exported by entry.c, or below when the shim is compiled into a program).
 * Thin: check that the call is one we can run (else PMPI, so the
 * MPI library reports erroneous arguments as it always does), look up the
 * communicator's decision, run the rank's operations on the private
 * communicator, and raise an error that comes back on the application's
 * communicator with its current error handler.
 *
 * Local checks send erroneous calls to the MPI library unchanged: NULL
 * buffers with a nonzero count, aliased buffers, MPI_IN_PLACE where it is
 * not allowed, a predefined operator on a predefined datatype it is not
 * defined for.  The MPI library rejects such a call locally, without
 * traffic, and so does the shim, after the communicator's set-up (a
 * collective, reached by every rank's first call on the communicator
 * whatever its arguments) and before its decision: the call is not one of
 * the communicator's collectives and is not counted, so a rank that calls
 * again correctly meets its peers' calls (MPICH's errors/coll/noalias*
 * tests do that).  When only some ranks fail (a NULL buffer at the root
 * only), the others wait for them, exactly as when the library runs
 * alone. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "../coll/alltoall.h"
#include "../coll/drain.h"
#include "../coll/bcast.h"
#include "../coll/buffer.h" /* logp_buffer_named */
#include "../coll/reduce.h"
#include "confirm.h"
#include "dispatch.h"
#include "next.h"
#include "shim.h"
#include "state.h"

#define LOGP_EXPORT __attribute__((visibility("default")))

/* The MPI library's collectives (next.h keeps them as data pointers). */
typedef int (*logp_native_bcast_t)(void *, int, MPI_Datatype, int, MPI_Comm);
typedef int (*logp_native_reduce_t)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
typedef int (*logp_native_alltoall_t)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);

/* The predefined datatypes most programs reduce and broadcast: their sizes
 * are asked once, not with a PMPI call per collective (a few hundred
 * nanoseconds; under SMPI, microseconds).  A benign race: every thread
 * writes the same value. */
static const MPI_Datatype logp_shim_basic[] = {MPI_DOUBLE, MPI_INT, MPI_FLOAT, MPI_LONG, MPI_BYTE, MPI_CHAR,
                                               MPI_UNSIGNED, MPI_LONG_LONG, MPI_UNSIGNED_LONG, MPI_SHORT,
                                               MPI_DOUBLE_PRECISION, MPI_INTEGER, MPI_REAL, MPI_DOUBLE_INT};
static int logp_shim_basic_size[sizeof logp_shim_basic / sizeof logp_shim_basic[0]];

static int logp_shim_type_size(MPI_Datatype dt, int *size)
{
    int n = (int)(sizeof logp_shim_basic / sizeof logp_shim_basic[0]), i = 0;
    while (i < n && logp_shim_basic[i] != dt)
        i++;
    if (i < n && logp_shim_basic_size[i] > 0) {
        *size = logp_shim_basic_size[i];
        return MPI_SUCCESS;
    }
    int rc = PMPI_Type_size(dt, size);
    if (rc == MPI_SUCCESS && i < n)
        logp_shim_basic_size[i] = *size;
    return rc;
}

/* The predefined datatypes by the operators defined on them (MPI standard,
 * "Predefined Reduction Operations"): a predefined operator on a listed
 * type outside its groups goes to the MPI library, which reports it. */
enum { LOGP_T_INT = 1, LOGP_T_FINT = 2, LOGP_T_FLOAT = 4, LOGP_T_LOGICAL = 8, LOGP_T_COMPLEX = 16, LOGP_T_BYTE = 32,
       LOGP_T_PAIR = 64 };

static unsigned logp_shim_type_group(MPI_Datatype dt)
{
    static const struct {
        MPI_Datatype dt;
        unsigned group;
    } types[] = {
        /* the most reduced types first: a call scans up to its type */
        {MPI_DOUBLE, LOGP_T_FLOAT}, {MPI_INT, LOGP_T_INT}, {MPI_FLOAT, LOGP_T_FLOAT}, {MPI_LONG, LOGP_T_INT},
        {MPI_SHORT, LOGP_T_INT}, {MPI_UNSIGNED_SHORT, LOGP_T_INT}, {MPI_UNSIGNED, LOGP_T_INT},
        {MPI_UNSIGNED_LONG, LOGP_T_INT}, {MPI_LONG_LONG, LOGP_T_INT},
        {MPI_UNSIGNED_LONG_LONG, LOGP_T_INT}, {MPI_SIGNED_CHAR, LOGP_T_INT}, {MPI_UNSIGNED_CHAR, LOGP_T_INT},
        {MPI_INT8_T, LOGP_T_INT}, {MPI_INT16_T, LOGP_T_INT}, {MPI_INT32_T, LOGP_T_INT}, {MPI_INT64_T, LOGP_T_INT},
        {MPI_UINT8_T, LOGP_T_INT}, {MPI_UINT16_T, LOGP_T_INT}, {MPI_UINT32_T, LOGP_T_INT}, {MPI_UINT64_T, LOGP_T_INT},
        {MPI_INTEGER, LOGP_T_FINT}, {MPI_LONG_DOUBLE, LOGP_T_FLOAT}, {MPI_REAL, LOGP_T_FLOAT},
        {MPI_DOUBLE_PRECISION, LOGP_T_FLOAT},
        {MPI_LOGICAL, LOGP_T_LOGICAL}, {MPI_C_BOOL, LOGP_T_LOGICAL}, {MPI_COMPLEX, LOGP_T_COMPLEX},
        {MPI_C_DOUBLE_COMPLEX, LOGP_T_COMPLEX}, {MPI_C_FLOAT_COMPLEX, LOGP_T_COMPLEX}, {MPI_BYTE, LOGP_T_BYTE},
        {MPI_FLOAT_INT, LOGP_T_PAIR}, {MPI_DOUBLE_INT, LOGP_T_PAIR}, {MPI_LONG_INT, LOGP_T_PAIR},
        {MPI_2INT, LOGP_T_PAIR}, {MPI_SHORT_INT, LOGP_T_PAIR}, {MPI_LONG_DOUBLE_INT, LOGP_T_PAIR},
        /* the standard's other named types in those groups; the optional ones where mpi.h has them (Open
           MPI 4.1 lacks MPI_INTEGER16; an unsupported one may be MPI_DATATYPE_NULL, which never gets here) */
        {MPI_AINT, LOGP_T_FINT}, {MPI_OFFSET, LOGP_T_FINT}, {MPI_COUNT, LOGP_T_FINT},
        {MPI_DOUBLE_COMPLEX, LOGP_T_COMPLEX}, {MPI_C_COMPLEX, LOGP_T_COMPLEX},
        {MPI_C_LONG_DOUBLE_COMPLEX, LOGP_T_COMPLEX}, {MPI_CXX_BOOL, LOGP_T_LOGICAL}, {MPI_2REAL, LOGP_T_PAIR},
        {MPI_2DOUBLE_PRECISION, LOGP_T_PAIR}, {MPI_2INTEGER, LOGP_T_PAIR},
#ifdef MPI_INTEGER1
        {MPI_INTEGER1, LOGP_T_FINT},
#endif
#ifdef MPI_INTEGER2
        {MPI_INTEGER2, LOGP_T_FINT},
#endif
#ifdef MPI_INTEGER4
        {MPI_INTEGER4, LOGP_T_FINT},
#endif
#ifdef MPI_INTEGER8
        {MPI_INTEGER8, LOGP_T_FINT},
#endif
#ifdef MPI_INTEGER16
        {MPI_INTEGER16, LOGP_T_FINT},
#endif
#ifdef MPI_REAL4
        {MPI_REAL4, LOGP_T_FLOAT},
#endif
#ifdef MPI_REAL8
        {MPI_REAL8, LOGP_T_FLOAT},
#endif
#ifdef MPI_REAL16
        {MPI_REAL16, LOGP_T_FLOAT},
#endif
#ifdef MPI_COMPLEX8
        {MPI_COMPLEX8, LOGP_T_COMPLEX},
#endif
#ifdef MPI_COMPLEX16
        {MPI_COMPLEX16, LOGP_T_COMPLEX},
#endif
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].dt == dt)
            return types[i].group;
    return 0; /* derived or not listed: no check */
}

/* Nonzero if a predefined `op` on dt is the MPI library's to judge: a
 * listed type the operator is not defined on (MPICH returns MPI_ERR_OP on
 * every rank before any traffic), a named type not listed (no operator's
 * in the standard, as MPI_CHAR: the library runs or rejects it as it
 * would without the shim), or a derived type
 * (predefined operators are defined on predefined types only; some
 * libraries extend that), and MPI_REPLACE and MPI_NO_OP. */
static int logp_shim_op_native(MPI_Op op, MPI_Datatype dt)
{
    static const struct {
        MPI_Op op;
        unsigned groups;
    } ops[] = {
        {MPI_MAX, LOGP_T_INT | LOGP_T_FINT | LOGP_T_FLOAT},
        {MPI_MIN, LOGP_T_INT | LOGP_T_FINT | LOGP_T_FLOAT},
        {MPI_SUM, LOGP_T_INT | LOGP_T_FINT | LOGP_T_FLOAT | LOGP_T_COMPLEX},
        {MPI_PROD, LOGP_T_INT | LOGP_T_FINT | LOGP_T_FLOAT | LOGP_T_COMPLEX},
        {MPI_LAND, LOGP_T_INT | LOGP_T_LOGICAL}, {MPI_LOR, LOGP_T_INT | LOGP_T_LOGICAL},
        {MPI_LXOR, LOGP_T_INT | LOGP_T_LOGICAL}, {MPI_BAND, LOGP_T_INT | LOGP_T_FINT | LOGP_T_BYTE},
        {MPI_BOR, LOGP_T_INT | LOGP_T_FINT | LOGP_T_BYTE}, {MPI_BXOR, LOGP_T_INT | LOGP_T_FINT | LOGP_T_BYTE},
        {MPI_MAXLOC, LOGP_T_PAIR}, {MPI_MINLOC, LOGP_T_PAIR},
    };
    size_t i = 0;
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return 1; /* predefined for one-sided accumulates: the library judges them here */
    while (i < sizeof ops / sizeof ops[0] && ops[i].op != op)
        i++;
    if (i == sizeof ops / sizeof ops[0])
        return 0; /* a user operator: defined on whatever it is given */
    unsigned group = logp_shim_type_group(dt);
    if (group)
        return (ops[i].groups & group) == 0;
    return 1; /* a derived type, or a predefined one not listed (MPI_CHAR, MPI_WCHAR, ..) */
}

/* Nonzero if buf is a NULL buffer the MPI library rejects (MPICH's rule):
 * with a predefined datatype, or a derived one whose data starts at its
 * address (true lower bound 0).  NULL is MPI_BOTTOM in MPICH, legal with a
 * derived datatype of absolute addresses. */
static int logp_shim_null(const void *buf, MPI_Datatype dt)
{
    MPI_Aint tlb = 0, textent;
    if (buf != NULL)
        return 0;
    return logp_buffer_named(dt) || PMPI_Type_get_true_extent(dt, &tlb, &textent) != MPI_SUCCESS || tlb == 0;
}

/* Nonzero if the MPI library rejects this reduce on this rank without
 * traffic: a NULL send buffer; MPI_IN_PLACE at a rank that is not the
 * root; at the root, a NULL or MPI_IN_PLACE receive buffer or one that is
 * the send buffer (the receive buffer of the other ranks is not
 * significant: NULL or the send buffer are legal there). */
static int logp_shim_reduce_rejected(const void *sendbuf, const void *recvbuf, MPI_Datatype dt, int root, int rank)
{
    if (logp_shim_null(sendbuf, dt))
        return 1;
    if (rank != root)
        return sendbuf == MPI_IN_PLACE;
    return sendbuf == recvbuf || recvbuf == MPI_IN_PLACE || logp_shim_null(recvbuf, dt);
}

/* Every predefined reduction operator commutes (MPI standard, 5.9.2): no
 * PMPI call for them. */
static int logp_shim_commutative(MPI_Op op, int *commutative)
{
    static const MPI_Op predefined[] = {MPI_SUM,  MPI_PROD, MPI_MAX, MPI_MIN,  MPI_LAND,   MPI_LOR,
                                        MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC};
    for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; i++)
        if (op == predefined[i]) {
            *commutative = 1;
            return MPI_SUCCESS;
        }
    return PMPI_Op_commutative(op, commutative);
}

/* Bytes of `count` elements of dt if the call is one we handle: valid
 * handle values, nonzero size that fits the int counts the executors use. */
static int logp_shim_bytes(MPI_Comm comm, int count, MPI_Datatype dt, size_t *bytes)
{
    int size = 0;
    if (comm == MPI_COMM_NULL || dt == MPI_DATATYPE_NULL || count <= 0)
        return 0;
    if (logp_shim_type_size(dt, &size) != MPI_SUCCESS || size <= 0)
        return 0;
    *bytes = (size_t)count * (size_t)size;
    return *bytes <= (size_t)INT_MAX;
}

static logp_comm_state_t *logp_shim_state(MPI_Comm comm)
{
    logp_comm_state_t *st = logp_state_get(comm);
    return st && st->usable ? st : NULL;
}

/* Adds one call to the statistics and prints it at verbose level 2. */
static void logp_shim_account(logp_comm_state_t *st, logp_coll_t coll, logp_decision_t *d, logp_algo_t ran,
                              size_t bytes, double t0)
{
    logp_stat_t *s = &d->stat;
    s->calls++;
    s->bytes += (double)bytes;
    if (st->timed)
        s->time += PMPI_Wtime() - t0;
    s->predicted += d->predicted > 0 ? d->predicted : 0.0;
    if (logp_state_env()->verbose >= 2 && st->rank == 0)
        fprintf(stderr, "pmpi-logp: %s: %s %zu B -> %s%s\n", st->name, logp_coll_name(coll), bytes,
                logp_algo_name(ran), d->trial.phase != LOGP_TRIAL_RUNNING ? ""
                                     : d->trial.calls == 0            ? " (warm-up)"
                                                                      : " (trial)");
}

/* PMPI_LOGP_TEST_SLOW (tests only): the call ran the algorithm that is to
 * look slow: 20 ms per rank of the communicator, so that the difference
 * stands above the noise of ranks that oversubscribe the cores (n = 8 on
 * two cores: calls of any algorithm measured 16 - 48 ms). */
static void logp_shim_test_slow(const logp_comm_state_t *st, logp_coll_t coll, logp_algo_t ran)
{
    if (ran == logp_state_env()->test_slow[coll]) {
        long ns = 20000000L * st->size;
        struct timespec pause = {ns / 1000000000L, ns % 1000000000L};
        nanosleep(&pause, NULL);
    }
}

/* An error of ours goes to the application's communicator and its current
 * error handler (which may abort, as the MPI library's would), then back
 * to the caller. */
static int logp_shim_error(const logp_comm_state_t *st, int rc)
{
    if (rc != MPI_SUCCESS)
        PMPI_Comm_call_errhandler(st->comm, rc);
    return rc;
}

/* Nonzero if this rank runs algo's schedule (its view in *v) rather than
 * the library's collective. */
static int logp_shim_ours(logp_algo_t algo, const logp_sched_t *sched, int root, int rank, int commutative,
                          logp_view_t *v)
{
    return algo != LOGP_ALGO_NATIVE && logp_view_init(v, sched, root, rank, commutative) == LOGP_OK;
}

/* PMPI_LOGP_DISPATCH: records the call's work since `entry` and, timed
 * again at once, its pure lookups (dispatch.h: warm_median_us).  The
 * confirmation's turn is left out of the repeat: it counts trial calls. */
static void logp_shim_dispatch(logp_coll_t coll, double entry, MPI_Comm comm, int count, MPI_Datatype dt, int root,
                               int commutative, int unsafe)
{
    double end = logp_dispatch_now(), t = end;
    size_t bytes;
    logp_comm_state_t *st = NULL;
    logp_view_t v;
    if (logp_shim_bytes(comm, count, dt, &bytes) && (st = logp_shim_state(comm)) != NULL) {
        logp_decision_t *d = logp_state_decide(st, coll, bytes, commutative, unsafe);
        logp_shim_ours(d->algo, &d->sched, root, st->rank, commutative, &v);
        t = logp_dispatch_now();
    }
    if (st)
        logp_dispatch_call(coll, st->size, end - entry, t - end);
}

static int logp_shim_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    const logp_next_t *next = logp_next_get();
    double entry = logp_dispatch_on() ? logp_dispatch_now() : 0.0;
    size_t bytes;
    logp_comm_state_t *st;
    if (!logp_shim_bytes(comm, count, datatype, &bytes) || (st = logp_shim_state(comm)) == NULL || root < 0 ||
        root >= st->size || logp_shim_null(buffer, datatype))
        return LOGP_NEXT_AS(logp_native_bcast_t, next->bcast)(buffer, count, datatype, root, comm);
    double t0 = st->timed ? PMPI_Wtime() : 0.0;
    logp_decision_t *d = logp_state_decide(st, LOGP_COLL_BCAST, bytes, 1, 0);
    logp_algo_t algo = d->algo;
    const logp_sched_t *sched = &d->sched;
    int timed = logp_confirm_turn(st, d, &algo, &sched);
    logp_view_t v;
    int rc, ours = logp_shim_ours(algo, sched, root, st->rank, 1, &v);
    if (entry > 0.0)
        logp_shim_dispatch(LOGP_COLL_BCAST, entry, comm, count, datatype, root, 1, 0);
    if (!logp_confirm_barrier(st, &d)) { /* the ranks decided unlike: what every rank runs instead */
        algo = d->algo;
        timed = 0;
        ours = logp_shim_ours(algo, &d->sched, root, st->rank, 1, &v);
    }
    double tc = timed ? PMPI_Wtime() : 0.0;
    if (ours)
        rc = logp_coll_bcast(buffer, count, datatype, st->pcomm, st->tag, &v, logp_state_scratch());
    else
        rc = LOGP_NEXT_AS(logp_native_bcast_t, next->bcast)(buffer, count, datatype, root, comm);
    logp_shim_test_slow(st, LOGP_COLL_BCAST, algo);
    logp_confirm_after(st, d, timed, st->rank == root, tc, timed ? PMPI_Wtime() - tc : 0.0);
    logp_shim_account(st, LOGP_COLL_BCAST, d, algo, bytes, t0);
    return ours ? logp_shim_error(st, rc) : rc; /* last: a handler may not return, or free the communicator */
}

static int logp_shim_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm)
{
    const logp_next_t *next = logp_next_get();
    double entry = logp_dispatch_on() ? logp_dispatch_now() : 0.0;
    size_t bytes;
    logp_comm_state_t *st;
    int commutative = 0;
    if (!logp_shim_bytes(comm, count, datatype, &bytes) || op == MPI_OP_NULL || logp_shim_op_native(op, datatype) ||
        (st = logp_shim_state(comm)) == NULL || root < 0 || root >= st->size ||
        logp_shim_reduce_rejected(sendbuf, recvbuf, datatype, root, st->rank) ||
        logp_shim_commutative(op, &commutative) != MPI_SUCCESS)
        return LOGP_NEXT_AS(logp_native_reduce_t, next->reduce)(sendbuf, recvbuf, count, datatype, op, root, comm);
    /* MPICH 4.0.2 crashes in its reduce-scatter-gather path (commutative,
     * > 2 KiB) with MPI_IN_PLACE at a non-zero root.  Only the root knows
     * about MPI_IN_PLACE, and all ranks must decide alike: keep every such
     * call away from native. */
#ifndef OPEN_MPI /* MPICH's bug (SMPI: kept, untested there) */
    int unsafe = commutative && root != 0 && bytes > 2048;
#else
    int unsafe = 0;
#endif
    double t0 = st->timed ? PMPI_Wtime() : 0.0;
    logp_decision_t *d = logp_state_decide(st, LOGP_COLL_REDUCE, bytes, commutative, unsafe);
    logp_algo_t algo = d->algo;
    const logp_sched_t *sched = &d->sched;
    int timed = logp_confirm_turn(st, d, &algo, &sched);
    logp_view_t v;
    int rc, ours = logp_shim_ours(algo, sched, root, st->rank, commutative, &v);
    if (entry > 0.0)
        logp_shim_dispatch(LOGP_COLL_REDUCE, entry, comm, count, datatype, root, commutative, unsafe);
    if (!logp_confirm_barrier(st, &d)) { /* the ranks decided unlike: what every rank runs instead */
        algo = d->algo;
        timed = 0;
        ours = logp_shim_ours(algo, &d->sched, root, st->rank, commutative, &v);
    }
    double tc = timed ? PMPI_Wtime() : 0.0;
    if (ours)
        rc = logp_coll_reduce(sendbuf, recvbuf, count, datatype, op, st->pcomm, st->tag, &v, logp_state_scratch());
    else
        rc = LOGP_NEXT_AS(logp_native_reduce_t, next->reduce)(sendbuf, recvbuf, count, datatype, op, root, comm);
    logp_shim_test_slow(st, LOGP_COLL_REDUCE, algo);
    logp_confirm_after(st, d, timed, 1, tc, timed ? PMPI_Wtime() - tc : 0.0);
    logp_shim_account(st, LOGP_COLL_REDUCE, d, algo, bytes, t0);
    return ours ? logp_shim_error(st, rc) : rc; /* last: a handler may not return, or free the communicator */
}

static int logp_shim_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const logp_next_t *next = logp_next_get();
    double entry = logp_dispatch_on() ? logp_dispatch_now() : 0.0;
    size_t bytes, sbytes;
    logp_comm_state_t *st;
    int in_place = sendbuf == MPI_IN_PLACE;
    /* the set-up first (a collective every rank's first call reaches), then
     * what this rank alone may get wrong */
    if (!logp_shim_bytes(comm, recvcount, recvtype, &bytes) || (st = logp_shim_state(comm)) == NULL ||
        bytes * (size_t)st->size > (size_t)INT_MAX ||
        (!in_place && (!logp_shim_bytes(comm, sendcount, sendtype, &sbytes) || sendbuf == recvbuf ||
                       logp_shim_null(sendbuf, sendtype))) ||
        recvbuf == MPI_IN_PLACE || logp_shim_null(recvbuf, recvtype))
        return LOGP_NEXT_AS(logp_native_alltoall_t, next->alltoall)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    /* A send size other than the receive size (an erroneous call, MPICH's
     * errors/coll/alltoalllength) is known here alone; the peers run the
     * class's decision, so this rank runs it too, with empty messages
     * (logp_coll_drain): the peers report short messages instead of
     * waiting for a rank that went to the library alone, and this rank
     * reports what the library does for a longer send, a truncation. */
    int mismatch = !in_place && sbytes != bytes;
    /* MPICH 4.0.2's MPI_Alltoall on a 1-rank communicator hangs while an
     * MPI_ANY_SOURCE receive is pending on it: never send that to native. */
#ifndef OPEN_MPI /* MPICH's bug (SMPI: kept, untested there) */
    int unsafe = st->size == 1;
#else
    int unsafe = 0;
#endif
    double t0 = st->timed ? PMPI_Wtime() : 0.0;
    logp_decision_t *d = logp_state_decide(st, LOGP_COLL_ALLTOALL, bytes, 1, unsafe);
    logp_algo_t algo = d->algo;
    const logp_sched_t *sched = &d->sched;
    int timed = logp_confirm_turn(st, d, &algo, &sched);
    logp_view_t v;
    int rc, ours = logp_shim_ours(algo, sched, 0, st->rank, 1, &v);
    if (entry > 0.0)
        logp_shim_dispatch(LOGP_COLL_ALLTOALL, entry, comm, recvcount, recvtype, 0, 1, unsafe);
    if (!logp_confirm_barrier(st, &d)) { /* the ranks decided unlike: what every rank runs instead */
        algo = d->algo;
        timed = 0;
        ours = logp_shim_ours(algo, &d->sched, 0, st->rank, 1, &v);
    }
    double tc = timed ? PMPI_Wtime() : 0.0;
    if (ours && mismatch)
        rc = logp_coll_drain(&v, st->pcomm, st->tag, sbytes > bytes ? MPI_ERR_TRUNCATE : MPI_ERR_OTHER);
    else if (ours)
        rc = logp_coll_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, st->pcomm, st->tag, &v,
                                logp_state_scratch());
    else
        rc = LOGP_NEXT_AS(logp_native_alltoall_t, next->alltoall)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    logp_shim_test_slow(st, LOGP_COLL_ALLTOALL, algo);
    logp_confirm_after(st, d, timed, 1, tc, timed ? PMPI_Wtime() - tc : 0.0);
    logp_shim_account(st, LOGP_COLL_ALLTOALL, d, algo, bytes, t0);
    return ours ? logp_shim_error(st, rc) : rc; /* last: a handler may not return, or free the communicator */
}

/* For the shared and static libraries, the exported entry points are in
 * entry.c (machine words, no mpi.h); these are what they call. */
int logp_shim_bcast_words(void *buffer, logp_word_t count, logp_word_t datatype, logp_word_t root, logp_word_t comm)
{
    return logp_shim_bcast(buffer, (int)count, (MPI_Datatype)datatype, (int)root, (MPI_Comm)comm);
}

int logp_shim_reduce_words(const void *sendbuf, void *recvbuf, logp_word_t count, logp_word_t datatype, logp_word_t op,
                           logp_word_t root, logp_word_t comm)
{
    return logp_shim_reduce(sendbuf, recvbuf, (int)count, (MPI_Datatype)datatype, (MPI_Op)op, (int)root,
                            (MPI_Comm)comm);
}

int logp_shim_alltoall_words(const void *sendbuf, logp_word_t sendcount, logp_word_t sendtype, void *recvbuf,
                             logp_word_t recvcount, logp_word_t recvtype, logp_word_t comm)
{
    return logp_shim_alltoall(sendbuf, (int)sendcount, (MPI_Datatype)sendtype, recvbuf, (int)recvcount,
                              (MPI_Datatype)recvtype, (MPI_Comm)comm);
}

int logp_shim_session_finalize_words(void *session)
{
    const logp_next_t *next = logp_next_get();
    logp_state_end();
#if MPI_VERSION >= 4
    typedef int (*logp_native_session_t)(MPI_Session *);
    return next->session_finalize ? LOGP_NEXT_AS(logp_native_session_t, next->session_finalize)(session)
                                  : MPI_ERR_INTERN;
#else
    (void)next;
    (void)session;
    return MPI_ERR_INTERN; /* no Sessions in this MPI: never called */
#endif
}

#ifndef LOGP_SHIM_CHAIN
/* The shim compiled into a program (SMPI): the MPI entry points are these,
 * and the next definitions the MPI library's PMPI_X. */
LOGP_EXPORT int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return logp_shim_bcast(buffer, count, datatype, root, comm);
}

LOGP_EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm)
{
    return logp_shim_reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

LOGP_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    return logp_shim_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

#if MPI_VERSION >= 4
LOGP_EXPORT int MPI_Session_finalize(MPI_Session *session)
{
    return logp_shim_session_finalize_words(session);
}
#endif
#endif
