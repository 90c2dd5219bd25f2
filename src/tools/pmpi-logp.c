/* pmpi-logp: the model from the command line (no MPI needed).
 *   pmpi-logp tree [--bcast|--reduce ALGO] --P N [--rank R] [params] [layout] [--dot]
 *   pmpi-logp predict --P N --bytes M [params] [layout]
 *   pmpi-logp sum-plan --P N --N OPERANDS --L l --o o --g g   (integers, seed 000)
 *   pmpi-logp check FILE [--P N] [--name NAME] [--intra-node]
 * params: --L --o --g (time: ns, us, ms, s; default us), --G (s/B: ns/B,
 * or a bandwidth like 10GB/s), --gamma (ns/B), --root R, --chain-k K.
 * layout: --nodes N --rpn R (ranks per node; P = N R), --speeds S0,S1,..
 * (per node), --intra-L/--intra-o/--intra-g/--intra-G (same-node pairs;
 * the plain parameters are then the inter-node ones). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../config/config.h"
#include "../config/units.h"
#include "../model/algo.h"
#include "../model/params.h"
#include "../model/sched.h"
#include "../model/sched_chain.h"
#include "../model/sched_tree.h"
#include "../model/sim.h"
#include "../model/topo.h"
#include "../model/tree_chain.h"
#include "../model/tree_logp.h"
#include "../select/select.h"

#define LOGP_CLI_MAX_SPEEDS 4096

typedef struct {
    logp_params_t p, intra;
    int P, root, k, dot, nodes, rpn, intra_set, nspeeds, rank;
    long N;
    size_t bytes;
    logp_coll_t coll;
    logp_algo_t algo;
    double speeds[LOGP_CLI_MAX_SPEEDS]; /* per node */
    logp_topo_t topo;                   /* topo.P == 0: no layout given */
} logp_cli_t;

static void usage(FILE *f)
{
    fprintf(f, "usage: pmpi-logp tree [--bcast ALGO | --reduce ALGO] --P N [--rank R] [params] [--dot]\n"
               "       pmpi-logp predict --P N --bytes M [params]\n"
               "       pmpi-logp decide --P N --bytes M [params]   (auto's choice and the time it takes)\n"
               "       pmpi-logp sum-plan --P N --N OPERANDS --L l --o o --g g\n"
               "       pmpi-logp check FILE [--P N] [--name NAME] [--intra-node]\n"
               "params: --L T --o T --g T (T: number with ns, us (default), ms or s)\n"
               "        --G X (ns/B, us/B, s/B, or bandwidth B/s KB/s MB/s GB/s) --gamma X (ns/B ...)\n"
               "        --root R --chain-k K --bytes M\n"
               "layout: --nodes N --rpn R (P = N R; either one with --P), --speeds S0,S1,.. (per node, relative)\n"
               "        --intra-L T --intra-o T --intra-g T --intra-G X (same-node pairs; the plain\n"
               "        parameters are then the inter-node ones)\n");
}

/* "1,0.5,2" -> c->speeds; -1 if malformed or not > 0. */
static int parse_speeds(const char *v, logp_cli_t *c)
{
    c->nspeeds = 0;
    for (const char *s = v; *s;) {
        char *end;
        double x = strtod(s, &end);
        if (end == s || !(x > 0.0) || c->nspeeds == LOGP_CLI_MAX_SPEEDS || (*end != ',' && *end != '\0'))
            return -1;
        c->speeds[c->nspeeds++] = x;
        s = *end ? end + 1 : end;
    }
    return c->nspeeds > 0 ? 0 : -1;
}

/* Builds c->topo from --nodes/--rpn/--speeds/--intra-*: node k holds ranks
 * k R .. k R + R - 1 (the last node may be short when --P is given). */
