/* Tree reduce executor.  Schedules: binomial (seed 002), logp-tree (the
 * optimal summation tree of seed 000, cost T*(P; L + m gamma, o, g)),
 * chain, chain-opt, chain-adaptive (seed 001), layout trees.  Every rank
 * keeps an accumulator that covers a contiguous range of ranks; results
 * from children are put before it (PREPEND) or after it (APPEND) as the
 * schedule says, so the combination order is the rank order
 * (non-commutative operators).  The part-wise schedules (sched_pipeline.c, sched_two_tree.c, ...)
 * (pipeline, reduce-scatter-gather, binary-pipeline, two-tree) combine
 * and move ranges of elements of the accumulator; the next combining
 * receive is posted while the rank combines the current one (two receive
 * buffers beside the accumulator); sends are nonblocking
 * (at most LOGP_SENDQ_WINDOW in flight; large ones to other peers not
 * beside each other, except for LOGP_FAMILY_CONCURRENT schedules), and a
 * write to elements still being sent waits for that send.  A
 * LOGP_FAMILY_PREPOST schedule (dissemination) has every combining receive
 * posted at its start, each into a slot of its own, so that its sends,
 * many steps ahead of its combines, never wait for a receive to be posted.
 * After an error a rank still does the rest of its part, so no peer waits
 * forever, but sends empty messages: every receive checks that it got the
 * bytes it expects (ranks that pass different counts), so the error
 * reaches the root.  The first error is returned.  A rank without staging
 * memory drains its messages (drain.h). */
#include "reduce.h"

#include "../model/sched_pipeline.h" /* LOGP_PIPELINE_MAX_SEGMENTS */
#include "buffer.h"
#include "drain.h"
#include "engine.h"
#include "reduce_dataflow.h"

/* The receives of the result (LOGP_RECV_RESULT: the rank whose
 * accumulator ends as the result hands it to the root, whole or part by
 * part) are posted early, in operation order, into req[0 ..): the root may
 * head the chain that ends at that rank (a non-commutative pipeline to
 * root 0), and with large sends synchronous and a bounded send window, a
 * root that posted them after its own sends would wait for the chain
 * while the chain's tail waits for it (MPICH's uoplong test, 24 MiB: a
 * hang).  Returns how many there are, 0 if the root also receives anything
 * else from that rank (then they stay in order).  *after: the last
 * operation that reads the root's own data when it is in the receive
 * buffer (MPI_IN_PLACE; -1 if none): they are posted after it. */
static int logp_reduce_results(const logp_view_t *v, int in_place, int *after)
{
    int n = 0, from = -1;
    *after = -1;
    if (v->rank != v->root || v->tree_root == v->root)
        return 0; /* only a root that is handed the result receives it */
    for (int i = 0; i < v->nops; i++) {
        logp_op_t o = logp_view_op(v, i);
        if (o.kind == LOGP_OP_RECV && o.arg == LOGP_RECV_RESULT) {
            from = o.peer;
            if (++n > LOGP_PIPELINE_MAX_SEGMENTS)
                return 0;
        }
        if (in_place && (o.kind == LOGP_OP_INIT_OWN || o.kind == LOGP_OP_REDUCE_OWN))
            *after = i;
    }
    for (int i = 0; n > 0 && i < v->nops; i++) {
        logp_op_t o = logp_view_op(v, i);
        if ((o.kind == LOGP_OP_RECV || o.kind == LOGP_OP_RECV_REDUCE) && o.peer == from && o.arg != LOGP_RECV_RESULT)
            return 0;
    }
    return n;
}

/* Posts the n receives logp_reduce_results found. */
static void logp_reduce_prepost(const logp_view_t *v, int n, int count, void *recvbuf, MPI_Aint extent,
                                MPI_Datatype dt, MPI_Comm comm, int tag, MPI_Request *req)
{
    for (int i = 0, j = 0; j < n && i < v->nops; i++) {
        logp_op_t o = logp_view_op(v, i);
        if (o.kind != LOGP_OP_RECV || o.arg != LOGP_RECV_RESULT)
            continue;
        int first, len;
        logp_buffer_part(count, v->s->parts, o.part, o.nparts, &first, &len);
        int t = tag + logp_op_stream(v->s, &o);
        if (PMPI_Irecv((char *)recvbuf + (MPI_Aint)first * extent, len, dt, o.peer, t, comm, &req[j]) != MPI_SUCCESS)
            req[j] = MPI_REQUEST_NULL; /* its wait then reports a short message */
        j++;
    }
}

