/* Layout-aware trees (seeds 000 + 003): two-level and hetero-tree
 * (registry names), which share the explicit trees below.
 *
 * two-level: a model-optimal tree T*(N; L_inter, o, g) among one leader per
 *   node (the root on its node, else the fastest rank), then T*(n_a;
 *   L_intra, o, g) inside every node from its leader (tree_topo.h).  Cost:
 *   the leaders' tree, then the slowest node's tree (what sim.c computes).
 * hetero-tree: the fastest, as the simulator prices it under the layout,
 *   of the greedy earliest-completion trees (seed 000's earliest-sender
 *   construction with seed 003's per-pair delays and per-rank speeds) and
 *   the uniform logp-tree; never worse than logp-tree.  This file builds
 *   the uniform logp-tree per class; the planner (plan_hetero_tree.c)
 *   simulates the candidates and installs the fastest (logp_layout_adopt),
 *   so that schedules do not depend on the simulator.
 *
 * Trees are kept as arrays over absolute ranks, one per class of alike
 * nodes (same size, one speed; at most LOGP_LAYOUT_CLASSES classes), each
 * rooted at a rank of that class (the first class's at rank 0).  A root r
 * is a relabeling sigma_r of its class's tree: r's node and the tree
 * root's node trade places rank for rank (r taking the tree root's
 * place), which maps the layout onto itself, so every root gets a tree as
 * good as one built for it.  A node with ranks of several speeds (or
 * beyond the class limit) has no class: its ranks as roots trade places
 * with rank 0 in rank 0's tree (a valid tree, slower than one built for
 * them).  Memory: O(P) per class, per size class of the communicator. */
#include "sched_layout.h"

#include <stdlib.h>
#include <string.h>

#include "sched_tree.h"
#include "tree.h"
#include "tree_logp.h"
#include "tree_topo.h"

/* Classes of alike nodes with a tree of their own. */
#define LOGP_LAYOUT_CLASSES 8

typedef struct {
    int root;              /* absolute rank the tree is rooted at */
    int *parent;           /* absolute ranks, -1 at the root */
    int *kid_start, *kids; /* children in send order */
} logp_layout_tree_t;

typedef struct {
    int nclass;
    int *cls; /* cls[a]: class of node a, -1 if none */
    logp_layout_tree_t tree[LOGP_LAYOUT_CLASSES];
} logp_explicit_t;

static void logp_explicit_free(logp_explicit_t *e)
{
    if (e == NULL)
        return;
    for (int k = 0; k < e->nclass; k++) {
        free(e->tree[k].parent);
        free(e->tree[k].kid_start);
        free(e->tree[k].kids);
    }
    free(e->cls);
    free(e);
}

/* The classes: node of rank 0 first (its tree is rooted at 0), then every
 * other node of one speed, alike nodes sharing a class. */
static logp_explicit_t *logp_explicit_classes(const logp_topo_t *t)
{
    logp_explicit_t *e = calloc(1, sizeof(*e));
    if (e == NULL || (e->cls = malloc(sizeof(int) * (size_t)t->nnodes)) == NULL) {
        free(e);
        return NULL;
    }
    int n0 = logp_topo_node(t, 0), rep[LOGP_LAYOUT_CLASSES];
    e->tree[0].root = 0;
    rep[0] = n0;
    e->nclass = 1;
    for (int a = 0; a < t->nnodes; a++) {
        e->cls[a] = -1;
        if (!logp_topo_alike(t, a, a)) /* ranks of several speeds */
            continue;
        for (int k = 0; k < e->nclass && e->cls[a] < 0; k++)
            if (logp_topo_alike(t, a, rep[k]))
                e->cls[a] = k;
        if (e->cls[a] < 0 && e->nclass < LOGP_LAYOUT_CLASSES) {
            rep[e->nclass] = a;
            e->tree[e->nclass].root = logp_topo_member(t, a, 0);
            e->cls[a] = e->nclass++;
        }
    }
    return e;
}

/* The class whose tree serves root r, and sigma_r (an involution: its own
 * inverse) applied to x. */
static int logp_relabel_class(const logp_sched_t *s, const logp_explicit_t *e, int root)
{
    int k = e->cls[logp_topo_node(&s->topo, root)];
    return k < 0 ? 0 : k;
}

