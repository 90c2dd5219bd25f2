/* Unit tests of src/model plans and the LogGP simulator. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "../../src/model/alltoall.h"
#include "../../src/model/plan.h"
#include "../../src/model/sim.h"
#include "check_main.h"

static const logp_params_t P0 = {1.6e-6, 0.4e-6, 0.6e-6, 0.1e-9, 0.3e-9};

/* Every operation of a tree plan pairs up: bcast, every rank but the root
 * receives once; reduce, every rank but the tree root sends once up; the
 * simulator finishes (no deadlock) for every root. */
START_TEST(test_tree_plans_every_root)
{
    const logp_algo_t algos[] = {LOGP_ALGO_BINOMIAL, LOGP_ALGO_FLAT, LOGP_ALGO_LOGP_TREE, LOGP_ALGO_CHAIN,
                                 LOGP_ALGO_CHAIN_OPT, LOGP_ALGO_CHAIN_ADAPTIVE};
    for (int P = 1; P <= 40; P++)
        for (int root = 0; root < P; root++)
            for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++)
                for (int coll = LOGP_COLL_BCAST; coll <= LOGP_COLL_REDUCE; coll++)
                    for (int commute = 0; commute <= 1; commute++) {
                        if (!logp_algo_supports(algos[a], (logp_coll_t)coll))
                            continue;
                        logp_plan_t plan;
                        logp_plan_opts_t o = {3, commute, 0, NULL};
                        ck_assert_int_eq(
                            logp_plan_build(&plan, (logp_coll_t)coll, algos[a], P, root, 100, &P0, &o), LOGP_OK);
                        int recvs = 0, sends = 0;
                        for (int r = 0; r < P; r++)
                            for (int i = 0; i < logp_plan_nops(&plan, r); i++) {
                                logp_op_t op = logp_plan_op(&plan, r, i);
                                ck_assert(op.peer >= 0 && op.peer < P);
                                recvs += op.kind == LOGP_OP_RECV || op.kind == LOGP_OP_RECV_REDUCE;
                                sends += op.kind == LOGP_OP_SEND;
                            }
                        int handover = coll == LOGP_COLL_REDUCE && !commute && root != 0;
                        ck_assert_int_eq(sends, P - 1 + handover);
                        ck_assert_int_eq(recvs, P - 1 + handover);
                        double t;
                        ck_assert_int_eq(logp_sim_run(&plan, &P0, NULL, &t), LOGP_OK);
                        ck_assert(t >= 0 && (P == 1 || t > 0));
                        logp_plan_free(&plan);
                    }
}
END_TEST

/* Follow the data of an all-to-all plan: every block (i -> j) arrives
 * exactly once, for P = 1..130 (the butterfly's packed steps included). */
