/* LogGP simulator: each rank runs its operations (its view of the
 * schedule, sched.h) in order; a receive waits for its message.
 *
 * Every rank's operations are read once into one array, and each receive
 * is matched up front with its send (the k-th message from s to r is the
 * k-th receive at r from s), so the event loop needs no mailbox.
 * Operations are handled in the order of their start times (a heap of
 * ranks keyed by when their next operation can start), so that resources
 * shared between ranks, the nodes' network interfaces, are taken in time
 * order.  A rank blocked on a receive is woken by the send that satisfies
 * it; every operation is handled once: O(n log P) for n operations. */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#include "net.h"
#include "topo.h"

static double logp_max(double a, double b)
{
    return a > b ? a : b;
}

/* Min-heap of (time, rank): ranks whose next operation can start at `time`. */
typedef struct {
    double t;
    int rank;
} logp_sim_event_t;

static int logp_sim_before(logp_sim_event_t a, logp_sim_event_t b)
{
    return a.t < b.t || (a.t == b.t && a.rank < b.rank);
}

/* A 4-ary heap: half the levels of a binary one, and a node's children
 * share a cache line (P can be 65,536 and more). */
static void logp_sim_push(logp_sim_event_t *h, int *n, logp_sim_event_t e)
{
    int i = (*n)++;
    while (i > 0 && logp_sim_before(e, h[(i - 1) / 4])) {
        h[i] = h[(i - 1) / 4];
        i = (i - 1) / 4;
    }
    h[i] = e;
}

static logp_sim_event_t logp_sim_pop(logp_sim_event_t *h, int *n)
{
    logp_sim_event_t top = h[0], last = h[--(*n)];
    int i = 0;
    for (;;) {
        int c = 4 * i + 1, end = c + 4 < *n ? c + 4 : *n;
        if (c >= *n)
            break;
        for (int k = c + 1; k < end; k++)
            if (logp_sim_before(h[k], h[c]))
                c = k;
        if (!logp_sim_before(h[c], last))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n > 0)
        h[i] = last;
    return top;
}

/* Pairs (src, dst) -> the oldest unmatched send or receive between them:
 * open addressing, used only while matching. */
typedef struct {
    long key;   /* src * P + dst, -1 if empty */
    long head;  /* oldest unmatched operation of the pair (a chain through `link`), -1 */
    long tail;
    int sends;  /* the chain holds sends (1) or receives (0) */
} logp_sim_pair_t;

typedef struct {
    logp_sim_pair_t *slot;
    long mask, used;
} logp_sim_pairs_t;

static logp_sim_pair_t *logp_sim_pair(logp_sim_pairs_t *h, long key)
{
    unsigned long x = (unsigned long)key * 0x9E3779B97F4A7C15ul;
    for (long i = (long)(x >> 17) & h->mask;; i = (i + 1) & h->mask) {
        if (h->slot[i].key == key)
            return &h->slot[i];
        if (h->slot[i].key == -1) {
            h->slot[i] = (logp_sim_pair_t){key, -1, -1, 0};
            h->used++;
            return &h->slot[i];
        }
    }
}

/* match[i]: for a receive, its send; for a send, its receive.  FIFO per
 * pair in program order.  LOGP_ERR_DEADLOCK if a message has no partner. */
static logp_status_t logp_sim_match(int P, long n, const logp_op_t *op, const int *owner, long *match, long *link)
{
    logp_sim_pairs_t h = {0};
    long size = 64;
    while (size < 2 * n)
        size *= 2;
    h.mask = size - 1;
    h.slot = malloc(sizeof(*h.slot) * (size_t)size);
    if (h.slot == NULL)
        return LOGP_ERR_NOMEM;
    for (long i = 0; i < size; i++)
        h.slot[i].key = -1;
    logp_status_t rc = LOGP_OK;
    for (long i = 0; i < n; i++) {
        int k = op[i].kind, send = k == LOGP_OP_SEND;
        match[i] = -1;
        if (!send && k != LOGP_OP_RECV && k != LOGP_OP_RECV_REDUCE)
            continue;
        int src = send ? owner[i] : op[i].peer, dst = send ? op[i].peer : owner[i];
        logp_sim_pair_t *p = logp_sim_pair(&h, (long)src * P + dst);
        if (p->head >= 0 && p->sends != send) { /* the oldest waiting partner */
            long j = p->head;
            p->head = link[j];
            if (p->head < 0)
                p->tail = -1;
            match[i] = j;
            match[j] = i;
            continue;
        }
        link[i] = -1; /* wait for a partner */
        p->sends = send;
        if (p->tail >= 0)
            link[p->tail] = i;
        else
            p->head = i;
        p->tail = i;
    }
    for (long i = 0; i < size && rc == LOGP_OK; i++)
        if (h.slot[i].key != -1 && h.slot[i].head >= 0)
            rc = LOGP_ERR_DEADLOCK;
    free(h.slot);
    return rc;
}

