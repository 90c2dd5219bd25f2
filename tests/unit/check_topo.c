/* Unit tests of heterogeneous layouts: src/model/topo.c, tree_topo.c and
 * the layout-aware schedules (hetero-tree, two-level, node-aggregate). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/model/sched.h"
#include "../../src/model/sched_layout.h"
#include "../../src/model/plan.h"
#include "../../src/model/sim.h"
#include "../../src/model/topo.h"
#include "../../src/model/tree.h"
#include "../../src/model/tree_topo.h"
#include "check_main.h"

static const logp_params_t P0 = {1.6e-6, 0.4e-6, 0.6e-6, 0.1e-9, 0.3e-9};
static const logp_params_t INTRA = {0.2e-6, 0.1e-6, 0.15e-6, 0.05e-9, 0.3e-9};
static const logp_params_t INTER = {2.0e-6, 0.4e-6, 0.6e-6, 0.1e-9, 0.3e-9};

static double urand(double lo, double hi)
{
    return lo + (hi - lo) * rand() / RAND_MAX;
}

static logp_params_t random_params(void)
{
    logp_params_t p = {urand(0.1e-6, 5e-6), urand(0.05e-6, 1e-6), urand(0.05e-6, 2e-6), urand(0, 0.5e-9),
                       urand(0, 0.5e-9)};
    return p;
}

/* A random layout: 1..maxnodes nodes in any rank order, speeds from {0.5, 1, 2}. */
static void random_topo(logp_topo_t *t, int P, int maxnodes, const logp_params_t *intra, const logp_params_t *inter)
{
    static const double speeds[3] = {0.5, 1.0, 2.0};
    int *node = malloc(sizeof(int) * (size_t)P);
    double *speed = malloc(sizeof(double) * (size_t)P);
    int nodes = 1 + rand() % maxnodes;
    for (int r = 0; r < P; r++) {
        node[r] = 100 + 7 * (rand() % nodes); /* any integers name nodes */
        speed[r] = speeds[rand() % 3];
    }
    ck_assert_int_eq(logp_topo_init(t, P, node, speed, intra, inter), LOGP_OK);
    free(node);
    free(speed);
}

/* Simulated time of algo under layout t from `root`. */
static double predict(logp_coll_t coll, logp_algo_t algo, int root, size_t m, const logp_topo_t *t)
{
    logp_sched_t s;
    logp_sched_opts_t o = {4, 0, 0, 0, 0, 0};
    ck_assert_int_eq(logp_plan_build(&s, coll, algo, m, t, &o), LOGP_OK);
    double total;
    ck_assert_int_eq(logp_sim_run(&s, root, 1, NULL, NULL, &total), LOGP_OK);
    logp_sched_free(&s);
    return total;
}

/* Layouts: nodes renumbered in order of their names, members and leaders. */
START_TEST(test_topo_layout)
{
    const int names[7] = {42, 7, 42, 9, 7, 42, 9};
    const double speed[7] = {1, 1, 3, 1, 2, 1, 1};
    logp_topo_t t;
    ck_assert_int_eq(logp_topo_init(&t, 7, names, speed, &INTRA, &INTER), LOGP_OK);
    ck_assert_int_eq(t.nnodes, 3);
    const int want[7] = {2, 0, 2, 1, 0, 2, 1};
    for (int r = 0; r < 7; r++)
        ck_assert_int_eq(logp_topo_node(&t, r), want[r]);
    int start[4], members[7];
    logp_topo_members(&t, start, members);
    ck_assert(start[0] == 0 && start[1] == 2 && start[2] == 4 && start[3] == 7);
    ck_assert(members[0] == 1 && members[1] == 4 && members[4] == 0 && members[5] == 2 && members[6] == 5);
    ck_assert_int_eq(logp_topo_leader(&t, start, members, 0, -1), 4); /* fastest */
    ck_assert_int_eq(logp_topo_leader(&t, start, members, 1, -1), 3); /* lowest on ties */
    ck_assert_int_eq(logp_topo_leader(&t, start, members, 2, 5), 5);  /* the root */
    ck_assert(logp_topo_pair(&t, 0, 2) == &t.intra && logp_topo_pair(&t, 0, 1) == &t.inter);
    ck_assert(!logp_topo_is_uniform(&t));
    logp_topo_free(&t);
    ck_assert_int_eq(logp_topo_blocks(&t, 10, 4, NULL, &P0, &P0), LOGP_OK);
    ck_assert_int_eq(t.nnodes, 3);
    ck_assert_int_eq(logp_topo_node(&t, 9), 2);
    ck_assert(logp_topo_is_uniform(&t)); /* one parameter set, all speed 1 */
    logp_topo_free(&t);
    const double bad[2] = {1.0, 0.0};
    ck_assert_int_eq(logp_topo_init(&t, 2, names, bad, &INTRA, &INTER), LOGP_ERR_ARG);
}
END_TEST

