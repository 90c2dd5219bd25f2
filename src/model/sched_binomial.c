/* binomial (registry: binomial; bcast, reduce; seed 002, one-to-all
 *   broadcast by recursive doubling on a hypercube, any P): relative rank v's parent clears v's lowest set bit;
 *   its children are v + 2^e for 2^e below that bit, largest first.
 *   Cost: ceil(log2 P) (2o + L + (m-1)G) when g <= 2o + L.
 *
 * The closed-form times follow the simulator's rules operation by
 * operation (params.h): a bcast's completion is the latest receive; a
 * reduce's, the root's last combine, found by dynamic programming over
 * full subtrees by height, plus the one path of subtrees that the cut at
 * P leaves partial. */
#include <stddef.h>

#include "sched_tree.h"

/* Highest e with 2^e below v's lowest set bit (any e for v = 0) and
 * v + 2^e < P; -1 if v is a leaf. */
static int logp_binomial_top(int P, long v)
{
    long low = v == 0 ? (long)P : (v & -v);
    int e = -1;
    while (e < 30 && (1L << (e + 1)) < low && v + (1L << (e + 1)) < P)
        e++;
    return e;
}

static void logp_binomial_node(const logp_sched_t *s, int root, int rank, logp_tnode_t *n)
{
    long v = logp_sched_rel(s, root, rank);
    n->parent = v == 0 ? -1 : logp_sched_abs(s, root, v & (v - 1));
    n->c[0] = v;
    n->c[1] = logp_binomial_top(s->P, v);
    n->nkids = (int)n->c[1] + 1;
}

static int logp_binomial_kid(const logp_sched_t *s, int root, const logp_tnode_t *n, int j)
{
    return logp_sched_abs(s, root, n->c[0] + (1L << (n->c[1] - j)));
}

/* Full binomial subtrees of 2^h ranks: bcast[h] from the subtree root's
 * receive, reduce[h] until the subtree root's result is combined. */
typedef struct {
    double bcast[32], reduce[32];
    logp_recv_state_t state[32];
} logp_binomial_full_t;

static void logp_binomial_full(const logp_params_t *p, size_t m, int P, logp_binomial_full_t *f)
{
    double d = logp_params_p2p(p, m), gap = logp_params_send_gap(p, m);
    int H = 1; /* heights 0 .. ceil(log2 P): what is read needs 2^(h + 1) <= P */
    while (H < 32 && (1L << (H - 1)) < P)
        H++;
    for (int h = 0; h < H; h++) {
        f->bcast[h] = 0.0;
        for (int i = 0; i < h; i++) { /* child i (sent i-th) roots 2^(h-1-i) ranks */
            double at = (double)i * gap + d + f->bcast[h - 1 - i];
            if (at > f->bcast[h])
                f->bcast[h] = at;
        }
        logp_recv_state_t st = {0.0, 0.0};
        for (int e = 0; e < h; e++) /* received smallest first */
            logp_params_take(p, m, 1, logp_sched_tree_arrive(p, m, f->reduce[e]), &st);
        f->state[h] = st;
        f->reduce[h] = st.cpu;
    }
}

/* Relative rank v's subtree: latest receive after v's own (bcast) or v's
 * receive side when its result is combined (reduce). */
static double logp_binomial_bcast_at(const logp_params_t *p, size_t m, int P, long v, const logp_binomial_full_t *f)
{
    double d = logp_params_p2p(p, m), gap = logp_params_send_gap(p, m), t = 0.0;
    int top = logp_binomial_top(P, v);
    for (int i = 0; i <= top; i++) {
        int e = top - i;
        long c = v + (1L << e);
        double sub = c + (1L << e) <= P ? f->bcast[e] : logp_binomial_bcast_at(p, m, P, c, f);
        double at = (double)i * gap + d + sub;
        if (at > t)
            t = at;
    }
    return t;
}

static logp_recv_state_t logp_binomial_reduce_at(const logp_params_t *p, size_t m, int P, long v,
                                                 const logp_binomial_full_t *f)
{
    logp_recv_state_t st = {0.0, 0.0};
    int top = logp_binomial_top(P, v);
    for (int e = 0; e <= top; e++) {
        long c = v + (1L << e);
        double done = c + (1L << e) <= P ? f->reduce[e] : logp_binomial_reduce_at(p, m, P, c, f).cpu;
        logp_params_take(p, m, 1, logp_sched_tree_arrive(p, m, done), &st);
    }
    return st;
}

static double logp_binomial_time(const logp_sched_t *s, int root, int commutative)
{
    if (s->P == 1)
        return 0.0;
    logp_binomial_full_t f;
    logp_binomial_full(&s->p, s->bytes, s->P, &f);
    if (s->coll == LOGP_COLL_BCAST)
        return logp_binomial_bcast_at(&s->p, s->bytes, s->P, 0, &f);
    /* children come in descending rank order: rank order needs no prepend */
    double done0 = logp_binomial_reduce_at(&s->p, s->bytes, s->P, 0, &f).cpu;
    if (commutative || root == 0)
        return done0;
    logp_recv_state_t r = logp_binomial_reduce_at(&s->p, s->bytes, s->P, root, &f);
    return logp_sched_handover_time(&s->p, s->bytes, done0, r.cpu, r);
}

const logp_family_t logp_family_binomial = {
    .node = logp_binomial_node,
    .kid = logp_binomial_kid,
    .time = logp_binomial_time,
    .flags = LOGP_FAMILY_DESCENDING | LOGP_FAMILY_RANK_ORDER,
};

/* Relative rank v's ready time (sched_tree.h: logp_sched_tree_ready). */
double logp_sched_binomial_ready(const logp_sched_t *s, long v, int commutative)
{
    (void)commutative;
    const logp_params_t *p = &s->p;
    size_t m = s->bytes;
    if (s->coll == LOGP_COLL_BCAST) { /* walk down from the root: each hop is a send index */
        double t = 0.0, d = logp_params_p2p(p, m), gap = logp_params_send_gap(p, m);
        long u = 0;
        while (u != v) {
            int top = logp_binomial_top(s->P, u), i = 0;
            while (u + (1L << (top - i)) > v) /* children are u + 2^e, largest first */
                i++;
            t += (double)i * gap + d;
            u += 1L << (top - i);
        }
        return t;
    }
    logp_binomial_full_t f;
    logp_binomial_full(p, m, s->P, &f);
    return logp_binomial_reduce_at(p, m, s->P, v, &f).cpu;
}
