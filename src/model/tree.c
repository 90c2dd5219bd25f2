/* Tree construction shared by every tree-shaped algorithm, and the two simple
 * shapes.
 *
 * binomial: seed 002 (one-to-all broadcast by recursive doubling on a
 *   hypercube, generalised to any P): ceil(log2 P) rounds, cost
 *   ceil(log2 P) (2o + L + (m-1)G) when g <= 2o + L.
 * flat: the root sends P - 1 messages: 2o + L + (m-1)G + (P-2) gap(m). */
#include "tree.h"

#include <stdlib.h>
#include <string.h>

/* Builds the tree whose parents are given and whose children are sent to in
 * increasing rank order (parent[] of a preorder tree whose first child is the
 * first one sent to). */
static logp_status_t logp_tree_ascending(logp_tree_t *t, int P, const int *parent)
{
    int *order = malloc(sizeof(int) * (size_t)(P > 1 ? P - 1 : 1));
    if (order == NULL)
        return LOGP_ERR_NOMEM;
    for (int v = 1; v < P; v++)
        order[v - 1] = v;
    int rc = logp_tree_from_parents(t, P, parent, order);
    free(order);
    return rc;
}

void logp_tree_free(logp_tree_t *t)
{
    if (t == NULL)
        return;
    free(t->parent);
    free(t->kid_start);
    free(t->kids);
    free(t->size);
    memset(t, 0, sizeof(*t));
}

logp_status_t logp_tree_from_parents(logp_tree_t *t, int P, const int *parent, const int *order)
{
    if (order == NULL)
        return logp_tree_ascending(t, P, parent);
    memset(t, 0, sizeof(*t));
    if (P < 1 || parent[0] != -1)
        return LOGP_ERR_ARG;
    for (int v = 1; v < P; v++)
        if (parent[v] < 0 || parent[v] >= v)
            return LOGP_ERR_ARG;
    t->P = P;
    t->parent = malloc(sizeof(int) * (size_t)P);
    t->kid_start = calloc((size_t)P + 1, sizeof(int));
    t->kids = malloc(sizeof(int) * (size_t)(P > 1 ? P - 1 : 1));
    t->size = malloc(sizeof(int) * (size_t)P);
    if (!t->parent || !t->kid_start || !t->kids || !t->size) {
        logp_tree_free(t);
        return LOGP_ERR_NOMEM;
    }
    memcpy(t->parent, parent, sizeof(int) * (size_t)P);
    for (int v = 1; v < P; v++)
        t->kid_start[parent[v] + 1]++;
    for (int v = 0; v < P; v++)
        t->kid_start[v + 1] += t->kid_start[v];
    /* Fill slots in the order given; `size` doubles as the per-parent cursor. */
    for (int v = 0; v < P; v++)
        t->size[v] = t->kid_start[v];
    for (int i = 0; i < P - 1; i++) {
        int c = order[i];
        if (c < 1 || c >= P) {
            logp_tree_free(t);
            return LOGP_ERR_ARG;
        }
        t->kids[t->size[parent[c]]++] = c;
    }
    for (int v = 0; v < P; v++)
        if (t->size[v] != t->kid_start[v + 1]) { /* `order` was not a permutation */
            logp_tree_free(t);
            return LOGP_ERR_ARG;
        }
    for (int v = 0; v < P; v++)
        t->size[v] = 1;
    for (int v = P - 1; v > 0; v--)
        t->size[parent[v]] += t->size[v];
    return LOGP_OK;
}

int logp_tree_kids_descending(const logp_tree_t *t, int v)
{
    int a = t->kid_start[v], b = t->kid_start[v + 1];
    return b - a > 1 && t->kids[a] > t->kids[b - 1];
}

logp_status_t logp_tree_check(const logp_tree_t *t)
{
    int P = t->P, ok = LOGP_OK;
    if (P < 1 || t->parent[0] != -1 || t->size[0] != P)
        return LOGP_ERR_ARG;
    int *seen = calloc((size_t)P, sizeof(int));
    int *stack = malloc(sizeof(int) * (size_t)P);
    if (!seen || !stack) {
        free(seen);
        free(stack);
        return LOGP_ERR_NOMEM;
    }
    int top = 0, next_pre = 0;
    stack[top++] = 0;
    while (top > 0 && ok == LOGP_OK) {
        int v = stack[--top];
        if (v < 0 || v >= P || seen[v] || v != next_pre++) {
            ok = LOGP_ERR_ARG; /* reached twice, or not in preorder */
            break;
        }
        seen[v] = 1;
        /* Children, taken in rank order, tile (v, v + size[v]); the send
         * order is that rank order or its reverse. */
        int a = t->kid_start[v], n = t->kid_start[v + 1] - a;
        int desc = logp_tree_kids_descending(t, v), end = v + 1;
        for (int i = 0; i < n; i++) {
            int c = t->kids[desc ? a + n - 1 - i : a + i];
            if (c != end || t->parent[c] != v) {
                ok = LOGP_ERR_ARG;
                break;
            }
            end += t->size[c];
        }
        if (end != v + t->size[v])
            ok = LOGP_ERR_ARG;
        for (int i = n - 1; i >= 0; i--) /* visit in rank order: preorder */
            stack[top++] = t->kids[desc ? a + n - 1 - i : a + i];
    }
    if (ok == LOGP_OK && next_pre != P)
        ok = LOGP_ERR_ARG;
    free(seen);
    free(stack);
    return ok;
}

