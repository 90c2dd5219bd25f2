/* pmpi-logp tree (see cli_tree.h). */
#include "cli_tree.h"

#include <stdio.h>
#include <stdlib.h>

#include "../model/plan.h"
#include "../model/sched.h"
#include "../model/sched_chain.h"
#include "../model/sched_tree.h"
#include "../model/sim.h"

/* The head of tree's outputs: "bcast binomial, P=8, root 0, 64 B" (an allreduce has no root). */
static void print_head(const logp_cli_t *c, logp_algo_t algo)
{
    printf("%s %s, P=%d, ", logp_coll_name(c->coll), logp_algo_name(algo), c->P);
    printf(c->coll == LOGP_COLL_ALLREDUCE ? "%zu B" : "root %2$d, %1$zu B", c->bytes, c->root);
}

/* Prints rank r and, below it, its subtree (children in send order). */
static void print_subtree(const logp_sched_t *s, const logp_cli_t *c, const double *fin, const double *got, int r,
                          int depth)
{
    logp_view_t v;
    logp_view_init(&v, s, c->root, r, 1);
    printf("%*s%d", 2 * depth, "", r);
    if (c->topo.P > 0)
        printf(" [node %d%s]", logp_topo_node(&c->topo, r),
               logp_topo_speed(&c->topo, r) != 1.0 ? (logp_topo_speed(&c->topo, r) > 1.0 ? " fast" : " slow") : "");
    if (c->coll == LOGP_COLL_BCAST) /* when it holds the data */
        printf("  (receives at %.4g us)\n", got[r] < 0.0 ? 0.0 : got[r] * 1e6);
    else /* when its CPU is done: result sent up */
        printf("  (done at %.4g us)\n", fin[r] * 1e6);
    for (int j = 0; j < v.node.nkids; j++)
        print_subtree(s, c, fin, got, s->fam->kid(s, v.tree_root, &v.node, j), depth + 1);
}

/* tree --rank R: one rank's place, from its own view only (any P). */
static int tree_rank(const logp_cli_t *c, const logp_sched_t *s)
{
    logp_view_t v;
    if (logp_view_init(&v, s, c->root, c->rank, 1) != LOGP_OK)
        return 1;
    print_head(c, s->algo);
    printf(", rank %d\n", c->rank);
    printf(v.node.parent < 0 ? "parent: none (the root)\n" : "parent: %d\n", v.node.parent);
    printf("children (%d, in send order):", v.node.nkids);
    for (int j = 0; j < v.node.nkids; j++)
        printf(" %d", s->fam->kid(s, v.tree_root, &v.node, j));
    printf("\n");
    double at = logp_sched_tree_ready(s, c->root, c->rank, 1);
    if (at < 0.0)
        at = logp_sched_chain_ready(s, c->root, c->rank, 1);
    if (at >= 0.0 && logp_sched_uniform(s)) /* an allreduce's: its reduce half, before the result comes down */
        printf("%s: %.6g us\n", c->coll == LOGP_COLL_BCAST ? "receives at" : c->coll == LOGP_COLL_ALLREDUCE ?
               "subtree combined at" : "result combined at", at * 1e6);
    return 0;
}

/* A rank's operations of a schedule that is not a tree (parts of the
 * message, exchanges): at most `max` of them, one per line. */
static void print_ops(const logp_sched_t *s, int root, int rank, int max)
{
    static const char *const kinds[] = {"send to",   "recv from",   "recv+combine from",
                                        "own value", "combine own", "own part to result", "fold slots"};
    logp_view_t v;
    if (logp_view_init(&v, s, root, rank, 1) != LOGP_OK)
        return;
    printf("rank %d: %d operations, %d messages\n", rank, v.nops, logp_view_messages(&v));
    for (int i = 0; i < v.nops && i < max; i++) {
        logp_op_t o = logp_view_op(&v, i);
        printf("  %-18s", kinds[o.kind]);
        if (o.kind <= LOGP_OP_RECV_REDUCE)
            printf(" %6d", o.peer);
        else /* local work: no peer, the columns stay aligned */
            printf(" %6s", "");
        if (o.nparts > 0)
            printf("  parts [%d, %d) of %d", o.part, o.part + o.nparts, s->parts);
        if (o.kind == LOGP_OP_RECV && o.arg >= LOGP_RECV_SLOT)
            printf("  %zu B (slot %d)\n", o.bytes, o.arg - LOGP_RECV_SLOT);
        else if (o.kind == LOGP_OP_FOLD)
            printf("  %zu B (%d operands, own %d-th)\n", o.bytes, o.arg, o.peer);
        else
            printf("  %zu B%s\n", o.bytes, o.arg == LOGP_RECV_RESULT && o.kind <= LOGP_OP_RECV ? " (the result)" : "");
    }
    if (v.nops > max)
        printf("  ... %d more\n", v.nops - max);
}

