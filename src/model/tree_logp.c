/* LogP-optimal broadcast tree and summation tree: seed 000 (Shou, Chen,
 * "The implementation of optimal broadcast and summation algorithms in the
 * LogP model"), after Karp, Sahay, Santos and Schauser (SPAA 1993).
 *
 * Algorithm: every informed rank sends to a new rank every `gap`; a rank
 * informed at t can start sending at t.  The universal tree GBT labels the
 * root 0 and the children of a node labelled T with T + delay + i gap; the P
 * smallest labels form an optimal tree (theorem 1).  We generate labels in
 * increasing order with a heap (greedy earliest arrival; real-valued L, o, g),
 * take every node whose label is at most the P-th smallest (that is
 * OBT(f_T)), number them in preorder with children in send order (theorem 3)
 * and keep the first P in preorder (definition 4: T*(P; L, o, g)).
 *
 * Cost: the P-th smallest label, T with f_{T-1} < P <= f_T for integer
 * parameters (theorem 2: f_n = f_{n-g} + f_{n-L-2o}); between
 * min(g, L+2o) log P and max(g, L+2o) log 4P (theorem 4).
 * Summation: S*(P; L, o, g) = T*(P; L+1, o, g), executed in reverse; for
 * MPI_Reduce of m bytes the "+1" is the combine cost m gamma. */
#include "tree_logp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double t; /* when `node` can start its next send */
    int seq;  /* insertion order: deterministic ties */
    int node;
} logp_heap_item_t;

