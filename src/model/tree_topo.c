/* Two-level and greedy trees for heterogeneous layouts.
 *
 * two-level: cost of the shape = inter-node tree T*(N; L_inter, o, g) among
 *   N node leaders, then T*(n_a; L_intra, o, g) inside each node (seed 000
 *   per level); what the simulator computes for the combined plan.
 * greedy: earliest-sender-first construction of seed 000 with per-pair
 *   delays 2o + L + (m-1)G from seed 003's pair classes and speeds. */
#include "tree_topo.h"

#include <stdlib.h>

#include "tree.h"
#include "tree_logp.h"

typedef struct {
    double key; /* sorted ascending */
    int tie;    /* then ascending */
    int id;
} logp_rank_key_t;

static int logp_rank_key_cmp(const void *a, const void *b)
{
    const logp_rank_key_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->tie > y->tie) - (x->tie < y->tie);
}

/* One level: a model-optimal tree over the n ranks ids[0..n-1] (ids[0] its
 * root), the faster ones at the positions informed first.  Appends every
 * child to order[*k] level by level of the caller, sets parent[]. */
static logp_status_t logp_tree_level(const logp_topo_t *topo, const logp_params_t *p, size_t bytes, int reduce,
                                     const int *ids, int n, int *parent, int *order, int *k)
{
    if (n <= 1)
        return LOGP_OK;
    logp_tree_t t;
    double *ready = malloc(sizeof(double) * (size_t)n);
    logp_rank_key_t *pos = malloc(sizeof(*pos) * (size_t)n), *who = malloc(sizeof(*who) * (size_t)n);
    int *map = malloc(sizeof(int) * (size_t)n);
    int rc = LOGP_ERR_NOMEM;
    if (!ready || !pos || !who || !map)
        goto out;
    if ((rc = logp_tree_model(&t, n, p, bytes, reduce, ready)) != LOGP_OK)
        goto out;
    for (int v = 1; v < n; v++) {
        pos[v - 1] = (logp_rank_key_t){ready[v], v, v};
        who[v - 1] = (logp_rank_key_t){-logp_topo_speed(topo, ids[v]), ids[v], ids[v]};
    }
    qsort(pos, (size_t)n - 1, sizeof(*pos), logp_rank_key_cmp);
    qsort(who, (size_t)n - 1, sizeof(*who), logp_rank_key_cmp);
    map[0] = ids[0];
    for (int i = 0; i < n - 1; i++)
        map[pos[i].id] = who[i].id;
    for (int v = 0; v < n; v++)
        for (int j = t.kid_start[v]; j < t.kid_start[v + 1]; j++) {
            parent[map[t.kids[j]]] = map[v];
            order[(*k)++] = map[t.kids[j]];
        }
    logp_tree_free(&t);
out:
    free(ready);
    free(pos);
    free(who);
    free(map);
    return rc;
}

logp_status_t logp_tree_two_level(const logp_topo_t *topo, int root, size_t bytes, int reduce, int *parent, int *order)
{
    int P = topo->P, N = topo->nnodes, k = 0, rc = LOGP_ERR_NOMEM;
    if (root < 0 || root >= P)
        return LOGP_ERR_ARG;
    int *start = malloc(sizeof(int) * ((size_t)N + 1)), *members = malloc(sizeof(int) * (size_t)P);
    int *leaders = malloc(sizeof(int) * (size_t)N), *ids = malloc(sizeof(int) * (size_t)P);
    if (!start || !members || !leaders || !ids)
        goto out;
    logp_topo_members(topo, start, members);
    int rnode = logp_topo_node(topo, root), nl = 0;
    leaders[nl++] = root;
    for (int a = 0; a < N; a++)
        if (a != rnode)
            leaders[nl++] = logp_topo_leader(topo, start, members, a, root);
    parent[root] = -1;
    /* leaders first in every leader's send order: their level goes first */
    rc = logp_tree_level(topo, &topo->inter, bytes, reduce, leaders, nl, parent, order, &k);
    for (int a = 0; a < N && rc == LOGP_OK; a++) {
        int lead = logp_topo_leader(topo, start, members, a, root), n = 0;
        ids[n++] = lead;
        for (int i = start[a]; i < start[a + 1]; i++)
            if (members[i] != lead)
                ids[n++] = members[i];
        rc = logp_tree_level(topo, &topo->intra, bytes, reduce, ids, n, parent, order, &k);
    }
out:
    free(start);
    free(members);
    free(leaders);
    free(ids);
    return rc;
}

/* u starts a send to v at time t: when v holds the data (and, reduce, it
 * is combined at u), u's next send, and the node interfaces (sim.c's
 * rule: one injection at a time out of a node, one delivery into it). */
typedef struct {
    double ready, next_send, nic_out, nic_in;
} logp_tree_step_t;

static logp_tree_step_t logp_tree_step(const logp_topo_t *topo, int u, int v, double t, size_t bytes, int reduce,
                                       const double *nic_out, const double *nic_in)
{
    const logp_params_t *p = logp_topo_pair(topo, u, v);
    int nu = logp_topo_node(topo, u), nv = logp_topo_node(topo, v);
    double su = logp_topo_speed(topo, u), sv = logp_topo_speed(topo, v);
    double inj = logp_params_inj(p, bytes), ou = p->o / su, gap = p->g / su > ou + inj ? p->g / su : ou + inj;
    double arrive = t + ou + inj + p->L;
    logp_tree_step_t s = {0.0, 0.0, nic_out[nu], nic_in[nv]};
    if (nu != nv) {
        double inject = t + ou > nic_out[nu] ? t + ou : nic_out[nu];
        s.nic_out = inject + inj;
        arrive = inject + inj + p->L > nic_in[nv] + inj ? inject + inj + p->L : nic_in[nv] + inj;
        s.nic_in = arrive;
    }
    s.ready = arrive + p->o / sv;
    if (!reduce && bytes > LOGP_PARAMS_SERIAL_BYTES && arrive > t + gap) /* params.h: the next send waits for it */
        gap = arrive - t;
    if (reduce) {
        double comb = (double)bytes * topo->intra.gamma / su;
        s.ready += comb;
        if (ou + comb > gap)
            gap = ou + comb;
    }
    s.next_send = t + gap;
    return s;
}

