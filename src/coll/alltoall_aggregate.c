/* Node-aggregated all-to-all: seed 003's "combine the messages bound for
 * the same processor" applied to nodes.  Node a has n_a ranks and a leader;
 * N nodes.
 *   1. gather: every member sends its P blocks to the leader (n_a - 1
 *      messages of P m bytes, on the node);
 *   2. exchange: in step k = 1 .. N-1 the leader of a sends to the leader of
 *      a + k the n_a n_b blocks its node has for that node, in one message,
 *      and receives from a - k: N - 1 messages between nodes per leader
 *      instead of n_a (P - n_a) for the ring;
 *   3. scatter: the leader sends every member its P blocks.
 * LogGP cost: what sim.c computes for the schedule's operations, which this
 * executor runs in their order; about
 *   2 (n - 1) gap_intra(P m) + (N - 1) gap_inter(n^2 m) + latencies;
 * it wins for small blocks and many ranks per node, where the ring pays
 * P - 1 inter-node start-ups per rank.  Local copies (pack, reorder,
 * unpack) are not in the model.  Where the largest leader's staging
 * (2 n P m, plus 2 n^2 m across nodes) exceeds what the scratch keeps
 * (LOGP_SCRATCH_KEEP), or a message would not fit an int, every rank runs
 * the direct exchange (ring) instead: the model does not know that limit.
 *
 * Every message is MPI_PACKED: a rank packs its P blocks block by block
 * with its own datatype and unpacks what it gets the same way, so blocks
 * are reordered as bytes without knowing the types (and without nested
 * derived types, which SMPI 3.32 packs wrongly). */
#include "alltoall_aggregate.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alltoall_direct.h"
#include "buffer.h"
#include "drain.h"
#include "engine.h"

/* Block j of the P blocks of member slot i in a buffer of n slots. */
static char *logp_agg_block(char *buf, int P, size_t blk, int i, int j)
{
    return buf + ((size_t)i * (size_t)P + (size_t)j) * blk;
}

/* The P blocks of `count` x `type` at buf, packed one after the other (blk
 * bytes each) into out, or unpacked from it. */
static int logp_agg_pack(const void *buf, int count, MPI_Datatype type, char *out, size_t blk, int P, MPI_Comm comm,
                         int tag)
{
    MPI_Aint lb, ext;
    PMPI_Type_get_extent(type, &lb, &ext);
    int rc = MPI_SUCCESS;
    for (int j = 0; j < P && rc == MPI_SUCCESS; j++) {
        int pos = 0;
        rc = logp_buffer_pack((const char *)buf + (MPI_Aint)j * count * ext, count, type, out + (size_t)j * blk, (int)blk,
                              &pos, comm, tag);
    }
    return rc;
}

static int logp_agg_unpack(const char *in, size_t blk, int P, void *buf, int count, MPI_Datatype type, MPI_Comm comm,
                           int tag)
{
    MPI_Aint lb, ext;
    PMPI_Type_get_extent(type, &lb, &ext);
    int rc = MPI_SUCCESS;
    for (int j = 0; j < P && rc == MPI_SUCCESS; j++) {
        int pos = 0;
        rc = logp_buffer_unpack(in + (size_t)j * blk, (int)blk, &pos, (char *)buf + (MPI_Aint)j * count * ext, count,
                                type, comm, tag);
    }
    return rc;
}

/* A member: its blocks to the leader, then its row back (ops 0 and 1). */
static int logp_agg_member(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                           MPI_Datatype rtype, size_t blk, MPI_Comm comm, int tag, const logp_view_t *v,
                           logp_scratch_t *scratch)
{
    int P = v->s->P;
    size_t all = (size_t)P * blk;
    logp_op_t send = logp_view_op(v, 0), recv = logp_view_op(v, 1);
    char *buf = logp_scratch_get(scratch, all);
    if (buf == NULL) /* the messages still move, so the leader does not wait */
        return logp_coll_drain(v, comm, tag, MPI_ERR_NO_MEM);
    int rc = logp_agg_pack(sendbuf, scount, stype, buf, blk, P, comm, tag);
    /* both messages even after an error (then an empty one, which the
     * leader reports and passes on): the leader waits for them */
    int x = logp_engine_send(buf, rc == MPI_SUCCESS ? (int)all : 0, MPI_PACKED, send.peer, tag, comm);
    rc = rc == MPI_SUCCESS ? x : rc;
    x = logp_buffer_recv_exact(buf, (int)all, MPI_PACKED, recv.peer, tag, comm);
    rc = rc == MPI_SUCCESS ? x : rc;
    if (rc == MPI_SUCCESS)
        rc = logp_agg_unpack(buf, blk, P, recvbuf, rcount, rtype, comm, tag);
    logp_scratch_put(scratch, buf);
    return rc;
}

