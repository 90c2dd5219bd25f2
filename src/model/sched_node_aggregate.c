/* node-aggregate (registry: node-aggregate; all-to-all): seed 003's
 *   (heterogeneous BSP) "combine the messages bound for one processor"
 *   for nodes: members send their P blocks to the node's leader
 *   (n_a - 1 messages of P m bytes on the node), leaders exchange one
 *   message per node pair around a ring of nodes (step k: to node a + k,
 *   from node a - k, n_a n_b m bytes), and scatter the rows back.  Cost:
 *   about 2 (n - 1) gap_intra(P m) + (N - 1) gap_inter(n^2 m) + latencies.
 *   Each node's leader is its fastest rank (the lowest on ties); the
 *   shape holds one leader per node, O(N) memory.  On one node there is
 *   nothing to aggregate, and the gather and scatter only copy every block
 *   twice through the leader: forced there, it runs the ring
 *   (logp_select_resolve), and auto does not price it. */
#include "sched_node_aggregate.h"

#include <stdlib.h>

static logp_status_t logp_aggregate_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    const logp_topo_t *t = &s->topo;
    int *leaders = malloc(sizeof(int) * (size_t)t->nnodes);
    if (leaders == NULL)
        return LOGP_ERR_NOMEM;
    for (int a = 0; a < t->nnodes; a++) { /* the fastest rank, the lowest on ties */
        int best = logp_topo_member(t, a, 0);
        for (int i = 1; i < logp_topo_size(t, a); i++) {
            int r = logp_topo_member(t, a, i);
            if (logp_topo_speed(t, r) > logp_topo_speed(t, best))
                best = r;
        }
        leaders[a] = best;
    }
    s->data = leaders;
    return LOGP_OK;
}

static void logp_aggregate_release(logp_sched_t *s)
{
    free(s->data);
    s->data = NULL;
}

int logp_sched_aggregate_leader(const logp_sched_t *s, int a)
{
    return ((const int *)s->data)[a];
}

/* A leader receives from its n - 1 members, exchanges with the N - 1
 * other leaders (step k: to node a + k, from node a - k), sends to its
 * members; a member sends its P blocks to the leader and gets P back. */
static int logp_aggregate_nops(logp_view_t *v)
{
    const logp_sched_t *s = v->s;
    int rank = v->rank;
    const logp_topo_t *t = &s->topo;
    int a = logp_topo_node(t, rank), n = logp_topo_size(t, a);
    return rank == logp_sched_aggregate_leader(s, a) ? 2 * (n - 1) + 2 * (t->nnodes - 1) : 2;
}

static logp_op_t logp_aggregate_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    int rank = v->rank;
    const logp_topo_t *t = &s->topo;
    int a = logp_topo_node(t, rank), N = t->nnodes, lead = logp_sched_aggregate_leader(s, a);
    int n = logp_topo_size(t, a);
    size_t all = (size_t)s->P * s->bytes;
    if (rank != lead)
        return logp_op_whole(i == 0 ? LOGP_OP_SEND : LOGP_OP_RECV, lead, 0, all);
    int first = i < n - 1, member = first ? i : i - (n - 1) - 2 * (N - 1);
    if (first || member >= 0) { /* gather (receives) or scatter (sends): members in rank order but the leader */
        int j = member >= logp_topo_index(t, lead) ? member + 1 : member;
        return logp_op_whole(first ? LOGP_OP_RECV : LOGP_OP_SEND, logp_topo_member(t, a, j), 0, all);
    }
    i -= n - 1;
    int k = i / 2 + 1, b = i % 2 == 0 ? (a + k) % N : (a - k + N) % N;
    size_t nb = (size_t)logp_topo_size(t, b);
    return logp_op_whole(i % 2 == 0 ? LOGP_OP_SEND : LOGP_OP_RECV, logp_sched_aggregate_leader(s, b), k,
                       (size_t)n * nb * s->bytes);
}

/* One uniform node: gather to the leader and scatter back.  Several
 * nodes with alike pairs (one rank per host, as SMPI's clusters) are
 * uniform too, but exchange between leaders: the simulator prices those
 * (-1; this form priced 64 single-rank nodes as one node of 64, 120x
 * over the simulated time: docs/results/smpi-fidelity). */
static double logp_aggregate_time(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    const logp_params_t *p = &s->p;
    size_t all = (size_t)s->P * s->bytes;
    if (s->topo.nnodes != 1)
        return -1.0;
    if (s->P == 1)
        return 0.0;
    double cpu = 0.0, next_send = 0.0;
    double arrive = logp_params_post(p, all, &cpu, &next_send); /* every member at time 0 */
    logp_recv_state_t lead = {0.0, 0.0};
    logp_params_take_equal(p, all, 0, 0, arrive, s->P - 1, &lead);
    double last = lead.cpu + (double)(s->P - 2) * logp_params_gap(p, all); /* the last scatter send */
    logp_recv_state_t member = {p->o, 0.0};
    logp_params_take(p, all, 0, last + p->o + logp_params_inj(p, all) + p->L, &member);
    return member.cpu;
}

/* The design formula: gather and scatter on the largest node, one
 * exchange with every other node, without waiting for the interfaces. */
static double logp_aggregate_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    const logp_topo_t *t = &s->topo;
    int nmax = 1, N = t->nnodes;
    for (int a = 0; a < N; a++)
        if (logp_topo_size(t, a) > nmax)
            nmax = logp_topo_size(t, a);
    size_t all = (size_t)s->P * s->bytes, pair = (size_t)nmax * (size_t)nmax * s->bytes;
    double side = nmax > 1 ? logp_params_p2p(&t->intra, all) + (double)(nmax - 2) * logp_params_gap(&t->intra, all) : 0;
    double step = logp_params_p2p(&t->inter, pair);
    if (logp_params_gap(&t->inter, pair) > step)
        step = logp_params_gap(&t->inter, pair);
    return 2.0 * side + (double)(N - 1) * step;
}

static long logp_aggregate_count(const logp_sched_t *s)
{
    long N = s->topo.nnodes;
    return 4L * (s->P - N) + 2L * N * (N - 1);
}

const logp_family_t logp_family_node_aggregate = {
    .estimate = logp_aggregate_estimate,
    .count = logp_aggregate_count,
    .build = logp_aggregate_build,
    .release = logp_aggregate_release,
    .nops = logp_aggregate_nops,
    .op = logp_aggregate_op,
    .time = logp_aggregate_time,
    .flags = LOGP_FAMILY_A2A_NODES,
};
