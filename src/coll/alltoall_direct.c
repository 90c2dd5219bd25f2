/* Direct all-to-all executor: each message is the one block of its peer.
 * Ring ("circle", seed 004 section 2.1): n - 1 phases; in phase k rank i
 * sends its block for (i + k) mod n and receives the block of (i - k) mod
 * n.  LogGP cost: what sim.c computes for the operations, about
 * (n - 1)(2o + L + (m-1)G) with one exchange per phase; the seed prints
 * (n-1) n [max(2o, g) + L - g].  Blocks go straight from the user's
 * buffers (any datatype, no packing: one message per destination).
 *
 * MPI_Alltoall's blocks are alike; MPI_Alltoallv's have a count and a
 * displacement each (the same loop, logp_blocks_t).  Under alltoallv the
 * ranks may run different direct schedules on one call (their classes
 * differ: algo.h, logp_coll_local_sizes); that is safe because every
 * schedule here posts a whole phase before waiting on it and the phases
 * follow the shift order k = 1, 2, ..: take the lowest k with an
 * operation still open anywhere; both of its ends are in their ranks'
 * current phases (every lower k is done), hence posted, hence it
 * completes. */
#include "alltoall_direct.h"

#include <limits.h>
#include <string.h>

#include "../model/sched_alltoall.h"
#include "drain.h"
#include "engine.h"

_Static_assert(LOGP_DIRECT_WINDOW >= 2 * LOGP_LINEAR_WINDOW_MAX, "a linear phase must fit the requests in flight");

/* One exchange's blocks.  Block j of a buffer: count(j) elements of its
 * type, displ(j) extents from the buffer's start; alike (v == NULL: count
 * and j * count) or per peer from the application's arrays (int, or
 * MPI_Count and MPI_Aint for the large-count entry). */
typedef struct logp_blocks {
    const char *sb;
    char *rb;
    MPI_Datatype stype, rtype;
    MPI_Aint sext, rext;
    MPI_Count scount, rcount;
    const logp_alltoallv_t *v;
    int in_place; /* alltoallv: the sends use the receive side's counts */
} logp_blocks_t;

/* The send (send != 0) or receive block of peer j: its address; *count. */
static char *logp_blocks_get(const logp_blocks_t *b, int send, int j, MPI_Count *count)
{
    const logp_alltoallv_t *v = b->v;
    MPI_Aint ext = send ? b->sext : b->rext;
    char *base = send ? (char *)b->sb : b->rb;
    if (v == NULL) {
        *count = send ? b->scount : b->rcount;
        return base + (MPI_Aint)j * *count * ext;
    }
    int s = send && !b->in_place;
    *count = logp_alltoallv_count(v, s, j);
    return base + logp_alltoallv_displ(v, s, j) * ext;
}

/* Starts a send (send != 0) or receive of n elements, any count: the
 * large-count calls where an int does not hold it (MPI-4; without them
 * there is no large-count entry, and no count passes INT_MAX). */
static int logp_blocks_start(int send, char *buf, MPI_Count n, MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
                             MPI_Request *req)
{
#ifdef LOGP_HAVE_LARGE_COUNT
    if (n > INT_MAX)
        return send ? PMPI_Isend_c(buf, n, dt, peer, tag, comm, req) : PMPI_Irecv_c(buf, n, dt, peer, tag, comm, req);
#endif
    if (n > INT_MAX)
        return MPI_ERR_COUNT;
    return send ? PMPI_Isend(buf, (int)n, dt, peer, tag, comm, req) : PMPI_Irecv(buf, (int)n, dt, peer, tag, comm, req);
}

/* Completes the requests in flight (expect[i] >= 0: req[i] receives that
 * many elements of rtype, and a short message is an error: a peer that
 * passed another count, or that could not stage its data,
 * logp_coll_drain); the first error wins. */
