/* logp-tree (registry: logp-tree; bcast, reduce; seed 000, Shou & Chen
 *   after Karp, Sahay, Santos, Schauser): the LogP-optimal broadcast tree.  With delay d = 2o + L + (m-1)G and
 *   gap g = max(g, o + (m-1)G), the universal tree labels the root 0 and
 *   the j-th child of a node labelled t with t + d + j g, so every node is
 *   a lattice point (a, b) with label a d + b g (a levels down, b gaps
 *   waited).  The optimal tree holds the labels up to T, the P-th smallest
 *   label (theorem 1; for integers f_{T-1} < P <= f_T, theorem 2), numbered
 *   in preorder with children in send order (theorem 3), cut to its first
 *   P nodes (definition 4).  Subtree sizes obey seed 000's recurrence
 *   f(x) = f(x - g) + f(x - d) on the lattice, so a table G(a, c) of suffix
 *   sums of row a + 1 gives the preorder offset of every child
 *   (ComputeParent's f(T) - f(T - k g) + 1, generalised to real L, o, g),
 *   and a rank finds its parent and children by descending from the root:
 *   O(depth log P).  The table has one entry per lattice point under T:
 *   O((T/d)(T/g)), a few hundred entries when d and g are comparable.
 *   Cost: T, between min(g, d) log P and max(g, d) log 4P (theorem 4).
 *   Reduce (the summation tree S*(P; L, o, g) = T*(P; L + 1, o, g)): the
 *   same construction with d + m gamma and gap >= o + m gamma
 *   Where d or g degenerates the tree is binomial or flat, and the family
 *   runs those families' shapes (through their family objects).
 *
 * The closed-form times below follow the simulator's rules operation by
 * operation (params.h): a bcast's completion is the latest receive; a
 * reduce's, the root's last combine, found by dynamic programming over
 * alike subtrees (by lattice point) plus the one path of subtrees that
 * the cut at P leaves partial. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched_tree.h"
#include "tree_logp.h"

enum { LOGP_LAT_TREE, LOGP_LAT_FLAT, LOGP_LAT_BINOMIAL };

/* The lattice of the optimal tree.  Nodes are the points (a, b), a >= 1,
 * with label a d + b g <= lim, and the root (0, 0).  Row a's children are
 * in row a + 1; G(a, c) = sum over j >= c of F(a + 1, j), where F(a, b) =
 * 1 + G(a, b) is the size of the subtree of node (a, b).  Row a of G has
 * one entry per node of row a + 1.  Columns are cut at P: a node (a, b)
 * sits at position >= a + b, so one whose children run past column P has
 * its subtree, and every later sibling, past position P anyway.  The sums
 * are exact (offsets are their differences); with labels up to T they
 * count about P nodes (more only by ties at T). */
typedef struct logp_lattice {
    int mode;
    double d, g;     /* delay and gap of the tree's messages */
    double T;        /* completion: the P-th smallest label */
    double lim;      /* T (1 + 1e-12): equal labels to rounding count */
    int A;           /* rows of G: 0 .. A-1 (nodes in rows 0 .. A) */
    long *start;     /* row a of G at G + start[a] */
    long *ncol;      /* entries of row a (= nodes of row a + 1) */
    long *G;
} logp_lattice_t;

/* Nodes of row a (a >= 1) with labels a d + b g <= x: b = 0 .. n - 1, cut
 * at P.  The label is compared as computed here, so that every test of
 * "label <= x" in this file agrees to the last bit. */
static long logp_lattice_row(int P, double d, double g, double x, long a)
{
    double room = (x - (double)a * d) / g;
    if (!(room >= -1.0))
        return 0;
    long n = room >= (double)P ? P : (long)floor(room) + 1;
    while (n > 0 && (double)a * d + (double)(n - 1) * g > x)
        n--;
    while (n < P && (double)a * d + (double)n * g <= x)
        n++;
    return n;
}

/* F(0, 0) for labels <= x, saturated at P (reaches P means ">= P"); -1 if
 * out of memory.  Counts the lattice points first: more than P of them are
 * more than P nodes, without the table. */
static long logp_lattice_count(int P, double d, double g, double x)
{
    long rows = 0, points = 0, widest = 0;
    for (long a = 1;; a++) {
        long n = logp_lattice_row(P, d, g, x, a);
        if (n == 0)
            break;
        rows = a;
        points += n;
        if (n > widest)
            widest = n;
        if (points >= P)
            return P;
    }
    long *cur = malloc(sizeof(long) * (size_t)(widest + 1)), *up = malloc(sizeof(long) * (size_t)(widest + 1));
    if (cur == NULL || up == NULL) {
        free(cur);
        free(up);
        return -1;
    }
    long nup = 0; /* row `rows` has no children: G = 0 */
    for (long a = rows - 1; a >= 0; a--) {
        long n = logp_lattice_row(P, d, g, x, a + 1), acc = 0;
        for (long c = n - 1; c >= 0; c--) {
            acc += 1 + (c < nup ? up[c] : 0);
            if (acc > P)
                acc = P;
            cur[c] = acc;
        }
        long *t = up;
        up = cur;
        cur = t;
        nup = n;
    }
    long F = 1 + (nup > 0 ? up[0] : 0);
    free(cur);
    free(up);
    return F > P ? P : F;
}

