/* The simulator on a shared network (net.h, sim_impl.h): transfers as
 * flows through the hosts' interfaces, and a synchronous send's bytes
 * leaving once its receive is posted. */
#include "sim_impl.h"

/* Nonzero if send op o goes as a rendezvous on a shared network: a
 * synchronous send (large, or any of a paced schedule) whose bytes leave
 * once the receive is posted and land in the posted buffer, so that the
 * receiver pays no overhead or gap for it on arrival (SMPI charges its
 * receive overhead only for eager messages, copied out of a mailbox:
 * docs/results/measurements-in-code.md, "simulator: rendezvous messages
 * cost the receiver nothing"). */
int logp_sim_rendezvous(const logp_sim_shared_t *sh, const logp_op_t *o, int window)
{
    return sh->rendezvous && (o->bytes > LOGP_PARAMS_SERIAL_BYTES || window > 0);
}

/* Rank r's host on a shared network: itself on the uniform model, its
 * node in a layout. */
static int logp_sim_host(const logp_topo_t *topo, int r)
{
    return topo->node ? topo->node[r] : r;
}

int logp_sim_networked(const logp_topo_t *topo, int a, int b)
{
    return topo->shared && logp_sim_host(topo, a) != logp_sim_host(topo, b);
}

logp_status_t logp_sim_flow(logp_sim_shared_t *sh, const logp_topo_t *topo, const logp_op_t *op,
                                   const int *owner, long i, double t)
{
    int a = owner[i], b = op[i].peer;
    const logp_params_t *q = logp_topo_pair(topo, a, b);
    /* the payload's injection time and the envelope's bytes (topo.h) */
    return logp_net_start(&sh->net, i, logp_sim_host(topo, a), logp_sim_host(topo, b), t, q->L,
                          logp_params_inj(q, op[i].bytes) + topo->envelope * q->G);
}

logp_status_t logp_sim_post(logp_sim_shared_t *sh, const logp_topo_t *topo, const logp_op_t *op,
                                   const int *owner, const long *match, long j, double t)
{
    if (sh->posted[j] >= 0.0)
        return LOGP_OK;
    sh->posted[j] = t;
    long i = match[j];
    if (sh->leave[i] < 0.0)
        return LOGP_OK;
    double at = logp_sim_max(sh->leave[i], t);
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
logp_status_t logp_sim_reach(logp_sim_shared_t *sh, const logp_topo_t *topo, const logp_op_t *op,
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
