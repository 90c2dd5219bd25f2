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
static int logp_tree_level(const logp_topo_t *topo, const logp_params_t *p, size_t bytes, int reduce,
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

int logp_tree_two_level(const logp_topo_t *topo, int root, size_t bytes, int reduce, int *parent, int *order)
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

/* Delay from the start of u's send until v holds the data (and, reduce,
 * has combined it at u), and u's spacing between sends. */
static void logp_tree_pair_cost(const logp_topo_t *topo, int u, int v, size_t bytes, int reduce, double *delay,
                                double *gap)
{
    const logp_params_t *p = logp_topo_pair(topo, u, v);
    double su = logp_topo_speed(topo, u), sv = logp_topo_speed(topo, v);
    double inj = logp_params_inj(p, bytes), ou = p->o / su;
    *delay = ou + inj + p->L + p->o / sv;
    *gap = p->g / su > ou + inj ? p->g / su : ou + inj;
    if (reduce) {
        double comb = (double)bytes * topo->intra.gamma / su;
        *delay += comb;
        if (ou + comb > *gap)
            *gap = ou + comb;
    }
}

int logp_tree_greedy(const logp_topo_t *topo, int root, size_t bytes, int reduce, logp_greedy_rule_t rule,
                     int *parent, int *order)
{
    int P = topo->P, N = topo->nnodes;
    if (root < 0 || root >= P || rule < 0 || rule >= LOGP_GREEDY_RULES)
        return LOGP_ERR_ARG;
    double *free_at = malloc(sizeof(double) * (size_t)P); /* informed: next send; else < 0 */
    int *reached = calloc((size_t)N, sizeof(int)), *informed = malloc(sizeof(int) * (size_t)P);
    if (!free_at || !reached || !informed) {
        free(free_at);
        free(reached);
        free(informed);
        return LOGP_ERR_NOMEM;
    }
    for (int r = 0; r < P; r++)
        free_at[r] = -1.0;
    free_at[root] = 0.0;
    parent[root] = -1;
    informed[0] = root;
    reached[logp_topo_node(topo, root)] = 1;
    int ninformed = 1, nodes_left = N - 1;
    for (int k = 0; k < P - 1; k++) {
        int u = informed[0];
        for (int i = 1; i < ninformed; i++) {
            int c = informed[i];
            if (free_at[c] < free_at[u] || (free_at[c] == free_at[u] && c < u))
                u = c;
        }
        int best = -1;
        double best_ready = 0.0, delay, gap;
        for (int v = 0; v < P; v++) {
            if (free_at[v] >= 0.0)
                continue;
            if (rule == LOGP_GREEDY_NEW_NODE && nodes_left > 0 && reached[logp_topo_node(topo, v)])
                continue;
            logp_tree_pair_cost(topo, u, v, bytes, reduce, &delay, &gap);
            double t = free_at[u] + delay, sv = logp_topo_speed(topo, v);
            int better;
            if (best < 0)
                better = 1;
            else if (rule == LOGP_GREEDY_FASTEST && sv != logp_topo_speed(topo, best))
                better = sv > logp_topo_speed(topo, best);
            else
                better = t < best_ready || (t == best_ready && sv > logp_topo_speed(topo, best));
            if (better) {
                best = v;
                best_ready = t;
            }
        }
        logp_tree_pair_cost(topo, u, best, bytes, reduce, &delay, &gap);
        parent[best] = u;
        order[k] = best;
        free_at[best] = best_ready;
        free_at[u] += gap;
        informed[ninformed++] = best;
        if (!reached[logp_topo_node(topo, best)]) {
            reached[logp_topo_node(topo, best)] = 1;
            nodes_left--;
        }
    }
    free(free_at);
    free(reached);
    free(informed);
    return LOGP_OK;
}