/* tree for a schedule that is not a tree: its parts and operations. */
static int cmd_tree_ops(const logp_cli_t *c, const logp_sched_t *s)
{
    if (!logp_coll_exchanges(c->coll)) {
        print_head(c, s->algo);
        printf(", %d part%s, ", s->parts, s->parts == 1 ? "" : "s");
    } else if (s->fam->flags & LOGP_FAMILY_A2A_BRUCK)
        printf("alltoall %s, P=%d, %zu B per block, radix %d, ", logp_algo_name(s->algo), c->P, c->bytes, s->k);
    else
        printf("%s %s, P=%d, %zu B per block, ", logp_coll_name(c->coll), logp_algo_name(s->algo), c->P, c->bytes);
    if (!logp_coll_exchanges(c->coll) && s->window > 0) /* sched.h */
        printf("paced (synchronous sends, at most %d in flight), ", s->window);
    logp_cli_print_model(c);
    if (c->rank >= 0) {
        print_ops(s, c->root, c->rank, 64);
    } else {
        for (int r = 0; r < c->P && r < 8; r++)
            print_ops(s, c->root, r, 12);
        if (c->P > 8)
            printf("(ranks 8 .. %d: --rank R)\n", c->P - 1);
    }
    double t = logp_plan_predict(s, c->root, 1);
    if (t >= 0.0 && (c->rank < 0 || logp_sched_alike(s)))
        printf("completion: %.6g us\n", t * 1e6);
    return 0;
}

int logp_cli_tree(const logp_cli_t *c)
{
    logp_sched_t s;
    logp_sched_opts_t opts = {c->k, 0, 0, 0, 0, 0};
    logp_topo_t topo = logp_cli_topo(c);
    if (logp_plan_build(&s, c->coll, c->algo, c->bytes, &topo, &opts) != LOGP_OK) {
        fprintf(stderr, "pmpi-logp: cannot build %s %s for P=%d\n", logp_coll_name(c->coll),
                logp_algo_name(c->algo), c->P);
        return 1;
    }
    if (s.fam->node == NULL || c->rank >= 0) { /* parts and exchanges, not a tree; or one rank's place */
        int rc = s.fam->node == NULL ? cmd_tree_ops(c, &s) : tree_rank(c, &s);
        logp_sched_free(&s);
        return rc;
    }
    double *fin = malloc(sizeof(double) * (size_t)c->P), *got = malloc(sizeof(double) * (size_t)c->P), total = 0;
    if (fin == NULL || got == NULL || logp_sim_run(&s, c->root, 1, fin, got, &total) != LOGP_OK) {
        free(fin);
        free(got);
        logp_sched_free(&s);
        return 1;
    }
    if (c->dot) {
        printf("digraph \"%s %s P=%d\" {\n  rankdir=TB; node [shape=circle];\n", logp_coll_name(c->coll),
               logp_algo_name(c->algo), c->P);
        for (int r = 0; r < c->P; r++) {
            double at = c->coll == LOGP_COLL_BCAST ? (got[r] < 0.0 ? 0.0 : got[r]) : fin[r];
            printf("  n%d [label=\"%d\\n%.3gus\"", r, r, at * 1e6);
            if (c->topo.P > 0) /* one colour per node */
                printf(" style=filled fillcolor=\"/pastel19/%d\"", 1 + logp_topo_node(&c->topo, r) % 9);
            printf("];\n");
        }
        for (int r = 0; r < c->P; r++) {
            logp_view_t v;
            logp_view_init(&v, &s, c->root, r, 1);
            int p = v.node.parent;
            if (p < 0)
                continue;
            int cross = c->topo.P > 0 && logp_topo_node(&c->topo, r) != logp_topo_node(&c->topo, p);
            printf(c->coll == LOGP_COLL_BCAST ? "  n%d -> n%d%s;\n" : c->coll == LOGP_COLL_ALLREDUCE ?
                   "  n%d -> n%d [dir=both]%s;\n" : "  n%2$d -> n%1$d%3$s;\n", p, r, cross ? " [penwidth=2.5]" : "");
        }
        printf("}\n");
    } else {
        print_head(c, s.algo);
        printf(", ");
        logp_cli_print_model(c);
        print_subtree(&s, c, fin, got, c->root, 0);
        if (s.k > 0)
            printf("chains: %d\n", s.k);
        printf("completion: %.6g us\n", total * 1e6);
    }
    free(fin);
    free(got);
    logp_sched_free(&s);
    return 0;
}
