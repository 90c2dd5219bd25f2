/* The shim's collectives as the driver sees them: for each, the checks
 * of its arguments, its executor and the library's call (driver.h), and
 * its entry points (exported by entry.c, or below when the shim is
 * compiled into a program). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <mpi.h>

#include "../coll/alltoall.h"
#include "../coll/alltoallv_bruck.h"
#include "../coll/bcast.h"
#include "../coll/buffer.h"
#include "../coll/drain.h"
#include "../coll/library.h"
#include "../coll/reduce.h"
#include "../select/native.h"
#include "args.h"
#include "decide.h"
#include "driver.h"
#include "next.h"
#include "process.h"
#include "run.h"
#include "shim.h"

#define LOGP_EXPORT __attribute__((visibility("default")))

/* A handle, count or info as the word the next definitions take (shim.h). */
#define LOGP_W(x) ((logp_word_t)(x))

/* The library's call for `c`: its entry point's next definition. */
#define LOGP_SHIM_NEXT(c) ((c)->next->lib[(c)->entry][(c)->coll])

/* A count word as the entry point passed it: an int's word has an
 * undefined upper half (shim.h). */
static MPI_Count logp_shim_count(logp_entry_t entry, logp_word_t w)
{
    return logp_next_large(entry) ? (MPI_Count)w : (MPI_Count)(int)w;
}

/* ---- MPI_Bcast */

static int logp_shim_bcast_admit(logp_call_t *c, const logp_comm_state_t *st)
{
    c->origin = st->rank == c->root;
    return c->root >= 0 && c->root < st->size && !logp_args_null(c->recvbuf, c->type);
}

static int logp_shim_bcast_execute(const logp_call_t *c, const logp_comm_state_t *st, const logp_view_t *v)
{
    return logp_coll_bcast(c->recvbuf, (int)c->count, c->type, st->pcomm, c->tag, v, logp_process_scratch());
}

/* The library's call is the application's entry point's (a count the
 * shim leaves to the library may not fit an int). */
static int logp_shim_bcast_library(const logp_call_t *c)
{
    return logp_shim_bcast_call(LOGP_SHIM_NEXT(c), c->entry, c->recvbuf, LOGP_W(c->count), LOGP_W(c->type),
                                LOGP_W(c->root), LOGP_W(c->comm), LOGP_W(c->info), c->req);
}

static const logp_coll_ops_t logp_shim_bcast_ops = {NULL, logp_shim_bcast_admit, logp_shim_bcast_execute,
                                                    logp_shim_bcast_library, NULL};

/* ---- MPI_Reduce */

static int logp_shim_reduce_screen(logp_call_t *c)
{
    return c->op != MPI_OP_NULL && !logp_args_op_native(c->op, c->type);
}

/* Nonzero if the library rejects this reduce on this rank without
 * traffic: a NULL send buffer; MPI_IN_PLACE at a rank that is not the
 * root; at the root, a NULL or MPI_IN_PLACE receive buffer or one that is
 * the send buffer (the receive buffer of the other ranks is not
 * significant: NULL or the send buffer are legal there). */
static int logp_shim_reduce_rejected(const logp_call_t *c, int rank)
{
    if (logp_args_null(c->sendbuf, c->type))
        return 1;
    if (rank != c->root)
        return c->sendbuf == MPI_IN_PLACE;
    return c->sendbuf == c->recvbuf || c->recvbuf == MPI_IN_PLACE || logp_args_null(c->recvbuf, c->type);
}

static int logp_shim_reduce_admit(logp_call_t *c, const logp_comm_state_t *st)
{
    if (c->root < 0 || c->root >= st->size || logp_shim_reduce_rejected(c, st->rank) ||
        logp_args_commutative(c->op, &c->commutative) != MPI_SUCCESS)
        return 0;
    c->unsafe = logp_native_unsafe(logp_native_lib_default(), LOGP_COLL_REDUCE, st->size, c->root, c->bytes,
                                   c->commutative);
    return 1;
}

