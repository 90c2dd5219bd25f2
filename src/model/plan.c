/* Plans: building the shape of each registered algorithm once, and reading
 * a rank's operations from it (see plan.h). */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "alltoall.h"
#include "sim.h"
#include "tree_chain.h"
#include "tree_logp.h"
#include "tree_topo.h"

static int logp_plan_build_tree(logp_plan_t *plan, const logp_params_t *params,
                                const logp_plan_opts_t *opts)
{
    int P = plan->P, rc = LOGP_ERR_ARG;
    size_t m = plan->bytes;
    switch (plan->algo) {
    case LOGP_ALGO_BINOMIAL:
        return logp_tree_binomial(&plan->tree, P);
    case LOGP_ALGO_FLAT:
        return logp_tree_flat(&plan->tree, P);
    case LOGP_ALGO_LOGP_TREE:
        return logp_tree_model(&plan->tree, P, params, m, plan->coll == LOGP_COLL_REDUCE, NULL);
    case LOGP_ALGO_CHAIN:
    case LOGP_ALGO_CHAIN_OPT:
    case LOGP_ALGO_CHAIN_ADAPTIVE: {
        int *len = malloc(sizeof(int) * (size_t)P); /* at most P - 1 chains */
        if (len == NULL)
            return LOGP_ERR_NOMEM;
        if (plan->algo == LOGP_ALGO_CHAIN_ADAPTIVE) {
            plan->k = logp_chain_adaptive_lengths(P, len);
        } else {
            int k = plan->algo == LOGP_ALGO_CHAIN ? (opts && opts->chain_k > 0 ? opts->chain_k : 4)
                                                  : logp_chain_best_k(params, m, P);
            logp_chain_order_t order = opts && opts->long_first ? LOGP_CHAIN_LONG_FIRST : LOGP_CHAIN_SHORT_FIRST;
            plan->k = logp_chain_lengths(P, k, order, len);
        }
        rc = logp_tree_chains(&plan->tree, P, len, plan->k);
        free(len);
        return rc;
    }
    default:
        return rc;
    }
}

/* Installs a tree given over absolute ranks (tree_topo.h form). */
static int logp_plan_set_abs_tree(logp_plan_t *plan, const int *parent, const int *order)
{
    int P = plan->P;
    plan->perm = malloc(sizeof(int) * (size_t)P);
    plan->iperm = malloc(sizeof(int) * (size_t)P);
    if (!plan->perm || !plan->iperm)
        return LOGP_ERR_NOMEM;
    int rc = logp_tree_from_abs(&plan->tree, plan->perm, P, plan->tree_root, parent, order);
    for (int v = 0; rc == LOGP_OK && v < P; v++)
        plan->iperm[plan->perm[v]] = v;
    return rc;
}

/* hetero-tree and two-level (commutative reduce or bcast).  hetero-tree
 * keeps the candidate the simulator prices fastest under the layout; the
 * uniform logp-tree is one of them, so it is never worse than that. */
static int logp_plan_build_topo_tree(logp_plan_t *plan, const logp_params_t *params, const logp_topo_t *topo)
{
    int P = plan->P, reduce = plan->coll == LOGP_COLL_REDUCE, rc = LOGP_ERR_NOMEM;
    int *parent = malloc(sizeof(int) * (size_t)P), *order = malloc(sizeof(int) * (size_t)P);
    if (!parent || !order)
        goto out;
    if (plan->algo == LOGP_ALGO_TWO_LEVEL) {
        if ((rc = logp_tree_two_level(topo, plan->tree_root, plan->bytes, reduce, parent, order)) == LOGP_OK)
            rc = logp_plan_set_abs_tree(plan, parent, order);
        goto out;
    }
    rc = logp_tree_model(&plan->tree, P, params, plan->bytes, reduce, NULL); /* the uniform candidate */
    double best = rc == LOGP_OK ? logp_sim_predict_topo(plan, topo) : -1.0;
    for (int rule = 0; rule < LOGP_GREEDY_RULES && rc == LOGP_OK; rule++) {
        logp_plan_t cand = *plan;
        cand.perm = cand.iperm = NULL;
        memset(&cand.tree, 0, sizeof(cand.tree));
        rc = logp_tree_greedy(topo, plan->tree_root, plan->bytes, reduce, (logp_greedy_rule_t)rule, parent, order);
        if (rc == LOGP_ERR_ARG) { /* a rule over its work budget: not a candidate */
            rc = LOGP_OK;
            continue;
        }
        if (rc == LOGP_OK)
            rc = logp_plan_set_abs_tree(&cand, parent, order);
        double t = rc == LOGP_OK ? logp_sim_predict_topo(&cand, topo) : -1.0;
        /* a greedy tree must be really faster: ties (to rounding) keep the
         * uniform optimum, so a uniform layout gives exactly logp-tree */
        if (t >= 0.0 && (best < 0.0 || t < best * (1.0 - 1e-12))) {
            best = t;
            logp_plan_t swap = *plan;
            *plan = cand;
            cand = swap;
        }
        logp_tree_free(&cand.tree);
        free(cand.perm);
        free(cand.iperm);
    }
out:
    free(parent);
    free(order);
    return rc;
}

