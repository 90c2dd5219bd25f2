/* LogGP simulator: each rank runs its operations (its view of the
 * schedule, sched.h) in order; a receive waits for its message.  Operations are handled in the order of their start
 * times (a heap of ranks keyed by when their next operation can start), so
 * that resources shared between ranks, the nodes' network interfaces, are
 * taken in time order.  A rank blocked on a receive is woken by the send
 * that satisfies it; every operation is handled once. */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#include "topo.h"

typedef struct {
    double arrive; /* arrival time of the message's last byte */
    int next;      /* next message of the same (src, dst) pair, -1 */
} logp_sim_msg_t;

typedef struct {
    long key;      /* src * P + dst, -1 if empty */
    int head, tail;
} logp_sim_slot_t;

typedef struct {
    logp_sim_msg_t *msg;
    int nmsg, capmsg;
    logp_sim_slot_t *slot;
    long nslot; /* power of two */
    long used;
} logp_sim_box_t;

static logp_sim_slot_t *logp_sim_find(logp_sim_box_t *b, long key, int insert)
{
    unsigned long h = (unsigned long)key * 0x9E3779B97F4A7C15ul;
    for (long i = (long)(h >> 20) & (b->nslot - 1);; i = (i + 1) & (b->nslot - 1)) {
        if (b->slot[i].key == key)
            return &b->slot[i];
        if (b->slot[i].key == -1) {
            if (!insert)
                return NULL;
            b->slot[i].key = key;
            b->slot[i].head = b->slot[i].tail = -1;
            b->used++;
            return &b->slot[i];
        }
    }
}

static int logp_sim_grow(logp_sim_box_t *b)
{
    if (b->used * 2 < b->nslot)
        return LOGP_OK;
    logp_sim_slot_t *old = b->slot;
    long n = b->nslot;
    b->nslot = n * 2;
    b->slot = malloc(sizeof(*b->slot) * (size_t)b->nslot);
    if (b->slot == NULL) {
        b->slot = old;
        b->nslot = n;
        return LOGP_ERR_NOMEM;
    }
    for (long i = 0; i < b->nslot; i++)
        b->slot[i].key = -1;
    b->used = 0;
    for (long i = 0; i < n; i++)
        if (old[i].key != -1) {
            logp_sim_slot_t *s = logp_sim_find(b, old[i].key, 1);
            s->head = old[i].head;
            s->tail = old[i].tail;
        }
    free(old);
    return LOGP_OK;
}

static int logp_sim_post(logp_sim_box_t *b, long key, double arrive)
{
    if (logp_sim_grow(b) != LOGP_OK)
        return LOGP_ERR_NOMEM;
    if (b->nmsg == b->capmsg) {
        int cap = b->capmsg ? 2 * b->capmsg : 256;
        logp_sim_msg_t *m = realloc(b->msg, sizeof(*m) * (size_t)cap);
        if (m == NULL)
            return LOGP_ERR_NOMEM;
        b->msg = m;
        b->capmsg = cap;
    }
    int id = b->nmsg++;
    b->msg[id] = (logp_sim_msg_t){arrive, -1};
    logp_sim_slot_t *s = logp_sim_find(b, key, 1);
    if (s->tail < 0)
        s->head = id;
    else
        b->msg[s->tail].next = id;
    s->tail = id;
    return LOGP_OK;
}

/* Takes the oldest message of a pair; 0 if there is none. */
static int logp_sim_take(logp_sim_box_t *b, long key, double *arrive)
{
    logp_sim_slot_t *s = logp_sim_find(b, key, 0);
    if (s == NULL || s->head < 0)
        return 0;
    *arrive = b->msg[s->head].arrive;
    s->head = b->msg[s->head].next;
    if (s->head < 0)
        s->tail = -1;
    return 1;
}

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

static void logp_sim_push(logp_sim_event_t *h, int *n, logp_sim_event_t e)
{
    int i = (*n)++;
    while (i > 0 && logp_sim_before(e, h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = e;
}

static logp_sim_event_t logp_sim_pop(logp_sim_event_t *h, int *n)
{
    logp_sim_event_t top = h[0], last = h[--(*n)];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && logp_sim_before(h[c + 1], h[c]))
            c++;
        if (!logp_sim_before(h[c], last))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n > 0)
        h[i] = last;
    return top;
}