double logp_sched_tree_T(int P, double d, double g)
{
    if (P <= 1)
        return 0.0;
    if (!(d > 0.0) || !(g > 0.0) || !isfinite(d) || !isfinite(g))
        return -1.0;
    if (P == 2) /* one message; the search below takes about 50 lattice counts to find it */
        return d;
    /* Upper bounds on T: F at least doubles every max(d, g) (seed 000's
     * recurrence); a flat tree; a chain. */
    int lg = 0;
    while ((1L << lg) < P)
        lg++;
    double hi = (double)lg * (d > g ? d : g);
    if (d + (double)(P - 2) * g < hi)
        hi = d + (double)(P - 2) * g;
    if ((double)(P - 1) * d < hi)
        hi = (double)(P - 1) * d;
    hi *= 1.0 + 1e-9; /* rounding of the bounds */
    long c;
    while ((c = logp_lattice_count(P, d, g, hi)) >= 0 && c < P)
        hi *= 2.0;
    if (c < 0)
        return -1.0;
    double lo = 0.0;
    for (int it = 0; it < 200 && hi - lo > hi * 4e-16; it++) {
        double mid = lo + (hi - lo) / 2.0;
        if ((c = logp_lattice_count(P, d, g, mid)) < 0)
            return -1.0;
        if (c >= P)
            hi = mid;
        else
            lo = mid;
    }
    /* T is a label in (lo, hi]: the largest one not above hi (rows are cut
     * at P columns only where more than P ranks are informed before hi:
     * then a later row holds the largest label) */
    double T = 0.0;
    for (long a = 1;; a++) {
        long n = logp_lattice_row(P, d, g, hi, a);
        if (n == 0)
            break;
        double label = (double)a * d + (double)(n - 1) * g;
        if (n < P && label > T)
            T = label;
    }
    return T;
}

static void logp_lattice_free(logp_lattice_t *l)
{
    if (l == NULL)
        return;
    free(l->start);
    free(l->ncol);
    free(l->G);
    free(l);
}

static logp_status_t logp_lattice_build(logp_lattice_t *l, int P)
{
    l->T = logp_sched_tree_T(P, l->d, l->g);
    if (l->T < 0.0)
        return LOGP_ERR_NOMEM; /* d, g were checked: only memory can fail */
    l->lim = l->T * (1.0 + 1e-12);
    long rows = 0, total = 0;
    while (logp_lattice_row(P, l->d, l->g, l->lim, rows + 1) > 0)
        rows++; /* nodes in rows 1 .. rows */
    l->A = (int)rows;
    l->start = malloc(sizeof(long) * (size_t)(rows + 1));
    l->ncol = malloc(sizeof(long) * (size_t)(rows + 1));
    if (l->start == NULL || l->ncol == NULL)
        return LOGP_ERR_NOMEM;
    for (long a = 0; a < rows; a++) {
        l->ncol[a] = logp_lattice_row(P, l->d, l->g, l->lim, a + 1);
        l->start[a] = total;
        total += l->ncol[a];
    }
    l->G = malloc(sizeof(long) * (size_t)(total > 0 ? total : 1));
    if (l->G == NULL)
        return LOGP_ERR_NOMEM;
    for (long a = rows - 1; a >= 0; a--) {
        long acc = 0, *row = l->G + l->start[a];
        for (long c = l->ncol[a] - 1; c >= 0; c--) {
            long up = a + 1 < rows && c < l->ncol[a + 1] ? l->G[l->start[a + 1] + c] : 0;
            acc += 1 + up; /* exact: offsets are differences of these sums */
            row[c] = acc;
        }
    }
    return LOGP_OK;
}

static long logp_lattice_G(const logp_lattice_t *l, long a, long c)
{
    return a < l->A && c < l->ncol[a] ? l->G[l->start[a] + c] : 0;
}

/* Children of node (a, b) at preorder position pos that are kept (their
 * positions below P). */
static long logp_lattice_nkids(const logp_lattice_t *l, int P, long a, long b, long pos)
{
    long n = a < l->A ? l->ncol[a] - b : 0, gab = logp_lattice_G(l, a, b);
    if (n <= 0)
        return 0;
    long lo = 0, hi = n; /* kept: pos + 1 + G(a,b) - G(a,b+j) < P, increasing in j */
    while (lo < hi) {
        long j = lo + (hi - lo) / 2;
        if (pos + 1 + gab - logp_lattice_G(l, a, b + j) < P)
            lo = j + 1;
        else
            hi = j;
    }
    return lo;
}