static int logp_relabel(const logp_sched_t *s, const logp_explicit_t *e, int k, int root, int x)
{
    const logp_topo_t *t = &s->topo;
    int c = e->tree[k].root;
    if (root == c)
        return x;
    int nc = logp_topo_node(t, c), nr = logp_topo_node(t, root);
    if (nc != nr && e->cls[nr] == k) { /* alike nodes trade places */
        int nx = logp_topo_node(t, x);
        if (nx != nc && nx != nr)
            return x;
        int i = logp_topo_index(t, x), ic = logp_topo_index(t, c), ir = logp_topo_index(t, root);
        i = i == ic ? ir : i == ir ? ic : i;
        return logp_topo_member(t, nx == nc ? nr : nc, i);
    }
    return x == c ? root : x == root ? c : x; /* same node, or no class */
}

/* The tree given by parent[] and order[] (tree_topo.h form) as the arrays
 * of class k. */
static logp_status_t logp_explicit_set(logp_explicit_t *e, int k, int P, const int *parent, const int *order)
{
    logp_layout_tree_t *t = &e->tree[k];
    t->parent = malloc(sizeof(int) * (size_t)P);
    t->kid_start = calloc((size_t)P + 1, sizeof(int));
    t->kids = malloc(sizeof(int) * (size_t)(P > 1 ? P - 1 : 1));
    int *fill = malloc(sizeof(int) * (size_t)P);
    if (!t->parent || !t->kid_start || !t->kids || !fill) {
        free(fill);
        return LOGP_ERR_NOMEM;
    }
    memcpy(t->parent, parent, sizeof(int) * (size_t)P);
    for (int i = 0; i < P - 1; i++)
        t->kid_start[parent[order[i]] + 1]++;
    for (int r = 0; r < P; r++)
        t->kid_start[r + 1] += t->kid_start[r];
    memcpy(fill, t->kid_start, sizeof(int) * (size_t)P);
    for (int i = 0; i < P - 1; i++) /* children keep the order's send order */
        t->kids[fill[parent[order[i]]]++] = order[i];
    free(fill);
    return LOGP_OK;
}

static void logp_explicit_node(const logp_sched_t *s, int root, int rank, logp_tnode_t *n)
{
    const logp_explicit_t *e = s->data;
    int k = logp_relabel_class(s, e, root), x = logp_relabel(s, e, k, root, rank), up = e->tree[k].parent[x];
    n->parent = up < 0 ? -1 : logp_relabel(s, e, k, root, up);
    n->nkids = e->tree[k].kid_start[x + 1] - e->tree[k].kid_start[x];
    n->c[0] = x;
    n->c[1] = k;
}

static int logp_explicit_kid(const logp_sched_t *s, int root, const logp_tnode_t *n, int j)
{
    const logp_explicit_t *e = s->data;
    const logp_layout_tree_t *t = &e->tree[n->c[1]];
    return logp_relabel(s, e, (int)n->c[1], root, t->kids[t->kid_start[n->c[0]] + j]);
}

static void logp_explicit_release(logp_sched_t *s)
{
    logp_explicit_free(s->data);
    s->data = NULL;
}

/* The uniform logp-tree stands in for a layout tree on one uniform node,
 * where both are exactly it.  s keeps its algorithm's name. */
static logp_status_t logp_layout_stand_in(logp_sched_t *s)
{
    logp_sched_t t;
    logp_status_t rc = logp_sched_build(&t, s->coll, LOGP_ALGO_LOGP_TREE, s->bytes, &s->topo, NULL);
    if (rc == LOGP_OK) {
        s->fam = t.fam;
        s->data = t.data;
    }
    return rc;
}

/* The tree of schedule t rooted at `root` in tree_topo.h form. */
static void logp_layout_take(const logp_sched_t *t, int root, int *parent, int *order)
{
    int n = 0;
    for (int r = 0; r < t->P; r++) {
        logp_view_t v;
        logp_view_init(&v, t, root, r, 1);
        parent[r] = v.node.parent;
        for (int j = 0; j < v.node.nkids; j++)
            order[n++] = t->fam->kid(t, root, &v.node, j);
    }
}

logp_status_t logp_sched_from_tree(logp_sched_t *s, logp_coll_t coll, size_t bytes, const logp_topo_t *topo, int root,
                                   const int *parent, const int *order)
{
    memset(s, 0, sizeof(*s));
    if (topo == NULL || root < 0 || root >= topo->P || parent[root] != -1 || logp_coll_exchanges(coll))
        return LOGP_ERR_ARG;
    for (int i = 0; i < topo->P - 1; i++)
        if (order[i] < 0 || order[i] >= topo->P || order[i] == root || parent[order[i]] < 0 ||
            parent[order[i]] >= topo->P)
            return LOGP_ERR_ARG;
    logp_explicit_t *e = calloc(1, sizeof(*e));
    if (e == NULL || (e->cls = malloc(sizeof(int) * (size_t)topo->nnodes)) == NULL) {
        free(e);
        return LOGP_ERR_NOMEM;
    }
    for (int a = 0; a < topo->nnodes; a++) /* exact for its root only */
        e->cls[a] = -1;
    e->cls[logp_topo_node(topo, root)] = 0;
    e->nclass = 1;
    e->tree[0].root = root;
    logp_status_t rc = logp_explicit_set(e, 0, topo->P, parent, order);
    if (rc != LOGP_OK) {
        logp_explicit_free(e);
        return rc;
    }
    s->coll = coll;
    s->algo = LOGP_ALGO_HETERO_TREE;
    s->fam = &logp_family_hetero_tree;
    s->P = topo->P;
    s->bytes = bytes;
    s->topo = *topo;
    s->p = *logp_topo_rep(topo);
    s->data = e;
    return LOGP_OK;
}