/* A rank's state. */
typedef struct {
    double cpu, nsend, nrecv; /* CPU free, earliest next send, earliest next receive */
    int pc;                   /* next operation */
    int waiting;              /* blocked on a receive from this rank, or -1 */
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

/* Earliest start of rank r's next operation, or -1 if it waits for a
 * message that has not been sent yet (then ->waiting = the sender). */
static double logp_sim_next(const logp_view_t *v, logp_sim_box_t *box, logp_sim_rank_t *st, int P)
{
    logp_op_t op = logp_view_op(v, st->pc);
    if (op.kind == LOGP_OP_SEND)
        return logp_max(st->cpu, st->nsend);
    if (op.kind == LOGP_OP_RECV || op.kind == LOGP_OP_RECV_REDUCE) {
        logp_sim_slot_t *sl = logp_sim_find(box, (long)op.peer * P + v->rank, 0);
        if (sl == NULL || sl->head < 0) {
            st->waiting = op.peer;
            return -1.0;
        }
        return logp_max(logp_max(st->cpu, st->nrecv), box->msg[sl->head].arrive);
    }
    return st->cpu;
}

logp_status_t logp_sim_run(const logp_sched_t *s, int root, int commutative, double *finish, double *got,
                           double *total)
{
    int P = s->P;
    logp_status_t rc = LOGP_OK;
    const logp_topo_t *topo = &s->topo;
    int N = topo->nnodes > 0 ? topo->nnodes : 1;
    logp_view_t *view = malloc(sizeof(*view) * (size_t)P);
    logp_sim_rank_t *st = calloc((size_t)P, sizeof(*st));
    double *nic_out = calloc((size_t)N, sizeof(double)); /* node interface free to inject */
    double *nic_in = calloc((size_t)N, sizeof(double));  /* node interface done delivering */
    logp_sim_event_t *heap = malloc(sizeof(*heap) * (size_t)P);
    logp_sim_box_t box = {0};
    box.nslot = 1024;
    box.slot = malloc(sizeof(*box.slot) * (size_t)box.nslot);
    if (!view || !st || !nic_out || !nic_in || !heap || !box.slot) {
        rc = LOGP_ERR_NOMEM;
        goto out;
    }
    for (long i = 0; i < box.nslot; i++)
        box.slot[i].key = -1;
    for (int r = 0; r < P; r++)
        if (got)
            got[r] = -1.0;
    int nheap = 0, done = 0;
    for (int r = 0; r < P && rc == LOGP_OK; r++) {
        st[r].waiting = -1;
        rc = logp_view_init(&view[r], s, root, r, commutative);
        if (view[r].nops > 0)
            logp_sim_push(heap, &nheap, (logp_sim_event_t){0.0, r});
        else
            done++;
    }
    while (nheap > 0 && rc == LOGP_OK) {
        int r = logp_sim_pop(heap, &nheap).rank;
        logp_sim_rank_t *me = &st[r];
        logp_op_t op = logp_view_op(&view[r], me->pc);
        double start = logp_sim_next(&view[r], &box, me, P);
        if (start < 0.0)
            continue; /* parked until its message is sent */
        me->waiting = -1;
        if (op.kind == LOGP_OP_SEND) {
            logp_params_t q = logp_sim_scaled(topo, logp_topo_pair(topo, r, op.peer), r);
            double inj = logp_params_inj(&q, op.bytes);
            me->cpu = start + q.o;
            me->nsend = start + logp_params_gap(&q, op.bytes);
            double arrive = start + q.o + inj + q.L;
            int sn = logp_topo_node(topo, r), dn = logp_topo_node(topo, op.peer);
            if (sn != dn) {
                /* the ranks of a node share its network interface: one
                 * injection at a time out of a node, one delivery at a
                 * time into a node */
                double inject = logp_max(start + q.o, nic_out[sn]);
                nic_out[sn] = inject + inj;
                arrive = logp_max(inject + inj + q.L, nic_in[dn] + inj);
                nic_in[dn] = arrive;
            }
            if ((rc = logp_sim_post(&box, (long)r * P + op.peer, arrive)) != LOGP_OK)
                break;
            logp_sim_rank_t *to = &st[op.peer];
            if (to->waiting == r) { /* wake the receiver */
                double t = logp_sim_next(&view[op.peer], &box, to, P);
                to->waiting = -1;
                logp_sim_push(heap, &nheap, (logp_sim_event_t){t, op.peer});
            }
        } else if (op.kind == LOGP_OP_RECV || op.kind == LOGP_OP_RECV_REDUCE) {
            double arrive = 0.0;
            logp_sim_take(&box, (long)op.peer * P + r, &arrive);
            logp_params_t q = logp_sim_scaled(topo, logp_topo_pair(topo, op.peer, r), r);
            logp_recv_state_t rs = {me->cpu, me->nrecv};
            logp_params_take(&q, op.bytes, op.kind == LOGP_OP_RECV_REDUCE, arrive, &rs);
            me->cpu = rs.cpu;
            me->nrecv = rs.next;
            if (got && got[r] < 0.0)
                got[r] = me->cpu;
        } else if (op.kind == LOGP_OP_REDUCE_OWN) {
            me->cpu += (double)op.bytes * topo->intra.gamma / logp_topo_speed(topo, r);
        }
        if (++me->pc == view[r].nops) {
            done++;
            continue;
        }
        double t = logp_sim_next(&view[r], &box, me, P);
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
    free(view);
    free(st);
    free(nic_out);
    free(nic_in);
    free(heap);
    free(box.msg);
    free(box.slot);
    return rc;
}

double logp_sim_predict(const logp_sched_t *s, int root, int commutative)
{
    double t = logp_sched_time(s, root, commutative);
    if (t >= 0.0)
        return t;
    return logp_sim_run(s, root, commutative, NULL, NULL, &t) == LOGP_OK ? t : -1.0;
}