/* Finds the node at preorder position v: its lattice point (a, b) and its
 * parent's position (-1 for the root). */
static void logp_lattice_find(const logp_lattice_t *l, int P, long v, long *a, long *b, long *parent)
{
    long pos = 0, ra = 0, rb = 0, up = -1;
    while (pos != v) {
        long gab = logp_lattice_G(l, ra, rb), n = logp_lattice_nkids(l, P, ra, rb, pos);
        long lo = 0, hi = n - 1; /* last child whose position is <= v */
        while (lo < hi) {
            long j = lo + (hi - lo + 1) / 2;
            if (pos + 1 + gab - logp_lattice_G(l, ra, rb + j) <= v)
                lo = j;
            else
                hi = j - 1;
        }
        up = pos;
        pos += 1 + gab - logp_lattice_G(l, ra, rb + lo);
        ra++;
        rb += lo;
    }
    *a = ra;
    *b = rb;
    *parent = up;
}

static logp_status_t logp_logp_tree_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    logp_lattice_t *l = calloc(1, sizeof(*l));
    if (l == NULL)
        return LOGP_ERR_NOMEM;
    s->data = l;
    logp_tree_costs(&s->p, s->bytes, logp_coll_combines(s->coll), &l->d, &l->g);
    if (!(l->d > 0.0)) { /* a free network: every tree is optimal */
        l->mode = LOGP_LAT_BINOMIAL;
        return LOGP_OK;
    }
    if (!(l->g > 0.0)) { /* sends cost nothing: the root tells everyone */
        l->mode = LOGP_LAT_FLAT;
        return LOGP_OK;
    }
    return logp_lattice_build(l, s->P);
}

static void logp_logp_tree_release(logp_sched_t *s)
{
    logp_lattice_free(s->data);
    s->data = NULL;
}

static void logp_logp_tree_node(const logp_sched_t *s, int root, int rank, logp_tnode_t *n)
{
    const logp_lattice_t *l = s->data;
    if (l->mode == LOGP_LAT_BINOMIAL) {
        logp_family_binomial.node(s, root, rank, n);
        return;
    }
    if (l->mode == LOGP_LAT_FLAT) {
        logp_family_flat.node(s, root, rank, n);
        return;
    }
    long v = logp_sched_rel(s, root, rank), a, b, up;
    logp_lattice_find(l, s->P, v, &a, &b, &up);
    n->parent = up < 0 ? -1 : logp_sched_abs(s, root, up);
    n->nkids = (int)logp_lattice_nkids(l, s->P, a, b, v);
    n->c[0] = v;
    n->c[1] = a;
    n->c[2] = b;
    n->c[3] = logp_lattice_G(l, a, b);
}

static int logp_logp_tree_kid(const logp_sched_t *s, int root, const logp_tnode_t *n, int j)
{
    const logp_lattice_t *l = s->data;
    if (l->mode == LOGP_LAT_BINOMIAL)
        return logp_family_binomial.kid(s, root, n, j);
    if (l->mode == LOGP_LAT_FLAT)
        return logp_family_flat.kid(s, root, n, j);
    return logp_sched_abs(s, root, n->c[0] + 1 + n->c[3] - logp_lattice_G(l, n->c[1], n->c[2] + j));
}

/* Reduce over the lattice: done[] of every node (a >= 1) at the index of
 * its G entry (row a - 1), for subtrees that are whole (not cut at P);
 * `rank_order` runs the non-commutative form (the first child taken as is,
 * the own value prepended last). */
typedef struct {
    const logp_lattice_t *l;
    const logp_params_t *p;
    size_t m;
    int P, rank_order;
    double *done;
} logp_lattice_reduce_t;

static double logp_lattice_done(const logp_lattice_reduce_t *r, long a, long b)
{
    return r->done[r->l->start[a - 1] + b];
}

static void logp_lattice_reduce_all(const logp_lattice_reduce_t *r)
{
    const logp_lattice_t *l = r->l;
    double own = (double)r->m * r->p->gamma;
    for (long a = l->A; a >= 1; a--) { /* nodes of row a: entries of G row a - 1 */
        long nodes = l->ncol[a - 1], kids = a < l->A ? l->ncol[a] : 0;
        logp_recv_state_t st = {0.0, 0.0};
        for (long c = (kids > nodes ? kids : nodes) - 1; c >= 0; c--) {
            if (c < kids) /* child (a + 1, c), the first taken is the last column */
                logp_params_take(r->p, r->m, !r->rank_order || c < kids - 1,
                                 logp_sched_tree_arrive(r->p, r->m, logp_lattice_done(r, a + 1, c)), &st);
            if (c < nodes)
                r->done[l->start[a - 1] + c] = c < kids ? st.cpu + (r->rank_order ? own : 0.0) : 0.0;
        }
    }
}