/* A rank's state. */
typedef struct {
    double cpu, nsend, nrecv; /* CPU free, earliest next send, earliest next receive */
    double serial;            /* its large sends to serial_peer have arrived (params.h's rule) */
    long serial_op;           /* shared network: its last large send, whose arrival is known later (-1: none) */
    int serial_peer;          /* -1: none */
    long pc, end;             /* next operation and the end of its operations in the array */
    int waiting;              /* blocked on a receive whose send has not started */
    long *sent;               /* paced schedule (sched.h: window): its last `window` sends, */
    long nsent;               /* by count (sent[nsent % window] is the oldest once full) */
    long paced_op;            /* the send whose arrival its next send waits for (-1: none) */
} logp_sim_rank_t;

/* The parameters a rank pays with: CPU terms divided by its speed; a
 * combine costs the intra-node gamma wherever the operand came from. */
static logp_params_t logp_sim_scaled(const logp_topo_t *t, const logp_params_t *pair, int r)
{
    logp_params_t q = *pair;
    double speed = logp_topo_speed(t, r);
    q.o = pair->o / speed;
    q.g = pair->g / speed;
    q.gamma = t->intra.gamma / speed;
    return q;
}

/* Earliest start of a rank's next operation, or -1 if it waits for a
 * message that has not been sent yet.  A send to another peer than the
 * last large one's waits until that one has arrived, and a paced
 * schedule's send until the rank's `window`-th last send has. */
static double logp_sim_next(logp_sim_rank_t *st, const logp_op_t *op, const long *match, const double *arrive,
                            int window)
{
    const logp_op_t *o = &op[st->pc];
    if (o->kind == LOGP_OP_SEND) {
        double t = logp_max(st->cpu, st->nsend);
        if (window > 0 && st->nsent >= window) {
            long oldest = st->sent[st->nsent % window];
            if (arrive[oldest] < 0.0) {
                st->waiting = 1; /* until that transfer ends */
                st->paced_op = oldest;
                return -1.0;
            }
            t = logp_max(t, arrive[oldest]);
        }
        if (st->serial_peer < 0 || o->peer == st->serial_peer)
            return t;
        if (st->serial_op >= 0 && arrive[st->serial_op] < 0.0) {
            st->waiting = 1; /* until that transfer ends */
            return -1.0;
        }
        return logp_max(t, st->serial_op >= 0 ? logp_max(st->serial, arrive[st->serial_op]) : st->serial);
    }
    if (o->kind == LOGP_OP_RECV || o->kind == LOGP_OP_RECV_REDUCE) {
        double a = arrive[match[st->pc]];
        if (a < 0.0) {
            st->waiting = 1;
            return -1.0;
        }
        return logp_max(logp_max(st->cpu, st->nrecv), a);
    }
    return st->cpu;
}

/* A shared network's state beside the ranks' (net.h).  Large sends are
 * synchronous (params.h), so under a rendezvous protocol, as SimGrid
 * runs synchronous sends, their bytes leave only once the receive is
 * posted; the executors post a rank's next receive while it waits for
 * the current one (its first at the start), which `posted` follows. */
typedef struct {
    logp_net_t net;
    double *posted; /* receive op: when posted (-1: not yet) */
    double *leave;  /* large send op: when its bytes are ready, waiting for the receive (-1: not waiting) */
    int rendezvous; /* large sends wait for their receive */
    int ahead;      /* receives a rank keeps posted (logp_sched_recv_ahead) */
} logp_sim_shared_t;

