/* Max-min fair sharing of hosts' interfaces among flows (see net.h).
 *
 * Flows in flight live in a pool of slots (a free list: memory follows
 * the flows in flight, not the schedule's size); each slot is on two
 * lists, its sender's outgoing interface and its receiver's incoming one.
 * Events are kept in a binary heap keyed by time; a flow whose rate
 * changes gets a new completion event and its old one goes stale (its
 * version no longer matches). */
#include "net.h"

#include <stdlib.h>

struct logp_net_flow {
    double rem;    /* work left at t_last (seconds at full rate) */
    double rate;   /* share of full rate, 0 .. 1 */
    double t_last; /* when rem was settled */
    double t0, work, L;
    long id;       /* the caller's flow id */
    long next[2], prev[2]; /* on the lists of iface[0] (out of a) and iface[1] (into b) */
    long iface[2];
    long version;
    long mark;     /* epoch of the recomputation that visited it */
    int busy;      /* 1 latency, 2 transfer */
    int full;      /* never below full rate: it ends at t0 + work + L, bit for bit LogGP's */
};

struct logp_net_event {
    double t;
    long slot, version;
};

static int logp_net_before(const logp_net_event_t *x, const logp_net_event_t *y)
{
    return x->t < y->t || (x->t == y->t && x->slot < y->slot);
}