/* The uniform model is a special case, exactly: every schedule of every
 * algorithm simulates to the same double under the allocation-free uniform
 * layout and under an explicit one-node layout with every speed 1, and its
 * closed form agrees.  (Several nodes with equal parameters are not
 * uniform: their ranks share a network interface per node.) */
START_TEST(test_uniform_identical)
{
    srand(4242);
    for (int trial = 0; trial < 30; trial++) {
        logp_params_t p = random_params();
        int P = 1 + rand() % 70, root = rand() % P;
        size_t m = (size_t)(rand() % 70000);
        double *ones = malloc(sizeof(double) * (size_t)P);
        for (int r = 0; r < P; r++)
            ones[r] = 1.0;
        logp_topo_t blocks, uni = logp_topo_uniform(P, &p);
        ck_assert_int_eq(logp_topo_blocks(&blocks, P, P, ones, &p, &p), LOGP_OK);
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            for (int coll = 0; coll < LOGP_COLL_COUNT; coll++)
                for (int commute = 0; commute <= 1; commute++) {
                    if (a == LOGP_ALGO_NATIVE || a == LOGP_ALGO_AUTO || !logp_algo_supports((logp_algo_t)a, (logp_coll_t)coll))
                        continue;
                    logp_sched_t su, sb;
                    logp_sched_opts_t o = {3, 0, 0, 0, 0, 0};
                    ck_assert_int_eq(logp_plan_build(&su, (logp_coll_t)coll, (logp_algo_t)a, m, &uni, &o), LOGP_OK);
                    ck_assert_int_eq(logp_plan_build(&sb, (logp_coll_t)coll, (logp_algo_t)a, m, &blocks, &o), LOGP_OK);
                    if (!commute && !(su.fam->flags & LOGP_FAMILY_RANK_ORDER)) {
                        logp_sched_free(&su);
                        logp_sched_free(&sb);
                        continue;
                    }
                    double t0, t1;
                    ck_assert_int_eq(logp_sim_run(&su, root, commute, NULL, NULL, &t0), LOGP_OK);
                    ck_assert_int_eq(logp_sim_run(&sb, root, commute, NULL, NULL, &t1), LOGP_OK);
                    ck_assert(t0 == t1);
                    double closed = logp_sched_time(&sb, root, commute);
                    /* no closed form: the family has none, or (allreduce) none for this tree or these parts */
                    ck_assert(closed >= 0.0 ? fabs(closed - t0) <= 1e-9 * t0
                                            : su.fam->time == NULL || coll == LOGP_COLL_ALLREDUCE);
                    logp_sched_free(&su);
                    logp_sched_free(&sb);
                }
        /* and the layout-aware trees on one uniform node are the uniform optimum */
        for (int coll = LOGP_COLL_BCAST; coll <= LOGP_COLL_REDUCE; coll++) {
            double opt = predict((logp_coll_t)coll, LOGP_ALGO_LOGP_TREE, root, m, &uni);
            double het = predict((logp_coll_t)coll, LOGP_ALGO_HETERO_TREE, root, m, &uni);
            ck_assert_msg(het == opt, "coll %d P=%d m=%zu hetero %.17g opt %.17g", coll, P, m, het, opt);
            ck_assert(predict((logp_coll_t)coll, LOGP_ALGO_TWO_LEVEL, root, m, &uni) == opt);
        }
        logp_topo_free(&blocks);
        free(ones);
    }
}
END_TEST

/* Heterogeneous greedy is never worse than the uniform-optimal tree under
 * the heterogeneous simulator (bcast and commutative reduce), from the
 * root it was built for (layouts with ranks of several speeds on a node
 * have no exact relabeling for other roots: test_relabel_exact covers the
 * others). */
