/* Dataflow reduce executor (sched.h: LOGP_FAMILY_DATAFLOW; chunked-rsg,
 * sched_chunked_rsg.c).  A rank's operations run as soon as they can, not in
 * their listed order: a combine as soon as its message is in, so that a
 * chunk whose data arrived first is not held behind one whose data is
 * late.  Every combining receive is posted at the start into a buffer of
 * its own; plain receives (the root's gather) in their order, at most the
 * schedule's recv_window at a time.  Each round the rank issues every
 * send whose dep is done and whose previous send on the same pair and
 * stream went (so a pair's messages keep their order), posts what plain
 * receives it may, takes a plain receive that arrived (free) or combines
 * the first arrived combine of its listed order, or waits for any (one
 * MPI_Waitany over the receives that could go next, in listed order:
 * the combines whose dep is done and the oldest LOGP_SCHED_PLAIN_WAIT
 * posted plain receives, so a wait costs O(chunks), not O(P); taking
 * arrived gather blocks at once keeps the root's window moving:
 * docs/results/measurements-in-code.md, "dataflow gather").  No MPI_Test:
 * every
 * call is work or a wait (SMPI charges each test a sleep).  The two
 * streams use tag and tag + 1.  After an error the rank still does its
 * part with empty sends, as the in-order executor does. */
#include "reduce_dataflow.h"

#include <limits.h>
#include <stdint.h>

#include "engine.h"

enum { LOGP_DF_WAIT, LOGP_DF_POSTED, LOGP_DF_IN, LOGP_DF_DONE };

/* One call's state, carved from the staging region. */
typedef struct {
    const logp_view_t *v;
    logp_op_t *op;
    int *dep, *first, *len, *slot;    /* per operation: its dep, element range, receive buffer offset */
    int *kid_at, *kids;               /* the operations whose dep is i: kids[kid_at[i] .. kid_at[i + 1]) */
    int *wait;                        /* per operation: its earlier operations not yet done */
    int *ready, nready;               /* combines posted whose earlier operations are done */
    int *sready, nsready;             /* sends whose earlier operations are done */
    int *plain, ph, pt;               /* plain receives posted, not done, in order: plain[ph .. pt) */
    int *hkey, *hval, hmask;          /* set-up: a rank's last send per (peer, stream), open addressing */
    int *fly, fly0, nfly;             /* sends in flight, in the order they went: fly[fly0 .. nfly) */
    int *cand;                        /* candidates of one wait */
    MPI_Request *req, *creq;          /* per operation; the candidates' */
    int *code;                        /* a receive's completion: MPI error code */
    char *state;
    int n;
} logp_df_t;

static size_t logp_df_align(size_t x)
{
    return (x + 63) & ~(size_t)63;
}

/* Bytes of per-operation state for n operations. */
static size_t logp_df_state_bytes(int n)
{
    size_t m = (size_t)n + 1;
    return logp_df_align(m * sizeof(logp_op_t)) + logp_df_align(m * 24 * sizeof(int)) +
           logp_df_align(2 * m * sizeof(MPI_Request)) + logp_df_align(m);
}

static void logp_df_carve(logp_df_t *d, char *mem, int n)
{
    size_t m = (size_t)n + 1;
    d->op = (logp_op_t *)mem;
    mem += logp_df_align(m * sizeof(logp_op_t));
    int *w = (int *)mem;
    d->dep = w, d->first = w + m, d->len = w + 2 * m, d->slot = w + 3 * m, d->kid_at = w + 4 * m;
    d->kids = w + 5 * m, d->ready = w + 7 * m, d->cand = w + 8 * m, d->code = w + 9 * m; /* kids: 2m */
    d->wait = w + 10 * m, d->sready = w + 11 * m, d->plain = w + 12 * m, d->fly = w + 13 * m;
    d->hmask = 1; /* slots: the power of two >= 2m (< 4m), for keys and values: 8m ints */
    while ((size_t)d->hmask + 1 < m)
        d->hmask = 2 * d->hmask + 1;
    d->hmask = 2 * d->hmask + 1;
    d->hkey = w + 16 * m, d->hval = d->hkey + d->hmask + 1;
    mem += logp_df_align(m * 24 * sizeof(int));
    d->req = (MPI_Request *)mem;
    d->creq = d->req + m;
    mem += logp_df_align(2 * m * sizeof(MPI_Request));
    d->state = mem;
    d->n = n;
}