static int logp_shim_reduce_execute(const logp_call_t *c, const logp_comm_state_t *st, const logp_view_t *v)
{
    return logp_coll_reduce(c->sendbuf, c->recvbuf, (int)c->count, c->type, c->op, st->pcomm, c->tag, v,
                            logp_process_scratch());
}

static int logp_shim_reduce_library(const logp_call_t *c)
{
    return logp_shim_reduce_call(LOGP_SHIM_NEXT(c), c->entry, c->sendbuf, c->recvbuf, LOGP_W(c->count),
                                 LOGP_W(c->type), LOGP_W(c->op), LOGP_W(c->root), LOGP_W(c->comm), LOGP_W(c->info),
                                 c->req);
}

static const logp_coll_ops_t logp_shim_reduce_ops = {logp_shim_reduce_screen, logp_shim_reduce_admit,
                                                     logp_shim_reduce_execute, logp_shim_reduce_library, NULL};

/* ---- MPI_Alltoall (count and type: the receive side's) */

static int logp_shim_alltoall_admit(logp_call_t *c, const logp_comm_state_t *st)
{
    int in_place = c->sendbuf == MPI_IN_PLACE;
    if (c->bytes * (size_t)st->size > (size_t)INT_MAX ||
        (!in_place && (!logp_args_bytes(c->comm, c->sendcount, c->sendtype, &c->sendbytes) ||
                       c->sendbuf == c->recvbuf || logp_args_null(c->sendbuf, c->sendtype))) ||
        c->recvbuf == MPI_IN_PLACE || logp_args_null(c->recvbuf, c->type))
        return 0;
    if (in_place)
        c->sendbytes = c->bytes;
    c->unsafe = logp_native_unsafe(logp_native_lib_default(), LOGP_COLL_ALLTOALL, st->size, 0, c->bytes, 1);
    return 1;
}

/* A send size other than the receive size (an erroneous call, MPICH's
 * errors/coll/alltoalllength) is known here alone; the peers run the
 * class's decision, so this rank runs it too, with empty messages
 * (logp_coll_drain): the peers report short messages instead of waiting
 * for a rank that went to the library alone, and this rank reports what
 * the library does for a longer send, a truncation. */
static int logp_shim_alltoall_execute(const logp_call_t *c, const logp_comm_state_t *st, const logp_view_t *v)
{
    if (c->sendbytes != c->bytes)
        return logp_coll_drain(v, st->pcomm, c->tag, c->sendbytes > c->bytes ? MPI_ERR_TRUNCATE : MPI_ERR_OTHER);
    return logp_coll_alltoall(c->sendbuf, (int)c->sendcount, c->sendtype, c->recvbuf, (int)c->count, c->type,
                              st->pcomm, c->tag, v, logp_process_scratch());
}

static int logp_shim_alltoall_library(const logp_call_t *c)
{
    return logp_shim_alltoall_call(LOGP_SHIM_NEXT(c), c->entry, c->sendbuf, LOGP_W(c->sendcount),
                                   LOGP_W(c->sendtype), c->recvbuf, LOGP_W(c->count), LOGP_W(c->type),
                                   LOGP_W(c->comm), LOGP_W(c->info), c->req);
}

static const logp_coll_ops_t logp_shim_alltoall_ops = {NULL, logp_shim_alltoall_admit, logp_shim_alltoall_execute,
                                                       logp_shim_alltoall_library, NULL};

/* ---- MPI_Allreduce (root 0 for the schedules; the reduce executor puts
 * the result in every rank's recvbuf) */

/* Nonzero if the library rejects this allreduce on this rank without
 * traffic: a NULL buffer, MPI_IN_PLACE as the receive buffer, or the
 * receive buffer passed as the send buffer too (aliasing). */
static int logp_shim_allreduce_rejected(const logp_call_t *c)
{
    return c->recvbuf == MPI_IN_PLACE || logp_args_null(c->recvbuf, c->type) || c->sendbuf == c->recvbuf ||
           (c->sendbuf != MPI_IN_PLACE && logp_args_null(c->sendbuf, c->type));
}