START_TEST(test_hetero_never_worse)
{
    srand(99);
    int better = 0, cases = 0;
    for (int trial = 0; trial < 200; trial++) {
        int P = 2 + rand() % 100, root = 0;
        size_t m = rand() % 2 ? 8 : 65536;
        logp_topo_t t;
        random_topo(&t, P, 1 + P / 4, &INTRA, &INTER);
        for (int coll = LOGP_COLL_BCAST; coll <= LOGP_COLL_REDUCE; coll++) {
            double uni = predict((logp_coll_t)coll, LOGP_ALGO_LOGP_TREE, root, m, &t);
            double het = predict((logp_coll_t)coll, LOGP_ALGO_HETERO_TREE, root, m, &t);
            ck_assert_msg(het <= uni, "P=%d hetero %g > uniform %g", P, het, uni);
            better += het < uni * 0.999;
            cases++;
        }
        logp_topo_free(&t);
    }
    printf("hetero-tree strictly faster than the uniform logp-tree in %d of %d random layouts\n", better, cases);
    ck_assert(better > cases / 2); /* the layout is worth knowing */
}
END_TEST

/* Brute force over every broadcast schedule (parent and send order of each
 * rank) for P <= 6 under a heterogeneous layout. */
static double brute_best(const logp_topo_t *t, logp_coll_t coll, int root, size_t m)
{
    int P = t->P, parent[8], order[8], nonroot[8], n = 0;
    double best = INFINITY;
    for (int r = 0; r < P; r++)
        if (r != root)
            nonroot[n++] = r;
    long total = 1;
    for (int i = 0; i < n; i++)
        total *= P;
    for (long code = 0; code < total; code++) {
        long c = code;
        int ok = 1;
        parent[root] = -1;
        for (int i = 0; i < n; i++, c /= P)
            parent[nonroot[i]] = (int)(c % P);
        for (int i = 0; i < n && ok; i++) { /* a tree: every rank reaches the root in < P steps */
            int v = nonroot[i], steps = 0;
            while (v != root && steps++ < P && parent[v] != v)
                v = parent[v];
            ok = v == root;
        }
        if (!ok)
            continue;
        /* every send order: every permutation of the non-root ranks (redundant but complete) */
        for (int i = 0; i < n; i++)
            order[i] = nonroot[i];
        for (;;) {
            logp_sched_t s;
            double sim;
            ck_assert_int_eq(logp_sched_from_tree(&s, coll, m, t, root, parent, order), LOGP_OK);
            ck_assert_int_eq(logp_sim_run(&s, root, 1, NULL, NULL, &sim), LOGP_OK);
            if (sim < best)
                best = sim;
            logp_sched_free(&s);
            int i = n - 2; /* next permutation */
            while (i >= 0 && order[i] > order[i + 1])
                i--;
            if (i < 0)
                break;
            int j = n - 1;
            while (order[j] < order[i])
                j--;
            int x = order[i];
            order[i] = order[j];
            order[j] = x;
            for (int a = i + 1, b = n - 1; a < b; a++, b--) {
                x = order[a];
                order[a] = order[b];
                order[b] = x;
            }
        }
    }
    return best;
}

START_TEST(test_hetero_vs_bruteforce)
{
    srand(2024);
    double worst_h = 1.0, worst_2 = 1.0, sum_h = 0.0, worst_bcast = 1.0;
    int exact = 0, cases = 0;
    for (int trial = 0; trial < 60; trial++) {
        int P = 2 + trial % 4 + (trial % 15 == 0), root = 0; /* P = 2..6, the built root */
        size_t m = rand() % 2 ? 8 : 65536;
        logp_topo_t t;
        random_topo(&t, P, 3, &INTRA, &INTER);
        logp_coll_t coll = trial % 2 ? LOGP_COLL_REDUCE : LOGP_COLL_BCAST;
        double b = brute_best(&t, coll, root, m);
        double h = predict(coll, LOGP_ALGO_HETERO_TREE, root, m, &t);
        double w = predict(coll, LOGP_ALGO_TWO_LEVEL, root, m, &t);
        ck_assert_msg(h >= b * (1 - 1e-12) && w >= b * (1 - 1e-12), "brute force missed a schedule");
        exact += h <= b * (1 + 1e-12);
        worst_h = fmax(worst_h, h / b);
        if (coll == LOGP_COLL_BCAST)
            worst_bcast = fmax(worst_bcast, h / b);
        worst_2 = fmax(worst_2, w / b);
        sum_h += h / b;
        cases++;
        logp_topo_free(&t);
    }
    printf("P <= 6, %d layouts: hetero-tree optimal in %d, mean %.3f, worst %.3f x brute force (bcast %.3f); "
           "two-level worst %.3f\n", cases, exact, sum_h / cases, worst_h, worst_bcast, worst_2);
    /* regression guards at what this seed measured: 1.285 (a reduce), bcast 1.143 */
    ck_assert(worst_h < 1.30);
    ck_assert(worst_bcast < 1.16);
}
END_TEST