/* Combining receives ahead: while a rank combines one incoming partial
 * result, the next one is already posted into the other of two receive
 * buffers, so its transfer overlaps the combine.  A large send is
 * synchronous (buffer.h), and a rendezvous protocol starts moving its data
 * only once the receive is posted: received at its turn, each message
 * waited for the previous combine, and a tree's interior rank paid
 * m (G + gamma) per child where LogGP's eager messages pay m gamma
 * (docs/results/measurements-in-code.md, "reduce look-ahead").  Only the
 * next receive operation is posted ahead, and
 * only if it combines and nothing else is received in between, so
 * messages match exactly as they would at their turn. */
#define LOGP_REDUCE_LOOK 32
typedef struct {
    logp_op_t seen[LOGP_REDUCE_LOOK]; /* operations [i, scan) of the rank, fetched once */
    int scan;
    char *buf[2];        /* receive buffers (buf[1] NULL: no receive ahead) */
    MPI_Request req[2];  /* receive posted into buf[k] */
    int op[2];           /* its operation, -1 if none */
} logp_reduce_ahead_t;

/* Operation i (i >= the rank's next): fetched once into the look-ahead. */
static logp_op_t logp_reduce_op(logp_reduce_ahead_t *a, const logp_view_t *v, int i)
{
    for (; a->scan <= i; a->scan++)
        a->seen[a->scan % LOGP_REDUCE_LOOK] = logp_view_op(v, a->scan);
    return a->seen[i % LOGP_REDUCE_LOOK];
}

/* Posts a receive of elements [first, first + len) into `to`, first
 * completing this rank's sends that still read that range (MPI: no write
 * under a pending send); *w is that wait's error.  Returns PMPI_Irecv's;
 * *req is MPI_REQUEST_NULL if it failed (its wait then reports a short
 * message). */
static int logp_reduce_irecv(logp_sendq_t *q, char *to, int first, int len, MPI_Aint extent, MPI_Datatype dt,
                             int peer, int tag, MPI_Comm comm, MPI_Request *req, int *w)
{
    *w = logp_sendq_wait(q, to, first, len);
    int r = PMPI_Irecv(to + (MPI_Aint)first * extent, len, dt, peer, tag, comm, req);
    if (r != MPI_SUCCESS)
        *req = MPI_REQUEST_NULL;
    return r;
}

/* Posts operation j's combining receive (elements [first, first + len))
 * into buffer k. */
static int logp_reduce_post(logp_reduce_ahead_t *a, logp_sendq_t *q, int k, int j, logp_op_t o, int first, int len,
                            MPI_Aint extent, MPI_Datatype dt, MPI_Comm comm, int tag)
{
    int w, r = logp_reduce_irecv(q, a->buf[k], first, len, extent, dt, o.peer, tag, comm, &a->req[k], &w);
    a->op[k] = j;
    return w == MPI_SUCCESS ? r : w;
}

/* After operation i (whose receive, if any, is in buf[busy]; -1: none):
 * posts the next receive operation into the free buffer if it combines,
 * lies within the look-ahead with nothing but sends and local work before
 * it, and no send in flight reads its range. */
static void logp_reduce_ahead(logp_reduce_ahead_t *a, logp_sendq_t *q, const logp_view_t *v, int i, int busy,
                              int count, MPI_Aint extent, MPI_Datatype dt, MPI_Comm comm, int tag)
{
    int k = busy == 0 ? 1 : 0;
    if (a->buf[1] == NULL || a->op[k] >= 0)
        return;
    for (int j = i + 1; j < v->nops && j - i < LOGP_REDUCE_LOOK; j++) {
        logp_op_t o = logp_reduce_op(a, v, j);
        if (o.kind == LOGP_OP_RECV)
            return;
        if (o.kind != LOGP_OP_RECV_REDUCE)
            continue;
        int first, len;
        logp_buffer_part(count, v->s->parts, o.part, o.nparts, &first, &len);
        if (!logp_sendq_reads(q, a->buf[k], first, len))
            logp_reduce_post(a, q, k, j, o, first, len, extent, dt, comm, tag); /* errors: at its wait */
        return;
    }
}

