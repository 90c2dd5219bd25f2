/* Plans: building the shape of each registered algorithm once, and reading
 * a rank's operations from it (see plan.h). */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "alltoall.h"
#include "tree_chain.h"
#include "tree_logp.h"

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
    case LOGP_ALGO_LOGP_TREE: {
        double delay = logp_params_p2p(params, m), gap = logp_params_gap(params, m);
        if (plan->coll == LOGP_COLL_REDUCE) {
            /* S*(P; L, o, g) = T*(P; L + combine, o, g); the parent also
             * cannot take results faster than it combines them. */
            double mg = (double)m * params->gamma;
            delay += mg;
            if (params->o + mg > gap)
                gap = params->o + mg;
        }
        if (delay <= 0.0) /* a free network: any tree is optimal, take binomial */
            return logp_tree_binomial(&plan->tree, P);
        return logp_tree_optimal(&plan->tree, P, delay, gap, NULL, NULL);
    }
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
    if (coll == LOGP_COLL_ALLTOALL)
        return LOGP_OK;
    if (coll == LOGP_COLL_REDUCE && !(opts && opts->commutative))
        plan->tree_root = 0; /* combine in rank order, then hand over */
    return logp_plan_build_tree(plan, params, opts);
}

void logp_plan_free(logp_plan_t *plan)
{
    if (plan == NULL)
        return;
    logp_tree_free(&plan->tree);
    memset(plan, 0, sizeof(*plan));
}

/* Absolute rank of relative tree rank v. */
static int logp_plan_abs(const logp_plan_t *plan, int v)
{
    return (v + plan->tree_root) % plan->P;
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
    if (plan->coll == LOGP_COLL_ALLTOALL)
        return 2 * (plan->algo == LOGP_ALGO_RING ? P - 1 : logp_butterfly_steps(P));
    int v = (rank - plan->tree_root + P) % P, nk = logp_tree_nkids(&plan->tree, v);
    if (plan->coll == LOGP_COLL_BCAST)
        return (v != 0) + nk;
    return 1 + nk + (v != 0) + logp_plan_handover(plan, rank);
}

logp_op_t logp_plan_op(const logp_plan_t *plan, int rank, int i)
{
    int P = plan->P;
    size_t m = plan->bytes;
    if (plan->coll == LOGP_COLL_ALLTOALL) {
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
    int v = (rank - plan->tree_root + P) % P, nk = logp_tree_nkids(t, v);
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