/* node-aggregate: every member's P blocks go to its leader and come back
 * once; between nodes exactly one message per ordered node pair, of n_a n_b
 * blocks, so every block crosses between nodes exactly once:
 * (P^2 - sum n_a^2) blocks in all.  Sends and receives pair up per pair of
 * ranks and the schedule runs to completion. */
START_TEST(test_aggregate_delivery)
{
    srand(7);
    for (int trial = 0; trial < 80; trial++) {
        int P = 1 + rand() % 40;
        size_t m = 1 + (size_t)(rand() % 100);
        logp_topo_t t;
        random_topo(&t, P, 1 + P / 3, &INTRA, &INTER);
        logp_sched_t s;
        ck_assert_int_eq(logp_plan_build(&s, LOGP_COLL_ALLTOALL, LOGP_ALGO_NODE_AGGREGATE, m, &t, NULL), LOGP_OK);
        int N = t.nnodes, *n = calloc((size_t)N, sizeof(int)), *pairs = calloc((size_t)N * N, sizeof(int));
        long *sent = calloc((size_t)P * P, sizeof(long)), *recvd = calloc((size_t)P * P, sizeof(long));
        for (int r = 0; r < P; r++)
            n[logp_topo_node(&t, r)]++;
        size_t cross = 0, sumsq = 0;
        for (int a = 0; a < N; a++)
            sumsq += (size_t)n[a] * n[a];
        for (int r = 0; r < P; r++) {
            logp_view_t v;
            ck_assert_int_eq(logp_view_init(&v, &s, 0, r, 1), LOGP_OK);
            for (int i = 0; i < v.nops; i++) {
                logp_op_t op = logp_view_op(&v, i);
                int a = logp_topo_node(&t, r), b = logp_topo_node(&t, op.peer);
                ck_assert(op.peer != r);
                if (op.kind == LOGP_OP_SEND) {
                    sent[r * P + op.peer] += (long)op.bytes;
                    if (a != b) {
                        pairs[a * N + b]++;
                        ck_assert_uint_eq(op.bytes, (size_t)n[a] * n[b] * m);
                        cross += op.bytes / m;
                    } else {
                        ck_assert_uint_eq(op.bytes, (size_t)P * m);
                    }
                } else {
                    recvd[op.peer * P + r] += (long)op.bytes;
                }
            }
        }
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++)
                ck_assert_int_eq(pairs[a * N + b], a != b);
        for (int i = 0; i < P * P; i++)
            ck_assert_int_eq(sent[i], recvd[i]);
        ck_assert_uint_eq(cross, (size_t)P * P - sumsq);
        double total;
        ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &total), LOGP_OK);
        logp_sched_free(&s);
        logp_topo_free(&t);
        free(n);
        free(pairs);
        free(sent);
        free(recvd);
    }
}
END_TEST

/* two-level trees reach every rank once, cross between nodes exactly
 * N - 1 times (leaders only) and keep the rest of every node inside it. */
START_TEST(test_two_level_shape)
{
    srand(11);
    for (int trial = 0; trial < 100; trial++) {
        int P = 1 + rand() % 80, root = rand() % P;
        logp_topo_t t;
        random_topo(&t, P, 1 + P / 4, &INTRA, &INTER);
        int *parent = malloc(sizeof(int) * (size_t)P), *order = malloc(sizeof(int) * (size_t)P);
        int *perm = malloc(sizeof(int) * (size_t)P), *start = malloc(sizeof(int) * ((size_t)t.nnodes + 1));
        int *members = malloc(sizeof(int) * (size_t)P);
        ck_assert_int_eq(logp_tree_two_level(&t, root, 64, 0, parent, order), LOGP_OK);
        logp_tree_t tree;
        ck_assert_int_eq(logp_tree_from_abs(&tree, perm, P, root, parent, order), LOGP_OK);
        ck_assert_int_eq(logp_tree_check(&tree), LOGP_OK);
        logp_topo_members(&t, start, members);
        int crossings = 0;
        for (int r = 0; r < P; r++) {
            if (r == root)
                continue;
            int a = logp_topo_node(&t, r);
            if (logp_topo_node(&t, parent[r]) != a) {
                crossings++;
                ck_assert_int_eq(r, logp_topo_leader(&t, start, members, a, root));
            }
        }
        ck_assert_int_eq(crossings, t.nnodes - 1);
        for (int rule = 0; rule < LOGP_GREEDY_RULES; rule++) { /* the greedy trees are trees too */
            ck_assert_int_eq(logp_tree_greedy(&t, root, 64, rule % 2, (logp_greedy_rule_t)rule, parent, order), LOGP_OK);
            logp_tree_free(&tree);
            ck_assert_int_eq(logp_tree_from_abs(&tree, perm, P, root, parent, order), LOGP_OK);
            ck_assert_int_eq(logp_tree_check(&tree), LOGP_OK);
        }
        logp_tree_free(&tree);
        logp_topo_free(&t);
        free(parent);
        free(order);
        free(perm);
        free(start);
        free(members);
    }
}
END_TEST

