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
 * it; every operation is handled once: O(n log P) for n operations.
 *
 * This file is the driver (logp_sim_run); the event queue is sim_heap.h,
 * the matching sim_match.c, a rank's timing sim_rank.c, the shared
 * network sim_shared.c, dataflow ranks sim_dataflow.c (their state:
 * sim_impl.h).  When a decision simulates at all is pricing policy, above
 * the simulator: plan.h. */
#include "sim.h"

#include <stdlib.h>

#include "sim_impl.h"
#include "sim_match.h"

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
    x.serial = !logp_coll_exchanges(s->coll) && !(s->fam->flags & LOGP_FAMILY_CONCURRENT) &&
               !(x.shared && (s->lib_sends & LOGP_LIB_SENDS_TOGETHER));
    int packed = (s->fam->flags & LOGP_FAMILY_A2A_BRUCK) != 0;
    for (int r = 0; r < P; r++) {
        /* a packed all-to-all's copies (sched_bruck.c): every block packed first */
        st[r].copy = packed ? topo->intra.copy / logp_topo_speed(topo, r) : 0.0;
        st[r].cpu = st[r].pc < st[r].end ? (double)P * (double)s->bytes * st[r].copy : 0.0;
        st[r].serial_peer = -1;
        st[r].serial_op = -1;
        st[r].paced_op = -1;
        st[r].sent = sent ? sent + (size_t)r * (size_t)window : NULL;
    }
    /* the all-to-all executors' sends are standard ones, so are an exchange's
     * large sends (LOGP_FAMILY_EXCHANGE) and a library's (sched.h) */
    x.sh.rendezvous = !logp_coll_exchanges(s->coll) && !(s->fam->flags & LOGP_FAMILY_EXCHANGE) &&
                      !(s->lib_sends & LOGP_LIB_SENDS_STANDARD);
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
            t = logp_sim_max(t, st[r].cpu);
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