static int logp_direct_flush(MPI_Request *req, const MPI_Count *expect, int *n, MPI_Datatype rtype, int rc)
{
    for (int i = 0; i < *n; i++) {
        MPI_Status status;
        int w = logp_engine_wait(&req[i], &status);
        if (expect[i] >= 0 && expect[i] <= INT_MAX)
            w = logp_buffer_got(w, &status, rtype, (int)expect[i]);
        if (rc == MPI_SUCCESS)
            rc = w;
    }
    *n = 0;
    return rc;
}

/* Runs the operations of v over the blocks b (the own block already in
 * place): each phase's (same arg) in flight together. */
static int logp_direct_run(const logp_blocks_t *b, MPI_Comm comm, int tag, const logp_view_t *v, int rc)
{
    MPI_Request req[LOGP_DIRECT_WINDOW];
    MPI_Count expect[LOGP_DIRECT_WINDOW];
    int nreq = 0, phase = -1, sound = rc == MPI_SUCCESS; /* the blocks to send are what they should be */
    /* alltoallv: an empty block moves no message, at either end (as in
     * MPICH's), so a rank with nothing to exchange waits for nobody; the
     * pairs that do exchange keep their order, and the mixing argument
     * above holds for the operations that remain */
    int ssize = 1, rsize = 1;
    if (b->v) {
        PMPI_Type_size(b->stype, &ssize);
        PMPI_Type_size(b->rtype, &rsize);
    }
    /* every operation is started even after an error: no peer waits forever */
    for (int i = 0; i < v->nops; i++) {
        logp_op_t op = logp_view_op(v, i);
        if (op.arg != phase || nreq == LOGP_DIRECT_WINDOW) {
            rc = logp_direct_flush(req, expect, &nreq, b->rtype, rc);
            phase = op.arg;
        }
        MPI_Count n;
        int r, send = op.kind == LOGP_OP_SEND;
        char *buf = logp_blocks_get(b, send, op.peer, &n);
        if (b->v && (n == 0 || (send ? ssize : rsize) == 0))
            continue;
        if (send) {
            r = sound ? logp_blocks_start(1, buf, n, b->stype, op.peer, tag, comm, &req[nreq]) : MPI_ERR_OTHER;
            if (r != MPI_SUCCESS) { /* an empty message: the peer reports a short one instead of waiting */
                rc = rc == MPI_SUCCESS ? r : rc;
                r = PMPI_Isend(b->rb, 0, MPI_BYTE, op.peer, tag, comm, &req[nreq]);
            }
        } else
            r = logp_blocks_start(0, buf, n, b->rtype, op.peer, tag, comm, &req[nreq]);
        if (r == MPI_SUCCESS)
            expect[nreq++] = send ? -1 : n;
        else if (rc == MPI_SUCCESS)
            rc = r;
    }
    return logp_direct_flush(req, expect, &nreq, b->rtype, rc); /* complete what was started, even after an error */
}

int logp_coll_alltoall_direct(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                              MPI_Datatype rtype, MPI_Comm comm, int tag, const logp_view_t *v, logp_scratch_t *scratch)
{
    int rank = v->rank, P = v->s->P, rc = MPI_SUCCESS;
    MPI_Aint lb;
    void *saved = NULL;
    if (sendbuf == MPI_IN_PLACE) {
        /* a phase may overwrite a block that a later phase sends */
        saved = logp_scratch_get(scratch, logp_buffer_span(rcount * P, rtype));
        if (saved == NULL) /* nothing sound to send: the messages still move, so no peer waits */
            return logp_coll_drain(v, comm, tag, MPI_ERR_NO_MEM);
        sendbuf = logp_buffer_base(saved, rcount * P, rtype);
        rc = logp_buffer_copy(recvbuf, rcount * P, rtype, (void *)sendbuf, rcount * P, rtype, comm, tag);
        scount = rcount;
        stype = rtype;
    }
    logp_blocks_t b = {sendbuf, recvbuf, stype, rtype, 0, 0, scount, rcount, NULL, 0};
    PMPI_Type_get_extent(stype, &lb, &b.sext);
    PMPI_Type_get_extent(rtype, &lb, &b.rext);
    if (rc == MPI_SUCCESS)
        rc = logp_buffer_copy(b.sb + (MPI_Aint)rank * scount * b.sext, scount, stype,
                              b.rb + (MPI_Aint)rank * rcount * b.rext, rcount, rtype, comm, tag);
    rc = logp_direct_run(&b, comm, tag, v, rc);
    if (saved)
        logp_scratch_put(scratch, saved);
    return rc;
}