static int logp_shim_allreduce_admit(logp_call_t *c, const logp_comm_state_t *st)
{
    (void)st;
    if (logp_shim_allreduce_rejected(c) || logp_args_commutative(c->op, &c->commutative) != MPI_SUCCESS)
        return 0;
    /* SimGrid 3.32 SMPI's own allreduce (ompi_ring_segmented) divides by
     * zero on a derived datatype with a commutative operator (a contiguous
     * of 4 unsigned at 1000 elements, a vector at 1000; scripts/smpi-test.sh
     * found it): there the library is never the path */
    c->unsafe = logp_native_lib_default() == LOGP_NATIVE_SMPI && c->commutative && !logp_buffer_named(c->type);
    if (c->commutative && logp_args_idempotent(c->op, c->type))
        c->commutative = LOGP_OPS_IDEMPOTENT; /* a class of its own: schedules that combine some inputs twice */
    return 1;
}

static int logp_shim_allreduce_library(const logp_call_t *c)
{
    return logp_shim_allreduce_call(LOGP_SHIM_NEXT(c), c->entry, c->sendbuf, c->recvbuf, LOGP_W(c->count),
                                    LOGP_W(c->type), LOGP_W(c->op), LOGP_W(c->comm), LOGP_W(c->info), c->req);
}

/* The executor is the reduce's: it reads the schedule's collective. */
static const logp_coll_ops_t logp_shim_allreduce_ops = {logp_shim_reduce_screen, logp_shim_allreduce_admit,
                                                        logp_shim_reduce_execute, logp_shim_allreduce_library, NULL};

/* ---- MPI_Alltoallv (count 1 of MPI_BYTE for the driver's first check;
 * bytes: the rank's mean block, its own class) */

/* Counts differ by rank, so whether the shim takes a call must not
 * depend on one rank's arguments: were one rank the library's and a peer
 * ours, each would wait for the other (in the vote, at the agreement
 * points, in the exchange).  Refused (the library's error, without
 * traffic; peers that expect data from this rank wait for it with or
 * without the shim): MPI_IN_PLACE as the receive buffer, a negative count,
 * and where this rank moves data MPI_DATATYPE_NULL or a type that the
 * shim cannot size.  An idle rank (no data either way) takes part
 * whatever its types, and where the library rejects its arguments
 * without traffic while its peers go on (MPICH: MPI_DATATYPE_NULL,
 * MPI_ERR_TYPE; the send buffer passed as the receive buffer with the
 * same type, count and displacement arrays, MPI_ERR_BUFFER; a rank with
 * data is refused for these) it takes part and returns that error
 * (c->error).  Buffers are not checked otherwise (NULL is MPI_BOTTOM,
 * legal twice, and a displacement can be an absolute address; the library
 * runs such calls); a type of size 0 is sized 0, since a peer may pass
 * count 0 of MPI_INT where this rank passes count 1 of a type of no data
 * (the same, empty, signature; MPICH's coll/alltoallw_zeros). */