START_TEST(test_alltoall_delivery)
{
    for (int P = 1; P <= 130; P++) {
        /* ring: phase k pairs */
        logp_plan_t plan;
        ck_assert_int_eq(logp_plan_build(&plan, LOGP_COLL_ALLTOALL, LOGP_ALGO_RING, P, 0, 8, &P0, NULL), LOGP_OK);
        char *got = calloc((size_t)P * P, 1);
        for (int r = 0; r < P; r++) {
            got[r * P + r]++; /* the own block is a local copy */
            for (int i = 0; i < logp_plan_nops(&plan, r); i += 2) {
                logp_op_t s = logp_plan_op(&plan, r, i), v = logp_plan_op(&plan, r, i + 1);
                ck_assert_int_eq(s.kind, LOGP_OP_SEND);
                ck_assert_int_eq(v.kind, LOGP_OP_RECV);
                got[r * P + s.peer]++; /* block r -> s.peer */
                /* and s.peer receives it from r in the same phase */
                logp_op_t back = logp_plan_op(&plan, s.peer, i + 1);
                ck_assert_int_eq(back.peer, r);
            }
        }
        for (int i = 0; i < P * P; i++)
            ck_assert_int_eq(got[i], 1);
        free(got);
        logp_plan_free(&plan);

        /* butterfly: slots[r][j] holds (source, destination) */
        ck_assert_int_eq(logp_plan_build(&plan, LOGP_COLL_ALLTOALL, LOGP_ALGO_BUTTERFLY, P, 0, 8, &P0, NULL),
                         LOGP_OK);
        int *src = malloc(sizeof(int) * (size_t)P * P), *dst = malloc(sizeof(int) * (size_t)P * P);
        int *nsrc = malloc(sizeof(int) * (size_t)P * P), *ndst = malloc(sizeof(int) * (size_t)P * P);
        for (int r = 0; r < P; r++)
            for (int j = 0; j < P; j++) {
                src[r * P + j] = r;
                dst[r * P + j] = (r + j) % P;
            }
        for (int i = 0; i < logp_plan_nops(&plan, 0); i += 2) {
            for (int r = 0; r < P; r++)
                for (int j = 0; j < P; j++) {
                    nsrc[r * P + j] = src[r * P + j];
                    ndst[r * P + j] = dst[r * P + j];
                }
            for (int r = 0; r < P; r++) {
                logp_op_t s = logp_plan_op(&plan, r, i);
                int bit = 1 << s.arg, nb = 0;
                for (int j = 0; j < P; j++)
                    if (j & bit) {
                        nsrc[s.peer * P + j] = src[r * P + j];
                        ndst[s.peer * P + j] = dst[r * P + j];
                        nb++;
                    }
                ck_assert_int_eq((size_t)nb * 8, s.bytes);
            }
            int *x = src;
            src = nsrc;
            nsrc = x;
            x = dst;
            dst = ndst;
            ndst = x;
        }
        char *seen = calloc((size_t)P * P, 1);
        for (int r = 0; r < P; r++)
            for (int j = 0; j < P; j++) {
                ck_assert_int_eq(dst[r * P + j], r);
                ck_assert_int_eq(src[r * P + j], (r - j + P) % P);
                seen[src[r * P + j] * P + r]++;
            }
        for (int i = 0; i < P * P; i++)
            ck_assert_int_eq(seen[i], 1);
        free(seen);
        free(src);
        free(dst);
        free(nsrc);
        free(ndst);
        logp_plan_free(&plan);
    }
}
END_TEST

/* Closed forms the simulator must reproduce exactly. */
START_TEST(test_sim_closed_forms)
{
    srand(99);
    for (int trial = 0; trial < 100; trial++) {
        logp_params_t p = {1e-6 * (0.1 + 5.0 * rand() / RAND_MAX), 1e-6 * (0.05 + rand() / (double)RAND_MAX),
                           1e-6 * (0.05 + 3.0 * rand() / RAND_MAX), 1e-9 * (rand() / (double)RAND_MAX),
                           1e-9 * (rand() / (double)RAND_MAX)};
        int P = 2 + rand() % 300;
        size_t m = (size_t)(rand() % 50000);
        logp_plan_t plan;
        /* ring: n - 1 phases of one exchange each */
        ck_assert_int_eq(logp_plan_build(&plan, LOGP_COLL_ALLTOALL, LOGP_ALGO_RING, P, 0, m, &p, NULL), LOGP_OK);
        double ring = (P - 1) * fmax(logp_params_p2p(&p, m), logp_params_gap(&p, m));
        ck_assert(fabs(logp_sim_predict(&plan, &p) - ring) <= 1e-9 * ring);
        logp_plan_free(&plan);
        /* butterfly, P a power of two: log2 P exchanges of P/2 packed blocks
         * (other P: unequal steps, where the receive gap can also bind) */
        int Pb = 1 << (1 + rand() % 8);
        ck_assert_int_eq(logp_plan_build(&plan, LOGP_COLL_ALLTOALL, LOGP_ALGO_BUTTERFLY, Pb, 0, m, &p, NULL), LOGP_OK);
        size_t half = (size_t)(Pb / 2) * m;
        double bf = logp_butterfly_steps(Pb) * fmax(logp_params_p2p(&p, half), logp_params_gap(&p, half));
        ck_assert(fabs(logp_sim_predict(&plan, &p) - bf) <= 1e-9 * bf);
        logp_plan_free(&plan);
        /* flat bcast: the last of P - 1 sends, one gap apart */
        ck_assert_int_eq(logp_plan_build(&plan, LOGP_COLL_BCAST, LOGP_ALGO_FLAT, P, 0, m, &p, NULL), LOGP_OK);
        double flat = (P - 2) * logp_params_gap(&p, m) + logp_params_p2p(&p, m);
        ck_assert(fabs(logp_sim_predict(&plan, &p) - flat) <= 1e-9 * flat);
        logp_plan_free(&plan);
        /* binomial bcast with P = 2^k and g <= o: k rounds of 2o + L + (m-1)G (seed 002) */
        int k = 1 + rand() % 9, Q = 1 << k;
        logp_params_t q = p;
        q.g = q.o;
        q.G = 0;
        ck_assert_int_eq(logp_plan_build(&plan, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, Q, 0, m, &q, NULL), LOGP_OK);
        double bin = k * logp_params_p2p(&q, m);
        ck_assert(fabs(logp_sim_predict(&plan, &q) - bin) <= 1e-9 * bin);
        logp_plan_free(&plan);
    }
}
END_TEST

