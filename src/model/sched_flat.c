/* flat (registry: flat; bcast, reduce): the root sends to 1, 2, .., P-1
 *   (a reduce: receives from them).  Cost: 2o + L + (m-1)G + (P-2) gap(m).
 *   Source: seed 002's simple one-to-all broadcast (the source sends the
 *   p - 1 messages in turn, and becomes the bottleneck), which its
 *   recursive doubling improves on; it wins where the gap is small.
 *
 * The closed-form times follow the simulator's rules operation by
 * operation (params.h). */
#include <stddef.h>

#include "sched_tree.h"

static void logp_flat_node(const logp_sched_t *s, int root, int rank, logp_tnode_t *n)
{
    int v = logp_sched_rel(s, root, rank);
    n->parent = v == 0 ? -1 : root;
    n->nkids = v == 0 ? s->P - 1 : 0;
}

static int logp_flat_kid(const logp_sched_t *s, int root, const logp_tnode_t *n, int j)
{
    (void)n;
    return logp_sched_abs(s, root, j + 1);
}

/* The root's receive side after taking the P - 1 leaves' results (all sent
 * at time 0), in reverse send order; rank order (non-commutative) takes
 * the first as is and prepends its own value last. */
static double logp_flat_reduce_root(const logp_params_t *p, size_t m, int P, int commutative)
{
    logp_recv_state_t st = {0.0, 0.0};
    int prepend = !commutative && P - 1 >= 2;
    logp_params_take_equal(p, m, !prepend, 1, logp_sched_tree_arrive(p, m, 0.0), P - 1, &st);
    return st.cpu + (prepend ? (double)m * p->gamma : 0.0);
}

static double logp_flat_time(const logp_sched_t *s, int root, int commutative)
{
    const logp_params_t *p = &s->p;
    size_t m = s->bytes;
    if (s->P == 1)
        return 0.0;
    if (s->coll == LOGP_COLL_BCAST)
        return logp_params_p2p(p, m) + (double)(s->P - 2) * logp_params_send_gap(p, m);
    double done0 = logp_flat_reduce_root(p, m, s->P, commutative);
    if (commutative || root == 0)
        return done0;
    logp_recv_state_t leaf = {0.0, 0.0}; /* the root is a leaf of the rank-order tree */
    return logp_sched_handover_time(p, m, done0, 0.0, leaf);
}

const logp_family_t logp_family_flat = {
    .node = logp_flat_node,
    .kid = logp_flat_kid,
    .time = logp_flat_time,
    .flags = LOGP_FAMILY_RANK_ORDER,
};


/* Relative rank v's ready time (sched_tree.h: logp_sched_tree_ready). */
double logp_sched_flat_ready(const logp_sched_t *s, long v, int commutative)
{
    const logp_params_t *p = &s->p;
    size_t m = s->bytes;
    if (s->coll == LOGP_COLL_BCAST)
        return v == 0 ? 0.0 : logp_params_p2p(p, m) + (double)(v - 1) * logp_params_send_gap(p, m);
    return v == 0 ? logp_flat_reduce_root(p, m, s->P, commutative) : 0.0;
}