static int logp_shim_alltoallv_admit(logp_call_t *c, const logp_comm_state_t *st)
{
    const logp_alltoallv_t *a = &c->v;
    int in_place = c->sendbuf == MPI_IN_PLACE;
    size_t ssize = 0, rsize = 0;
    if (c->recvbuf == MPI_IN_PLACE)
        return 0;
    /* one pass over the counts: their sums and largest (a block's bytes are
     * its count times the side's constant size, so the largest block is the
     * largest count's) */
    double sent = 0.0, got = 0.0, rmax = 0.0, nmax = 0.0;
    for (int j = 0; j < st->size; j++) {
        MPI_Count r = logp_alltoallv_count(a, 0, j), n = in_place ? r : logp_alltoallv_count(a, 1, j);
        if (r < 0 || n < 0)
            return 0;
        got += (double)r;
        sent += (double)n;
        rmax = (double)r > rmax ? (double)r : rmax;
        nmax = (double)n > nmax ? (double)n : nmax;
    }
    int rany = rmax > 0.0, sany = nmax > 0.0;
    int null_type = c->recvtype == MPI_DATATYPE_NULL || (!in_place && c->sendtype == MPI_DATATYPE_NULL);
    int aliased = !in_place && c->sendbuf == c->recvbuf && c->sendbuf != NULL && c->sendtype == c->recvtype &&
                  a->sendcounts == a->recvcounts && a->sdispls == a->rdispls; /* MPICH's test */
    if (!rany && !sany)
        c->error = null_type ? MPI_ERR_TYPE : aliased ? MPI_ERR_BUFFER : MPI_SUCCESS;
    else if (null_type || aliased || (rany && !logp_args_element_size(c->recvtype, &rsize)) ||
             (!in_place && sany && !logp_args_element_size(c->sendtype, &ssize)))
        return 0;
    size_t sbytes = in_place ? rsize : ssize;
    double most = rmax * (double)rsize > nmax * (double)sbytes ? rmax * (double)rsize : nmax * (double)sbytes;
    c->most = most < (double)SIZE_MAX / 2 ? (size_t)most : SIZE_MAX / 2; /* agree: the call's largest block */
    double mean = sent * (double)sbytes;
    if (got * (double)rsize > mean)
        mean = got * (double)rsize;
    mean /= st->size;
    c->bytes = mean < (double)INT_MAX ? (size_t)mean : (size_t)INT_MAX; /* the classes end at 2 GiB (state.h) */
    c->unsafe = logp_native_unsafe(logp_native_lib_default(), LOGP_COLL_ALLTOALLV, st->size, 0, c->bytes, 1);
    return 1;
}

/* Where the communicator votes (logp_decide_votes): every rank's mean
 * block and largest block, their maxima agreed by one allreduce, so that
 * every rank decides the same class; a Bruck exchange that cannot stage
 * the call's largest block (alltoallv_bruck.h) leaves it to the library,
 * on every rank alike. */
static int logp_shim_alltoallv_agree(logp_call_t *c, logp_comm_state_t *st)
{
    if (!logp_decide_votes(st)) /* not agreed: only the direct exchanges run, which need neither number */
        return MPI_SUCCESS;
    unsigned long long mine[2] = {c->bytes, c->most}, all[2] = {0, 0};
    int rc = logp_coll_library_allreduce(mine, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, st->comm);
    if (rc != MPI_SUCCESS)
        return rc;
    c->bytes = (size_t)all[0];
    c->most = (size_t)all[1];
    c->agreed = 1;
    logp_decision_t *d = logp_decide_get(st, c->coll, c->bytes, c->commutative, c->unsafe);
    c->library = (logp_sched_family(d->algo)->flags & LOGP_FAMILY_A2A_BRUCK) &&
                 !logp_coll_alltoallv_bruck_fits(st->size, c->most, c->bytes);
    if (c->library && logp_process_env()->verbose >= 2 && st->rank == 0)
        fprintf(stderr, "pmpi-logp: %s: alltoallv: largest block %zu B (largest mean %zu B) too skewed or too large "
                        "for bruck's staging: the library's\n", st->name, c->most, c->bytes);
    logp_decide_voted(st, d, c->library);
    c->decision = d; /* the driver's (the stop rule, if it decided again, did so in place) */
    return MPI_SUCCESS;
}

static int logp_shim_alltoallv_execute(const logp_call_t *c, const logp_comm_state_t *st, const logp_view_t *v)
{
    if (c->error != MPI_SUCCESS) { /* an idle rank's erroneous arguments: its part (nothing), then the error */
        int rc = logp_coll_alltoallv(c->sendbuf, MPI_BYTE, c->recvbuf, MPI_BYTE, &c->v, c->most, st->pcomm, c->tag, v,
                                     logp_process_scratch());
        return rc != MPI_SUCCESS ? rc : c->error;
    }
    return logp_coll_alltoallv(c->sendbuf, c->sendtype, c->recvbuf, c->recvtype, &c->v, c->most, st->pcomm, c->tag, v,
                               logp_process_scratch());
}