/* Receive slots (LOGP_RECV_SLOT): the first of a run of slot receives
 * posts them all, so that every partner's message moves at once, as the
 * model has them in flight: where a library moves a large message only
 * once its receive is posted (rendezvous), taken one at a time each would
 * start a latency after the previous one.  Then each waits for its own. */
typedef struct {
    MPI_Request req[LOGP_SCHED_SLOTS_MAX];
    int posted[LOGP_SCHED_SLOTS_MAX];
} logp_reduce_slots_t;

/* Posts operation x's receive into slot j.  A failed post leaves
 * MPI_REQUEST_NULL (its wait then reports a short message). */
static void logp_reduce_slot_post(logp_reduce_slots_t *sl, char **slot, int j, const logp_view_t *v, logp_op_t x,
                                  int count, MPI_Aint extent, MPI_Datatype dt, MPI_Comm comm, int tag)
{
    int first, len;
    logp_buffer_part(count, v->s->parts, x.part, x.nparts, &first, &len);
    if (PMPI_Irecv(slot[j] + (MPI_Aint)first * extent, len, dt, x.peer, tag + logp_op_stream(v->s, &x), comm,
                   &sl->req[j]) != MPI_SUCCESS)
        sl->req[j] = MPI_REQUEST_NULL;
    sl->posted[j] = 1;
}

/* Waits for slot j's receive (len elements expected). */
static int logp_reduce_slot_wait(logp_reduce_slots_t *sl, int j, MPI_Datatype dt, int len)
{
    MPI_Status status;
    if (j >= LOGP_SCHED_SLOTS_MAX || !sl->posted[j])
        return MPI_ERR_INTERN; /* more combining receives than the family's slots */
    sl->posted[j] = 0;
    return sl->req[j] != MPI_REQUEST_NULL ? logp_buffer_got(logp_engine_wait(&sl->req[j], &status), &status, dt, len)
                                          : MPI_ERR_OTHER;
}

static int logp_reduce_slot_recv(logp_reduce_slots_t *sl, char **slot, logp_sendq_t *q, const logp_view_t *v, int i,
                                 int count, MPI_Aint extent, MPI_Datatype dt, MPI_Comm comm, int tag)
{
    logp_op_t o = logp_view_op(v, i);
    int j = o.arg - LOGP_RECV_SLOT, first, len, rc = MPI_SUCCESS;
    for (int k = i; !sl->posted[j] && k < v->nops; k++) {
        logp_op_t x = logp_view_op(v, k);
        if (x.kind != LOGP_OP_RECV || x.arg < LOGP_RECV_SLOT)
            break;
        int jx = x.arg - LOGP_RECV_SLOT, w = logp_sendq_wait(q, slot[jx], 0, -1);
        logp_reduce_slot_post(sl, slot, jx, v, x, count, extent, dt, comm, tag);
        rc = rc == MPI_SUCCESS ? w : rc;
    }
    logp_buffer_part(count, v->s->parts, o.part, o.nparts, &first, &len);
    int r = logp_reduce_slot_wait(sl, j, dt, len);
    return rc == MPI_SUCCESS ? r : rc;
}

/* LOGP_OP_FOLD: operand d of n is the accumulator if d == own, else slot
 * d (below own) or d - 1; each combine writes the later operand's buffer,
 * so the result lands in the last one's, which then becomes the
 * accumulator (the two change roles: a receive into a slot first waits
 * for sends still reading it, as every receive does). */
static int logp_reduce_fold(logp_sendq_t *q, char **acc, char **slot, int own, int n, int count, MPI_Datatype dt,
                            MPI_Op op)
{
    char *t = own == n - 1 ? *acc : slot[n - 2];
    int r = own == n - 1 ? logp_sendq_wait(q, *acc, 0, -1) : MPI_SUCCESS;
    for (int d = n - 2; d >= 0 && r == MPI_SUCCESS; d--)
        r = PMPI_Reduce_local(d == own ? *acc : slot[d < own ? d : d - 1], t, count, dt, op); /* t = v_d op t */
    if (own != n - 1) {
        slot[n - 2] = *acc;
        *acc = t;
    }
    return r;
}