/* The node at position pos, lattice point (a, b): its receive side when
 * its result is combined (whole subtrees from done[], the cut one by
 * recursion). */
static logp_recv_state_t logp_lattice_reduce_node(const logp_lattice_reduce_t *r, long a, long b, long pos)
{
    const logp_lattice_t *l = r->l;
    long n = logp_lattice_nkids(l, r->P, a, b, pos), gab = logp_lattice_G(l, a, b);
    logp_recv_state_t st = {0.0, 0.0};
    for (long j = n - 1; j >= 0; j--) {
        long kpos = pos + 1 + gab - logp_lattice_G(l, a, b + j);
        double done = kpos + 1 + logp_lattice_G(l, a + 1, b + j) <= r->P ? logp_lattice_done(r, a + 1, b + j)
                                                                          : logp_lattice_reduce_node(r, a + 1, b + j, kpos).cpu;
        logp_params_take(r->p, r->m, !r->rank_order || j < n - 1, logp_sched_tree_arrive(r->p, r->m, done), &st);
    }
    if (r->rank_order && n > 0)
        st.cpu += (double)r->m * r->p->gamma;
    return st;
}

/* Reduce times of the optimal tree: the root's (pos 0) and, if `other` >
 * 0, the receive side of the node at that position. */
static double logp_lattice_reduce(const logp_sched_t *s, int rank_order, long other, logp_recv_state_t *at_other)
{
    const logp_lattice_t *l = s->data;
    long total = l->A > 0 ? l->start[l->A - 1] + l->ncol[l->A - 1] : 0;
    logp_lattice_reduce_t r = {l, &s->p, s->bytes, s->P, rank_order, malloc(sizeof(double) * (size_t)(total + 1))};
    if (r.done == NULL)
        return -1.0;
    logp_lattice_reduce_all(&r);
    double done0 = logp_lattice_reduce_node(&r, 0, 0, 0).cpu;
    if (other > 0 && at_other) {
        long a, b, up;
        logp_lattice_find(l, s->P, other, &a, &b, &up);
        *at_other = logp_lattice_reduce_node(&r, a, b, other);
    }
    free(r.done);
    return done0;
}

static double logp_logp_tree_time(const logp_sched_t *s, int root, int commutative)
{
    const logp_lattice_t *l = s->data;
    if (l->mode == LOGP_LAT_BINOMIAL)
        return logp_family_binomial.time(s, root, commutative);
    if (l->mode == LOGP_LAT_FLAT)
        return logp_family_flat.time(s, root, commutative);
    if (s->P == 1)
        return 0.0;
    if (s->coll == LOGP_COLL_BCAST)
        return l->T;
    int handover = !commutative && root != 0;
    logp_recv_state_t at_root = {0.0, 0.0};
    double done0 = logp_lattice_reduce(s, !commutative, handover ? root : 0, &at_root);
    if (!handover || done0 < 0.0)
        return done0;
    return logp_sched_handover_time(&s->p, s->bytes, done0, at_root.cpu, at_root);
}

const logp_family_t logp_family_logp_tree = {
    .build = logp_logp_tree_build,
    .release = logp_logp_tree_release,
    .node = logp_logp_tree_node,
    .kid = logp_logp_tree_kid,
    .time = logp_logp_tree_time,
    .flags = LOGP_FAMILY_RANK_ORDER,
};

/* ---- ready times (the CLI's per-rank answer) ---------------------------- */

double logp_sched_tree_ready(const logp_sched_t *s, int root, int rank, int commutative)
{
    const logp_lattice_t *l = s->fam == &logp_family_logp_tree ? s->data : NULL;
    int binomial = s->fam == &logp_family_binomial || (l && l->mode == LOGP_LAT_BINOMIAL);
    int flat = s->fam == &logp_family_flat || (l && l->mode == LOGP_LAT_FLAT);
    if (!binomial && !flat && l == NULL)
        return -1.0;
    int tree_root = logp_coll_combines(s->coll) && !commutative ? 0 : root;
    long v = logp_sched_rel(s, tree_root, rank);
    if (binomial)
        return logp_sched_binomial_ready(s, v, commutative);
    if (flat)
        return logp_sched_flat_ready(s, v, commutative);
    if (s->coll == LOGP_COLL_BCAST) {
        long a, b, up;
        logp_lattice_find(l, s->P, v, &a, &b, &up);
        return (double)a * l->d + (double)b * l->g;
    }
    logp_recv_state_t st = {0.0, 0.0};
    double done0 = logp_lattice_reduce(s, !commutative, v, &st);
    return v == 0 ? done0 : st.cpu;
}