/* Nonzero if send op o goes as a rendezvous on a shared network: a
 * synchronous send (large, or any of a paced schedule) whose bytes leave
 * once the receive is posted and land in the posted buffer, so that the
 * receiver pays no overhead or gap for it on arrival (SMPI charges its
 * receive overhead only for eager messages, copied out of a mailbox: a
 * 2-rank test, Issend into an early Irecv completes one overhead sooner
 * than Isend; paced two-tree, P = 64, 1 MiB in 96 - 160 segments: 141 -
 * 137 us measured, 146 - 212 predicted with the overhead, 141 - 136
 * without). */
static int logp_sim_rendezvous(const logp_sim_shared_t *sh, const logp_op_t *o, int window)
{
    return sh->rendezvous && (o->bytes > LOGP_PARAMS_SERIAL_BYTES || window > 0);
}

/* Rank r's host on a shared network: itself on the uniform model, its
 * node in a layout. */
static int logp_sim_host(const logp_topo_t *topo, int r)
{
    return topo->node ? topo->node[r] : r;
}

/* Nonzero if a message from a to b goes through the shared network (not
 * within one node of a layout). */
static int logp_sim_networked(const logp_topo_t *topo, int a, int b)
{
    return topo->shared && logp_sim_host(topo, a) != logp_sim_host(topo, b);
}

/* Starts send op i's transfer, its bytes leaving at t. */
static logp_status_t logp_sim_flow(logp_sim_shared_t *sh, const logp_topo_t *topo, const logp_op_t *op,
                                   const int *owner, long i, double t)
{
    int a = owner[i], b = op[i].peer;
    const logp_params_t *q = logp_topo_pair(topo, a, b);
    return logp_net_start(&sh->net, i, logp_sim_host(topo, a), logp_sim_host(topo, b), t, q->L,
                          logp_params_inj(q, op[i].bytes));
}

/* Receive op j is posted at t: a large send waiting for it starts. */
static logp_status_t logp_sim_post(logp_sim_shared_t *sh, const logp_topo_t *topo, const logp_op_t *op,
                                   const int *owner, const long *match, long j, double t)
{
    if (sh->posted[j] >= 0.0)
        return LOGP_OK;
    sh->posted[j] = t;
    long i = match[j];
    if (sh->leave[i] < 0.0)
        return LOGP_OK;
    double at = logp_max(sh->leave[i], t);
    sh->leave[i] = -1.0;
    return logp_sim_flow(sh, topo, op, owner, i, at);
}

static int logp_sim_is_recv(const logp_op_t *o)
{
    return o->kind == LOGP_OP_RECV || o->kind == LOGP_OP_RECV_REDUCE;
}

/* A rank reaches op pc at t (its CPU free): a receive is posted then,
 * and so is the receive after it (one ahead); at its start (`first`) a
 * rank posts its first receive.  A part-wise bcast's rank keeps
 * LOGP_SCHED_RECV_AHEAD receives posted from its start (the bcast
 * executor's receives ahead: SMPI, pipeline, P = 16, 4 MiB in 99
 * segments of 42 KiB, synchronous: 713 us; simulated one ahead 616, eight
 * ahead 705). */
static logp_status_t logp_sim_reach(logp_sim_shared_t *sh, const logp_topo_t *topo, const logp_op_t *op,
                                    const int *owner, const long *match, long pc, long end, double t, int first)
{
    logp_status_t rc = LOGP_OK;
    int posts = logp_sim_is_recv(&op[pc]) ? (sh->ahead > 1 ? sh->ahead : 2) : first ? sh->ahead : 0;
    for (long k = pc; k < end && posts > 0 && rc == LOGP_OK; k++)
        if (logp_sim_is_recv(&op[k])) {
            rc = logp_sim_post(sh, topo, op, owner, match, k, t);
            posts--;
        }
    return rc;
}

/* logp_sim_run, a shared network's recomputations limited to `effort`
 * (0: no limit; LOGP_ERR_BUDGET beyond it). */
