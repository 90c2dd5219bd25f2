/* Broadcast executor: runs a rank's operations of any bcast schedule
 * (trees: binomial, seed 002; logp-tree, seed 000; flat; layout trees; and
 * the part-wise ones: sched_scatter_allgather.c, sched_pipeline.c); its
 * LogGP cost is what sim.c computes for the same operations.  Sends are
 * nonblocking (at most LOGP_SENDQ_WINDOW in flight, no allocation), except
 * that a large one is not in flight beside sends to other peers, as LogGP
 * injects them one after the other (buffer.h; not for a schedule whose
 * order needs them concurrent, LOGP_FAMILY_CONCURRENT: two-tree); a
 * receive into data still being sent waits for that send first.
 *
 * Whole-message operations move `count` elements of the rank's own
 * datatype.  Part-wise operations cut the message at byte offsets of its
 * packed form (part i starts at byte floor(i m / parts), as the model
 * prices it): MPI requires only equal type signatures, so the root may
 * send one element of a 4-int type to ranks that receive 4 ints, and only
 * the bytes of the signature are cut alike on every rank.  A buffer that
 * is its own packed form (logp_buffer_flat) is used in place; any other is
 * packed into staging memory at the root and unpacked at the end on the
 * others.
 *
 * After an error a rank still does the rest of its part, so no peer waits
 * forever, but sends empty messages: a receiver checks that it got the
 * bytes it expects (ranks that pass different counts are an erroneous
 * program, which MPI_Recv alone would accept when less comes), so the
 * error reaches every rank below, as MPICH's collectives report it.  The
 * first error is returned.  A root without staging memory drains its
 * messages (drain.h); another rank forwards the packed form through its
 * own buffer. */
#include "bcast.h"

#include "../model/sched_two_tree.h"
#include "buffer.h"
#include "drain.h"

/* two-tree cuts messages so that its segments go without waiting for
 * their receivers where it can (sched_two_tree.h) */
_Static_assert(LOGP_TWOTREE_MAX_SEGMENT == LOGP_SENDQ_SERIAL, "two-tree segments and the send queue disagree");

/* A part-wise run's look ahead: operations [i, scan) of the rank (i its
 * next) have been fetched into seen[] and their receives posted, so that
 * each operation is computed once (two-tree: 50 - 70 ns each at P =
 * 65,536). */
#define LOGP_BCAST_LOOK 32
typedef struct {
    logp_op_t seen[LOGP_BCAST_LOOK];
    int scan;
} logp_bcast_look_t;

/* Posts the receives of operations scan, scan + 1, ... (at most
 * LOGP_BCAST_LOOK ahead of i) ahead of their turn while there is room, and
 * at least that of operation i (the rank's next receive).  A receive into
 * data a send in flight still reads waits for its turn (and there for the
 * send).  Returns an MPI error code. */
static int logp_bcast_ahead(logp_recvq_t *rq, logp_bcast_look_t *look, logp_sendq_t *q, const logp_view_t *v, int i,
                            char *buf, MPI_Aint extent, int count, MPI_Datatype dt, MPI_Comm comm, int tag)
{
    int rc = MPI_SUCCESS;
    for (; look->scan < v->nops && look->scan - i < LOGP_BCAST_LOOK && (look->scan == i || logp_recvq_room(rq));
         look->scan++) {
        logp_op_t op = logp_view_op(v, look->scan);
        if (op.kind == LOGP_OP_RECV) {
            int first, len, r = MPI_SUCCESS;
            logp_buffer_part(count, v->s->parts, op.part, op.nparts, &first, &len);
            if (look->scan != i && logp_sendq_reads(q, buf, first, len))
                break;
            if (look->scan == i)
                r = logp_sendq_wait(q, buf, first, len);
            int w = logp_recvq_post(rq, buf, extent, first, len, dt, op.peer, tag, comm);
            if (rc == MPI_SUCCESS)
                rc = r == MPI_SUCCESS ? w : r;
        }
        look->seen[look->scan % LOGP_BCAST_LOOK] = op;
    }
    return rc;
}

/* Runs v's operations on `count` units of dt at buf (extent: theirs,
 * tsize: their size in bytes).  A part-wise schedule's receives are posted
 * ahead (buffer.h; docs/results/measurements-in-code.md, "receives
 * ahead"). */