/* Builds the tree in which v's parent is parent_of(v) and every node sends
 * to its children in descending (desc) or ascending rank order. */
static logp_status_t logp_tree_by_rule(logp_tree_t *t, int P, int (*parent_of)(int), int desc)
{
    if (P < 1)
        return LOGP_ERR_ARG;
    int *parent = malloc(sizeof(int) * (size_t)P), *order = malloc(sizeof(int) * (size_t)P);
    int rc = LOGP_ERR_NOMEM;
    if (parent && order) {
        parent[0] = -1;
        for (int v = 1; v < P; v++) {
            parent[v] = parent_of(v);
            order[v - 1] = desc ? P - v : v;
        }
        rc = logp_tree_from_parents(t, P, parent, order);
    }
    free(parent);
    free(order);
    return rc;
}

static int logp_binomial_parent(int v)
{
    return v & (v - 1); /* clear the lowest set bit */
}

static int logp_flat_parent(int v)
{
    (void)v;
    return 0;
}

logp_status_t logp_tree_binomial(logp_tree_t *t, int P)
{
    /* The largest subtree, v + 2^(k-1), is sent to first: children are sent
     * in descending rank order (a reduce receives them ascending). */
    return logp_tree_by_rule(t, P, logp_binomial_parent, 1);
}

logp_status_t logp_tree_flat(logp_tree_t *t, int P)
{
    return logp_tree_by_rule(t, P, logp_flat_parent, 0);
}

logp_status_t logp_tree_from_abs(logp_tree_t *t, int *perm, int P, int root, const int *parent, const int *order)
{
    memset(t, 0, sizeof(*t));
    if (P < 1 || root < 0 || root >= P || parent[root] != -1)
        return LOGP_ERR_ARG;
    int *start = calloc((size_t)P + 1, sizeof(int)), *kids = malloc(sizeof(int) * (size_t)P);
    int *label = malloc(sizeof(int) * (size_t)P), *stack = malloc(sizeof(int) * (size_t)P);
    int *vparent = malloc(sizeof(int) * (size_t)P), *vorder = malloc(sizeof(int) * (size_t)P);
    int rc = LOGP_ERR_NOMEM;
    if (!start || !kids || !label || !stack || !vparent || !vorder)
        goto out;
    rc = LOGP_ERR_ARG;
    for (int i = 0; i < P - 1; i++) {
        int c = order[i];
        if (c < 0 || c >= P || c == root || parent[c] < 0 || parent[c] >= P)
            goto out;
        start[parent[c] + 1]++;
    }
    for (int v = 0; v < P; v++) {
        start[v + 1] += start[v];
        label[v] = -1;
    }
    for (int v = 0; v < P; v++)
        stack[v] = start[v]; /* fill cursors */
    for (int i = 0; i < P - 1; i++)
        kids[stack[parent[order[i]]]++] = order[i];
    /* preorder: first child first, so push the children in reverse */
    int top = 0, n = 0;
    stack[top++] = root;
    while (top > 0) {
        int u = stack[--top];
        if (label[u] >= 0)
            goto out; /* reached twice: order lists a rank twice */
        label[u] = n;
        perm[n++] = u;
        for (int j = start[u + 1] - 1; j >= start[u]; j--)
            stack[top++] = kids[j]; /* each of the P - 1 entries at most once */
    }
    if (n != P)
        goto out; /* a cycle or a rank not listed */
    vparent[0] = -1;
    for (int v = 1; v < P; v++)
        vparent[v] = label[parent[perm[v]]];
    for (int i = 0; i < P - 1; i++)
        vorder[i] = label[order[i]];
    rc = logp_tree_from_parents(t, P, vparent, vorder);
out:
    free(start);
    free(kids);
    free(label);
    free(stack);
    free(vparent);
    free(vorder);
    return rc;
}