/* Realistic layouts (N nodes of R ranks, a speed per node, maybe a short
 * last node): every root gets a layout tree as fast as the one its class
 * was built for, by relabeling alike nodes (the layout maps onto itself),
 * for hetero-tree and two-level, bcast and reduce.  As fast up to the
 * simulator's order among messages that reach a node's interface at the
 * same instant (it goes by rank, which the relabeling changes): a real
 * network breaks such ties by chance. */
START_TEST(test_relabel_exact)
{
    srand(17);
    static const double speeds[3] = {0.5, 1.0, 2.0};
    int checked = 0;
    double worst = 0.0;
    for (int trial = 0; trial < 40; trial++) {
        int R = 1 + rand() % 6, N = 1 + rand() % 8, P = N * R - (trial % 3 == 0 && R > 1 ? R / 2 : 0);
        double *speed = malloc(sizeof(double) * (size_t)P), node_speed[8];
        for (int a = 0; a < N; a++)
            node_speed[a] = speeds[rand() % 3];
        for (int r = 0; r < P; r++)
            speed[r] = node_speed[r / R];
        logp_topo_t t;
        ck_assert_int_eq(logp_topo_blocks(&t, P, R, speed, &INTRA, &INTER), LOGP_OK);
        size_t m = rand() % 2 ? 8 : 65536;
        for (int coll = LOGP_COLL_BCAST; coll <= LOGP_COLL_REDUCE; coll++)
            for (int a = LOGP_ALGO_HETERO_TREE; a <= LOGP_ALGO_TWO_LEVEL; a++) {
                logp_sched_t s;
                ck_assert_int_eq(logp_plan_build(&s, (logp_coll_t)coll, (logp_algo_t)a, m, &t, NULL), LOGP_OK);
                for (int root = 0; root < P; root++) {
                    /* the tree built for the first node alike to root's */
                    int na = root / R, first = na;
                    for (int b = 0; b < na; b++)
                        if (logp_topo_alike(&t, b, na)) {
                            first = b;
                            break;
                        }
                    int built = first == logp_topo_node(&t, 0) ? 0 : first * R;
                    double at_root, at_built;
                    ck_assert_int_eq(logp_sim_run(&s, root, 1, NULL, NULL, &at_root), LOGP_OK);
                    ck_assert_int_eq(logp_sim_run(&s, built, 1, NULL, NULL, &at_built), LOGP_OK);
                    /* large messages queue at the interfaces, where ties
                     * decide more (seen: up to 10% for 64 KiB reduces) */
                    double diff = at_built > 0 ? fabs(at_root - at_built) / at_built : at_root;
                    ck_assert_msg(diff <= (m == 8 ? 0.01 : 0.15), "%s P=%d R=%d root %d: %.17g, built root %d: %.17g",
                                  logp_algo_name(a), P, R, root, at_root, built, at_built);
                    worst = diff > worst ? diff : worst;
                    checked++;
                }
                logp_sched_free(&s);
            }
        logp_topo_free(&t);
        free(speed);
    }
    printf("layout trees relabeled for %d roots: worst difference to the built root %.2g\n", checked, worst);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        test_topo_layout,
        test_uniform_identical,
        test_hetero_never_worse,
        test_hetero_vs_bruteforce,
        test_aggregate_delivery,
        test_two_level_shape,
        test_relabel_exact,
    };
    return logp_check_run("model/topo", tests, (int)(sizeof tests / sizeof tests[0]));
}