/* node-aggregate: the layout, copied into the plan. */
static int logp_plan_build_nodes(logp_plan_t *plan, const logp_topo_t *topo)
{
    int P = plan->P, N = topo->nnodes;
    plan->nnodes = N;
    plan->node_start = malloc(sizeof(int) * ((size_t)N + 1));
    plan->members = malloc(sizeof(int) * (size_t)P);
    plan->leaders = malloc(sizeof(int) * (size_t)N);
    plan->node_of = malloc(sizeof(int) * (size_t)P);
    if (!plan->node_start || !plan->members || !plan->leaders || !plan->node_of)
        return LOGP_ERR_NOMEM;
    logp_topo_members(topo, plan->node_start, plan->members);
    for (int a = 0; a < N; a++)
        plan->leaders[a] = logp_topo_leader(topo, plan->node_start, plan->members, a, -1);
    for (int r = 0; r < P; r++)
        plan->node_of[r] = logp_topo_node(topo, r);
    return LOGP_OK;
}

int logp_plan_build(logp_plan_t *plan, logp_coll_t coll, logp_algo_t algo, int P, int root,
                    size_t bytes, const logp_params_t *params, const logp_plan_opts_t *opts)
{
    memset(plan, 0, sizeof(*plan));
    if (P < 1 || root < 0 || root >= P || !logp_algo_supports(algo, coll) || algo == LOGP_ALGO_NATIVE ||
        algo == LOGP_ALGO_AUTO || params == NULL)
        return LOGP_ERR_ARG;
    plan->coll = coll;
    plan->algo = algo;
    plan->P = P;
    plan->root = root;
    plan->bytes = bytes;
    plan->tree_root = root;
    plan->commutative = opts && opts->commutative;
    logp_topo_t uniform = logp_topo_uniform(P, params);
    const logp_topo_t *topo = opts && opts->topo ? opts->topo : &uniform;
    if (topo->P != P)
        return LOGP_ERR_ARG;
    int rc = LOGP_OK;
    if (coll == LOGP_COLL_ALLTOALL) {
        if (algo == LOGP_ALGO_NODE_AGGREGATE)
            rc = logp_plan_build_nodes(plan, topo);
    } else {
        if (coll == LOGP_COLL_REDUCE && !plan->commutative) {
            plan->tree_root = 0; /* combine in rank order, then hand over */
            if (algo == LOGP_ALGO_HETERO_TREE || algo == LOGP_ALGO_TWO_LEVEL)
                plan->algo = LOGP_ALGO_LOGP_TREE; /* no rank order in these shapes */
        }
        if (plan->algo == LOGP_ALGO_HETERO_TREE || plan->algo == LOGP_ALGO_TWO_LEVEL)
            rc = logp_plan_build_topo_tree(plan, params, topo);
        else
            rc = logp_plan_build_tree(plan, params, opts);
    }
    if (rc != LOGP_OK)
        logp_plan_free(plan);
    return rc;
}

void logp_plan_free(logp_plan_t *plan)
{
    if (plan == NULL)
        return;
    logp_tree_free(&plan->tree);
    free(plan->perm);
    free(plan->iperm);
    free(plan->node_start);
    free(plan->members);
    free(plan->leaders);
    free(plan->node_of);
    memset(plan, 0, sizeof(*plan));
}

/* Absolute rank of tree rank v, and back. */
static int logp_plan_abs(const logp_plan_t *plan, int v)
{
    return plan->perm ? plan->perm[v] : (v + plan->tree_root) % plan->P;
}

static int logp_plan_tree_rank(const logp_plan_t *plan, int rank)
{
    return plan->iperm ? plan->iperm[rank] : (rank - plan->tree_root + plan->P) % plan->P;
}

/* node-aggregate: a leader receives from its n - 1 members, exchanges with
 * the N - 1 other leaders (step k: to node a + k, from node a - k), sends to
 * its members; a member sends its P blocks to the leader and gets P back. */
static int logp_plan_aggregate_nops(const logp_plan_t *plan, int rank)
{
    int a = plan->node_of[rank], n = plan->node_start[a + 1] - plan->node_start[a];
    return rank == plan->leaders[a] ? 2 * (n - 1) + 2 * (plan->nnodes - 1) : 2;
}

static logp_op_t logp_plan_aggregate_op(const logp_plan_t *plan, int rank, int i)
{
    int a = plan->node_of[rank], N = plan->nnodes, lead = plan->leaders[a];
    int n = plan->node_start[a + 1] - plan->node_start[a];
    size_t all = (size_t)plan->P * plan->bytes;
    if (rank != lead)
        return (logp_op_t){i == 0 ? LOGP_OP_SEND : LOGP_OP_RECV, lead, 0, all};
    int first = i < n - 1, member = first ? i : i - (n - 1) - 2 * (N - 1);
    if (first || member >= 0) { /* gather (receives) or scatter (sends), members in rank order but the leader */
        int j = plan->node_start[a] + member;
        if (plan->members[j] >= lead) /* skip the leader itself */
            j++;
        return (logp_op_t){first ? LOGP_OP_RECV : LOGP_OP_SEND, plan->members[j], 0, all};
    }
    i -= n - 1;
    int k = i / 2 + 1, b = i % 2 == 0 ? (a + k) % N : (a - k + N) % N;
    size_t nb = (size_t)(plan->node_start[b + 1] - plan->node_start[b]);
    return (logp_op_t){i % 2 == 0 ? LOGP_OP_SEND : LOGP_OP_RECV, plan->leaders[b], k, (size_t)n * nb * plan->bytes};
}