static logp_status_t logp_sim_run_limited(const logp_sched_t *s, int root, int commutative, long effort,
                                          double *finish, double *got, double *total)
{
    int P = s->P;
    const logp_topo_t *topo = &s->topo;
    int N = topo->nnodes > 0 ? topo->nnodes : 1;
    logp_status_t rc = LOGP_OK;
    logp_sim_rank_t *st = calloc((size_t)P, sizeof(*st));
    double *nic_out = calloc((size_t)N, sizeof(double)); /* node interface free to inject */
    double *nic_in = calloc((size_t)N, sizeof(double));  /* node interface done delivering */
    logp_sim_event_t *heap = malloc(sizeof(*heap) * (size_t)P);
    logp_op_t *op = NULL;
    int *owner = NULL;
    long *match = NULL, *link = NULL, n = 0;
    double *arrive = NULL;
    /* a network that shares bandwidth (net.h): every rank its own host
     * on the uniform model, a node's ranks one host in a layout */
    int shared = topo->shared;
    logp_sim_shared_t sh = {0};
    if (shared && logp_net_init(&sh.net, topo->node ? N : P) != LOGP_OK)
        rc = LOGP_ERR_NOMEM;
    int window = logp_sched_window(s);
    long *sent = window > 0 ? malloc(sizeof(long) * (size_t)P * (size_t)window) : NULL;
    if (window > 0 && !sent)
        rc = LOGP_ERR_NOMEM;
    sh.net.effort_max = effort;
    if (!st || !nic_out || !nic_in || !heap) {
        rc = LOGP_ERR_NOMEM;
        goto out;
    }
    /* every rank's operations, once */
    for (int r = 0; r < P && rc == LOGP_OK; r++) {
        logp_view_t v;
        rc = logp_view_init(&v, s, root, r, commutative);
        st[r].pc = n;
        n += v.nops;
        st[r].end = n;
    }
    if (rc == LOGP_OK) {
        op = malloc(sizeof(*op) * (size_t)(n + 1));
        owner = malloc(sizeof(int) * (size_t)(n + 1));
        match = malloc(sizeof(long) * (size_t)(n + 1));
        link = malloc(sizeof(long) * (size_t)(n + 1));
        arrive = malloc(sizeof(double) * (size_t)(n + 1));
        if (!op || !owner || !match || !link || !arrive)
            rc = LOGP_ERR_NOMEM;
        if (shared && rc == LOGP_OK) {
            sh.posted = malloc(sizeof(double) * (size_t)(n + 1));
            sh.leave = malloc(sizeof(double) * (size_t)(n + 1));
            if (!sh.posted || !sh.leave)
                rc = LOGP_ERR_NOMEM;
            for (long i = 0; rc == LOGP_OK && i <= n; i++)
                sh.posted[i] = sh.leave[i] = -1.0;
        }
    }
    for (int r = 0; r < P && rc == LOGP_OK; r++) {
        logp_view_t v;
        logp_view_init(&v, s, root, r, commutative);
        for (long i = st[r].pc; i < st[r].end; i++) {
            op[i] = logp_view_op(&v, (int)(i - st[r].pc));
            owner[i] = r;
            arrive[i] = -1.0;
        }
    }
    if (rc == LOGP_OK)
        rc = logp_sim_match(P, n, op, owner, match, link);
    /* the executors' rule for large sends (params.h), where they keep it */
    int serial = s->coll != LOGP_COLL_ALLTOALL && !(s->fam->flags & LOGP_FAMILY_CONCURRENT);
    for (int r = 0; st && r < P; r++) {
        st[r].serial_peer = -1;
        st[r].serial_op = -1;
        st[r].paced_op = -1;
        st[r].sent = sent ? sent + (size_t)r * (size_t)window : NULL;
    }
    sh.rendezvous = s->coll != LOGP_COLL_ALLTOALL; /* the all-to-all executors' sends are standard ones */
    sh.ahead = logp_sched_recv_ahead(s);
    for (int r = 0; shared && rc == LOGP_OK && r < P; r++)
        if (st[r].pc < st[r].end)
            rc = logp_sim_reach(&sh, topo, op, owner, match, st[r].pc, st[r].end, 0.0, 1);
    if (rc != LOGP_OK)
        goto out;
    for (int r = 0; got && r < P; r++)
        got[r] = -1.0;
    int nheap = 0, done = 0;
    for (int r = 0; r < P; r++) {
        double t0 = st[r].pc < st[r].end ? logp_sim_next(&st[r], op, match, arrive, window) : -1.0;
        if (t0 >= 0.0)
            logp_sim_push(heap, &nheap, (logp_sim_event_t){t0, r});
        else if (st[r].pc == st[r].end)
            done++; /* nothing to do; the others wait for a message */
    }
    for (;;) {
        double tn = shared ? logp_net_next(&sh.net) : -1.0;
        if (tn >= 0.0 && (nheap == 0 || tn <= heap[0].t)) { /* the network first: a transfer ends */
            double t;
            long f = logp_net_step(&sh.net, &t);
            if (f < -1) {
                rc = f == -3 ? LOGP_ERR_BUDGET : LOGP_ERR_NOMEM;
                break;
            }
            if (f < 0)
                continue;
            arrive[f] = t;
            logp_sim_rank_t *to = &st[op[f].peer], *from = &st[owner[f]];
            if (to->waiting && to->pc == match[f]) { /* wake the receiver */
                to->waiting = 0;
                double t1 = logp_sim_next(to, op, match, arrive, window);
                logp_sim_push(heap, &nheap, (logp_sim_event_t){t1, op[f].peer});
            }
            if (from->waiting && (from->serial_op == f || from->paced_op == f)) { /* and a sender that waits for it */
                from->waiting = 0;
                double t1 = logp_sim_next(from, op, match, arrive, window);
                logp_sim_push(heap, &nheap, (logp_sim_event_t){t1, owner[f]});
            }
            continue;
        }
        if (nheap == 0)
            break;
        int r = logp_sim_pop(heap, &nheap).rank;
        logp_sim_rank_t *me = &st[r];
        double start = logp_sim_next(me, op, match, arrive, window);
        if (start < 0.0)
            continue; /* parked until its message is sent */
        me->waiting = 0;
        const logp_op_t *o = &op[me->pc];
        if (o->kind == LOGP_OP_SEND) {
            logp_params_t q = logp_sim_scaled(topo, logp_topo_pair(topo, r, o->peer), r);
            double inj = logp_params_inj(&q, o->bytes);
            me->cpu = start + q.o;
            me->nsend = start + logp_params_gap(&q, o->bytes);
            if (window > 0)
                me->sent[me->nsent++ % window] = me->pc;
            double at = start + q.o + inj + q.L;
            int sn = logp_topo_node(topo, r), dn = logp_topo_node(topo, o->peer);
            if (logp_sim_networked(topo, r, o->peer)) {
                /* the bytes are the network's: the CPU sends every max(g, o) */
                me->nsend = start + logp_max(q.g, q.o);
                int sync = logp_sim_rendezvous(&sh, o, window);
                double posted = sync ? sh.posted[match[me->pc]] : 0.0;
                if (posted < 0.0)
                    sh.leave[me->pc] = start + q.o; /* until the receive is posted */
                else if (logp_sim_flow(&sh, topo, op, owner, me->pc, logp_max(start + q.o, posted)) != LOGP_OK) {
                    rc = LOGP_ERR_NOMEM;
                    break;
                }
                if (serial && o->bytes > LOGP_PARAMS_SERIAL_BYTES) {
                    if (o->peer != me->serial_peer)
                        me->serial = 0.0;
                    me->serial_peer = o->peer;
                    me->serial_op = me->pc;
                }
                goto next;
            }
            if (sn != dn) {
                /* the ranks of a node share its network interface: one
                 * injection at a time out of a node, one delivery at a
                 * time into a node */
                double inject = logp_max(start + q.o, nic_out[sn]);
                nic_out[sn] = inject + inj;
                at = logp_max(inject + inj + q.L, nic_in[dn] + inj);
                nic_in[dn] = at;
            }
            arrive[me->pc] = at;
            if (serial && o->bytes > LOGP_PARAMS_SERIAL_BYTES) {
                me->serial = o->peer == me->serial_peer ? logp_max(me->serial, at) : at;
                me->serial_peer = o->peer;
            }
            long j = match[me->pc];
            logp_sim_rank_t *to = &st[o->peer];
            if (to->waiting && to->pc == j) { /* wake the receiver */
                to->waiting = 0;
                logp_sim_push(heap, &nheap, (logp_sim_event_t){logp_sim_next(to, op, match, arrive, window), o->peer});
            }
        } else if (o->kind == LOGP_OP_RECV || o->kind == LOGP_OP_RECV_REDUCE) {
            logp_params_t q = logp_sim_scaled(topo, logp_topo_pair(topo, o->peer, r), r);
            if (logp_sim_networked(topo, o->peer, r)) {
                q.G = 0.0; /* the incoming interface paced the bytes */
                if (logp_sim_rendezvous(&sh, &op[match[me->pc]], window))
                    q.o = q.g = 0.0; /* they landed in the posted buffer */
            }
            logp_recv_state_t rs = {me->cpu, me->nrecv};
            logp_params_take(&q, o->bytes, o->kind == LOGP_OP_RECV_REDUCE, arrive[match[me->pc]], &rs);
            me->cpu = rs.cpu;
            me->nrecv = rs.next;
            if (got && got[r] < 0.0)
                got[r] = me->cpu;
        } else if (o->kind == LOGP_OP_REDUCE_OWN) {
            me->cpu += (double)o->bytes * topo->intra.gamma / logp_topo_speed(topo, r);
        }
    next:
        if (++me->pc == me->end) {
            done++;
            continue;
        }
        if (shared && (rc = logp_sim_reach(&sh, topo, op, owner, match, me->pc, me->end, me->cpu, 0)) != LOGP_OK)
            break;
        double t = logp_sim_next(me, op, match, arrive, window);
        if (t >= 0.0)
            logp_sim_push(heap, &nheap, (logp_sim_event_t){t, r});
    }
    if (rc == LOGP_OK && done != P)
        rc = LOGP_ERR_DEADLOCK;
    if (rc == LOGP_OK) {
        double t = 0.0;
        for (int r = 0; r < P; r++) {
            if (finish)
                finish[r] = st[r].cpu;
            t = logp_max(t, st[r].cpu);
        }
        if (total)
            *total = t;
    }
out:
    logp_net_free(&sh.net);
    free(sh.posted);
    free(sh.leave);
    free(sent);
    free(st);
    free(nic_out);
    free(nic_in);
    free(heap);
    free(op);
    free(owner);
    free(match);
    free(link);
    free(arrive);
    return rc;
}