/* The bytes [*lo, *hi) of recvbuf that the blocks of a in-place alltoallv
 * touch (true extents); *lo == *hi if none. */
static void logp_alltoallv_region(const logp_blocks_t *b, int P, MPI_Aint *lo, MPI_Aint *hi)
{
    MPI_Aint tlb, textent, ext = b->rext < 0 ? -b->rext : b->rext;
    PMPI_Type_get_true_extent(b->rtype, &tlb, &textent);
    *lo = *hi = 0;
    int any = 0;
    for (int j = 0; j < P; j++) {
        MPI_Count n;
        char *at = logp_blocks_get(b, 0, j, &n);
        if (n <= 0)
            continue;
        /* a negative extent lays the elements out downwards */
        MPI_Aint start = (at - b->rb) + tlb - (b->rext < 0 ? (MPI_Aint)(n - 1) * ext : 0);
        MPI_Aint end = start + textent + (MPI_Aint)(n - 1) * ext;
        *lo = any && *lo < start ? *lo : start;
        *hi = any && *hi > end ? *hi : end;
        any = 1;
    }
}

int logp_coll_alltoallv_direct(const void *sendbuf, MPI_Datatype stype, void *recvbuf, MPI_Datatype rtype,
                               const logp_alltoallv_t *a, MPI_Comm comm, int tag, const logp_view_t *v,
                               logp_scratch_t *scratch)
{
    int rank = v->rank, P = v->s->P, rc = MPI_SUCCESS;
    MPI_Aint lb, lo = 0, hi = 0;
    void *saved = NULL;
    logp_blocks_t b = {sendbuf, recvbuf, stype, rtype, 0, 0, 0, 0, a, sendbuf == MPI_IN_PLACE};
    PMPI_Type_get_extent(rtype, &lb, &b.rext);
    if (b.in_place) {
        /* a phase may overwrite a block that a later phase sends: the
         * bytes the blocks cover are copied aside as they are, and every
         * block is sent from the copy at its own offset */
        logp_alltoallv_region(&b, P, &lo, &hi);
        if (hi > lo && (saved = logp_scratch_get(scratch, (size_t)(hi - lo))) == NULL)
            rc = MPI_ERR_NO_MEM; /* nothing sound to send: empty messages where blocks go, so no peer waits */
        if (saved)
            memcpy(saved, b.rb + lo, (size_t)(hi - lo));
        b.sb = saved ? (const char *)saved - lo : b.rb; /* block j's address = base + its displacement, as in recvbuf */
        b.stype = rtype;
        b.sext = b.rext;
    } else {
        PMPI_Type_get_extent(stype, &lb, &b.sext);
        MPI_Count sn, rn;
        const char *from = logp_blocks_get(&b, 1, rank, &sn);
        char *to = logp_blocks_get(&b, 0, rank, &rn);
        if (sn <= INT_MAX && rn <= INT_MAX) {
            rc = logp_buffer_copy(from, (int)sn, stype, to, (int)rn, rtype, comm, tag);
        } else { /* a large-count block: a message to itself */
            MPI_Request req[2];
            rc = logp_blocks_start(0, to, rn, rtype, rank, tag, comm, &req[0]);
            if (rc == MPI_SUCCESS && (rc = logp_blocks_start(1, (char *)from, sn, stype, rank, tag, comm, &req[1])) != MPI_SUCCESS)
                PMPI_Cancel(&req[0]);
            rc = logp_buffer_wait_all(rc == MPI_SUCCESS ? 2 : 1, req, rc);
        }
    }
    rc = logp_direct_run(&b, comm, tag, v, rc);
    if (saved)
        logp_scratch_put(scratch, saved);
    return rc;
}