/* LOGP_GREEDY_EDGE: ranks alike (same node, same speed) are one class;
 * first[c] is the lowest uninformed rank of class c (-1: none left). */
static int logp_tree_classes(const logp_topo_t *topo, int *cls, int *first)
{
    int P = topo->P, ncls = 0;
    for (int r = 0; r < P; r++) {
        int c = 0;
        while (c < ncls && !(logp_topo_node(topo, first[c]) == logp_topo_node(topo, r) &&
                             logp_topo_speed(topo, first[c]) == logp_topo_speed(topo, r)))
            c++;
        if (c == ncls)
            first[ncls++] = r;
        cls[r] = c;
    }
    return ncls;
}

/* The next uninformed rank of class c after rank `from`. */
static int logp_tree_class_next(int P, const int *cls, const double *free_at, int c, int from)
{
    for (int r = from + 1; r < P; r++)
        if (cls[r] == c && free_at[r] < 0.0)
            return r;
    return -1;
}

logp_status_t logp_tree_greedy(const logp_topo_t *topo, int root, size_t bytes, int reduce, logp_greedy_rule_t rule,
                               int *parent, int *order)
{
    int P = topo->P, N = topo->nnodes, rc = LOGP_ERR_NOMEM, edge = rule == LOGP_GREEDY_EDGE;
    if (root < 0 || root >= P || rule < 0 || rule >= LOGP_GREEDY_RULES)
        return LOGP_ERR_ARG;
    double *free_at = malloc(sizeof(double) * (size_t)P); /* informed: next send; else < 0 */
    double *nic_out = calloc((size_t)N, sizeof(double)), *nic_in = calloc((size_t)N, sizeof(double));
    int *reached = calloc((size_t)N, sizeof(int)), *informed = malloc(sizeof(int) * (size_t)P);
    int *cls = edge ? malloc(sizeof(int) * (size_t)P) : NULL, *first = edge ? malloc(sizeof(int) * (size_t)P) : NULL;
    if (!free_at || !nic_out || !nic_in || !reached || !informed || (edge && (!cls || !first)))
        goto out;
    rc = LOGP_ERR_ARG; /* over budget (every node is at least one class) */
    if ((double)P * P / 2 * (edge ? N : 1) > LOGP_GREEDY_BUDGET)
        goto out;
    for (int r = 0; r < P; r++)
        free_at[r] = -1.0;
    free_at[root] = 0.0;
    parent[root] = -1;
    informed[0] = root;
    reached[logp_topo_node(topo, root)] = 1;
    if (edge) {
        int ncls = logp_tree_classes(topo, cls, first);
        if ((double)P * P * ncls / 2 > LOGP_GREEDY_BUDGET)
            goto out;
        first[cls[root]] = logp_tree_class_next(P, cls, free_at, cls[root], -1);
    }
    int ninformed = 1, nodes_left = N - 1;
    for (int k = 0; k < P - 1; k++) {
        int best = -1, best_u = -1;
        logp_tree_step_t best_step = {0};
        for (int si = 0; si < ninformed; si++) {
            int u = informed[si];
            if (!edge) { /* only the informed rank that can send first */
                u = informed[0];
                for (int i = 1; i < ninformed; i++) {
                    int c = informed[i];
                    if (free_at[c] < free_at[u] || (free_at[c] == free_at[u] && c < u))
                        u = c;
                }
                si = ninformed;
            }
            for (int v = 0; v < P; v++) {
                if (free_at[v] >= 0.0 || (edge && first[cls[v]] != v)) /* a class stands for alike ranks */
                    continue;
                if (rule == LOGP_GREEDY_NEW_NODE && nodes_left > 0 && reached[logp_topo_node(topo, v)])
                    continue;
                logp_tree_step_t st = logp_tree_step(topo, u, v, free_at[u], bytes, reduce, nic_out, nic_in);
                double sv = logp_topo_speed(topo, v);
                int better;
                if (best < 0)
                    better = 1;
                else if (rule == LOGP_GREEDY_FASTEST && sv != logp_topo_speed(topo, best))
                    better = sv > logp_topo_speed(topo, best);
                else
                    better = st.ready < best_step.ready ||
                             (st.ready == best_step.ready && sv > logp_topo_speed(topo, best));
                if (better) {
                    best = v;
                    best_u = u;
                    best_step = st;
                }
            }
        }
        parent[best] = best_u;
        order[k] = best;
        free_at[best] = best_step.ready;
        free_at[best_u] = best_step.next_send;
        nic_out[logp_topo_node(topo, best_u)] = best_step.nic_out;
        nic_in[logp_topo_node(topo, best)] = best_step.nic_in;
        informed[ninformed++] = best;
        if (edge)
            first[cls[best]] = logp_tree_class_next(P, cls, free_at, cls[best], best);
        if (!reached[logp_topo_node(topo, best)]) {
            reached[logp_topo_node(topo, best)] = 1;
            nodes_left--;
        }
    }
    rc = LOGP_OK;
out:
    free(free_at);
    free(nic_out);
    free(nic_in);
    free(reached);
    free(informed);
    free(cls);
    free(first);
    return rc;
}