/* Builds class k's tree into e: two-level, or (hetero-tree) the uniform
 * logp-tree at the class's root, which the planner then replaces with the
 * fastest of its candidates (plan_hetero_tree.c: pricing them needs the
 * simulator). */
static logp_status_t logp_layout_class(logp_sched_t *s, logp_explicit_t *e, int k, int *parent, int *order)
{
    int P = s->P, root = e->tree[k].root, reduce = s->coll == LOGP_COLL_REDUCE;
    logp_status_t rc = LOGP_OK;
    if (s->algo == LOGP_ALGO_TWO_LEVEL) {
        rc = logp_tree_two_level(&s->topo, root, s->bytes, reduce, parent, order);
        return rc == LOGP_OK ? logp_explicit_set(e, k, P, parent, order) : rc;
    }
    logp_sched_t uni;
    if ((rc = logp_sched_build(&uni, s->coll, LOGP_ALGO_LOGP_TREE, s->bytes, &s->topo, NULL)) != LOGP_OK)
        return rc;
    logp_layout_take(&uni, root, parent, order);
    logp_sched_free(&uni);
    return logp_explicit_set(e, k, P, parent, order);
}

int logp_layout_classes(const logp_sched_t *s)
{
    const logp_explicit_t *e = s->data;
    return e->nclass;
}

int logp_layout_class_root(const logp_sched_t *s, int k)
{
    const logp_explicit_t *e = s->data;
    return e->tree[k].root;
}

void logp_layout_adopt(logp_sched_t *s, int k, logp_sched_t *c)
{
    logp_explicit_t *e = s->data, *ce = c->data;
    logp_layout_tree_t x = e->tree[k];
    e->tree[k] = ce->tree[0];
    e->tree[k].root = x.root;
    ce->tree[0] = x; /* freed with c */
}

static logp_status_t logp_layout_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    if (logp_sched_alike(s))
        return logp_layout_stand_in(s);
    int P = s->P, *parent = malloc(sizeof(int) * (size_t)P), *order = malloc(sizeof(int) * (size_t)P);
    logp_explicit_t *e = logp_explicit_classes(&s->topo);
    logp_status_t rc = parent && order && e ? LOGP_OK : LOGP_ERR_NOMEM;
    for (int k = 0; rc == LOGP_OK && k < e->nclass; k++)
        rc = logp_layout_class(s, e, k, parent, order);
    free(parent);
    free(order);
    if (rc != LOGP_OK) {
        logp_explicit_free(e);
        return rc;
    }
    s->data = e;
    return LOGP_OK;
}

/* The two-level design formula: T*(N; inter) among the leaders, then
 * T*(n; intra) in the largest node (seed 000 per level; speeds ignored). */
static double logp_explicit_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    const logp_topo_t *t = &s->topo;
    int nmax = 1, reduce = s->coll == LOGP_COLL_REDUCE;
    for (int a = 0; a < t->nnodes; a++)
        if (logp_topo_size(t, a) > nmax)
            nmax = logp_topo_size(t, a);
    double di, gi, da, ga;
    logp_tree_costs(&t->inter, s->bytes, reduce, &di, &gi);
    logp_tree_costs(&t->intra, s->bytes, reduce, &da, &ga);
    return logp_sched_tree_T(t->nnodes, di, gi) + logp_sched_tree_T(nmax, da, ga);
}

const logp_family_t logp_family_hetero_tree = {
    .build = logp_layout_build,
    .release = logp_explicit_release,
    .node = logp_explicit_node,
    .kid = logp_explicit_kid,
    .estimate = logp_explicit_estimate,
};

const logp_family_t logp_family_two_level = {
    .build = logp_layout_build,
    .release = logp_explicit_release,
    .node = logp_explicit_node,
    .kid = logp_explicit_kid,
    .estimate = logp_explicit_estimate,
};