/* A rank starts from its own value and combines each child's result as it
 * arrives.  To keep rank order for a non-commutative operator when the
 * children come in descending rank order (logp-tree, flat), it instead
 * takes the first result as is, prepends the others, and prepends its own
 * value last (one combine later on the critical path). */
static int logp_plan_prepends(const logp_plan_t *plan, int v)
{
    return !plan->commutative && logp_tree_nkids(&plan->tree, v) >= 2 && !logp_tree_kids_descending(&plan->tree, v);
}

static int logp_plan_handover(const logp_plan_t *plan, int rank)
{
    return plan->tree_root != plan->root && (rank == plan->root || rank == plan->tree_root);
}

int logp_plan_nops(const logp_plan_t *plan, int rank)
{
    int P = plan->P;
    if (plan->coll == LOGP_COLL_ALLTOALL) {
        if (plan->algo == LOGP_ALGO_NODE_AGGREGATE)
            return logp_plan_aggregate_nops(plan, rank);
        return 2 * (plan->algo == LOGP_ALGO_RING ? P - 1 : logp_butterfly_steps(P));
    }
    int v = logp_plan_tree_rank(plan, rank), nk = logp_tree_nkids(&plan->tree, v);
    if (plan->coll == LOGP_COLL_BCAST)
        return (v != 0) + nk;
    return 1 + nk + (v != 0) + logp_plan_handover(plan, rank);
}

logp_op_t logp_plan_op(const logp_plan_t *plan, int rank, int i)
{
    int P = plan->P;
    size_t m = plan->bytes;
    if (plan->coll == LOGP_COLL_ALLTOALL) {
        if (plan->algo == LOGP_ALGO_NODE_AGGREGATE)
            return logp_plan_aggregate_op(plan, rank, i);
        int step = i / 2, send = (i % 2) == 0;
        if (plan->algo == LOGP_ALGO_RING) {
            int k = step + 1;
            return (logp_op_t){send ? LOGP_OP_SEND : LOGP_OP_RECV,
                               send ? logp_ring_send_peer(P, rank, k) : logp_ring_recv_peer(P, rank, k), k, m};
        }
        int dist = 1 << step;
        size_t nb = (size_t)logp_butterfly_nblocks(P, step);
        return (logp_op_t){send ? LOGP_OP_SEND : LOGP_OP_RECV, send ? (rank + dist) % P : (rank - dist % P + P) % P,
                           step, nb * m};
    }
    const logp_tree_t *t = &plan->tree;
    int v = logp_plan_tree_rank(plan, rank), nk = logp_tree_nkids(t, v);
    const int *kids = t->kids + t->kid_start[v];
    if (plan->coll == LOGP_COLL_BCAST) {
        if (v != 0) {
            if (i == 0)
                return (logp_op_t){LOGP_OP_RECV, logp_plan_abs(plan, t->parent[v]), 0, m};
            i--;
        }
        return (logp_op_t){LOGP_OP_SEND, logp_plan_abs(plan, kids[i]), 0, m};
    }
    /* reduce: children in reverse send order, combined, then up the tree */
    if (i < nk + 1) {
        if (logp_plan_prepends(plan, v)) {
            if (i == nk)
                return (logp_op_t){LOGP_OP_REDUCE_OWN, rank, LOGP_SIDE_PREPEND, m};
            return (logp_op_t){i == 0 ? LOGP_OP_RECV : LOGP_OP_RECV_REDUCE, logp_plan_abs(plan, kids[nk - 1 - i]),
                               LOGP_SIDE_PREPEND, m};
        }
        if (i == 0)
            return (logp_op_t){LOGP_OP_INIT_OWN, rank, 0, m};
        return (logp_op_t){LOGP_OP_RECV_REDUCE, logp_plan_abs(plan, kids[nk - i]), LOGP_SIDE_APPEND, m};
    }
    i -= nk + 1;
    if (v != 0) {
        if (i == 0)
            return (logp_op_t){LOGP_OP_SEND, logp_plan_abs(plan, t->parent[v]), 0, m};
        i--;
    }
    /* hand-over of a rank-order result to a root other than rank 0 */
    if (rank == plan->tree_root)
        return (logp_op_t){LOGP_OP_SEND, plan->root, LOGP_RECV_RESULT, m};
    return (logp_op_t){LOGP_OP_RECV, plan->tree_root, LOGP_RECV_RESULT, m};
}