static int logp_shim_alltoallv_library(const logp_call_t *c)
{
    const logp_alltoallv_t *a = &c->v;
    return logp_shim_alltoallv_call(LOGP_SHIM_NEXT(c), c->entry, c->sendbuf, a->sendcounts, a->sdispls,
                                    LOGP_W(c->sendtype), c->recvbuf, a->recvcounts, a->rdispls, LOGP_W(c->recvtype),
                                    LOGP_W(c->comm), LOGP_W(c->info), c->req);
}

static const logp_coll_ops_t logp_shim_alltoallv_ops = {NULL, logp_shim_alltoallv_admit, logp_shim_alltoallv_execute,
                                                        logp_shim_alltoallv_library, logp_shim_alltoallv_agree};

/* ---- the next definitions, called with words */

int logp_shim_bcast_call(void *f, logp_entry_t entry, void *buffer, logp_word_t count, logp_word_t datatype,
                         logp_word_t root, logp_word_t comm, logp_word_t info, void *request)
{
    switch (logp_next_form(entry)) {
    case LOGP_ENTRY_PERSISTENT:
        return LOGP_NEXT_AS(logp_bcast_init_fn_t, f)(buffer, count, datatype, root, comm, info, request);
    case LOGP_ENTRY_NONBLOCKING:
        return LOGP_NEXT_AS(logp_ibcast_fn_t, f)(buffer, count, datatype, root, comm, request);
    default:
        return LOGP_NEXT_AS(logp_bcast_fn_t, f)(buffer, count, datatype, root, comm);
    }
}

int logp_shim_reduce_call(void *f, logp_entry_t entry, const void *sendbuf, void *recvbuf, logp_word_t count,
                          logp_word_t datatype, logp_word_t op, logp_word_t root, logp_word_t comm, logp_word_t info,
                          void *request)
{
    switch (logp_next_form(entry)) {
    case LOGP_ENTRY_PERSISTENT:
        return LOGP_NEXT_AS(logp_reduce_init_fn_t, f)(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
    case LOGP_ENTRY_NONBLOCKING:
        return LOGP_NEXT_AS(logp_ireduce_fn_t, f)(sendbuf, recvbuf, count, datatype, op, root, comm, request);
    default:
        return LOGP_NEXT_AS(logp_reduce_fn_t, f)(sendbuf, recvbuf, count, datatype, op, root, comm);
    }
}

int logp_shim_alltoall_call(void *f, logp_entry_t entry, const void *sendbuf, logp_word_t sendcount,
                            logp_word_t sendtype, void *recvbuf, logp_word_t recvcount, logp_word_t recvtype,
                            logp_word_t comm, logp_word_t info, void *request)
{
    switch (logp_next_form(entry)) {
    case LOGP_ENTRY_PERSISTENT:
        return LOGP_NEXT_AS(logp_alltoall_init_fn_t, f)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                                        comm, info, request);
    case LOGP_ENTRY_NONBLOCKING:
        return LOGP_NEXT_AS(logp_ialltoall_fn_t, f)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                                    request);
    default:
        return LOGP_NEXT_AS(logp_alltoall_fn_t, f)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    }
}

