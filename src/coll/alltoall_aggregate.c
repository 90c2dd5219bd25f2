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
 * LogGP cost: what sim.c computes for the plan, about
 *   2 (n - 1) gap_intra(P m) + (N - 1) gap_inter(n^2 m) + latencies;
 * it wins for small blocks and many ranks per node, where the ring pays
 * P - 1 inter-node start-ups per rank.  Local copies (pack, reorder,
 * unpack) are not in the model.
 *
 * Every message is MPI_PACKED: a rank packs its P blocks block by block
 * with its own datatype and unpacks what it gets the same way, so blocks
 * are reordered as bytes without knowing the types (and without nested
 * derived types, which SMPI 3.32 packs wrongly). */
#include "alltoall_aggregate.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alltoall_ring.h"

/* Completes every request (even after an error); the first error wins. */
static int logp_agg_wait(int n, MPI_Request *req, int rc)
{
    for (int i = 0; i < n; i++) {
        int wrc = PMPI_Wait(&req[i], MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    return rc;
}

/* Block j of the P blocks of member slot i in a buffer of n slots. */
static char *logp_agg_block(char *buf, int P, size_t blk, int i, int j)
{
    return buf + ((size_t)i * (size_t)P + (size_t)j) * blk;
}

/* The P blocks of `count` x `type` at buf, packed one after the other (blk
 * bytes each) into out, or unpacked from it. */
static int logp_agg_pack(const void *buf, int count, MPI_Datatype type, char *out, size_t blk, int P, MPI_Comm comm)
{
    MPI_Aint lb, ext;
    PMPI_Type_get_extent(type, &lb, &ext);
    int rc = MPI_SUCCESS;
    for (int j = 0; j < P && rc == MPI_SUCCESS; j++) {
        int pos = 0;
        rc = PMPI_Pack((const char *)buf + (MPI_Aint)j * count * ext, count, type, out + (size_t)j * blk, (int)blk, &pos,
                       comm);
    }
    return rc;
}

static int logp_agg_unpack(const char *in, size_t blk, int P, void *buf, int count, MPI_Datatype type, MPI_Comm comm)
{
    MPI_Aint lb, ext;
    PMPI_Type_get_extent(type, &lb, &ext);
    int rc = MPI_SUCCESS;
    for (int j = 0; j < P && rc == MPI_SUCCESS; j++) {
        int pos = 0;
        rc = PMPI_Unpack(in + (size_t)j * blk, (int)blk, &pos, (char *)buf + (MPI_Aint)j * count * ext, count, type,
                         comm);
    }
    return rc;
}

/* A member: its blocks to the leader, then its row back. */
static int logp_agg_member(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                           MPI_Datatype rtype, size_t blk, int lead, MPI_Comm comm, const logp_plan_t *plan,
                           logp_scratch_t *scratch)
{
    size_t all = (size_t)plan->P * blk;
    char *buf = logp_scratch_get(scratch, all + 1);
    if (buf == NULL)
        return MPI_ERR_NO_MEM;
    int rc = logp_agg_pack(sendbuf, scount, stype, buf, blk, plan->P, comm);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Send(buf, (int)all, MPI_PACKED, lead, LOGP_TAG_ALLTOALL, comm);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Recv(buf, (int)all, MPI_PACKED, lead, LOGP_TAG_ALLTOALL, comm, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = logp_agg_unpack(buf, blk, plan->P, recvbuf, rcount, rtype, comm);
    logp_scratch_put(scratch, buf);
    return rc;
}

/* A leader (nmax: ranks of the largest node, sizes its exchange buffers). */
static int logp_agg_leader(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                           MPI_Datatype rtype, size_t blk, int nmax, MPI_Comm comm, const logp_plan_t *plan,
                           logp_scratch_t *scratch)
{
    int rank, P = plan->P, N = plan->nnodes, rc = MPI_SUCCESS;
    PMPI_Comm_rank(comm, &rank);
    int a = plan->node_of[rank], n = plan->node_start[a + 1] - plan->node_start[a], me = 0;
    const int *mine = plan->members + plan->node_start[a];
    while (mine[me] != rank)
        me++;
    size_t all = (size_t)P * blk, pair = (size_t)n * (size_t)nmax * blk;
    char *gath = logp_scratch_get(scratch, 2 * (size_t)n * all + 2 * pair + 1);
    if (gath == NULL)
        return MPI_ERR_NO_MEM;
    char *out = gath + (size_t)n * all, *sbuf = out + (size_t)n * all, *rbuf = sbuf + pair;
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)n);
    if (req == NULL) {
        logp_scratch_put(scratch, gath);
        return MPI_ERR_NO_MEM;
    }
    int nreq = 0;
    rc = logp_agg_pack(sendbuf, scount, stype, logp_agg_block(gath, P, blk, me, 0), blk, P, comm);
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        if (i != me)
            rc = PMPI_Irecv(logp_agg_block(gath, P, blk, i, 0), (int)all, MPI_PACKED, mine[i], LOGP_TAG_ALLTOALL,
                            comm, &req[nreq++]);
    rc = logp_agg_wait(nreq, req, rc);
    /* blocks that stay on the node: out[i][src] = gath[j][dst] */
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        for (int j = 0; j < n; j++)
            memcpy(logp_agg_block(out, P, blk, i, mine[j]), logp_agg_block(gath, P, blk, j, mine[i]), blk);
    for (int k = 1; k < N && rc == MPI_SUCCESS; k++) {
        int b = (a + k) % N, c = (a - k + N) % N;
        int nb = plan->node_start[b + 1] - plan->node_start[b], nc = plan->node_start[c + 1] - plan->node_start[c];
        const int *to = plan->members + plan->node_start[b], *from = plan->members + plan->node_start[c];
        for (int j = 0; j < n; j++) /* [source j of a][destination i of b] */
            for (int i = 0; i < nb; i++)
                memcpy(sbuf + ((size_t)j * (size_t)nb + (size_t)i) * blk, logp_agg_block(gath, P, blk, j, to[i]), blk);
        rc = PMPI_Sendrecv(sbuf, (int)((size_t)n * (size_t)nb * blk), MPI_PACKED, plan->leaders[b],
                           LOGP_TAG_ALLTOALL, rbuf, (int)((size_t)nc * (size_t)n * blk), MPI_PACKED, plan->leaders[c],
                           LOGP_TAG_ALLTOALL, comm, MPI_STATUS_IGNORE);
        for (int j = 0; j < nc && rc == MPI_SUCCESS; j++) /* [source j of c][destination i of a] */
            for (int i = 0; i < n; i++)
                memcpy(logp_agg_block(out, P, blk, i, from[j]), rbuf + ((size_t)j * (size_t)n + (size_t)i) * blk, blk);
    }
    nreq = 0;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        if (i != me)
            rc = PMPI_Isend(logp_agg_block(out, P, blk, i, 0), (int)all, MPI_PACKED, mine[i], LOGP_TAG_ALLTOALL, comm,
                            &req[nreq++]);
    if (rc == MPI_SUCCESS)
        rc = logp_agg_unpack(logp_agg_block(out, P, blk, me, 0), blk, P, recvbuf, rcount, rtype, comm);
    rc = logp_agg_wait(nreq, req, rc); /* complete sends even after an error */
    free(req);
    logp_scratch_put(scratch, gath);
    return rc;
}

int logp_coll_alltoall_aggregate(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm, const logp_plan_t *plan,
                                 logp_scratch_t *scratch)
{
    int rank, rsize, P = plan->P, nmax = 0;
    PMPI_Comm_rank(comm, &rank);
    if (sendbuf == MPI_IN_PLACE) { /* every rank packs its blocks before anything is written */
        sendbuf = recvbuf;
        scount = rcount;
        stype = rtype;
    }
    PMPI_Type_size(rtype, &rsize);
    size_t blk = (size_t)rsize * (size_t)rcount;
    for (int b = 0; b < plan->nnodes; b++)
        if (plan->node_start[b + 1] - plan->node_start[b] > nmax)
            nmax = plan->node_start[b + 1] - plan->node_start[b];
    if ((size_t)P * blk > INT_MAX || (size_t)nmax * (size_t)nmax * blk > INT_MAX) {
        logp_plan_t ring = {0}; /* the same answer on every rank: blk, P and the layout agree */
        ring.coll = LOGP_COLL_ALLTOALL;
        ring.algo = LOGP_ALGO_RING;
        ring.P = P;
        ring.bytes = plan->bytes;
        return logp_coll_alltoall_ring(sendbuf == recvbuf ? MPI_IN_PLACE : sendbuf, scount, stype, recvbuf, rcount,
                                       rtype, comm, &ring, scratch);
    }
    int lead = plan->leaders[plan->node_of[rank]];
    if (rank != lead)
        return logp_agg_member(sendbuf, scount, stype, recvbuf, rcount, rtype, blk, lead, comm, plan, scratch);
    return logp_agg_leader(sendbuf, scount, stype, recvbuf, rcount, rtype, blk, nmax, comm, plan, scratch);
}