static logp_status_t logp_net_push(logp_net_t *n, double t, long slot)
{
    if (n->nheap == n->capheap) {
        long cap = n->capheap ? 2 * n->capheap : 64;
        logp_net_event_t *h = realloc(n->heap, sizeof(*h) * (size_t)cap);
        if (h == NULL)
            return LOGP_ERR_NOMEM;
        n->heap = h;
        n->capheap = cap;
    }
    logp_net_event_t e = {t, slot, n->flow[slot].version};
    long i = n->nheap++;
    while (i > 0 && logp_net_before(&e, &n->heap[(i - 1) / 2])) {
        n->heap[i] = n->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    n->heap[i] = e;
    return LOGP_OK;
}

static logp_net_event_t logp_net_pop(logp_net_t *n)
{
    logp_net_event_t top = n->heap[0], last = n->heap[--n->nheap];
    long i = 0;
    for (;;) {
        long c = 2 * i + 1;
        if (c >= n->nheap)
            break;
        if (c + 1 < n->nheap && logp_net_before(&n->heap[c + 1], &n->heap[c]))
            c++;
        if (!logp_net_before(&n->heap[c], &last))
            break;
        n->heap[i] = n->heap[c];
        i = c;
    }
    if (n->nheap > 0)
        n->heap[i] = last;
    return top;
}

logp_status_t logp_net_init(logp_net_t *n, int nhosts)
{
    *n = (logp_net_t){0};
    n->nhosts = nhosts;
    n->free = -1;
    n->head = malloc(sizeof(long) * 2 * (size_t)nhosts);
    n->mark = calloc(2 * (size_t)nhosts, sizeof(long));
    n->left = malloc(sizeof(double) * 2 * (size_t)nhosts);
    n->unfixed = malloc(sizeof(long) * 2 * (size_t)nhosts);
    n->stack = malloc(sizeof(long) * 2 * (size_t)nhosts);
    n->iheap = malloc(sizeof(long) * 2 * (size_t)nhosts);
    n->ipos = malloc(sizeof(long) * 2 * (size_t)nhosts);
    n->dirty = malloc(sizeof(long) * 2 * (size_t)nhosts);
    n->is_dirty = calloc(2 * (size_t)nhosts, 1);
    if (!n->head || !n->mark || !n->left || !n->unfixed || !n->stack || !n->iheap || !n->ipos || !n->dirty ||
        !n->is_dirty) {
        logp_net_free(n);
        return LOGP_ERR_NOMEM;
    }
    for (long i = 0; i < 2L * nhosts; i++)
        n->head[i] = -1;
    return LOGP_OK;
}

void logp_net_free(logp_net_t *n)
{
    free(n->flow);
    free(n->head);
    free(n->mark);
    free(n->left);
    free(n->unfixed);
    free(n->stack);
    free(n->iheap);
    free(n->ipos);
    free(n->members);
    free(n->heap);
    free(n->dirty);
    free(n->is_dirty);
    *n = (logp_net_t){0};
}

/* A free slot (the pool doubles when none is left), -1 if out of memory. */
static long logp_net_slot(logp_net_t *n)
{
    if (n->free < 0) {
        long cap = n->cap ? 2 * n->cap : 64;
        logp_net_flow_t *f = realloc(n->flow, sizeof(*f) * (size_t)cap);
        if (f == NULL)
            return -1;
        n->flow = f;
        long *m = realloc(n->members, sizeof(long) * (size_t)cap);
        if (m == NULL)
            return -1;
        n->members = m;
        for (long i = n->cap; i < cap; i++)
            n->flow[i] = (logp_net_flow_t){.next = {i + 1 < cap ? i + 1 : -1, -1}};
        n->free = n->cap;
        n->cap = cap;
    }
    long s = n->free;
    n->free = n->flow[s].next[0];
    return s;
}

static void logp_net_link(logp_net_t *n, long s)
{
    for (int k = 0; k < 2; k++) {
        long i = n->flow[s].iface[k], h = n->head[i];
        n->flow[s].prev[k] = -1;
        n->flow[s].next[k] = h;
        if (h >= 0)
            n->flow[h].prev[n->flow[h].iface[0] == i ? 0 : 1] = s;
        n->head[i] = s;
    }
}

static void logp_net_unlink(logp_net_t *n, long s)
{
    for (int k = 0; k < 2; k++) {
        long i = n->flow[s].iface[k], p = n->flow[s].prev[k], x = n->flow[s].next[k];
        if (p >= 0)
            n->flow[p].next[n->flow[p].iface[0] == i ? 0 : 1] = x;
        else
            n->head[i] = x;
        if (x >= 0)
            n->flow[x].prev[n->flow[x].iface[0] == i ? 0 : 1] = p;
    }
}

/* The interface heap of a recomputation, keyed by capacity left per
 * flow not yet fixed (the next bottleneck on top). */
static int logp_net_ibefore(const logp_net_t *n, long i, long j)
{
    return n->left[i] * (double)n->unfixed[j] < n->left[j] * (double)n->unfixed[i] ||
           (n->left[i] * (double)n->unfixed[j] == n->left[j] * (double)n->unfixed[i] && i < j);
}

static void logp_net_iset(logp_net_t *n, long k, long i)
{
    n->iheap[k] = i;
    n->ipos[i] = k;
}

static void logp_net_isift(logp_net_t *n, long k, long size)
{
    long i = n->iheap[k];
    while (k > 0 && logp_net_ibefore(n, i, n->iheap[(k - 1) / 2])) { /* up */
        logp_net_iset(n, k, n->iheap[(k - 1) / 2]);
        k = (k - 1) / 2;
    }
    for (;;) { /* down */
        long c = 2 * k + 1;
        if (c >= size)
            break;
        if (c + 1 < size && logp_net_ibefore(n, n->iheap[c + 1], n->iheap[c]))
            c++;
        if (!logp_net_ibefore(n, n->iheap[c], i))
            break;
        logp_net_iset(n, k, n->iheap[c]);
        k = c;
    }
    logp_net_iset(n, k, i);
}

/* Removes heap entry k. */
static void logp_net_iremove(logp_net_t *n, long k, long *size)
{
    long last = n->iheap[--*size];
    if (k == *size)
        return;
    logp_net_iset(n, k, last);
    logp_net_isift(n, k, *size);
}

/* The flows linked to the dirty interfaces through shared interfaces get
 * their max-min fair rates at time t_dirty (their work settled first),
 * and new completion events where their rate changed. */
static logp_status_t logp_net_share(logp_net_t *n)
{
    long epoch = ++n->epoch, nstack = 0, ncomp = 0, nflow = 0;
    long *comp = n->stack; /* interfaces found (a prefix of the stack: visited once each) */
    double t = n->t_dirty;
    for (long k = 0; k < n->ndirty; k++) {
        long i = n->dirty[k];
        n->is_dirty[i] = 0;
        n->mark[i] = epoch;
        comp[nstack++] = i;
    }
    n->ndirty = 0;
    for (; ncomp < nstack; ncomp++) {
        long i = comp[ncomp];
        n->left[i] = 1.0;
        n->unfixed[i] = 0;
        for (long s = n->head[i]; s >= 0; s = n->flow[s].next[n->flow[s].iface[0] == i ? 0 : 1]) {
            n->unfixed[i]++;
            if (n->flow[s].mark == epoch)
                continue;
            n->flow[s].mark = epoch;
            n->members[nflow++] = s; /* at most every flow in flight: within cap */
            long other = n->flow[s].iface[n->flow[s].iface[0] == i ? 1 : 0];
            if (n->mark[other] != epoch) {
                n->mark[other] = epoch;
                comp[nstack++] = other;
            }
        }
    }
    n->effort += nflow + nstack;
    if (n->effort_max > 0 && n->effort > n->effort_max)
        return LOGP_ERR_BUDGET;
    /* settle the work done at the old rates */
    for (long k = 0; k < nflow; k++) {
        logp_net_flow_t *f = &n->flow[n->members[k]];
        f->rem -= f->rate * (t - f->t_last);
        if (f->rem < 0.0)
            f->rem = 0.0;
        f->t_last = t;
    }
    /* progressive filling over the component's interfaces, the bottleneck
     * first: O((flows + interfaces) log interfaces) */
    long size = 0;
    for (long k = 0; k < nstack; k++)
        if (n->unfixed[comp[k]] > 0) {
            logp_net_iset(n, size, comp[k]);
            logp_net_isift(n, size, size + 1);
            size++;
        }
    while (size > 0) {
        long best = n->iheap[0];
        double share = n->left[best] / (double)n->unfixed[best];
        logp_net_iremove(n, 0, &size);
        if (share < 0.0)
            share = 0.0;
        for (long s = n->head[best]; s >= 0; s = n->flow[s].next[n->flow[s].iface[0] == best ? 0 : 1]) {
            logp_net_flow_t *f = &n->flow[s];
            if (f->mark != epoch)
                continue; /* fixed in this pass already */
            f->mark = -epoch; /* fixed */
            long other = f->iface[f->iface[0] == best ? 1 : 0];
            n->left[other] -= share;
            if (--n->unfixed[other] == 0)
                logp_net_iremove(n, n->ipos[other], &size);
            else
                logp_net_isift(n, n->ipos[other], size);
            if (share != f->rate || f->busy == 1) {
                if (share < 1.0)
                    f->full = 0;
                f->rate = share;
                f->busy = 2;
                f->version++;
                double end = f->full ? f->t0 + f->work + f->L : t + (share > 0.0 ? f->rem / share : 1e300);
                if (logp_net_push(n, end, s) != LOGP_OK)
                    return LOGP_ERR_NOMEM;
            }
        }
    }
    return LOGP_OK;
}

logp_status_t logp_net_start(logp_net_t *n, long f, int a, int b, double t, double L, double work)
{
    long s = logp_net_slot(n);
    if (s < 0)
        return LOGP_ERR_NOMEM;
    logp_net_flow_t *x = &n->flow[s];
    x->rem = work;
    x->rate = 0.0;
    x->t0 = t;
    x->work = work;
    x->L = L;
    x->id = f;
    x->iface[0] = a;
    x->iface[1] = (long)n->nhosts + b;
    x->busy = 1;
    x->full = 1;
    x->version++;
    /* its latency ends (with no bytes to move it has arrived: t + 0 + L, LogGP's) */
    return logp_net_push(n, t + L, s);
}

/* Flow slot s's interfaces changed at t: their shares are recomputed
 * before time passes (logp_net_next). */
static void logp_net_touch(logp_net_t *n, long s, double t)
{
    n->t_dirty = t;
    for (int k = 0; k < 2; k++) {
        long i = n->flow[s].iface[k];
        if (!n->is_dirty[i]) {
            n->is_dirty[i] = 1;
            n->dirty[n->ndirty++] = i;
        }
    }
}

double logp_net_next(logp_net_t *n)
{
    /* the instant's events done: recompute the shares they changed (a
     * completion event of the old rates at this instant stays right: its
     * flow has no work left, whatever its rate) */
    if (n->ndirty > 0 && n->failed == 0 && (n->nheap == 0 || n->heap[0].t > n->t_dirty)) {
        logp_status_t rc = logp_net_share(n);
        if (rc != LOGP_OK) {
            n->failed = rc == LOGP_ERR_BUDGET ? -3 : -2;
            return n->t_dirty; /* the next step reports it */
        }
    }
    if (n->failed)
        return n->t_dirty;
    return n->nheap > 0 ? n->heap[0].t : -1.0;
}

long logp_net_step(logp_net_t *n, double *t)
{
    (void)logp_net_next(n); /* an earlier instant's changes first, even if the caller did not ask */
    if (n->failed) {
        *t = n->t_dirty;
        return n->failed;
    }
    if (n->nheap == 0) { /* nothing pending */
        *t = -1.0;
        return -1;
    }
    logp_net_event_t e = logp_net_pop(n);
    logp_net_flow_t *f = &n->flow[e.slot];
    *t = e.t;
    if (e.version != f->version || f->busy == 0)
        return -1; /* superseded */
    if (f->busy == 1 && f->work > 0.0) { /* latency over: the transfer joins its interfaces */
        f->t_last = e.t;
        logp_net_link(n, e.slot);
        logp_net_touch(n, e.slot, e.t);
        return -1;
    }
    long id = f->id;
    if (f->busy == 2) { /* off its interfaces, then the others share them */
        logp_net_unlink(n, e.slot);
        logp_net_touch(n, e.slot, e.t);
    }
    f->busy = 0;
    f->version++;
    f->next[0] = n->free; /* back on the free list */
    n->free = e.slot;
    return id;
}