/* Operation j has no earlier operation left to wait for: a combine joins
 * the combines' list, a send or local work the list done first. */
static void logp_df_free(logp_df_t *d, int j)
{
    if (d->op[j].kind == LOGP_OP_RECV_REDUCE)
        d->ready[d->nready++] = j;
    else if (d->op[j].kind != LOGP_OP_RECV)
        d->sready[d->nsready++] = j;
}

/* Operation i is done: what follows it may go. */
static void logp_df_done(logp_df_t *d, int i)
{
    d->state[i] = LOGP_DF_DONE;
    for (int k = d->kid_at[i]; k < d->kid_at[i + 1]; k++) {
        int j = d->kids[k];
        if (--d->wait[j] == 0)
            logp_df_free(d, j);
    }
}

static int logp_df_dep_done(const logp_df_t *d, int i)
{
    return d->dep[i] < 0 || d->state[d->dep[i]] == LOGP_DF_DONE;
}

/* Before a write to elements [first, first + len): completes the sends
 * in flight that read them (MPI: no write under a pending send), and
 * those that went before operation `before`, which are done by now (so
 * the list stays short).  Returns an MPI error code. */
static int logp_df_write(logp_df_t *d, int first, int len, int before)
{
    int rc = MPI_SUCCESS;
    while (d->fly0 < d->nfly && d->fly[d->fly0] < before) {
        int r = logp_engine_wait(&d->req[d->fly[d->fly0++]], MPI_STATUS_IGNORE);
        rc = rc == MPI_SUCCESS ? r : rc;
    }
    for (int k = d->fly0; k < d->nfly; k++) {
        int j = d->fly[k];
        if (d->req[j] != MPI_REQUEST_NULL && d->first[j] < first + len && first < d->first[j] + d->len[j]) {
            int r = logp_engine_wait(&d->req[j], MPI_STATUS_IGNORE);
            rc = rc == MPI_SUCCESS ? r : rc;
        }
    }
    return rc;
}

/* The rank's previous send to the peer of send i on its stream (-1: none),
 * and i becomes the last one: O(1) where a scan back would be O(n). */
static int logp_df_last_send(logp_df_t *d, int i, int stream)
{
    int key = 2 * d->op[i].peer + stream;
    unsigned h = (unsigned)key * 2654435761u;
    for (int k = (int)(h & (unsigned)d->hmask);; k = (k + 1) & d->hmask) {
        if (d->hkey[k] == key) {
            int last = d->hval[k];
            d->hval[k] = i;
            return last;
        }
        if (d->hkey[k] < 0) {
            d->hkey[k] = key;
            d->hval[k] = i;
            return -1;
        }
    }
}

/* Removes list[k] (order does not matter). */
static void logp_df_drop(int *list, int *n, int k)
{
    list[k] = list[--*n];
}

/* A send of elements [first, first + len) of acc, synchronous where the
 * schedule is paced or the message large (buffer.h's rule); an empty one
 * if the send fails, so that the receiver sees a short message. */
static int logp_df_send(const logp_df_t *d, int i, char *acc, MPI_Aint extent, MPI_Datatype dt, int tsize, int len,
                        int tag, MPI_Comm comm)
{
    const logp_op_t *o = &d->op[i];
    size_t bytes = (size_t)len * (size_t)tsize;
    int sync = logp_sched_window(d->v->s) > 0 || bytes > LOGP_SENDQ_SERIAL;
    int t = tag + logp_op_stream(d->v->s, o);
    char *at = acc + (MPI_Aint)d->first[i] * extent;
    int r = sync ? PMPI_Issend(at, len, dt, o->peer, t, comm, &d->req[i])
                 : PMPI_Isend(at, len, dt, o->peer, t, comm, &d->req[i]);
    if (r != MPI_SUCCESS && PMPI_Isend(acc, 0, MPI_BYTE, o->peer, t, comm, &d->req[i]) != MPI_SUCCESS)
        d->req[i] = MPI_REQUEST_NULL;
    return r;
}