static int make_layout(logp_cli_t *c, int P_given)
{
    if (c->nodes == 0 && c->rpn == 0 && c->nspeeds == 0 && c->intra_set == 0)
        return 0;
    logp_params_t given = c->intra; /* unset intra parameters are the plain ones */
    c->intra = c->p;
    if (c->intra_set & 1)
        c->intra.L = given.L;
    if (c->intra_set & 2)
        c->intra.o = given.o;
    if (c->intra_set & 4)
        c->intra.g = given.g;
    if (c->intra_set & 8)
        c->intra.G = given.G;
    if (c->nodes > 0 && c->rpn > 0) {
        if (P_given && c->P != c->nodes * c->rpn) {
            fprintf(stderr, "pmpi-logp: --P %d disagrees with --nodes %d x --rpn %d\n", c->P, c->nodes, c->rpn);
            return -1;
        }
        c->P = c->nodes * c->rpn;
    } else if (c->nodes > 0) {
        c->rpn = (c->P + c->nodes - 1) / c->nodes;
    } else if (c->rpn == 0) {
        c->rpn = c->P; /* one node: only speeds or intra parameters given */
    }
    c->nodes = (c->P + c->rpn - 1) / c->rpn;
    if (c->nspeeds != 0 && c->nspeeds != 1 && c->nspeeds != c->nodes) {
        fprintf(stderr, "pmpi-logp: --speeds has %d values for %d nodes (give 1 or %d)\n", c->nspeeds, c->nodes,
                c->nodes);
        return -1;
    }
    double *speed = malloc(sizeof(double) * (size_t)c->P);
    if (speed == NULL)
        return -1;
    for (int r = 0; r < c->P; r++)
        speed[r] = c->nspeeds == 0 ? 1.0 : c->speeds[c->nspeeds == 1 ? 0 : r / c->rpn];
    int rc = logp_topo_blocks(&c->topo, c->P, c->rpn, speed, &c->intra, &c->p);
    free(speed);
    if (rc != LOGP_OK)
        fprintf(stderr, "pmpi-logp: invalid layout\n");
    return rc == LOGP_OK ? 0 : -1;
}

static int parse_args(int argc, char **argv, logp_cli_t *c)
{
    int P_given = 0;
    c->p = logp_params_default();
    c->P = 8;
    c->k = 4;
    c->bytes = 8;
    c->coll = LOGP_COLL_BCAST;
    c->algo = LOGP_ALGO_LOGP_TREE;
    c->rank = -1;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (strcmp(a, "--dot") == 0) {
            c->dot = 1;
            continue;
        }
        if (v == NULL) {
            fprintf(stderr, "pmpi-logp: %s needs a value\n", a);
            return -1;
        }
        i++;
        if (strcmp(a, "--P") == 0)
            bad = (P_given = c->P = atoi(v)) < 1;
        else if (strcmp(a, "--root") == 0)
            c->root = atoi(v);
        else if (strcmp(a, "--rank") == 0)
            bad = (c->rank = atoi(v)) < 0;
        else if (strcmp(a, "--chain-k") == 0)
            bad = (c->k = atoi(v)) < 1;
        else if (strcmp(a, "--N") == 0)
            bad = (c->N = atol(v)) < 0;
        else if (strcmp(a, "--bytes") == 0)
            c->bytes = (size_t)strtoull(v, NULL, 10);
        else if (strcmp(a, "--L") == 0)
            bad = logp_units_time(v, &c->p.L);
        else if (strcmp(a, "--o") == 0)
            bad = logp_units_time(v, &c->p.o);
        else if (strcmp(a, "--g") == 0)
            bad = logp_units_time(v, &c->p.g);
        else if (strcmp(a, "--G") == 0)
            bad = logp_units_per_byte(v, &c->p.G);
        else if (strcmp(a, "--gamma") == 0)
            bad = logp_units_per_byte(v, &c->p.gamma);
        else if (strcmp(a, "--nodes") == 0)
            bad = (c->nodes = atoi(v)) < 1;
        else if (strcmp(a, "--rpn") == 0)
            bad = (c->rpn = atoi(v)) < 1;
        else if (strcmp(a, "--speeds") == 0)
            bad = parse_speeds(v, c);
        else if (strncmp(a, "--intra-", 8) == 0 && strchr("LogG", a[8]) && a[9] == '\0') {
            c->intra_set |= 1 << (strchr("LogG", a[8]) - "LogG");
            double *f = a[8] == 'L' ? &c->intra.L : a[8] == 'o' ? &c->intra.o : a[8] == 'g' ? &c->intra.g : &c->intra.G;
            bad = a[8] == 'G' ? logp_units_per_byte(v, f) : logp_units_time(v, f);
        }
        else if (strcmp(a, "--bcast") == 0 || strcmp(a, "--reduce") == 0) {
            c->coll = a[2] == 'b' ? LOGP_COLL_BCAST : LOGP_COLL_REDUCE;
            c->algo = logp_algo_lookup(c->coll, v);
            bad = c->algo == LOGP_ALGO_COUNT || c->algo == LOGP_ALGO_NATIVE || c->algo == LOGP_ALGO_AUTO;
        } else {
            fprintf(stderr, "pmpi-logp: unknown option %s\n", a);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "pmpi-logp: bad value for %s: %s\n", a, v);
            return -1;
        }
    }
    if (make_layout(c, P_given) != 0)
        return -1;
    if (c->root < 0 || c->root >= c->P || c->rank >= c->P) {
        fprintf(stderr, "pmpi-logp: --root and --rank must be in 0..P-1\n");
        return -1;
    }
    return 0;
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