/* Plain receives one ahead: when operation i is a plain receive into the
 * accumulator and so is i + 1, the latter is posted before i is waited
 * for.  A synchronous sender (large or paced sends, buffer.h) starts
 * moving its data only once the receive is posted, so a gather's
 * receives taken one by one cost L + m G each; one ahead, the next
 * message's latency overlaps this one's (the simulator's assumption,
 * sim_shared.c: logp_sim_reach).  SMPI, reduce-scatter-gather at 64 KiB
 * (paced), P = 4, 16, 64: L, 2 L and 3 L slower than the model's price
 * without it.  A send of this rank's still in flight that reads the
 * range completes first, as at the receive's turn (nothing is sent
 * between the two receives, so waiting for it sooner adds no
 * dependency); posting order is operation order, so messages match as
 * they would at their turn.  Returns that wait's error, if any. */
static int logp_reduce_plain_ahead(logp_reduce_ahead_t *a, logp_sendq_t *q, const logp_view_t *v, int i, int count,
                                    MPI_Aint extent, MPI_Datatype dt, MPI_Comm comm, int tag, char *acc,
                                    MPI_Request *req, int *at_op)
{
    if (*at_op >= 0 || i + 1 >= v->nops)
        return MPI_SUCCESS;
    logp_op_t o = logp_reduce_op(a, v, i + 1);
    if (o.kind != LOGP_OP_RECV || o.arg == LOGP_RECV_RESULT || o.arg >= LOGP_RECV_SLOT)
        return MPI_SUCCESS;
    int first, len, w;
    logp_buffer_part(count, v->s->parts, o.part, o.nparts, &first, &len);
    logp_reduce_irecv(q, acc, first, len, extent, dt, o.peer, tag + logp_op_stream(v->s, &o), comm, req, &w);
    *at_op = i + 1;
    return w;
}

/* LOGP_FAMILY_PREPOST: posts every combining receive of the view, the j-th
 * into slot j (the family asks for as many slots), before the rank's
 * first send (nothing reads the slots: no send waits). */
static void logp_reduce_prepost_all(const logp_view_t *v, logp_reduce_slots_t *sl, char **slot, int count,
                                    MPI_Aint extent, MPI_Datatype dt, MPI_Comm comm, int tag)
{
    for (int i = 0, j = 0; i < v->nops && j < v->s->slots; i++) {
        logp_op_t o = logp_view_op(v, i);
        if (o.kind == LOGP_OP_RECV_REDUCE)
            logp_reduce_slot_post(sl, slot, j++, v, o, count, extent, dt, comm, tag);
    }
}