int logp_shim_allreduce_call(void *f, logp_entry_t entry, const void *sendbuf, void *recvbuf, logp_word_t count,
                             logp_word_t datatype, logp_word_t op, logp_word_t comm, logp_word_t info, void *request)
{
    switch (logp_next_form(entry)) {
    case LOGP_ENTRY_PERSISTENT:
        return LOGP_NEXT_AS(logp_allreduce_init_fn_t, f)(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    case LOGP_ENTRY_NONBLOCKING:
        return LOGP_NEXT_AS(logp_iallreduce_fn_t, f)(sendbuf, recvbuf, count, datatype, op, comm, request);
    default:
        return LOGP_NEXT_AS(logp_allreduce_fn_t, f)(sendbuf, recvbuf, count, datatype, op, comm);
    }
}

int logp_shim_alltoallv_call(void *f, logp_entry_t entry, const void *sendbuf, const void *sendcounts,
                             const void *sdispls, logp_word_t sendtype, void *recvbuf, const void *recvcounts,
                             const void *rdispls, logp_word_t recvtype, logp_word_t comm, logp_word_t info,
                             void *request)
{
    switch (logp_next_form(entry)) {
    case LOGP_ENTRY_PERSISTENT:
        return LOGP_NEXT_AS(logp_alltoallv_init_fn_t, f)(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                                         rdispls, recvtype, comm, info, request);
    case LOGP_ENTRY_NONBLOCKING:
        return LOGP_NEXT_AS(logp_ialltoallv_fn_t, f)(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                                     rdispls, recvtype, comm, request);
    default:
        return LOGP_NEXT_AS(logp_alltoallv_fn_t, f)(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                                    rdispls, recvtype, comm);
    }
}

/* ---- the entry points */

int logp_shim_bcast_words(const logp_next_t *next, logp_entry_t entry, void *buffer, logp_word_t count,
                          logp_word_t datatype, logp_word_t root, logp_word_t comm, logp_word_t info, void *request)
{
    logp_call_t c = {.coll = LOGP_COLL_BCAST, .req = request, .info = (MPI_Info)info, .entry = entry, .recvbuf = buffer, .count = logp_shim_count(entry, count),
                     .type = (MPI_Datatype)datatype, .root = (int)root, .comm = (MPI_Comm)comm, .next = next};
    return logp_driver_run(&logp_shim_bcast_ops, &c);
}

int logp_shim_reduce_words(const logp_next_t *next, logp_entry_t entry, const void *sendbuf, void *recvbuf,
                           logp_word_t count, logp_word_t datatype, logp_word_t op, logp_word_t root, logp_word_t comm,
                           logp_word_t info, void *request)
{
    logp_call_t c = {.coll = LOGP_COLL_REDUCE, .req = request, .info = (MPI_Info)info, .entry = entry, .sendbuf = sendbuf, .recvbuf = recvbuf,
                     .count = logp_shim_count(entry, count), .type = (MPI_Datatype)datatype, .op = (MPI_Op)op,
                     .root = (int)root, .comm = (MPI_Comm)comm, .next = next};
    return logp_driver_run(&logp_shim_reduce_ops, &c);
}

int logp_shim_alltoall_words(const logp_next_t *next, logp_entry_t entry, const void *sendbuf, logp_word_t sendcount,
                             logp_word_t sendtype, void *recvbuf, logp_word_t recvcount, logp_word_t recvtype,
                             logp_word_t comm, logp_word_t info, void *request)
{
    logp_call_t c = {.coll = LOGP_COLL_ALLTOALL, .req = request, .info = (MPI_Info)info, .entry = entry, .sendbuf = sendbuf, .recvbuf = recvbuf,
                     .count = logp_shim_count(entry, recvcount), .type = (MPI_Datatype)recvtype,
                     .sendcount = logp_shim_count(entry, sendcount), .sendtype = (MPI_Datatype)sendtype,
                     .comm = (MPI_Comm)comm, .next = next};
    return logp_driver_run(&logp_shim_alltoall_ops, &c);
}

int logp_shim_allreduce_words(const logp_next_t *next, logp_entry_t entry, const void *sendbuf, void *recvbuf,
                              logp_word_t count, logp_word_t datatype, logp_word_t op, logp_word_t comm,
                              logp_word_t info, void *request)
{
    logp_call_t c = {.coll = LOGP_COLL_ALLREDUCE, .req = request, .info = (MPI_Info)info, .entry = entry, .sendbuf = sendbuf, .recvbuf = recvbuf,
                     .count = logp_shim_count(entry, count), .type = (MPI_Datatype)datatype, .op = (MPI_Op)op,
                     .comm = (MPI_Comm)comm, .next = next};
    return logp_driver_run(&logp_shim_allreduce_ops, &c);
}

int logp_shim_alltoallv_words(const logp_next_t *next, logp_entry_t entry, const void *sendbuf, const void *sendcounts,
                              const void *sdispls, logp_word_t sendtype, void *recvbuf, const void *recvcounts,
                              const void *rdispls, logp_word_t recvtype, logp_word_t comm,
                              logp_word_t info, void *request)
{
    logp_call_t c = {.coll = LOGP_COLL_ALLTOALLV, .req = request, .info = (MPI_Info)info, .entry = entry, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = 1,
                     .type = MPI_BYTE, .sendtype = (MPI_Datatype)sendtype, .recvtype = (MPI_Datatype)recvtype,
                     .v = {sendcounts, sdispls, recvcounts, rdispls, logp_next_large(entry)},
                     .comm = (MPI_Comm)comm, .next = next};
    return logp_driver_run(&logp_shim_alltoallv_ops, &c);
}

int logp_shim_session_finalize_words(const logp_next_t *next, void *session)
{
    logp_run_end();
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
    return logp_shim_bcast_words(logp_next_get(), LOGP_ENTRY_BLOCKING, buffer, count, (logp_word_t)datatype, root,
                                 (logp_word_t)comm, 0, NULL);
}

LOGP_EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm)
{
    return logp_shim_reduce_words(logp_next_get(), LOGP_ENTRY_BLOCKING, sendbuf, recvbuf, count,
                                  (logp_word_t)datatype, (logp_word_t)op, root, (logp_word_t)comm, 0, NULL);
}

