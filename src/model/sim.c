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
 * pair and stream (logp_op_stream) in program order.  LOGP_ERR_DEADLOCK
 * if a message has no partner. */
static logp_status_t logp_sim_match(const logp_sched_t *s, long n, const logp_op_t *op, const int *owner, long *match,
                                    long *link)
{
    int P = s->P;
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
        logp_sim_pair_t *p = logp_sim_pair(&h, ((long)src * P + dst) * 2 + logp_op_stream(s, &op[i]));
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
    /* a dataflow schedule's rank (sched.h: LOGP_FAMILY_DATAFLOW), as
     * coll/reduce_dataflow.c runs it: */
    long pnext;               /* its next plain receive to post (in order) */
    long left;                /* operations not done */
    long *ready, nready;      /* combining receives whose earlier operations are done */
    long *sready, nsready;    /* sends whose earlier operations are done */
    long *plain, ph, pt;      /* plain receives posted and not done, in order: plain[ph .. pt) */
    double wake;              /* when its pending event is due (-1: none) */
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
 * receive overhead only for eager messages, copied out of a mailbox:
 * docs/results/measurements-in-code.md, "simulator: rendezvous messages
 * cost the receiver nothing"). */
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
 * LOGP_SCHED_RECV_AHEAD receives posted from its start, as the bcast
 * executor does (docs/results/measurements-in-code.md, "simulator:
 * receives posted ahead"). */
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

/* Everything one run shares. */
typedef struct {
    const logp_sched_t *s;
    const logp_topo_t *topo;
    logp_sim_rank_t *st;
    double *nic_out, *nic_in; /* node interfaces: free to inject, done delivering */
    logp_sim_event_t *heap;
    int nheap, window, serial, shared;
    logp_op_t *op;
    int *owner;
    long *match, *dep, *kids, *kid_at; /* dataflow: dep[i]; the operations that follow i: kids[kid_at[i] ..) */
    int *wait;                         /* dataflow: earlier operations i waits for, not yet done */
    double *arrive, *got;
    char *done;
    int nomem; /* a dataflow rank could not post a receive */
    logp_sim_shared_t sh;
} logp_sim_ctx_t;

static int logp_sim_dataflow(const logp_sim_ctx_t *x)
{
    return (x->s->fam->flags & LOGP_FAMILY_DATAFLOW) != 0;
}

/* Wakes rank r (parked on a receive) if op i, just become its turn, can start. */
static void logp_sim_wake_in_order(logp_sim_ctx_t *x, int r, long i)
{
    logp_sim_rank_t *to = &x->st[r];
    if (to->waiting && to->pc == i) {
        to->waiting = 0;
        logp_sim_push(x->heap, &x->nheap,
                      (logp_sim_event_t){logp_sim_next(to, x->op, x->match, x->arrive, x->window), r});
    }
}

/* The smallest of list[0 .. n). */
static long logp_sim_least(const long *list, long n)
{
    long best = -1;
    for (long k = 0; k < n; k++)
        if (best < 0 || list[k] < best)
            best = list[k];
    return best;
}

/* A dataflow rank's next operation and when it can start (-1: none can
 * until a message arrives), as the executor chooses: a send that can go
 * now (listed first first), else a plain receive that is in (it costs
 * nothing), else the first listed combine whose message is in, else
 * whichever of them can start first. */
static long logp_sim_pick(logp_sim_ctx_t *x, int r, double *start)
{
    logp_sim_rank_t *me = &x->st[r];
    long best = -1, send = logp_sim_least(me->sready, me->nsready);
    double bt = -1.0;
    if (send >= 0 && x->op[send].kind != LOGP_OP_SEND) { /* local work */
        *start = me->cpu;
        return send;
    }
    if (send >= 0) {
        long pc = me->pc;
        me->pc = send; /* logp_sim_next's send rules (a paced window) */
        double t = logp_sim_next(me, x->op, x->match, x->arrive, x->window);
        me->pc = pc;
        me->waiting = 0;
        if (t >= 0.0) {
            best = send;
            bt = t;
            if (t <= me->cpu) {
                *start = me->cpu;
                return send;
            }
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        /* the oldest LOGP_SCHED_PLAIN_WAIT plain receives, as the executor waits on */
        long pw = me->pt - me->ph < LOGP_SCHED_PLAIN_WAIT ? me->pt - me->ph : LOGP_SCHED_PLAIN_WAIT;
        const long *list = pass ? me->ready : me->plain + me->ph;
        long n = pass ? me->nready : pw, now = -1;
        for (long k = 0; k < n; k++) {
            long i = list[k];
            double a = x->arrive[x->match[i]];
            if (a < 0.0)
                continue;
            double t = logp_max(logp_max(me->cpu, me->nrecv), a);
            if (t <= me->cpu) {
                if (now < 0 || i < now)
                    now = i;
            } else if (best < 0 || t < bt || (t == bt && i < best)) {
                best = i;
                bt = t;
            }
        }
        if (now >= 0) {
            *start = me->cpu;
            return now;
        }
    }
    *start = bt;
    return best;
}

/* Schedules dataflow rank r's next event if it is earlier than the one
 * pending (an arrival may make an earlier one possible). */
static logp_status_t logp_sim_post_plain(logp_sim_ctx_t *x, int r, double t);

static void logp_sim_wake_dataflow(logp_sim_ctx_t *x, int r)
{
    logp_sim_rank_t *me = &x->st[r];
    double t;
    if (me->left == 0)
        return;
    if (logp_sim_post_plain(x, r, me->cpu) != LOGP_OK)
        x->nomem = 1;
    if (logp_sim_pick(x, r, &t) < 0)
        return;
    if (me->wake < 0.0 || t < me->wake) {
        me->wake = t;
        logp_sim_push(x->heap, &x->nheap, (logp_sim_event_t){t, r});
    }
}

/* Wakes whoever may now go on after message i arrived: its receiver, and
 * a sender whose next send waits for it. */
static void logp_sim_arrived(logp_sim_ctx_t *x, long i)
{
    int to = x->op[i].peer, from = x->owner[i];
    if (logp_sim_dataflow(x)) {
        logp_sim_wake_dataflow(x, to);
        logp_sim_wake_dataflow(x, from);
        return;
    }
    logp_sim_wake_in_order(x, to, x->match[i]);
    logp_sim_rank_t *f = &x->st[from];
    if (f->waiting && (f->serial_op == i || f->paced_op == i)) {
        f->waiting = 0;
        logp_sim_push(x->heap, &x->nheap,
                      (logp_sim_event_t){logp_sim_next(f, x->op, x->match, x->arrive, x->window), from});
    }
}

/* Rank r runs its operation i, starting at `start`. */
static logp_status_t logp_sim_exec(logp_sim_ctx_t *x, int r, long i, double start)
{
    const logp_topo_t *topo = x->topo;
    logp_sim_rank_t *me = &x->st[r];
    const logp_op_t *o = &x->op[i];
    if (o->kind == LOGP_OP_SEND) {
        logp_params_t q = logp_sim_scaled(topo, logp_topo_pair(topo, r, o->peer), r);
        double inj = logp_params_inj(&q, o->bytes);
        me->cpu = start + q.o;
        me->nsend = start + logp_params_gap(&q, o->bytes);
        if (x->window > 0)
            me->sent[me->nsent++ % x->window] = i;
        double at = start + q.o + inj + q.L;
        int sn = logp_topo_node(topo, r), dn = logp_topo_node(topo, o->peer);
        if (logp_sim_networked(topo, r, o->peer)) {
            /* the bytes are the network's: the CPU sends every max(g, o) */
            me->nsend = start + logp_max(q.g, q.o);
            int sync = logp_sim_rendezvous(&x->sh, o, x->window);
            double posted = sync ? x->sh.posted[x->match[i]] : 0.0;
            if (posted < 0.0)
                x->sh.leave[i] = start + q.o; /* until the receive is posted */
            else if (logp_sim_flow(&x->sh, topo, x->op, x->owner, i, logp_max(start + q.o, posted)) != LOGP_OK)
                return LOGP_ERR_NOMEM;
            if (x->serial && o->bytes > LOGP_PARAMS_SERIAL_BYTES) {
                if (o->peer != me->serial_peer)
                    me->serial = 0.0;
                me->serial_peer = o->peer;
                me->serial_op = i;
            }
            return LOGP_OK;
        }
        if (sn != dn) {
            /* the ranks of a node share its network interface: one
             * injection at a time out of a node, one delivery at a
             * time into a node */
            double inject = logp_max(start + q.o, x->nic_out[sn]);
            x->nic_out[sn] = inject + inj;
            at = logp_max(inject + inj + q.L, x->nic_in[dn] + inj);
            x->nic_in[dn] = at;
        }
        x->arrive[i] = at;
        if (x->serial && o->bytes > LOGP_PARAMS_SERIAL_BYTES) {
            me->serial = o->peer == me->serial_peer ? logp_max(me->serial, at) : at;
            me->serial_peer = o->peer;
        }
        logp_sim_arrived(x, i);
    } else if (o->kind == LOGP_OP_RECV || o->kind == LOGP_OP_RECV_REDUCE) {
        logp_params_t q = logp_sim_scaled(topo, logp_topo_pair(topo, o->peer, r), r);
        if (logp_sim_networked(topo, o->peer, r)) {
            q.G = 0.0; /* the incoming interface paced the bytes */
            if (logp_sim_rendezvous(&x->sh, &x->op[x->match[i]], x->window))
                q.o = q.g = 0.0; /* they landed in the posted buffer */
        }
        logp_recv_state_t rs = {me->cpu, me->nrecv};
        logp_params_take(&q, o->bytes, o->kind == LOGP_OP_RECV_REDUCE, x->arrive[x->match[i]], &rs);
        me->cpu = rs.cpu;
        me->nrecv = rs.next;
        if (x->got && x->got[r] < 0.0)
            x->got[r] = me->cpu;
    } else if (o->kind == LOGP_OP_REDUCE_OWN) {
        me->cpu += (double)o->bytes * topo->intra.gamma / logp_topo_speed(topo, r);
    }
    return LOGP_OK;
}

/* A dataflow rank posts its plain receives in order, at most the
 * schedule's recv_window at a time, each once its dep is done. */
static logp_status_t logp_sim_post_plain(logp_sim_ctx_t *x, int r, double t)
{
    logp_sim_rank_t *me = &x->st[r];
    int w = x->s->recv_window;
    for (; me->pnext < me->end && (w <= 0 || me->pt - me->ph < w); me->pnext++) {
        long i = me->pnext;
        if (x->op[i].kind != LOGP_OP_RECV)
            continue;
        if (x->dep[i] >= 0 && !x->done[x->dep[i]])
            break;
        if (x->shared && logp_sim_post(&x->sh, x->topo, x->op, x->owner, x->match, i, t) != LOGP_OK)
            return LOGP_ERR_NOMEM;
        me->plain[me->pt++] = i;
    }
    return LOGP_OK;
}

/* Removes i from list[0 .. *n). */
static void logp_sim_drop(long *list, long *n, long i)
{
    for (long k = 0; k < *n; k++)
        if (list[k] == i) {
            list[k] = list[--*n];
            return;
        }
}

/* Operation j has nothing earlier to wait for: a combine joins the
 * combines' list, a send or local work the list done first. */
static void logp_sim_free(logp_sim_ctx_t *x, logp_sim_rank_t *me, long j)
{
    if (x->op[j].kind == LOGP_OP_RECV_REDUCE)
        me->ready[me->nready++] = j;
    else if (x->op[j].kind != LOGP_OP_RECV)
        me->sready[me->nsready++] = j;
}

/* Dataflow rank r did operation i: what follows it may now go. */
static logp_status_t logp_sim_did(logp_sim_ctx_t *x, int r, long i)
{
    logp_sim_rank_t *me = &x->st[r];
    x->done[i] = 1;
    me->left--;
    const logp_op_t *o = &x->op[i];
    if (o->kind == LOGP_OP_RECV_REDUCE)
        logp_sim_drop(me->ready, &me->nready, i);
    else if (o->kind == LOGP_OP_RECV) {
        for (long k = me->ph; k < me->pt; k++) /* removed keeping the list in order */
            if (me->plain[k] == i) {
                for (; k > me->ph; k--)
                    me->plain[k] = me->plain[k - 1];
                me->ph++;
                break;
            }
    } else {
        logp_sim_drop(me->sready, &me->nsready, i);
    }
    while (me->pc < me->end && x->done[me->pc])
        me->pc++;
    for (long k = x->kid_at[i]; k < x->kid_at[i + 1]; k++)
        if (--x->wait[x->kids[k]] == 0)
            logp_sim_free(x, me, x->kids[k]);
    return logp_sim_post_plain(x, r, me->cpu);
}

/* Dataflow set-up, as the executor's: what each operation waits for (its
 * dep and, for a send, the rank's previous send on the same pair and
 * stream), who follows whom, and every combining receive posted at the
 * rank's start. */
static logp_status_t logp_sim_dataflow_init(logp_sim_ctx_t *x, long n)
{
    const logp_sched_t *s = x->s;
    int P = s->P;
    x->dep = malloc(sizeof(long) * (size_t)(n + 1));
    long *prev = malloc(sizeof(long) * (size_t)(n + 1));
    long *last = malloc(sizeof(long) * (size_t)P * 2); /* a rank's last send per (peer, stream) */
    x->kids = malloc(sizeof(long) * (size_t)(2 * n + 1));
    x->kid_at = calloc((size_t)n + 2, sizeof(long));
    x->wait = malloc(sizeof(int) * (size_t)(n + 1));
    x->done = calloc((size_t)n + 1, 1);
    long *lists = malloc(sizeof(long) * (size_t)(3 * n + 3));
    long *fill = calloc((size_t)n + 1, sizeof(long));
    logp_status_t rc = LOGP_OK;
    if (!x->dep || !prev || !last || !x->kids || !x->kid_at || !x->wait || !x->done || !lists || !fill) {
        free(lists);
        rc = LOGP_ERR_NOMEM;
        goto out;
    }
    for (long i = 0; i < 2L * P; i++)
        last[i] = -1;
    for (int r = 0; r < P; r++) {
        logp_sim_rank_t *me = &x->st[r];
        logp_view_t v;
        logp_view_init(&v, s, 0, r, 1); /* deps depend on the shape, which every root's view shares */
        for (long i = me->pc; i < me->end; i++) {
            int d = logp_view_dep(&v, (int)(i - me->pc));
            x->dep[i] = d >= 0 && me->pc + d < i ? me->pc + d : -1;
            prev[i] = -1;
            if (x->op[i].kind == LOGP_OP_SEND) {
                long key = 2L * x->op[i].peer + logp_op_stream(s, &x->op[i]);
                prev[i] = last[key] == x->dep[i] ? -1 : last[key];
                last[key] = i;
            }
            x->wait[i] = (x->dep[i] >= 0) + (prev[i] >= 0);
            if (x->dep[i] >= 0)
                x->kid_at[x->dep[i] + 1]++;
            if (prev[i] >= 0)
                x->kid_at[prev[i] + 1]++;
        }
        for (long i = me->pc; i < me->end; i++) /* the next rank starts afresh */
            if (x->op[i].kind == LOGP_OP_SEND)
                last[2L * x->op[i].peer + logp_op_stream(s, &x->op[i])] = -1;
    }
    for (long i = 0; i < n; i++)
        x->kid_at[i + 1] += x->kid_at[i];
    for (long i = 0; i < n; i++) {
        if (x->dep[i] >= 0)
            x->kids[x->kid_at[x->dep[i]] + fill[x->dep[i]]++] = i;
        if (prev[i] >= 0)
            x->kids[x->kid_at[prev[i]] + fill[prev[i]]++] = i;
    }
    for (int r = 0; r < P; r++) {
        logp_sim_rank_t *me = &x->st[r];
        long base = 3 * me->pc; /* each rank's lists: three of its size */
        me->ready = lists + base;
        me->sready = me->ready + (me->end - me->pc);
        me->plain = me->sready + (me->end - me->pc);
        me->nready = me->nsready = me->ph = me->pt = 0;
        me->left = me->end - me->pc;
        me->wake = -1.0;
        me->pnext = me->pc;
        for (long i = me->pc; i < me->end; i++) {
            if (x->wait[i] == 0)
                logp_sim_free(x, me, i);
            if (x->op[i].kind == LOGP_OP_RECV_REDUCE && x->shared &&
                logp_sim_post(&x->sh, x->topo, x->op, x->owner, x->match, i, 0.0) != LOGP_OK) {
                rc = LOGP_ERR_NOMEM;
                break;
            }
        }
    }
    x->st[0].ready = lists; /* freed through rank 0 (P >= 1) */
out:
    free(prev);
    free(last);
    free(fill);
    return rc;
}

logp_status_t logp_sim_run_budget(const logp_sched_t *s, int root, int commutative, long effort, double *finish,
                                  double *got, double *total)
{
    int P = s->P;
    const logp_topo_t *topo = &s->topo;
    int N = topo->nnodes > 0 ? topo->nnodes : 1;
    logp_status_t rc = LOGP_OK;
    logp_sim_ctx_t x = {0};
    x.s = s;
    x.topo = topo;
    x.got = got;
    x.st = calloc((size_t)P, sizeof(*x.st));
    x.nic_out = calloc((size_t)N, sizeof(double));
    x.nic_in = calloc((size_t)N, sizeof(double));
    long *link = NULL, n = 0;
    /* a network that shares bandwidth (net.h): every rank its own host
     * on the uniform model, a node's ranks one host in a layout */
    x.shared = topo->shared;
    if (x.shared && logp_net_init(&x.sh.net, topo->node ? N : P) != LOGP_OK)
        rc = LOGP_ERR_NOMEM;
    int window = x.window = logp_sched_window(s);
    long *sent = window > 0 ? malloc(sizeof(long) * (size_t)P * (size_t)window) : NULL;
    if (window > 0 && !sent)
        rc = LOGP_ERR_NOMEM;
    x.sh.net.effort_max = effort;
    int dataflow = logp_sim_dataflow(&x);
    logp_sim_rank_t *st = x.st;
    if (!x.st || !x.nic_out || !x.nic_in) {
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
        /* a rank waits in the heap once; a dataflow rank's superseded
         * events stay there until popped, at most one per operation done,
         * per re-timing and per arrival */
        x.heap = malloc(sizeof(*x.heap) * (size_t)(P + (dataflow ? 4 * n + 16 : 0)));
        x.op = malloc(sizeof(*x.op) * (size_t)(n + 1));
        x.owner = malloc(sizeof(int) * (size_t)(n + 1));
        x.match = malloc(sizeof(long) * (size_t)(n + 1));
        link = malloc(sizeof(long) * (size_t)(n + 1));
        x.arrive = malloc(sizeof(double) * (size_t)(n + 1));
        if (!x.heap || !x.op || !x.owner || !x.match || !link || !x.arrive)
            rc = LOGP_ERR_NOMEM;
        if (x.shared && rc == LOGP_OK) {
            x.sh.posted = malloc(sizeof(double) * (size_t)(n + 1));
            x.sh.leave = malloc(sizeof(double) * (size_t)(n + 1));
            if (!x.sh.posted || !x.sh.leave)
                rc = LOGP_ERR_NOMEM;
            for (long i = 0; rc == LOGP_OK && i <= n; i++)
                x.sh.posted[i] = x.sh.leave[i] = -1.0;
        }
    }
    for (int r = 0; r < P && rc == LOGP_OK; r++) {
        logp_view_t v;
        logp_view_init(&v, s, root, r, commutative);
        for (long i = st[r].pc; i < st[r].end; i++) {
            x.op[i] = logp_view_op(&v, (int)(i - st[r].pc));
            x.owner[i] = r;
            x.arrive[i] = -1.0;
        }
    }
    if (rc == LOGP_OK)
        rc = logp_sim_match(s, n, x.op, x.owner, x.match, link);
    /* the executors' rule for large sends (params.h), where they keep it */
    x.serial = s->coll != LOGP_COLL_ALLTOALL && !(s->fam->flags & LOGP_FAMILY_CONCURRENT);
    for (int r = 0; r < P; r++) {
        st[r].serial_peer = -1;
        st[r].serial_op = -1;
        st[r].paced_op = -1;
        st[r].sent = sent ? sent + (size_t)r * (size_t)window : NULL;
    }
    x.sh.rendezvous = s->coll != LOGP_COLL_ALLTOALL; /* the all-to-all executors' sends are standard ones */
    x.sh.ahead = logp_sched_recv_ahead(s);
    if (rc == LOGP_OK && dataflow)
        rc = logp_sim_dataflow_init(&x, n);
    for (int r = 0; x.shared && !dataflow && rc == LOGP_OK && r < P; r++)
        if (st[r].pc < st[r].end)
            rc = logp_sim_reach(&x.sh, topo, x.op, x.owner, x.match, st[r].pc, st[r].end, 0.0, 1);
    if (rc != LOGP_OK)
        goto out;
    for (int r = 0; got && r < P; r++)
        got[r] = -1.0;
    int done = 0;
    for (int r = 0; r < P; r++) {
        if (st[r].pc == st[r].end) {
            done++; /* nothing to do */
            continue;
        }
        if (dataflow) {
            logp_sim_wake_dataflow(&x, r);
            continue;
        }
        double t0 = logp_sim_next(&st[r], x.op, x.match, x.arrive, window);
        if (t0 >= 0.0)
            logp_sim_push(x.heap, &x.nheap, (logp_sim_event_t){t0, r}); /* else it waits for a message */
    }
    for (;;) {
        double tn = x.shared ? logp_net_next(&x.sh.net) : -1.0;
        if (tn >= 0.0 && (x.nheap == 0 || tn <= x.heap[0].t)) { /* the network first: a transfer ends */
            double t;
            long f = logp_net_step(&x.sh.net, &t);
            if (f < -1) {
                rc = f == -3 ? LOGP_ERR_BUDGET : LOGP_ERR_NOMEM;
                break;
            }
            if (f < 0)
                continue;
            x.arrive[f] = t;
            logp_sim_arrived(&x, f);
            continue;
        }
        if (x.nheap == 0)
            break;
        logp_sim_event_t ev = logp_sim_pop(x.heap, &x.nheap);
        int r = ev.rank;
        logp_sim_rank_t *me = &st[r];
        if (dataflow) {
            if (ev.t != me->wake || me->left == 0)
                continue; /* superseded by an earlier one */
            double start;
            long i = logp_sim_pick(&x, r, &start);
            me->wake = -1.0;
            if (i < 0)
                continue; /* parked until a message arrives */
            if (start > ev.t) { /* not yet: an arrival may offer something sooner */
                me->wake = start;
                logp_sim_push(x.heap, &x.nheap, (logp_sim_event_t){start, r});
                continue;
            }
            if ((rc = logp_sim_exec(&x, r, i, start)) != LOGP_OK || (rc = logp_sim_did(&x, r, i)) != LOGP_OK)
                break;
            if (me->left == 0)
                done++;
            else
                logp_sim_wake_dataflow(&x, r);
            continue;
        }
        double start = logp_sim_next(me, x.op, x.match, x.arrive, window);
        if (start < 0.0)
            continue; /* parked until its message is sent */
        me->waiting = 0;
        if ((rc = logp_sim_exec(&x, r, me->pc, start)) != LOGP_OK)
            break;
        if (++me->pc == me->end) {
            done++;
            continue;
        }
        if (x.shared &&
            (rc = logp_sim_reach(&x.sh, topo, x.op, x.owner, x.match, me->pc, me->end, me->cpu, 0)) != LOGP_OK)
            break;
        double t = logp_sim_next(me, x.op, x.match, x.arrive, window);
        if (t >= 0.0)
            logp_sim_push(x.heap, &x.nheap, (logp_sim_event_t){t, r});
    }
    if (rc == LOGP_OK && x.nomem)
        rc = LOGP_ERR_NOMEM;
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
    logp_net_free(&x.sh.net);
    free(x.sh.posted);
    free(x.sh.leave);
    free(sent);
    if (dataflow && x.st && x.dep)
        free(x.st[0].ready);
    free(x.st);
    free(x.nic_out);
    free(x.nic_in);
    free(x.heap);
    free(x.op);
    free(x.owner);
    free(x.match);
    free(link);
    free(x.arrive);
    free(x.dep);
    free(x.wait);
    free(x.kids);
    free(x.kid_at);
    free(x.done);
    return rc;
}

logp_status_t logp_sim_run(const logp_sched_t *s, int root, int commutative, double *finish, double *got,
                           double *total)
{
    return logp_sim_run_budget(s, root, commutative, 0, finish, got, total);
}