int logp_coll_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, int tag,
                     const logp_view_t *v, logp_scratch_t *scratch)
{
    if (v->s->fam->flags & LOGP_FAMILY_DATAFLOW) { /* without its staging, the same operations in order */
        int no_room, df = logp_coll_reduce_dataflow(sendbuf, recvbuf, count, dt, op, comm, tag, v, scratch, &no_room);
        if (!no_room)
            return df;
    }
    int rc, commute = v->commutative; /* the view was made for this operator */
    const void *own = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    size_t span = (logp_buffer_span(count, dt) + 63) & ~(size_t)63;
    MPI_Aint lb, extent;
    int tsize = 0;
    if (PMPI_Type_get_extent(dt, &lb, &extent) != MPI_SUCCESS)
        extent = 0;
    PMPI_Type_size(dt, &tsize);
    /* the accumulator and two receive buffers; without room for the
     * second, or where it would push the region past what is kept between
     * calls (pages faulted in anew per call cost more than the overlap
     * gains: buffer.h), receives wait for their turn */
    int nbuf = 3 * span <= LOGP_SCRATCH_KEEP || 2 * span > LOGP_SCRATCH_KEEP ? 3 : 2, nslot = v->s->slots;
    if (nslot > LOGP_SCHED_SLOTS_MAX) /* no family asks for more (sched.h) */
        return logp_coll_drain(v, comm, tag, MPI_ERR_NO_MEM);
    char *mem = logp_scratch_get(scratch, (size_t)(nbuf + nslot) * span);
    if (mem == NULL && nbuf == 3)
        mem = logp_scratch_get(scratch, (size_t)((nbuf = 2) + nslot) * span);
    if (mem == NULL)
        return logp_coll_drain(v, comm, tag, MPI_ERR_NO_MEM); /* the messages still move, so no peer waits */
    char *acc = logp_buffer_base(mem, count, dt), *slot[LOGP_SCHED_SLOTS_MAX];
    logp_reduce_slots_t sl;
    for (int j = 0; j < nslot; j++) { /* after the receive buffers: the look-ahead's nbuf - 1 */
        slot[j] = logp_buffer_base(mem + (size_t)(nbuf + j) * span, count, dt);
        sl.req[j] = MPI_REQUEST_NULL;
        sl.posted[j] = 0;
    }
    logp_reduce_ahead_t a;
    a.scan = 0;
    a.buf[0] = logp_buffer_base(mem + span, count, dt);
    a.buf[1] = nbuf == 3 ? logp_buffer_base(mem + 2 * span, count, dt) : NULL;
    a.req[0] = a.req[1] = MPI_REQUEST_NULL;
    a.op[0] = a.op[1] = -1;
    logp_sendq_t q;
    logp_sendq_init(&q, (v->s->fam->flags & LOGP_FAMILY_CONCURRENT) != 0, logp_sched_window(v->s));
    q.eager = (v->s->fam->flags & LOGP_FAMILY_EXCHANGE) != 0;
    rc = MPI_SUCCESS;
    MPI_Request result[LOGP_PIPELINE_MAX_SEGMENTS];
    int after, nresult = logp_reduce_results(v, sendbuf == MPI_IN_PLACE, &after), taken = 0, posted = 0;
    MPI_Request plain = MPI_REQUEST_NULL; /* the next plain receive, posted ahead (plain_op; -1: none) */
    int plain_op = -1;
    int prepost = (v->s->fam->flags & LOGP_FAMILY_PREPOST) != 0, nprepost = 0; /* combining receives taken */
    if (prepost)
        logp_reduce_prepost_all(v, &sl, slot, count, extent, dt, comm, tag);
    for (int i = 0; i < v->nops; i++) {
        if (i == after + 1 && nresult > 0) {
            logp_reduce_prepost(v, nresult, count, recvbuf, extent, dt, comm, tag, result);
            posted = 1;
        }
        logp_op_t o = logp_reduce_op(&a, v, i);
        int first, len, r = MPI_SUCCESS, w = MPI_SUCCESS;
        logp_buffer_part(count, v->s->parts, o.part, o.nparts, &first, &len);
        MPI_Aint at = (MPI_Aint)first * extent;
        if (!prepost && o.kind != LOGP_OP_RECV_REDUCE && o.kind != LOGP_OP_RECV && a.op[0] < 0 && a.op[1] < 0)
            logp_reduce_ahead(&a, &q, v, i, -1, count, extent, dt, comm, tag); /* before local work and sends */
        switch (o.kind) {
        case LOGP_OP_INIT_OWN:
            w = logp_sendq_wait(&q, acc, 0, -1);
            r = logp_buffer_copy(own, count, dt, acc, count, dt, comm, tag);
            break;
        case LOGP_OP_REDUCE_OWN:
            w = logp_sendq_wait(&q, acc, 0, -1);
            r = PMPI_Reduce_local(own, acc, count, dt, op); /* acc = own op acc */
            break;
        case LOGP_OP_RESULT_OWN: /* the root's own part of a result that arrives part by part */
            r = logp_buffer_copy(acc + at, len, dt, (char *)recvbuf + at, len, dt, comm, tag);
            break;
        case LOGP_OP_RECV: {
            if (o.arg >= LOGP_RECV_SLOT) {
                r = logp_reduce_slot_recv(&sl, slot, &q, v, i, count, extent, dt, comm, tag);
                break;
            }
            char *to = o.arg == LOGP_RECV_RESULT ? recvbuf : acc;
            if (o.arg == LOGP_RECV_RESULT && posted && taken < nresult) { /* posted early */
                MPI_Status status;
                r = logp_buffer_got(logp_engine_wait(&result[taken++], &status), &status, dt, len);
                break;
            }
            MPI_Request mine;
            int posted_rc = MPI_ERR_OTHER; /* a receive posted ahead that failed: a short message */
            if (plain_op == i) { /* posted ahead */
                mine = plain;
                plain_op = -1;
            } else
                posted_rc = logp_reduce_irecv(&q, to, first, len, extent, dt, o.peer, tag + logp_op_stream(v->s, &o),
                                              comm, &mine, &w);
            int wa = logp_reduce_plain_ahead(&a, &q, v, i, count, extent, dt, comm, tag, acc, &plain, &plain_op);
            MPI_Status status;
            r = mine != MPI_REQUEST_NULL ? logp_buffer_got(logp_engine_wait(&mine, &status), &status, dt, len)
                                         : posted_rc;
            w = w == MPI_SUCCESS ? wa : w;
            break;
        }
        case LOGP_OP_RECV_REDUCE: {
            if (prepost) { /* posted at the start into its slot: acc = in op acc (commutative) */
                r = logp_reduce_slot_wait(&sl, nprepost, dt, len);
                if (r == MPI_SUCCESS && rc == MPI_SUCCESS && len > 0) {
                    w = logp_sendq_wait(&q, acc, first, len);
                    r = PMPI_Reduce_local(slot[nprepost] + at, acc + at, len, dt, op);
                }
                nprepost++;
                break;
            }
            int k = a.op[0] == i ? 0 : a.op[1] == i ? 1 : -1;
            if (k < 0) /* not posted ahead: now, into a free buffer */
                w = logp_reduce_post(&a, &q, k = a.op[0] < 0 ? 0 : 1, i, o, first, len, extent, dt, comm, tag);
            logp_reduce_ahead(&a, &q, v, i, k, count, extent, dt, comm, tag);
            MPI_Status status;
            r = a.req[k] != MPI_REQUEST_NULL ? logp_buffer_got(logp_engine_wait(&a.req[k], &status), &status, dt, len)
                                             : MPI_ERR_OTHER;
            a.op[k] = -1;
            char *tmp = a.buf[k];
            if (r != MPI_SUCCESS || rc != MPI_SUCCESS || w != MPI_SUCCESS || len == 0)
                break; /* nothing sound to combine; a user's operator never sees a count of 0 */
            w = logp_sendq_wait(&q, acc, first, len);
            if (commute || o.arg == LOGP_SIDE_PREPEND) {
                r = PMPI_Reduce_local(tmp + at, acc + at, len, dt, op); /* acc = in op acc */
            } else if (len == count) { /* in = acc op in, and the buffers change roles */
                r = PMPI_Reduce_local(acc, tmp, count, dt, op);
                a.buf[k] = acc;
                acc = tmp;
            } else { /* part of it: in = acc op in, copied back */
                r = PMPI_Reduce_local(acc + at, tmp + at, len, dt, op);
                if (r == MPI_SUCCESS)
                    r = logp_buffer_copy(tmp + at, len, dt, acc + at, len, dt, comm, tag);
            }
            break;
        }
        case LOGP_OP_FOLD: /* acc = v_0 op (v_1 op (...)), into the last operand's buffer */
            if (rc != MPI_SUCCESS || len == 0)
                break; /* nothing sound to combine; a user's operator never sees a count of 0 */
            r = logp_reduce_fold(&q, &acc, slot, o.peer, o.arg, count, dt, op);
            break;
        case LOGP_OP_SEND:
            len = rc == MPI_SUCCESS ? len : 0; /* after an error: an empty message tells the receiver */
            r = logp_sendq_post(&q, acc, extent, first, len, (size_t)len * (size_t)tsize, dt, o.peer,
                                tag + logp_op_stream(v->s, &o), comm);
            break;
        }
        if (rc == MPI_SUCCESS)
            rc = r != MPI_SUCCESS ? r : w;
    }
    int w = logp_sendq_wait(&q, NULL, 0, -1);
    if (rc == MPI_SUCCESS)
        rc = w;
    if (rc == MPI_SUCCESS && (v->rank == v->root || v->s->coll == LOGP_COLL_ALLREDUCE) && v->tree_root == v->root)
        rc = logp_buffer_copy(acc, count, dt, recvbuf, count, dt, comm, tag);
    logp_scratch_put(scratch, mem);
    return rc;
}