logp_status_t logp_sim_run(const logp_sched_t *s, int root, int commutative, double *finish, double *got,
                           double *total)
{
    return logp_sim_run_limited(s, root, commutative, 0, finish, got, total);
}

double logp_sim_predict(const logp_sched_t *s, int root, int commutative)
{
    double t = logp_sched_time(s, root, commutative);
    if (t >= 0.0)
        return t;
    return logp_sim_run(s, root, commutative, NULL, NULL, &t) == LOGP_OK ? t : -1.0;
}

int logp_sim_affordable(const logp_sched_t *s)
{
    return !(s->fam->flags & LOGP_FAMILY_ESTIMATED) || logp_sched_ops(s) <= LOGP_SIM_ESTIMATED_OPS;
}

double logp_sim_price(const logp_sched_t *s, int root, int commutative, int exact)
{
    double t = logp_sched_time(s, root, commutative);
    if (t >= 0.0)
        return t;
    if (!logp_sim_affordable(s))
        exact = 0;
    if (!exact)
        return logp_sched_estimate(s, root, commutative);
    /* a shared network may cost far more per operation (net.h): bounded */
    logp_status_t rc = logp_sim_run_limited(s, root, commutative, s->topo.shared ? LOGP_SIM_BUDGET : 0, NULL, NULL, &t);
    return rc == LOGP_OK ? t : rc == LOGP_ERR_BUDGET ? logp_sched_estimate(s, root, commutative) : -1.0;
}
