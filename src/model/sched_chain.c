/* k-chain reduce: seed 001 (Kurnosov, "Analysis and optimisation of the
 * k-chain algorithm for root reduction", 2016), one rank at a time.
 *
 * Algorithm: the P - 1 non-root ranks form k chains of consecutive ranks;
 * each rank receives its successor's partial result, combines, and sends
 * to its predecessor; the chain heads send to the root, which combines the
 * k results.  The root receives short chains first (section 6), hiding the
 * long chains' extra step.  chain: k = chain_k; chain-opt: the k of the
 * seed's short-first time (logp_chain_best_k, about sqrt(a (P-1) / b));
 * chain-adaptive (section 7): lengths 1, 2, .., k, then the rest.
 * Cost (LogP, a = 2o + L + m gamma, b = max(o + m gamma, g)):
 *   fixed k:   t(k) = ((P-1)/k + 1) a + (k - 1) b          (linear in P)
 *   optimal k: k = sqrt(a (P-1) / b), t = 2 sqrt(ab) sqrt(P-1) + a - b
 *   adaptive chains 1, 2, .., k: t = b sqrt(2(P-1) + 1/4) - b/2 + a
 * (both O(sqrt P)).  logp_chain_time below is exact for the simulator.
 *
 * A rank finds its chain by arithmetic: equal chains by division, the
 * adaptive ones by the triangular numbers (an integer square root). */
#include "sched_chain.h"

#include <math.h>
#include <stdlib.h>

#include "tree_chain.h"

typedef struct {
    int adaptive;   /* lengths 1, 2, .., full, then `rest` */
    int long_first; /* equal chains: the long ones come first */
    long u;         /* equal chains: the short length */
    long shorts, longs;
    long full, rest;
} logp_chains_t;

static long logp_chains_count(const logp_chains_t *c)
{
    return c->adaptive ? c->full + (c->rest > 0) : c->shorts + c->longs;
}

static long logp_chains_len(const logp_chains_t *c, long i)
{
    if (c->adaptive)
        return i < c->full ? i + 1 : c->rest;
    int is_long = c->long_first ? i < c->longs : i >= c->shorts;
    return c->u + is_long;
}

/* Relative rank of the head of chain i. */
static long logp_chains_head(const logp_chains_t *c, long i)
{
    if (c->adaptive)
        return 1 + i * (i + 1) / 2;
    return 1 + i * c->u + (c->long_first ? (i < c->longs ? i : c->longs) : (i > c->shorts ? i - c->shorts : 0));
}

/* Chain of relative rank v >= 1, and v's index in it. */
static void logp_chains_find(const logp_chains_t *c, long v, long *chain, long *index)
{
    long x = v - 1;
    if (c->adaptive) {
        long i = (long)((sqrt(8.0 * (double)x + 1.0) - 1.0) / 2.0);
        while (i > 0 && i * (i + 1) / 2 > x)
            i--;
        while ((i + 1) * (i + 2) / 2 <= x)
            i++;
        if (i > c->full)
            i = c->full; /* the rest chain */
        *chain = i;
        *index = x - i * (i + 1) / 2;
        return;
    }
    long first = c->long_first ? c->longs : c->shorts, flen = c->long_first ? c->u + 1 : c->u;
    if (x < first * flen) {
        *chain = x / flen;
        *index = x % flen;
    } else {
        long y = x - first * flen, slen = c->long_first ? c->u : c->u + 1;
        *chain = first + y / slen;
        *index = y % slen;
    }
}

static logp_status_t logp_chains_build(logp_sched_t *s, int adaptive, long k, int long_first)
{
    logp_chains_t *c = calloc(1, sizeof(*c));
    if (c == NULL)
        return LOGP_ERR_NOMEM;
    s->data = c;
    long n = (long)s->P - 1;
    if (n <= 0)
        return LOGP_OK;
    c->adaptive = adaptive;
    c->long_first = long_first;
    if (adaptive) {
        while ((c->full + 1) * (c->full + 2) / 2 <= n) /* largest k with k(k+1)/2 <= P-1 */
            c->full++;
        c->rest = n - c->full * (c->full + 1) / 2;
    } else {
        k = k < 1 ? 1 : k > n ? n : k;
        c->u = n / k;
        c->longs = n % k;
        c->shorts = k - c->longs;
    }
    s->k = (int)logp_chains_count(c);
    return LOGP_OK;
}

static logp_status_t logp_chain_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    return logp_chains_build(s, 0, o->chain_k > 0 ? o->chain_k : 4, o->long_first);
}

static logp_status_t logp_chain_opt_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    return logp_chains_build(s, 0, logp_chain_best_k(&s->p, s->bytes, s->P), 0);
}