/* A leader (nmax: ranks of the largest node, sizes its exchange buffers).
 * gath[i] holds the P blocks member i of this node sent, out[i] the P
 * blocks member i will receive (by source rank). */
static int logp_agg_leader(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                           MPI_Datatype rtype, size_t blk, int nmax, MPI_Comm comm, int tag, const logp_view_t *v,
                           logp_scratch_t *scratch)
{
    const logp_topo_t *t = &v->s->topo;
    int rank = v->rank, P = v->s->P, rc = MPI_SUCCESS, a = logp_topo_node(t, rank), n = logp_topo_size(t, a);
    int me = logp_topo_index(t, rank);
    size_t all = (size_t)P * blk, pair = t->nnodes > 1 ? (size_t)n * (size_t)nmax * blk : 0; /* one node: no exchange */
    char *gath = logp_scratch_get(scratch, 2 * (size_t)n * all + 2 * pair);
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)n);
    if (gath == NULL || req == NULL) { /* the messages still move, so no peer waits */
        free(req);
        if (gath)
            logp_scratch_put(scratch, gath);
        return logp_coll_drain(v, comm, tag, MPI_ERR_NO_MEM);
    }
    char *out = gath + (size_t)n * all, *sbuf = out + (size_t)n * all, *rbuf = sbuf + pair;
    int nreq = 0, i = 0;
    rc = logp_agg_pack(sendbuf, scount, stype, logp_agg_block(gath, P, blk, me, 0), blk, P, comm, tag);
    /* 1. gather: the receives that open the schedule, all in flight (every
     * operation of every phase is done even after an error: no peer waits
     * forever) */
    for (; i < v->nops; i++) {
        logp_op_t op = logp_view_op(v, i);
        if (op.kind != LOGP_OP_RECV || logp_topo_node(t, op.peer) != a)
            break;
        int x = PMPI_Irecv(logp_agg_block(gath, P, blk, logp_topo_index(t, op.peer), 0), (int)all, MPI_PACKED,
                           op.peer, tag, comm, &req[nreq]);
        if (x == MPI_SUCCESS)
            nreq++;
        rc = rc == MPI_SUCCESS ? x : rc;
    }
    rc = logp_buffer_wait_got(nreq, req, NULL, (int)all, MPI_PACKED, rc); /* a short message: a member in error */
    /* blocks that stay on the node: out[i][src] = gath[j][dst] */
    for (int x = 0; x < n && rc == MPI_SUCCESS; x++)
        for (int y = 0; y < n; y++)
            memcpy(logp_agg_block(out, P, blk, x, logp_topo_member(t, a, y)),
                   logp_agg_block(gath, P, blk, y, logp_topo_member(t, a, x)), blk);
    /* 2. exchange: each (send to a leader of node b, receive from one of
     * node c) pair of operations */
    for (; i + 1 < v->nops; i += 2) {
        logp_op_t s = logp_view_op(v, i), r = logp_view_op(v, i + 1);
        int b = logp_topo_node(t, s.peer), c = logp_topo_node(t, r.peer);
        if (s.kind != LOGP_OP_SEND || r.kind != LOGP_OP_RECV || b == a || c == a)
            break;
        int nb = logp_topo_size(t, b), nc = logp_topo_size(t, c);
        for (int j = 0; j < n; j++) /* [source j of a][destination x of b] */
            for (int x = 0; x < nb; x++)
                memcpy(sbuf + ((size_t)j * (size_t)nb + (size_t)x) * blk,
                       logp_agg_block(gath, P, blk, j, logp_topo_member(t, b, x)), blk);
        int slen = (int)((size_t)n * (size_t)nb * blk), rlen = (int)((size_t)nc * (size_t)n * blk);
        MPI_Status status;
        int sr = logp_engine_sendrecv(sbuf, rc == MPI_SUCCESS ? slen : 0, MPI_PACKED, s.peer, tag, rbuf, rlen,
                                      MPI_PACKED, r.peer, tag, comm, &status); /* after an error an empty message */
        sr = logp_buffer_got(sr, &status, MPI_PACKED, rlen);
        rc = rc == MPI_SUCCESS ? sr : rc;
        for (int j = 0; j < nc && rc == MPI_SUCCESS; j++) /* [source j of c][destination x of a] */
            for (int x = 0; x < n; x++)
                memcpy(logp_agg_block(out, P, blk, x, logp_topo_member(t, c, j)),
                       rbuf + ((size_t)j * (size_t)n + (size_t)x) * blk, blk);
    }
    /* 3. scatter: the sends that close the schedule */
    nreq = 0;
    for (; i < v->nops; i++) {
        logp_op_t op = logp_view_op(v, i);
        int x = PMPI_Isend(logp_agg_block(out, P, blk, logp_topo_index(t, op.peer), 0), rc == MPI_SUCCESS ? (int)all : 0,
                           MPI_PACKED, op.peer, tag, comm, &req[nreq]);
        if (x == MPI_SUCCESS)
            nreq++;
        rc = rc == MPI_SUCCESS ? x : rc;
    }
    if (rc == MPI_SUCCESS)
        rc = logp_agg_unpack(logp_agg_block(out, P, blk, me, 0), blk, P, recvbuf, rcount, rtype, comm, tag);
    rc = logp_buffer_wait_all(nreq, req, rc); /* complete sends even after an error */
    free(req);
    logp_scratch_put(scratch, gath);
    return rc;
}