/* The parameters and layout in one line. */
static void print_model(const logp_cli_t *c)
{
    printf("L=%gus o=%gus g=%gus G=%gns/B gamma=%gns/B", c->p.L * 1e6, c->p.o * 1e6, c->p.g * 1e6, c->p.G * 1e9,
           c->p.gamma * 1e9);
    if (c->topo.P > 0) {
        printf("%s; %d nodes x %d ranks, intra-node L=%gus o=%gus g=%gus G=%gns/B", c->nodes > 1 ? " between nodes" : "",
               c->nodes, c->rpn, c->intra.L * 1e6, c->intra.o * 1e6, c->intra.g * 1e6, c->intra.G * 1e9);
        if (c->nspeeds > 0) {
            printf("; node speeds");
            for (int i = 0; i < c->nspeeds; i++)
                printf("%s%g", i ? "," : " ", c->speeds[i]);
        }
    }
    printf("\n");
}

/* The machine of the command line: the layout if one was given, else one
 * uniform node. */
static logp_topo_t cli_topo(const logp_cli_t *c)
{
    return c->topo.P > 0 ? c->topo : logp_topo_uniform(c->P, &c->p);
}

/* tree --rank R: one rank's place, from its own view only (any P). */
static int tree_rank(const logp_cli_t *c, const logp_sched_t *s)
{
    logp_view_t v;
    if (logp_view_init(&v, s, c->root, c->rank, 1) != LOGP_OK)
        return 1;
    printf("%s %s, P=%d, root %d, %zu B, rank %d\n", logp_coll_name(c->coll), logp_algo_name(s->algo), c->P, c->root,
           c->bytes, c->rank);
    printf("parent: ");
    if (v.node.parent < 0)
        printf("none (the root)\n");
    else
        printf("%d\n", v.node.parent);
    printf("children (%d, in send order):", v.node.nkids);
    for (int j = 0; j < v.node.nkids; j++)
        printf(" %d", s->fam->kid(s, v.tree_root, &v.node, j));
    printf("\n");
    double at = logp_sched_tree_ready(s, c->root, c->rank, 1);
    if (at < 0.0)
        at = logp_sched_chain_ready(s, c->root, c->rank, 1);
    if (at >= 0.0 && logp_sched_uniform(s))
        printf("%s: %.6g us\n", c->coll == LOGP_COLL_BCAST ? "receives at" : "result combined at", at * 1e6);
    return 0;
}