static logp_status_t logp_chain_adaptive_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    return logp_chains_build(s, 1, 0, 0);
}

static void logp_chains_release(logp_sched_t *s)
{
    free(s->data);
    s->data = NULL;
}

static void logp_chains_node(const logp_sched_t *s, int root, int rank, logp_tnode_t *n)
{
    const logp_chains_t *c = s->data;
    long v = ((long)rank - root + s->P) % s->P;
    n->c[0] = v;
    if (v == 0) {
        n->parent = -1;
        n->nkids = (int)logp_chains_count(c);
        return;
    }
    long chain, index;
    logp_chains_find(c, v, &chain, &index);
    n->parent = index == 0 ? root : (int)((v - 1 + root) % s->P);
    n->nkids = index + 1 < logp_chains_len(c, chain);
}

static int logp_chains_kid(const logp_sched_t *s, int root, const logp_tnode_t *n, int j)
{
    const logp_chains_t *c = s->data;
    /* the root sends to the heads last chain first: a reduce takes chain 0 first */
    long v = n->c[0] == 0 ? logp_chains_head(c, logp_chains_count(c) - 1 - j) : n->c[0] + 1;
    return (int)((v + root) % s->P);
}

/* When a rank `behind` ranks before the end of its chain has combined
 * (the tail: 0), and its receive side then. */
static logp_recv_state_t logp_chains_member(const logp_params_t *p, size_t m, long behind)
{
    logp_recv_state_t st = {0.0, 0.0};
    if (behind == 0)
        return st;
    /* every hop: arrive at the next rank, which combines at once */
    double hop = p->o + logp_params_inj(p, m) + p->L + p->o + (double)m * p->gamma;
    double done = (double)(behind - 1) * hop;
    logp_params_take(p, m, 1, done + p->o + logp_params_inj(p, m) + p->L, &st);
    return st;
}

/* The root takes the chains' results in chain order, alike lengths in
 * one step. */
static double logp_chains_root(const logp_params_t *p, size_t m, const logp_chains_t *c)
{
    logp_recv_state_t st = {0.0, 0.0};
    long n = logp_chains_count(c);
    for (long i = 0; i < n;) {
        long len = logp_chains_len(c, i), same = 1;
        while (!c->adaptive && i + same < n && logp_chains_len(c, i + same) == len)
            same++;
        double done = logp_chains_member(p, m, len - 1).cpu;
        logp_params_take_equal(p, m, 1, 1, done + p->o + logp_params_inj(p, m) + p->L, same, &st);
        i += same;
    }
    return st.cpu;
}

static double logp_chains_time(const logp_sched_t *s, int root, int commutative)
{
    const logp_chains_t *c = s->data;
    const logp_params_t *p = &s->p;
    if (s->P == 1)
        return 0.0;
    /* the root's children come in descending rank order and members have
     * one child: rank order costs nothing extra */
    double done0 = logp_chains_root(p, s->bytes, c);
    if (commutative || root == 0)
        return done0;
    long chain, index;
    logp_chains_find(c, root, &chain, &index);
    logp_recv_state_t at = logp_chains_member(p, s->bytes, logp_chains_len(c, chain) - 1 - index);
    return logp_sched_handover_time(p, s->bytes, done0, at.cpu, at);
}

double logp_sched_chain_ready(const logp_sched_t *s, int root, int rank, int commutative)
{
    if (s->fam != &logp_family_chain && s->fam != &logp_family_chain_opt && s->fam != &logp_family_chain_adaptive)
        return -1.0;
    const logp_chains_t *c = s->data;
    long v = ((long)rank - (commutative ? root : 0) + s->P) % s->P, chain, index;
    if (v == 0)
        return logp_chains_root(&s->p, s->bytes, c);
    logp_chains_find(c, v, &chain, &index);
    return logp_chains_member(&s->p, s->bytes, logp_chains_len(c, chain) - 1 - index).cpu;
}

#define LOGP_CHAIN_FAMILY(build_fn)                                                                                    \
    {                                                                                                                  \
        .build = build_fn, .release = logp_chains_release, .node = logp_chains_node, .kid = logp_chains_kid,         \
        .time = logp_chains_time, .flags = LOGP_FAMILY_DESCENDING | LOGP_FAMILY_RANK_ORDER,                           \
    }

const logp_family_t logp_family_chain = LOGP_CHAIN_FAMILY(logp_chain_build);
const logp_family_t logp_family_chain_opt = LOGP_CHAIN_FAMILY(logp_chain_opt_build);
const logp_family_t logp_family_chain_adaptive = LOGP_CHAIN_FAMILY(logp_chain_adaptive_build);