static int logp_heap_less(const logp_heap_item_t *a, const logp_heap_item_t *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void logp_heap_push(logp_heap_item_t *h, int *n, logp_heap_item_t x)
{
    int i = (*n)++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!logp_heap_less(&x, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

static logp_heap_item_t logp_heap_pop(logp_heap_item_t *h, int *n)
{
    logp_heap_item_t top = h[0], x = h[--(*n)];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && logp_heap_less(&h[c + 1], &h[c]))
            c++;
        if (!logp_heap_less(&h[c], &x))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
    return top;
}

logp_status_t logp_tree_optimal(logp_tree_t *t, int P, double delay, double gap, double *ready, double *T)
{
    memset(t, 0, sizeof(*t));
    if (P < 1 || !(delay > 0.0) || !(gap >= 0.0) || !isfinite(delay) || !isfinite(gap))
        return LOGP_ERR_ARG;
    /* Nodes with a label equal to the P-th are all part of OBT(f_T); with
     * real parameters ties are rare, with gap = 0 they are endless: cap. */
    int cap = 2 * P + 16;
    double *label = malloc(sizeof(double) * (size_t)cap);
    int *gparent = malloc(sizeof(int) * (size_t)cap);
    logp_heap_item_t *heap = malloc(sizeof(*heap) * (size_t)(cap + 1));
    int *pre = malloc(sizeof(int) * (size_t)cap);   /* generated id -> preorder */
    int *stack = malloc(sizeof(int) * (size_t)cap);
    int *first = malloc(sizeof(int) * (size_t)cap); /* child lists (generation order) */
    int *next = malloc(sizeof(int) * (size_t)cap);
    int *last = malloc(sizeof(int) * (size_t)cap);
    int *parent = malloc(sizeof(int) * (size_t)P);
    int rc = LOGP_ERR_NOMEM;
    if (!label || !gparent || !heap || !pre || !stack || !first || !next || !last || !parent)
        goto out;

    int n = 1, hn = 0, seq = 0;
    label[0] = 0.0;
    gparent[0] = -1;
    logp_heap_push(heap, &hn, (logp_heap_item_t){0.0, seq++, 0});
    double limit = INFINITY;
    while (n < cap) {
        if (n >= P && heap[0].t + delay > limit)
            break;
        logp_heap_item_t u = logp_heap_pop(heap, &hn);
        double arrive = u.t + delay;
        label[n] = arrive;
        gparent[n] = u.node;
        if (n == P - 1)
            limit = arrive * (1.0 + 1e-12); /* T: labels within rounding of it count */
        logp_heap_push(heap, &hn, (logp_heap_item_t){u.t + gap, seq++, u.node});
        logp_heap_push(heap, &hn, (logp_heap_item_t){arrive, seq++, n});
        n++;
    }

    /* Child lists in generation order = send order. */
    for (int i = 0; i < n; i++)
        first[i] = last[i] = next[i] = -1;
    for (int i = 1; i < n; i++) {
        int p = gparent[i];
        if (first[p] < 0)
            first[p] = i;
        else
            next[last[p]] = i;
        last[p] = i;
    }
    /* Preorder numbering; keep the first P (definition 4). */
    int top = 0, count = 0;
    stack[top++] = 0;
    for (int i = 0; i < n; i++)
        pre[i] = -1;
    while (top > 0 && count < P) {
        int u = stack[--top];
        pre[u] = count++;
        int k = 0;
        for (int c = first[u]; c >= 0; c = next[c])
            k++;
        /* push children in reverse so the first-sent is visited first */
        int base = top;
        top += k;
        for (int c = first[u], j = 0; c >= 0; c = next[c], j++)
            stack[base + k - 1 - j] = c;
    }
    double done = 0.0;
    for (int i = 0; i < n; i++) {
        if (pre[i] < 0 || pre[i] >= P)
            continue;
        parent[pre[i]] = i == 0 ? -1 : pre[gparent[i]];
        if (ready)
            ready[pre[i]] = label[i];
        if (label[i] > done)
            done = label[i];
    }
    if (T)
        *T = done;
    rc = logp_tree_from_parents(t, P, parent, NULL);
out:
    free(label);
    free(gparent);
    free(heap);
    free(pre);
    free(stack);
    free(first);
    free(next);
    free(last);
    free(parent);
    return rc;
}

logp_status_t logp_tree_fn(long L, long o, long g, long n, long *f)
{
    if (L < 0 || o < 0 || g < 1 || n < 0 || L + 2 * o < 1)
        return LOGP_ERR_ARG;
    long d = L + 2 * o;
    for (long i = 0; i <= n; i++) {
        if (i < d)
            f[i] = 1;
        else if (d <= g && i < g)
            f[i] = 1 + i / d;
        else
            f[i] = f[i - g] + f[i - d];
    }
    return LOGP_OK;
}

static long logp_fn_at(const long *f, long i)
{
    return i < 0 ? 0 : f[i];
}

int logp_tree_seed_parent(int v, long T, long L, long o, long g, const long *f)
{
    long d = L + 2 * o;
    long parent = 0;
    if (v <= 0)
        return -1;
    while (T >= d) {
        long nk = (T - d) / g + 1, k;
        for (k = 0; k < nk; k++) {
            long temp = parent + logp_fn_at(f, T) - logp_fn_at(f, T - k * g) + 1;
            if (temp == v)
                return (int)parent;
            if (temp < v && v < temp + logp_fn_at(f, T - d - k * g))
                break; /* v is in the subtree of child k: next level */
        }
        if (k == nk)
            return -1;
        parent = parent + logp_fn_at(f, T) - logp_fn_at(f, T - k * g) + 1;
        T = T - d - k * g;
    }
    return -1;
}

logp_status_t logp_tree_sum_plan(int P, long N, long L, long o, long g, logp_sum_node_t *nodes, long *T_B,
                                 long *N_S, double *time)
{
    if (P < 1 || N < 0 || L < 0 || o < 0 || g < 1)
        return LOGP_ERR_ARG;
    logp_tree_t t;
    double *ready = malloc(sizeof(double) * (size_t)P), Tb;
    if (ready == NULL)
        return LOGP_ERR_NOMEM;
    /* S*(P; L, o, g) = T*(P; L + 1, o, g) */
    int rc = logp_tree_optimal(&t, P, (double)(L + 1 + 2 * o), (double)(g > o ? g : o), ready, &Tb);
    if (rc != LOGP_OK) {
        free(ready);
        return rc;
    }
    long tb = lround(Tb), sum_a = 0;
    for (int v = 0; v < P; v++) {
        nodes[v].T = tb - lround(ready[v]);
        nodes[v].K = logp_tree_nkids(&t, v);
        nodes[v].A = nodes[v].T - (o + 1) * nodes[v].K + 1;
        sum_a += nodes[v].A;
    }
    long rest = N > sum_a ? N - sum_a : 0;
    for (int v = 0; v < P; v++)
        nodes[v].B = rest / P + (v < rest % P ? 1 : 0);
    *T_B = tb;
    *N_S = sum_a;
    *time = (double)tb + (double)((rest + P - 1) / P);
    logp_tree_free(&t);
    free(ready);
    return LOGP_OK;
}

void logp_tree_costs(const logp_params_t *p, size_t bytes, int reduce, double *delay, double *gap)
{
    *delay = logp_params_p2p(p, bytes);
    *gap = reduce ? logp_params_gap(p, bytes) : logp_params_send_gap(p, bytes); /* a bcast's sends go to other peers */
    if (reduce) {
        double mg = (double)bytes * p->gamma;
        *delay += mg;
        if (p->o + mg > *gap)
            *gap = p->o + mg;
    }
}

logp_status_t logp_tree_model(logp_tree_t *t, int P, const logp_params_t *p, size_t bytes, int reduce, double *ready)
{
    double delay, gap;
    logp_tree_costs(p, bytes, reduce, &delay, &gap);
    if (delay <= 0.0) {
        for (int v = 0; ready && v < P; v++)
            ready[v] = 0.0;
        return logp_tree_binomial(t, P);
    }
    return logp_tree_optimal(t, P, delay, gap, ready, NULL);
}