int logp_coll_reduce_dataflow(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                              MPI_Comm comm, int tag, const logp_view_t *v, logp_scratch_t *scratch, int *no_room)
{
    const logp_sched_t *s = v->s;
    int n = v->nops;
    MPI_Aint lb, extent;
    int tsize = 0;
    if (PMPI_Type_get_extent(dt, &lb, &extent) != MPI_SUCCESS)
        extent = 0;
    PMPI_Type_size(dt, &tsize);
    /* the accumulator, room for up to 2 count + n elements of combining
     * receives (a fold's whole vector and a reduce-scatter's halves, 2
     * count, and up to one element more per receive where parts split
     * elements unevenly: a count below the parts, e.g. one double cut
     * into 32 parts, puts the element into every step's kept half; the
     * span of 2c + n elements is at most 2 span(c) + (n + 1) |extent|),
     * the state */
    size_t span = logp_df_align(logp_buffer_span(count, dt));
    size_t rspan = logp_df_align(2 * logp_buffer_span(count, dt) +
                                 ((size_t)n + 1) * (size_t)(extent < 0 ? -extent : extent));
    long room = 2L * count + n;
    size_t sbytes = logp_df_state_bytes(n);
    *no_room = 1;
    if (span + rspan + sbytes > SIZE_MAX / 2)
        return MPI_SUCCESS;
    char *mem = logp_scratch_get(scratch, span + rspan + sbytes);
    if (mem == NULL)
        return MPI_SUCCESS;
    logp_df_t d;
    d.v = v;
    logp_df_carve(&d, mem + span + rspan, n);
    const void *own = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    /* the operations and what each waits for: its dep and, for a send,
     * the rank's previous send on the same pair and stream (messages of a
     * pair are matched in order); d.code holds that previous send here */
    long slot = 0;
    for (int i = 0; i <= n; i++)
        d.kid_at[i] = 0;
    for (int k = 0; k <= d.hmask; k++)
        d.hkey[k] = -1;
    for (int i = 0; i < n; i++) {
        d.op[i] = logp_view_op(v, i);
        d.dep[i] = logp_view_dep(v, i);
        if (d.dep[i] >= i)
            d.dep[i] = -1; /* only earlier ones (a schedule's contract) */
        logp_buffer_part(count, s->parts, d.op[i].part, d.op[i].nparts, &d.first[i], &d.len[i]);
        d.slot[i] = (int)(slot <= room ? slot : 0);
        if (d.op[i].kind == LOGP_OP_RECV_REDUCE)
            slot += d.len[i];
        d.req[i] = MPI_REQUEST_NULL;
        d.state[i] = LOGP_DF_WAIT;
        d.code[i] = -1;
        if (d.op[i].kind == LOGP_OP_SEND) {
            int j = logp_df_last_send(&d, i, logp_op_stream(s, &d.op[i]));
            d.code[i] = j == d.dep[i] ? -1 : j;
        }
        d.wait[i] = (d.dep[i] >= 0) + (d.code[i] >= 0);
        if (d.dep[i] >= 0)
            d.kid_at[d.dep[i] + 1]++;
        if (d.code[i] >= 0)
            d.kid_at[d.code[i] + 1]++;
    }
    if (slot > room || slot > INT_MAX) { /* more to combine than there is room for: in order, before any message */
        logp_scratch_put(scratch, mem);
        return MPI_SUCCESS;
    }
    *no_room = 0;
    char *acc = logp_buffer_base(mem, count, dt), *rbuf = logp_buffer_base(mem + span, (int)slot, dt);
    for (int i = 0; i < n; i++)
        d.kid_at[i + 1] += d.kid_at[i];
    for (int i = 0; i < n; i++) /* d.cand as the fill counters */
        d.cand[i] = 0;
    for (int i = 0; i < n; i++) {
        if (d.dep[i] >= 0)
            d.kids[d.kid_at[d.dep[i]] + d.cand[d.dep[i]]++] = i;
        if (d.code[i] >= 0)
            d.kids[d.kid_at[d.code[i]] + d.cand[d.code[i]]++] = i;
        d.code[i] = MPI_SUCCESS;
    }
    /* every combining receive at once, each into its own buffer */
    int rc = MPI_SUCCESS;
    d.nready = d.nsready = d.ph = d.pt = d.fly0 = d.nfly = 0;
    for (int i = 0; i < n; i++) {
        if (d.op[i].kind == LOGP_OP_RECV_REDUCE) {
            if (PMPI_Irecv(rbuf + (MPI_Aint)d.slot[i] * extent, d.len[i], dt, d.op[i].peer, tag, comm, &d.req[i]) !=
                MPI_SUCCESS)
                d.req[i] = MPI_REQUEST_NULL; /* its wait reports a short message */
            d.state[i] = LOGP_DF_POSTED;
        }
        if (d.wait[i] == 0)
            logp_df_free(&d, i);
    }
    int left = n, pnext = 0, window = s->recv_window;
    while (left > 0) {
        /* every send and local step that may go, first listed first */
        while (d.nsready > 0) {
            int k = 0;
            for (int x = 1; x < d.nsready; x++)
                if (d.sready[x] < d.sready[k])
                    k = x;
            int i = d.sready[k], r;
            logp_df_drop(d.sready, &d.nsready, k);
            char *at = acc + (MPI_Aint)d.first[i] * extent;
            switch (d.op[i].kind) {
            case LOGP_OP_SEND:
                r = logp_df_send(&d, i, acc, extent, dt, tsize, rc == MPI_SUCCESS ? d.len[i] : 0, tag, comm);
                d.fly[d.nfly++] = i;
                break;
            case LOGP_OP_INIT_OWN:
                r = logp_buffer_copy(own, count, dt, acc, count, dt, comm, tag);
                break;
            case LOGP_OP_REDUCE_OWN:
                r = logp_df_write(&d, 0, count, 0);
                if (r == MPI_SUCCESS)
                    r = PMPI_Reduce_local(own, acc, count, dt, op);
                break;
            default: /* LOGP_OP_RESULT_OWN: the root's own part of the result */
                r = logp_buffer_copy(at, d.len[i], dt, (char *)recvbuf + (MPI_Aint)d.first[i] * extent, d.len[i], dt,
                                     comm, tag);
                break;
            }
            rc = rc == MPI_SUCCESS ? r : rc;
            logp_df_done(&d, i);
            left--;
        }
        if (left == 0)
            break;
        /* plain receives in order, a window at a time, each after the send of its parts */
        for (; pnext < n && (window <= 0 || d.pt - d.ph < window); pnext++) {
            if (d.op[pnext].kind != LOGP_OP_RECV)
                continue;
            if (!logp_df_dep_done(&d, pnext))
                break;
            if (d.op[pnext].arg != LOGP_RECV_RESULT) { /* into the accumulator, which sends read */
                int r = logp_df_write(&d, d.first[pnext], d.len[pnext], d.dep[pnext]);
                rc = rc == MPI_SUCCESS ? r : rc;
            }
            char *into = d.op[pnext].arg == LOGP_RECV_RESULT ? (char *)recvbuf : acc;
            char *to = into + (MPI_Aint)d.first[pnext] * extent;
            if (PMPI_Irecv(to, d.len[pnext], dt, d.op[pnext].peer, tag + 1, comm, &d.req[pnext]) != MPI_SUCCESS)
                d.req[pnext] = MPI_REQUEST_NULL;
            d.state[pnext] = LOGP_DF_POSTED;
            d.plain[d.pt++] = pnext;
        }
        /* the first arrived of the combines that may go (a plain receive
         * that arrived is taken at once: it costs nothing), else a wait */
        int best = -1, nc = 0, pw = d.pt - d.ph < LOGP_SCHED_PLAIN_WAIT ? d.pt : d.ph + LOGP_SCHED_PLAIN_WAIT;
        for (int k = d.ph; k < pw; k++)
            if (d.state[d.plain[k]] == LOGP_DF_IN) { /* removed keeping the list in order */
                best = d.plain[k];
                for (; k > d.ph; k--)
                    d.plain[k] = d.plain[k - 1];
                d.ph++;
                break;
            }
        for (int k = 0; best < 0 && k < d.nready; k++) {
            int i = d.ready[k];
            if (d.state[i] == LOGP_DF_IN && (best < 0 || i < best))
                best = i;
        }
        if (best < 0) { /* the candidates in listed order (a wait returns the first one done): the
                         * few combines sorted, merged with the plain receives, which are in order */
            for (int k = 0; k < d.nready; k++) {
                int j = k;
                while (j > 0 && d.ready[j - 1] > d.ready[k])
                    j--;
                int x = d.ready[k];
                for (int y = k; y > j; y--)
                    d.ready[y] = d.ready[y - 1];
                d.ready[j] = x;
            }
            for (int a = 0, b = d.ph; a < d.nready || b < pw;) /* the oldest plain receives only */
                d.cand[nc++] = b >= pw || (a < d.nready && d.ready[a] < d.plain[b]) ? d.ready[a++] : d.plain[b++];
            if (nc == 0) { /* nothing can come: a schedule that breaks its contract */
                rc = rc == MPI_SUCCESS ? MPI_ERR_INTERN : rc;
                break;
            }
            for (int k = 0; k < nc; k++)
                d.creq[k] = d.req[d.cand[k]];
            int at = MPI_UNDEFINED;
            MPI_Status status;
            int r = logp_engine_waitany(nc, d.creq, &at, &status);
            if (at == MPI_UNDEFINED || at < 0 || at >= nc) { /* every one null: a post that failed */
                int i = d.cand[0];
                d.req[i] = MPI_REQUEST_NULL;
                d.code[i] = MPI_ERR_OTHER;
                d.state[i] = LOGP_DF_IN;
                continue;
            }
            int i = d.cand[at];
            d.req[i] = MPI_REQUEST_NULL;
            d.code[i] = logp_buffer_got(r, &status, dt, d.len[i]);
            d.state[i] = LOGP_DF_IN;
            continue;
        }
        int r = d.code[best];
        if (d.op[best].kind == LOGP_OP_RECV_REDUCE) {
            if (r == MPI_SUCCESS)
                r = logp_df_write(&d, d.first[best], d.len[best], 0);
            if (r == MPI_SUCCESS && rc == MPI_SUCCESS && d.len[best] > 0) /* a user's operator never sees 0 */
                r = PMPI_Reduce_local(rbuf + (MPI_Aint)d.slot[best] * extent, acc + (MPI_Aint)d.first[best] * extent,
                                      d.len[best], dt, op);
            for (int k = 0; k < d.nready; k++)
                if (d.ready[k] == best) {
                    logp_df_drop(d.ready, &d.nready, k);
                    break;
                }
        }
        rc = rc == MPI_SUCCESS ? r : rc;
        logp_df_done(&d, best);
        left--;
    }
    /* what an early stop left: every request completes, so no peer waits on this rank's */
    rc = logp_buffer_wait_all(n, d.req, rc);
    if (rc == MPI_SUCCESS && (v->rank == v->root || v->s->coll == LOGP_COLL_ALLREDUCE) && v->tree_root == v->root)
        rc = logp_buffer_copy(acc, count, dt, recvbuf, count, dt, comm, tag);
    logp_scratch_put(scratch, mem);
    return rc;
}
