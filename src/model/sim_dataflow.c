/* Dataflow ranks in the simulator (sched.h: LOGP_FAMILY_DATAFLOW;
 * sim_impl.h): a rank runs each operation as soon as it can, as
 * coll/reduce_dataflow.c does, choosing among the ready ones as the
 * executor chooses. */
#include <stdlib.h>

#include "sim_impl.h"

static logp_status_t logp_sim_post_plain(logp_sim_ctx_t *x, int r, double t);

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
long logp_sim_pick(logp_sim_ctx_t *x, int r, double *start)
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
            double t = logp_sim_max(logp_sim_max(me->cpu, me->nrecv), a);
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

void logp_sim_wake_dataflow(logp_sim_ctx_t *x, int r)
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

logp_status_t logp_sim_did(logp_sim_ctx_t *x, int r, long i)
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
logp_status_t logp_sim_dataflow_init(logp_sim_ctx_t *x, long n)
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