LOGP_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    return logp_shim_alltoall_words(logp_next_get(), LOGP_ENTRY_BLOCKING, sendbuf, sendcount, (logp_word_t)sendtype,
                                    recvbuf, recvcount, (logp_word_t)recvtype, (logp_word_t)comm, 0, NULL);
}

LOGP_EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    return logp_shim_allreduce_words(logp_next_get(), LOGP_ENTRY_BLOCKING, sendbuf, recvbuf, count,
                                     (logp_word_t)datatype, (logp_word_t)op, (logp_word_t)comm, 0, NULL);
}

LOGP_EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    return logp_shim_alltoallv_words(logp_next_get(), LOGP_ENTRY_BLOCKING, sendbuf, sendcounts, sdispls,
                                     (logp_word_t)sendtype, recvbuf, recvcounts, rdispls, (logp_word_t)recvtype,
                                     (logp_word_t)comm, 0, NULL);
}

/* and the nonblocking forms (the engine runs them where the driver says:
 * in SMPI, progress.c's waits and tests step it) */
LOGP_EXPORT int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                           MPI_Request *request)
{
    return logp_shim_bcast_words(logp_next_get(), LOGP_ENTRY_NONBLOCKING, buffer, count, LOGP_W(datatype), root,
                                 LOGP_W(comm), 0, request);
}

LOGP_EXPORT int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm, MPI_Request *request)
{
    return logp_shim_reduce_words(logp_next_get(), LOGP_ENTRY_NONBLOCKING, sendbuf, recvbuf, count, LOGP_W(datatype),
                                  LOGP_W(op), root, LOGP_W(comm), 0, request);
}

LOGP_EXPORT int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return logp_shim_alltoall_words(logp_next_get(), LOGP_ENTRY_NONBLOCKING, sendbuf, sendcount, LOGP_W(sendtype),
                                    recvbuf, recvcount, LOGP_W(recvtype), LOGP_W(comm), 0, request);
}

LOGP_EXPORT int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request *request)
{
    return logp_shim_allreduce_words(logp_next_get(), LOGP_ENTRY_NONBLOCKING, sendbuf, recvbuf, count,
                                     LOGP_W(datatype), LOGP_W(op), LOGP_W(comm), 0, request);
}

LOGP_EXPORT int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                               void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request)
{
    return logp_shim_alltoallv_words(logp_next_get(), LOGP_ENTRY_NONBLOCKING, sendbuf, sendcounts, sdispls,
                                     LOGP_W(sendtype), recvbuf, recvcounts, rdispls, LOGP_W(recvtype), LOGP_W(comm),
                                     0, request);
}

#if MPI_VERSION >= 4
LOGP_EXPORT int MPI_Session_finalize(MPI_Session *session)
{
    return logp_shim_session_finalize_words(logp_next_get(), session);
}
#endif
#endif