static int logp_bcast_run(char *buf, MPI_Aint extent, int tsize, int count, MPI_Datatype dt, MPI_Comm comm, int tag,
                          const logp_view_t *v)
{
    int rc = MPI_SUCCESS, ahead = logp_sched_recv_ahead(v->s) > 1;
    logp_sendq_t q;
    logp_recvq_t rq;
    logp_bcast_look_t look;
    look.scan = 0;
    logp_sendq_init(&q, (v->s->fam->flags & LOGP_FAMILY_CONCURRENT) != 0, logp_sched_window(v->s));
    logp_recvq_init(&rq);
    for (int i = 0; i < v->nops; i++) {
        logp_op_t op = i < look.scan ? look.seen[i % LOGP_BCAST_LOOK] : logp_view_op(v, i);
        int first, len, r = MPI_SUCCESS;
        logp_buffer_part(count, v->s->parts, op.part, op.nparts, &first, &len);
        if (op.kind == LOGP_OP_RECV && ahead) {
            r = logp_bcast_ahead(&rq, &look, &q, v, i, buf, extent, count, dt, comm, tag);
            int w = logp_recvq_take(&rq, dt); /* operation i's: receives are taken in order */
            r = r == MPI_SUCCESS ? w : r;
        } else if (op.kind == LOGP_OP_RECV) {
            r = logp_sendq_wait(&q, buf, first, len);
            int w = logp_buffer_recv_exact(buf + (MPI_Aint)first * extent, len, dt, op.peer, tag, comm);
            r = r == MPI_SUCCESS ? w : r;
        } else if (op.kind == LOGP_OP_SEND) {
            len = rc == MPI_SUCCESS ? len : 0; /* after an error: an empty message tells the receiver */
            r = logp_sendq_post(&q, buf, extent, first, len, (size_t)len * (size_t)tsize, dt, op.peer, tag, comm);
        }
        if (rc == MPI_SUCCESS)
            rc = r;
    }
    int w = logp_sendq_wait(&q, NULL, 0, -1);
    return rc == MPI_SUCCESS ? w : rc;
}

int logp_coll_bcast(void *buf, int count, MPI_Datatype dt, MPI_Comm comm, int tag, const logp_view_t *v,
                    logp_scratch_t *scratch)
{
    MPI_Aint lb, extent;
    int tsize = 0;
    if (PMPI_Type_get_extent(dt, &lb, &extent) != MPI_SUCCESS)
        extent = 0; /* whole-message operations only need the base */
    PMPI_Type_size(dt, &tsize);
    if (v->s->parts <= 1)
        return logp_bcast_run(buf, extent, tsize, count, dt, comm, tag, v);
    int bytes = count * tsize; /* <= INT_MAX (the shim's condition for running ours) */
    if (logp_buffer_flat(dt)) { /* its bytes as MPI_BYTE, once the library would have taken dt */
        int rc = logp_buffer_check(dt, comm);
        return rc == MPI_SUCCESS ? logp_bcast_run(buf, 1, 1, bytes, MPI_BYTE, comm, tag, v) : logp_coll_drain(v, comm, tag, rc);
    }
    int root = 1; /* the root receives nothing */
    for (int i = 0; i < v->nops && root; i++)
        root = logp_view_op(v, i).kind != LOGP_OP_RECV;
    char *image = logp_scratch_get(scratch, (size_t)bytes);
    int rc = MPI_SUCCESS, pos = 0;
    /* no room for the packed form: empty messages end the call everywhere
     * (the ranks that depend on this one report short messages; its
     * buffer may have holes that are the application's, so nothing is
     * forwarded through it) */
    if (image == NULL)
        return logp_coll_drain(v, comm, tag, MPI_ERR_NO_MEM);
    /* packed by MPI_Pack, or, from MPI_BOTTOM, through a message to self
     * (buffer.h; not everywhere: MPICH's receive path gets some sizes of
     * pair types wrong, 2,000 MPI_DOUBLE_INT "truncated") */
    if (root)
        rc = logp_buffer_pack(buf, count, dt, image, bytes, &pos, comm, tag);
    if (rc != MPI_SUCCESS) { /* not packed: empty messages, not the image's garbage */
        logp_scratch_put(scratch, image);
        return logp_coll_drain(v, comm, tag, rc);
    }
    rc = logp_bcast_run(image, 1, 1, bytes, MPI_BYTE, comm, tag, v);
    if (!root && rc == MPI_SUCCESS)
        rc = logp_buffer_unpack(image, bytes, &pos, buf, count, dt, comm, tag);
    logp_scratch_put(scratch, image);
    return rc;
}
