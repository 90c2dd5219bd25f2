/* A rank's timing in the simulator (sim_impl.h): when its next operation
 * can start under LogGP (params.h's rules, a large send's serial rule, a
 * paced window) and what running it does to its clocks, the node
 * interfaces and the message's arrival. */
#include <stddef.h>

#include "sim_impl.h"

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

double logp_sim_next(logp_sim_rank_t *st, const logp_op_t *op, const long *match, const double *arrive,
                            int window)
{
    const logp_op_t *o = &op[st->pc];
    if (o->kind == LOGP_OP_SEND) {
        double t = logp_sim_max(st->cpu + (double)o->bytes * st->copy, st->nsend);
        if (window > 0 && st->nsent >= window) {
            long oldest = st->sent[st->nsent % window];
            if (arrive[oldest] < 0.0) {
                st->waiting = 1; /* until that transfer ends */
                st->paced_op = oldest;
                return -1.0;
            }
            t = logp_sim_max(t, arrive[oldest]);
        }
        if (st->serial_peer < 0 || o->peer == st->serial_peer)
            return t;
        if (st->serial_op >= 0 && arrive[st->serial_op] < 0.0) {
            st->waiting = 1; /* until that transfer ends */
            return -1.0;
        }
        return logp_sim_max(t, st->serial_op >= 0 ? logp_sim_max(st->serial, arrive[st->serial_op]) : st->serial);
    }
    if (o->kind == LOGP_OP_RECV || o->kind == LOGP_OP_RECV_REDUCE) {
        double a = arrive[match[st->pc]];
        if (a < 0.0) {
            st->waiting = 1;
            return -1.0;
        }
        return logp_sim_max(logp_sim_max(st->cpu, st->nrecv), a);
    }
    return st->cpu;
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

void logp_sim_arrived(logp_sim_ctx_t *x, long i)
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

logp_status_t logp_sim_exec(logp_sim_ctx_t *x, int r, long i, double start)
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
            me->nsend = start + logp_sim_max(q.g, q.o);
            int sync = logp_sim_rendezvous(&x->sh, o, x->window);
            double posted = sync ? x->sh.posted[x->match[i]] : 0.0;
            if (posted < 0.0)
                x->sh.leave[i] = start + q.o; /* until the receive is posted */
            else if (logp_sim_flow(&x->sh, topo, x->op, x->owner, i, logp_sim_max(start + q.o, posted)) != LOGP_OK)
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
            double inject = logp_sim_max(start + q.o, x->nic_out[sn]);
            x->nic_out[sn] = inject + inj;
            at = logp_sim_max(inject + inj + q.L, x->nic_in[dn] + inj);
            x->nic_in[dn] = at;
        }
        x->arrive[i] = at;
        if (x->serial && o->bytes > LOGP_PARAMS_SERIAL_BYTES) {
            me->serial = o->peer == me->serial_peer ? logp_sim_max(me->serial, at) : at;
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
        me->cpu = rs.cpu + (double)o->bytes * me->copy;
        me->nrecv = rs.next;
        if (x->got && x->got[r] < 0.0)
            x->got[r] = me->cpu;
    } else if (o->kind == LOGP_OP_REDUCE_OWN) {
        me->cpu += (double)o->bytes * topo->intra.gamma / logp_topo_speed(topo, r);
    } else if (o->kind == LOGP_OP_FOLD) { /* arg - 1 combines */
        me->cpu += (double)(o->arg - 1) * (double)o->bytes * topo->intra.gamma / logp_topo_speed(topo, r);
    }
    if (me->copy > 0.0 && i == me->end - 1) /* every block unpacked */
        me->cpu += (double)x->s->P * (double)x->s->bytes * me->copy;
    return LOGP_OK;
}