static int cmd_tree(const logp_cli_t *c)
{
    logp_sched_t s;
    logp_sched_opts_t opts = {c->k, 0};
    logp_topo_t topo = cli_topo(c);
    if (logp_sched_build(&s, c->coll, c->algo, c->bytes, &topo, &opts) != LOGP_OK) {
        fprintf(stderr, "pmpi-logp: cannot build %s %s for P=%d\n", logp_coll_name(c->coll),
                logp_algo_name(c->algo), c->P);
        return 1;
    }
    if (c->rank >= 0) {
        int rc = tree_rank(c, &s);
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
            printf(c->coll == LOGP_COLL_BCAST ? "  n%d -> n%d%s;\n" : "  n%2$d -> n%1$d%3$s;\n", p, r,
                   cross ? " [penwidth=2.5]" : "");
        }
        printf("}\n");
    } else {
        printf("%s %s, P=%d, root %d, %zu B, ", logp_coll_name(c->coll), logp_algo_name(s.algo), c->P, c->root,
               c->bytes);
        print_model(c);
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

typedef struct {
    logp_algo_t algo;
    double t;
} logp_cli_pred_t;

static int cmp_pred(const void *a, const void *b)
{
    double x = ((const logp_cli_pred_t *)a)->t, y = ((const logp_cli_pred_t *)b)->t;
    return (x > y) - (x < y);
}

static int cmd_predict(const logp_cli_t *c)
{
    printf("P=%d, %zu B, ", c->P, c->bytes);
    print_model(c);
    for (int coll = 0; coll < LOGP_COLL_COUNT; coll++) {
        logp_cli_pred_t pred[LOGP_ALGO_COUNT];
        double t[LOGP_ALGO_COUNT];
        int n = 0;
        logp_topo_t topo = cli_topo(c);
        logp_select_query_t q = {(logp_coll_t)coll, c->bytes, 1, 0, c->k, &topo};
        int exact = logp_select_prices(&q, t);
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            if (t[a] >= 0.0)
                pred[n++] = (logp_cli_pred_t){(logp_algo_t)a, t[a]};
        if (!exact)
            printf("(%s: estimates, as auto makes them: simulating every candidate here costs more than %ld "
                   "operations)\n", logp_coll_name((logp_coll_t)coll), LOGP_SIM_BUDGET);
        qsort(pred, (size_t)n, sizeof pred[0], cmp_pred);
        printf("%s%s:\n", logp_coll_name((logp_coll_t)coll), coll == LOGP_COLL_ALLTOALL ? " (bytes per block)" : "");
        for (int i = 0; i < n; i++) {
            printf("  %-15s %12.4f us", logp_algo_name(pred[i].algo), pred[i].t * 1e6);
            if (pred[i].algo == LOGP_ALGO_NATIVE)
                printf("   (model of MPICH 4.0.2's default)");
            if (pred[i].algo == LOGP_ALGO_CHAIN)
                printf("   (k=%d)", c->k);
            if (pred[i].algo == LOGP_ALGO_CHAIN_OPT)
                printf("   (k=%d; seed sqrt(a(P-1)/b)=%.2f)", logp_chain_best_k(&c->p, c->bytes, c->P),
                       logp_chain_k_continuous(&c->p, c->bytes, c->P));
            printf("\n");
        }
    }
    printf("reduce closed forms (seed 001): chain k=%d %.4f us, optimal k %.4f us, adaptive %.4f us\n", c->k,
           logp_chain_time_short_first(&c->p, c->bytes, c->P, c->k < c->P ? c->k : (c->P > 1 ? c->P - 1 : 1)) * 1e6,
           logp_chain_time_opt(&c->p, c->bytes, c->P) * 1e6, logp_chain_time_adaptive(&c->p, c->bytes, c->P) * 1e6);
    return 0;
}

/* decide: what auto picks for every collective, and how long the decision
 * takes on this machine (the shim's first call of a size class does the
 * same work: price the candidates, build the winner's schedule). */
static int cmd_decide(const logp_cli_t *c)
{
    logp_topo_t topo = cli_topo(c);
    for (int coll = 0; coll < LOGP_COLL_COUNT; coll++) {
        logp_select_query_t q = {(logp_coll_t)coll, c->bytes, 1, 0, c->k, &topo};
        logp_algo_t a;
        logp_sched_t s;
        double t, ms;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        logp_status_t rc = logp_select_decide(LOGP_ALGO_AUTO, &q, &a, &s, &t);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
        if (rc != LOGP_OK) {
            fprintf(stderr, "pmpi-logp: cannot decide %s\n", logp_coll_name((logp_coll_t)coll));
            return 1;
        }
        printf("decide coll=%s P=%d bytes=%zu -> %s predicted_us=%.4f decision_ms=%.3f\n",
               logp_coll_name((logp_coll_t)coll), c->P, c->bytes, logp_algo_name(a), t * 1e6, ms);
        logp_sched_free(&s);
    }
    return 0;
}

static int cmd_sum_plan(const logp_cli_t *c, int argc, char **argv)
{
    long L = -1, o = -1, g = -1;
    for (int i = 2; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--L") == 0)
            L = atol(argv[i + 1]);
        if (strcmp(argv[i], "--o") == 0)
            o = atol(argv[i + 1]);
        if (strcmp(argv[i], "--g") == 0)
            g = atol(argv[i + 1]);
    }
    if (L < 0 || o < 0 || g < 1) {
        fprintf(stderr, "pmpi-logp sum-plan: --L, --o, --g are integers (time steps; one addition = 1)\n");
        return 2;
    }
    logp_sum_node_t *nodes = malloc(sizeof(*nodes) * (size_t)c->P);
    long tb, ns;
    double time;
    if (nodes == NULL || logp_tree_sum_plan(c->P, c->N, L, o, g, nodes, &tb, &ns, &time) != LOGP_OK) {
        free(nodes);
        return 1;
    }
    printf("S*(%d; %ld, %ld, %ld) = T*(%d; %ld, %ld, %ld), %ld operands\n", c->P, L, o, g, c->P, L + 1, o, g, c->N);
    printf("%4s %6s %4s %6s %6s %6s\n", "node", "T_i", "K_i", "A_i", "B_i", "N_i");
    for (int v = 0; v < c->P; v++)
        printf("%4d %6ld %4d %6ld %6ld %6ld\n", v, nodes[v].T, nodes[v].K, nodes[v].A, nodes[v].B,
               nodes[v].A + nodes[v].B);
    printf("T_B = %ld, N_S = sum A_i = %ld (theorem 5), completion T_B + (N - N_S)/P = %g (theorem 6)\n", tb, ns,
           time);
    free(nodes);
    return 0;
}

/* pmpi-logp check FILE [--P N] [--name NAME] [--intra-node] */
static int cmd_check(int argc, char **argv)
{
    if (argc < 3) {
        usage(stderr);
        return 2;
    }
    logp_comm_facts_t facts = {64, "", 0};
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--intra-node") == 0)
            facts.intra_node = 1;
        else if (strcmp(argv[i], "--P") == 0 && i + 1 < argc)
            facts.size = atoi(argv[++i]);
        else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
            facts.name = argv[++i];
        else {
            fprintf(stderr, "pmpi-logp check: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (facts.size < 1) {
        fprintf(stderr, "pmpi-logp check: --P must be >= 1\n");
        return 2;
    }
    logp_config_t cfg;
    char err[640];
    if (logp_config_load(&cfg, argv[2], err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    logp_resolved_t r;
    logp_config_resolve(&cfg, &facts, &r);
    printf("%s: valid, %d sections\n", argv[2], cfg.nsections);
    printf("communicator: P=%d name '%s' %s\nmatched: %s\n", facts.size, facts.name,
           facts.intra_node ? "intra-node" : "inter-node", r.matched);
    printf("L=%gus o=%gus g=%gus G=%gns/B gamma=%gns/B chain_k=%d\n", r.params.L * 1e6, r.params.o * 1e6,
           r.params.g * 1e6, r.params.G * 1e9, r.params.gamma * 1e9, r.chain_k);
    printf("%10s  %-28s %-28s %-28s\n", "bytes", "bcast", "reduce (commutative)", "alltoall (per block)");
    for (size_t m = 8; m <= (size_t)1 << 20; m *= 8) {
        printf("%10zu ", m);
        for (int c = 0; c < LOGP_COLL_COUNT; c++) {
            logp_topo_t topo = logp_topo_uniform(facts.size, &r.params);
            logp_select_query_t q = {(logp_coll_t)c, m, 1, 0, r.chain_k, &topo};
            double t;
            logp_algo_t a;
            logp_select_decide(r.algo[c], &q, &a, NULL, &t);
            char cell[64];
            snprintf(cell, sizeof cell, "%s (%.3gus)", logp_algo_name(a), t * 1e6);
            printf(" %-28s", cell);
        }
        printf("\n");
    }
    logp_config_free(&cfg);
    return 0;
}

int main(int argc, char **argv)
{
    logp_cli_t c;
    memset(&c, 0, sizeof c);
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "sum-plan") == 0) {
        /* integer L, o, g: parse P and N only through the common parser */
        c.P = 8;
        for (int i = 2; i + 1 < argc; i++) {
            if (strcmp(argv[i], "--P") == 0)
                c.P = atoi(argv[i + 1]);
            if (strcmp(argv[i], "--N") == 0)
                c.N = atol(argv[i + 1]);
        }
        if (c.P < 1 || c.N < 0) {
            usage(stderr);
            return 2;
        }
        return cmd_sum_plan(&c, argc, argv);
    }
    if (strcmp(argv[1], "check") == 0)
        return cmd_check(argc, argv);
    if (parse_args(argc, argv, &c) != 0) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "tree") == 0)
        return cmd_tree(&c);
    if (strcmp(argv[1], "predict") == 0)
        return cmd_predict(&c);
    if (strcmp(argv[1], "decide") == 0)
        return cmd_decide(&c);
    fprintf(stderr, "pmpi-logp: unknown command %s\n", argv[1]);
    usage(stderr);
    return 2;
}