/* Seed 004 section 2: the printed ring and butterfly formulas. */
START_TEST(test_seed004_formulas)
{
    logp_params_t p = {5, 1, 3, 0, 0}; /* max(2o, g) = 3: step = 3 + 5 - 3 = 5 */
    ck_assert(logp_alltoall_seed_ring(&p, 4) == 3 * 4 * 5.0);
    ck_assert(logp_alltoall_seed_butterfly(&p, 8) == 5.0 * 2 * 3);
    ck_assert_int_eq(logp_butterfly_steps(1), 0);
    ck_assert_int_eq(logp_butterfly_steps(8), 3);
    ck_assert_int_eq(logp_butterfly_steps(9), 4);
    for (int s = 0; s < 3; s++)
        ck_assert_int_eq(logp_butterfly_nblocks(8, s), 4); /* n/2 blocks per phase */
    ck_assert_int_eq(logp_butterfly_nblocks(5, 2), 1);     /* j = 4 */
}
END_TEST

/* A plan that cannot complete is reported, not hung. */
START_TEST(test_sim_deadlock)
{
    logp_plan_t plan;
    ck_assert_int_eq(logp_plan_build(&plan, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, 4, 0, 8, &P0, NULL), LOGP_OK);
    plan.tree.parent[0] = 0; /* root now also waits for a message from itself */
    plan.tree_root = 1;      /* and the rotation no longer matches the sends */
    double t;
    int rc = logp_sim_run(&plan, &P0, NULL, &t);
    ck_assert(rc == LOGP_ERR_DEADLOCK || rc == LOGP_OK);
    plan.tree.parent[0] = -1;
    logp_plan_free(&plan);
    ck_assert_int_eq(logp_plan_build(&plan, LOGP_COLL_BCAST, LOGP_ALGO_NATIVE, 4, 0, 8, &P0, NULL), LOGP_ERR_ARG);
    ck_assert_int_eq(logp_plan_build(&plan, LOGP_COLL_ALLTOALL, LOGP_ALGO_BINOMIAL, 4, 0, 8, &P0, NULL), LOGP_ERR_ARG);
    ck_assert_int_eq(logp_plan_build(&plan, LOGP_COLL_BCAST, LOGP_ALGO_FLAT, 4, 4, 8, &P0, NULL), LOGP_ERR_ARG);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        test_tree_plans_every_root,
        test_alltoall_delivery,
        test_sim_closed_forms,
        test_seed004_formulas,
        test_sim_deadlock,
    };
    return logp_check_run("model/sim", tests, (int)(sizeof tests / sizeof tests[0]));
}