int logp_coll_alltoall_aggregate(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm, int tag, const logp_view_t *v,
                                 logp_scratch_t *scratch)
{
    const logp_topo_t *t = &v->s->topo;
    int rsize, P = v->s->P, nmax = 0;
    if (sendbuf == MPI_IN_PLACE) { /* every rank packs its blocks before anything is written */
        sendbuf = recvbuf;
        scount = rcount;
        stype = rtype;
    }
    PMPI_Type_size(rtype, &rsize);
    size_t blk = (size_t)rsize * (size_t)rcount;
    for (int b = 0; b < t->nnodes; b++)
        if (logp_topo_size(t, b) > nmax)
            nmax = logp_topo_size(t, b);
    /* the largest leader's staging (logp_agg_leader): past what the
     * scratch keeps, every call would allocate and fault it in anew (16
     * MiB blocks at n = 2: 128 MiB, 68 ms a call against native's 3.6), so
     * the direct exchange runs instead, as where a message would not fit
     * an int */
    size_t staging = 2 * (size_t)nmax * (size_t)P * blk + (t->nnodes > 1 ? 2 * (size_t)nmax * (size_t)nmax * blk : 0);
    if ((size_t)P * blk > INT_MAX || (size_t)nmax * (size_t)nmax * blk > INT_MAX || staging > LOGP_SCRATCH_KEEP) {
        /* the same answer on every rank: blk, P and the layout agree */
        logp_sched_t ring;
        logp_view_t rv;
        if (logp_sched_build(&ring, LOGP_COLL_ALLTOALL, LOGP_ALGO_RING, v->s->bytes, t, NULL) != LOGP_OK ||
            logp_view_init(&rv, &ring, 0, v->rank, 1) != LOGP_OK)
            return MPI_ERR_INTERN;
        int rc = logp_coll_alltoall_direct(sendbuf == recvbuf ? MPI_IN_PLACE : sendbuf, scount, stype, recvbuf,
                                           rcount, rtype, comm, tag, &rv, scratch);
        logp_sched_free(&ring);
        return rc;
    }
    /* (a leader alone on the only node has no operation: not asked for one) */
    logp_op_t first = v->nops > 0 ? logp_view_op(v, 0) : (logp_op_t){0};
    /* a member: two operations, the first a send to its leader on its node */
    if (v->nops == 2 && first.kind == LOGP_OP_SEND && logp_topo_node(t, first.peer) == logp_topo_node(t, v->rank))
        return logp_agg_member(sendbuf, scount, stype, recvbuf, rcount, rtype, blk, comm, tag, v, scratch);
    return logp_agg_leader(sendbuf, scount, stype, recvbuf, rcount, rtype, blk, nmax, comm, tag, v, scratch);
}
