/* Unit tests of src/select: the registry, auto selection, the native model. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/model/algo.h"
#include "../../src/model/sched_alltoall.h"
#include "../../src/model/plan.h"
#include "../../src/model/sim.h"
#include "../../src/model/topo.h"
#include "../../src/select/confirm.h"
#include "../../src/select/native.h"
#include "../../src/select/select.h"
#include "check_main.h"

START_TEST(test_registry)
{
    ck_assert_int_eq(logp_algo_lookup(LOGP_COLL_BCAST, "logp-tree"), LOGP_ALGO_LOGP_TREE);
    ck_assert_int_eq(logp_algo_lookup(LOGP_COLL_REDUCE, "chain-adaptive"), LOGP_ALGO_CHAIN_ADAPTIVE);
    ck_assert_int_eq(logp_algo_lookup(LOGP_COLL_BCAST, "chain"), LOGP_ALGO_COUNT); /* reduce only */
    ck_assert_int_eq(logp_algo_lookup(LOGP_COLL_ALLTOALL, "binomial"), LOGP_ALGO_COUNT);
    ck_assert_int_eq(logp_algo_lookup(LOGP_COLL_ALLTOALL, "Ring"), LOGP_ALGO_COUNT); /* exact names */
    ck_assert_int_eq(logp_algo_lookup(LOGP_COLL_REDUCE, NULL), LOGP_ALGO_COUNT);
    for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
        ck_assert_ptr_nonnull(logp_algo_describe((logp_algo_t)a));
        int any = 0;
        for (int c = 0; c < LOGP_COLL_COUNT; c++)
            if (logp_algo_supports((logp_algo_t)a, (logp_coll_t)c)) {
                any = 1;
                ck_assert_int_eq(logp_algo_lookup((logp_coll_t)c, logp_algo_name((logp_algo_t)a)), a);
            }
        ck_assert(any);
    }
    ck_assert_str_eq(logp_algo_name(LOGP_ALGO_COUNT), "?");
}
END_TEST

/* One rank: nothing to communicate, so the library's own local copy
 * (cheaper than our executor's), but the exchanges' own on every library
 * (MPICH's 1-rank all-to-alls hang beside a wildcard receive; under Open
 * MPI a PMPI tool after the shim would see calls the shim took before:
 * select.c) and the safe default where the library is unsafe. */
START_TEST(test_one_rank)
{
    logp_params_t p = logp_params_default();
    logp_topo_t topo = logp_topo_uniform(1, &p);
    for (int coll = 0; coll < LOGP_COLL_COUNT; coll++)
        for (int unsafe = 0; unsafe <= 1; unsafe++) {
            logp_select_query_t q = {(logp_coll_t)coll, 8, 1, unsafe, 4, &topo, LOGP_NATIVE_MPICH, NULL, 0, 0};
            logp_algo_t a;
            logp_sched_t sched;
            double t;
            ck_assert_int_eq(logp_select_decide(LOGP_ALGO_AUTO, &q, &a, &sched, &t), LOGP_OK);
            ck_assert(t == 0.0);
            /* the library's local copy, unless it is unsafe there (then the safe default); the
             * exchanges keep the ring */
            if (logp_coll_exchanges((logp_coll_t)coll))
                ck_assert_int_eq(a, LOGP_ALGO_RING);
            else
                ck_assert_int_eq(a, unsafe ? logp_select_safe((logp_coll_t)coll, 1) : LOGP_ALGO_NATIVE);
            ck_assert(a == LOGP_ALGO_NATIVE || sched.algo == a);
            logp_sched_free(&sched);
        }
    /* MPICH 4.0.2's 1-rank all-to-alls hang beside a pending wildcard receive (both of them,
     * reproduced without the shim); Open MPI 4.1's do not; no other call is unsafe on one rank */
    for (int coll = 0; coll < LOGP_COLL_COUNT; coll++) {
        int exchange = coll == LOGP_COLL_ALLTOALL || coll == LOGP_COLL_ALLTOALLV;
        ck_assert_int_eq(logp_native_unsafe(LOGP_NATIVE_MPICH, (logp_coll_t)coll, 1, 0, 8, 1), exchange);
        ck_assert_int_eq(logp_native_unsafe(LOGP_NATIVE_MPICH, (logp_coll_t)coll, 2, 0, 8, 1), 0);
        ck_assert_int_eq(logp_native_unsafe(LOGP_NATIVE_OPENMPI, (logp_coll_t)coll, 1, 0, 8, 1), 0);
    }
}
END_TEST

START_TEST(test_auto_is_cheapest)
{
    logp_params_t p = logp_params_default();
    const size_t sizes[] = {8, 1024, 65536, 1 << 20};
    for (int coll = 0; coll < LOGP_COLL_COUNT; coll++)
        for (int P = 2; P <= 300; P += 37)
            for (int s = 0; s < 4; s++)
                for (int commute = 0; commute <= LOGP_OPS_IDEMPOTENT; commute++) {
                    logp_topo_t topo = logp_topo_uniform(P, &p);
                    logp_select_query_t q = {(logp_coll_t)coll, sizes[s], commute, 0, 4, &topo, LOGP_NATIVE_MPICH, NULL, 0, 0};
                    double t;
                    logp_algo_t a;
                    logp_sched_t sched;
                    ck_assert_int_eq(logp_select_decide(LOGP_ALGO_AUTO, &q, &a, &sched, &t), LOGP_OK);
                    ck_assert(a == LOGP_ALGO_NATIVE || sched.algo == a); /* what runs is what was priced */
                    logp_sched_free(&sched);
                    ck_assert(logp_algo_supports(a, (logp_coll_t)coll));
                    ck_assert(a != LOGP_ALGO_AUTO);
                    /* ranks of an alltoallv decide by their own classes: never the library's */
                    ck_assert(!(logp_coll_local_sizes((logp_coll_t)coll) && a == LOGP_ALGO_NATIVE));
                    ck_assert(!(logp_sched_family(a)->flags & LOGP_FAMILY_FORCED_ONLY));
                    /* what auto compared: exact prices, or (a decision whose simulations would
                     * cost too much, such as a ring allreduce's P^2 operations) estimates of all */
                    double seen[LOGP_ALGO_COUNT];
                    int exact = logp_select_prices(&q, seen);
                    for (int b = 0; b < LOGP_ALGO_COUNT; b++) {
                        if (b == LOGP_ALGO_AUTO || !logp_algo_supports((logp_algo_t)b, (logp_coll_t)coll) ||
                            (logp_sched_family((logp_algo_t)b)->flags & LOGP_FAMILY_FORCED_ONLY) ||
                            (b == LOGP_ALGO_NATIVE && logp_coll_local_sizes((logp_coll_t)coll)) ||
                            (logp_coll_local_sizes((logp_coll_t)coll) && b != LOGP_ALGO_NATIVE &&
                             logp_select_resolve((logp_algo_t)b, &q) != (logp_algo_t)b) ||
                            ((logp_sched_family((logp_algo_t)b)->flags & LOGP_FAMILY_IDEMPOTENT) &&
                             commute != LOGP_OPS_IDEMPOTENT))
                            continue; /* not auto's candidates (alltoallv unagreed: the direct exchanges;
                                         idempotent-only schedules for other operators) */
                        ck_assert_msg(seen[b] < 0 || t <= seen[b], "coll %d P=%d: auto %.9g above %s's price %.9g",
                                      coll, P, t, logp_algo_name((logp_algo_t)b), seen[b]);
                        if (!exact)
                            continue;
                        double tb = logp_select_predict((logp_algo_t)b, &q);
                        if (logp_sched_family((logp_algo_t)b)->flags & LOGP_FAMILY_ESTIMATED) {
                            logp_sched_t sb; /* auto compares its estimate (sim.h) */
                            logp_sched_opts_t o = {4, 0, 0, 0, 0, 0};
                            ck_assert_int_eq(logp_plan_build(&sb, (logp_coll_t)coll, (logp_algo_t)b, sizes[s], &topo, &o),
                                             LOGP_OK);
                            tb = logp_plan_price(&sb, 0, commute, 1);
                            logp_sched_free(&sb);
                        }
                        /* long pipelines are priced by their design formula, which agrees
                         * with the simulator to about 1e-5 (sched_pipeline.c) */
                        ck_assert_msg(tb < 0 || t <= tb * (1.0 + 1e-4), "coll %d P=%d m=%zu commute %d: auto %s %.9g > %s %.9g", coll, P, sizes[s], commute, logp_algo_name(a), t, logp_algo_name((logp_algo_t)b), tb);
                    }
                    /* never native where it is known to fail */
                    q.native_unsafe = 1;
                    ck_assert_int_eq(logp_select_decide(LOGP_ALGO_AUTO, &q, &a, NULL, NULL), LOGP_OK);
                    ck_assert_int_ne(a, LOGP_ALGO_NATIVE);
                    ck_assert_int_eq(logp_select_decide(LOGP_ALGO_NATIVE, &q, &a, NULL, NULL), LOGP_OK);
                    ck_assert_int_ne(a, LOGP_ALGO_NATIVE);
                }
}
END_TEST

/* The decision hands its trial the prices it computed, without the
 * learned corrections: the very prices logp_select_prices gives without
 * them (a class's first call prices every candidate once). */
/* Pruning (select.c): a candidate priced by its estimate because it is
 * out of the running never changes the decision nor its trial's
 * candidates: on random platforms, the plan from auto's prices is the
 * plan from every candidate priced alone. */
START_TEST(test_prune)
{
    srand(5);
    int pruned = 0;
    for (int trial = 0; trial < 400; trial++) {
        double L = 0.5e-6 * pow(40.0, (double)rand() / RAND_MAX), o = 0.1e-6 * pow(50.0, (double)rand() / RAND_MAX);
        double g = 0.1e-6 * pow(50.0, (double)rand() / RAND_MAX), G = 0.02e-9 * pow(100.0, (double)rand() / RAND_MAX);
        logp_params_t p = {L, o, g, G, 1e-9 * rand() / RAND_MAX};
        int P = 2 + rand() % 150, coll = rand() % LOGP_COLL_COUNT;
        size_t m = (size_t)pow(2.0, 3 + rand() % 18);
        if (!logp_check_sampled(trial))
            continue;
        logp_topo_t topo = logp_topo_uniform(P, &p);
        logp_select_query_t q = {(logp_coll_t)coll, m, 1, 0, 4, &topo, LOGP_NATIVE_MPICH, NULL, 0, 0};
        double t, raw[LOGP_ALGO_COUNT], full[LOGP_ALGO_COUNT], band[LOGP_ALGO_COUNT];
        logp_algo_t a;
        int priced = 0;
        ck_assert_int_eq(logp_select_decide_priced(LOGP_ALGO_AUTO, &q, &a, NULL, &t, raw, &priced), LOGP_OK);
        if (!priced || !logp_select_prices(&q, full))
            continue; /* estimates of all: nothing is pruned */
        logp_algo_t best = LOGP_ALGO_COUNT;
        for (int b = 0; b < LOGP_ALGO_COUNT; b++) {
            band[b] = logp_algo_error_band((logp_algo_t)b, 0);
            if (full[b] < 0.0 || b == LOGP_ALGO_NATIVE)
                continue;
            logp_sched_t sb; /* priced alone as auto prices it, simulated unless its family is estimated */
            logp_sched_opts_t op = {4, 0, 0, 0, 0, 0};
            ck_assert_int_eq(logp_plan_build(&sb, (logp_coll_t)coll, (logp_algo_t)b, m, &topo, &op), LOGP_OK);
            double tb = logp_plan_price(&sb, 0, 1, 1);
            logp_sched_free(&sb);
            pruned += tb != full[b];
            full[b] = tb;
        }
        if (logp_coll_local_sizes((logp_coll_t)coll))
            full[LOGP_ALGO_NATIVE] = raw[LOGP_ALGO_NATIVE] = -1.0;
        for (int b = 0; b < LOGP_ALGO_COUNT; b++) /* as the decision: native first, then registry order */
            if (full[b] >= 0.0 && (best == LOGP_ALGO_COUNT || full[b] < full[best]))
                best = (logp_algo_t)b;
        ck_assert_msg(a == best, "coll %d P=%d m=%zu: auto %s, every candidate simulated %s", coll, P, m,
                      logp_algo_name(a), logp_algo_name(best));
        logp_trial_plan_t x, y;
        logp_confirm_plan(raw, raw, band, a, &x);
        logp_confirm_plan(full, full, band, best, &y);
        ck_assert_int_eq(x.n, y.n);
        for (int c = 0; c < x.n; c++)
            ck_assert_msg(x.algo[c] == y.algo[c], "coll %d P=%d m=%zu: trial candidate %d %s, unpruned %s", coll, P,
                          m, c, logp_algo_name(x.algo[c]), logp_algo_name(y.algo[c]));
    }
    printf("prune: %d candidates priced by their estimate\n", pruned);
}
END_TEST

START_TEST(test_decide_priced)
{
    logp_params_t p = logp_params_default();
    logp_learn_t learn;
    memset(&learn, 0, sizeof learn);
    ck_assert_int_eq(logp_learn_set(&learn, LOGP_COLL_REDUCE, LOGP_ALGO_BINOMIAL, logp_learn_class(1024), 0.5), LOGP_OK);
    for (int shared = 0; shared <= 1; shared++)
        for (int coll = 0; coll < LOGP_COLL_COUNT; coll++) {
            logp_topo_t topo = logp_topo_uniform(16, &p);
            topo.shared = shared;
            logp_select_query_t q = {(logp_coll_t)coll, 1024, 1, 0, 4, &topo, LOGP_NATIVE_MPICH, &learn, 0, 0};
            double t, raw[LOGP_ALGO_COUNT], want[LOGP_ALGO_COUNT];
            logp_algo_t a;
            int priced = -1;
            ck_assert_int_eq(logp_select_decide_priced(LOGP_ALGO_AUTO, &q, &a, NULL, &t, raw, &priced), LOGP_OK);
            ck_assert_int_eq(priced, 1);
            logp_select_query_t plain = q;
            plain.learn = NULL;
            logp_select_prices(&plain, want);
            for (int b = 0; b < LOGP_ALGO_COUNT; b++)
                ck_assert_msg(raw[b] == want[b], "coll %d %s: %g, priced alone %g", coll, logp_algo_name((logp_algo_t)b),
                              raw[b], want[b]);
            /* the corrected price of the pick is what the decision predicts */
            ck_assert(t == raw[a] * logp_learn_factor(&learn, (logp_coll_t)coll, a, logp_learn_class(1024)) ||
                      (logp_coll_local_sizes((logp_coll_t)coll) && a != LOGP_ALGO_NATIVE && t == raw[a]));
            /* a configured algorithm (here the library's) prices nothing else */
            ck_assert_int_eq(logp_select_decide_priced(LOGP_ALGO_NATIVE, &q, &a, NULL, &t, raw, &priced), LOGP_OK);
            ck_assert_int_eq(priced, 0);
        }
}
END_TEST

START_TEST(test_forced_kept)
{
    logp_params_t p = logp_params_default();
    logp_topo_t topo = logp_topo_uniform(16, &p), one = logp_topo_uniform(1, &p);
    logp_select_query_t q = {LOGP_COLL_REDUCE, 4096, 0, 0, 4, &topo, LOGP_NATIVE_MPICH, NULL, 0, 0};
    double t;
    logp_algo_t a;
    ck_assert_int_eq(logp_select_decide(LOGP_ALGO_FLAT, &q, &a, NULL, &t), LOGP_OK);
    ck_assert_int_eq(a, LOGP_ALGO_FLAT);
    ck_assert(t > 0);
    ck_assert_int_eq(logp_select_decide(LOGP_ALGO_NATIVE, &q, &a, NULL, &t), LOGP_OK);
    ck_assert_int_eq(a, LOGP_ALGO_NATIVE);
    /* layout trees lose rank order: a non-commutative reduce runs logp-tree */
    ck_assert_int_eq(logp_select_decide(LOGP_ALGO_TWO_LEVEL, &q, &a, NULL, &t), LOGP_OK);
    ck_assert_int_eq(a, LOGP_ALGO_LOGP_TREE);
    /* reproducible: no reduce that combines in arrival order, forced or by auto, at any size */
    logp_select_query_t r = {LOGP_COLL_REDUCE, 1 << 20, 1, 0, 4, &topo, LOGP_NATIVE_MPICH, NULL, 1, 0};
    ck_assert_int_eq(logp_select_resolve(LOGP_ALGO_CHUNKED_RSG, &r), LOGP_ALGO_REDUCE_SCATTER_GATHER);
    r.commutative = 0;
    ck_assert_int_eq(logp_select_resolve(LOGP_ALGO_CHUNKED_RSG, &r), LOGP_ALGO_LOGP_TREE);
    r.commutative = 1;
    for (size_t m = 8; m <= ((size_t)1 << 24); m *= 4) {
        double prices[LOGP_ALGO_COUNT];
        r.bytes = m;
        logp_select_prices(&r, prices);
        for (int x = 0; x < LOGP_ALGO_COUNT; x++)
            if (x != LOGP_ALGO_NATIVE && x != LOGP_ALGO_AUTO && logp_algo_supports((logp_algo_t)x, LOGP_COLL_REDUCE))
                ck_assert_msg(prices[x] < 0 || !(logp_sched_family((logp_algo_t)x)->flags & LOGP_FAMILY_DATAFLOW),
                              "%s priced as a candidate under reproducible at %zu B", logp_algo_name((logp_algo_t)x), m);
        ck_assert_int_eq(logp_select_decide(LOGP_ALGO_AUTO, &r, &a, NULL, &t), LOGP_OK);
        ck_assert(!(logp_sched_family(a)->flags & LOGP_FAMILY_DATAFLOW));
    }
    r.reproducible = 0; /* without it chunked-rsg is a candidate somewhere (else the loop above tests nothing) */
    int any = 0;
    for (size_t m = 8; m <= ((size_t)1 << 24); m *= 4) {
        double prices[LOGP_ALGO_COUNT];
        r.bytes = m;
        logp_select_prices(&r, prices);
        any |= prices[LOGP_ALGO_CHUNKED_RSG] >= 0;
    }
    ck_assert(any);
    q.topo = &one; /* one rank (a non-commutative reduce): the library's local copy */
    ck_assert_int_eq(logp_select_decide(LOGP_ALGO_AUTO, &q, &a, NULL, &t), LOGP_OK);
    ck_assert_int_eq(a, LOGP_ALGO_NATIVE);
    ck_assert(t == 0);
}
END_TEST

/* A family without a closed form (two-tree) is priced by the simulator
 * while it is small (LOGP_PLAN_ESTIMATED_OPS), by its estimate beyond:
 * at P = 2 - 8 the estimate is 10 - 38% high, enough to rank it last. */
START_TEST(test_estimated_small_simulated)
{
    logp_params_t p = logp_params_default();
    for (int coll = 0; coll < 2; coll++)
        for (int P = 2; P <= 1024; P *= 4)
            for (size_t m = 4096; m <= ((size_t)1 << 20); m *= 16) {
                logp_topo_t topo = logp_topo_uniform(P, &p);
                logp_select_query_t q = {(logp_coll_t)coll, m, 1, 0, 4, &topo, LOGP_NATIVE_MPICH, NULL, 0, 0};
                logp_sched_t s;
                ck_assert_int_eq(logp_plan_build(&s, (logp_coll_t)coll, LOGP_ALGO_TWO_TREE, m, &topo, NULL), LOGP_OK);
                double t[LOGP_ALGO_COUNT], sim = -1.0, est = logp_plan_estimate(&s, 0, 1);
                logp_sim_run(&s, 0, 1, NULL, NULL, &sim);
                int small = logp_sched_ops(&s) <= LOGP_PLAN_ESTIMATED_OPS;
                ck_assert_int_eq(logp_plan_affordable(&s), small);
                logp_select_prices(&q, t);
                ck_assert_msg(t[LOGP_ALGO_TWO_TREE] == (small ? sim : est), "coll %d P=%d m=%zu: %.9g (sim %.9g, est %.9g)",
                              coll, P, m, t[LOGP_ALGO_TWO_TREE], sim, est);
                if (P <= 8)
                    ck_assert(small);
                if (coll == LOGP_COLL_REDUCE && P == 2 && m == 65536) /* what the simulation corrects */
                    ck_assert_msg(est > 1.2 * sim, "est %.9g sim %.9g", est, sim);
                if (P == 1024 && m == ((size_t)1 << 20))
                    ck_assert(!small); /* 132,096 operations: the estimate */
                logp_sched_free(&s);
            }
}
END_TEST

/* The native model follows MPICH 4.0.2's switch points. */
START_TEST(test_native_model)
{
    logp_params_t p = logp_params_default();
    logp_topo_t one = logp_topo_uniform(1, &p), t16 = logp_topo_uniform(16, &p), t64 = logp_topo_uniform(64, &p);
    ck_assert(logp_native_predict(LOGP_NATIVE_MPICH, LOGP_COLL_BCAST, 8, 1, &one, 1) == 0);
    ck_assert(logp_native_predict(LOGP_NATIVE_MPICH, LOGP_COLL_BCAST, 8, 1, &t16, 1) ==
              logp_select_predict(LOGP_ALGO_BINOMIAL, &(logp_select_query_t){LOGP_COLL_BCAST, 8, 1, 0, 4, &t16, LOGP_NATIVE_MPICH, NULL, 0}));
    /* for large messages scatter + allgather beats its own binomial */
    double big = logp_native_predict(LOGP_NATIVE_MPICH, LOGP_COLL_BCAST, 1 << 22, 1, &t64, 1);
    logp_select_query_t q = {LOGP_COLL_BCAST, 1 << 22, 1, 0, 4, &t64, LOGP_NATIVE_MPICH, NULL, 0, 0};
    ck_assert(big < logp_select_predict(LOGP_ALGO_BINOMIAL, &q));
    ck_assert(logp_native_predict(LOGP_NATIVE_MPICH, LOGP_COLL_ALLTOALL, 64, 1, &t64, 1) > 0);
    ck_assert(logp_native_predict(LOGP_NATIVE_MPICH, LOGP_COLL_REDUCE, 1 << 20, 0, &t64, 1) > 0);
}
END_TEST

/* MPICH's large reduce faults in the buffers it allocates at every call
 * (select/native.c): at P = 2 the closed form 2(2o + L) + m G + m gamma / 2
 * gains m (copy + fresh) + m fresh / 2 above 128 KiB, and nothing at
 * 128 KiB itself, nor for Open MPI, nor with fresh = 0. */
START_TEST(test_native_fresh)
{
    logp_params_t p = logp_params_default();
    p.copy = 0.04e-9;
    p.fresh = 0.5e-9;
    logp_topo_t t2 = logp_topo_uniform(2, &p);
    for (size_t m = (size_t)1 << 16; m <= (size_t)1 << 24; m <<= 1) {
        double md = (double)m, base = 2.0 * (2.0 * p.o + p.L) + md * p.G + 0.5 * md * p.gamma;
        double want = base + (m > 131072 ? md * (p.copy + p.fresh) + 0.5 * md * p.fresh : 0.0);
        double got = logp_native_predict(LOGP_NATIVE_MPICH, LOGP_COLL_REDUCE, m, 1, &t2, 1);
        ck_assert_msg(fabs(got - want) <= 1e-9 * want, "m=%zu: %g, want %g", m, got, want);
    }
    double ompi = logp_native_predict(LOGP_NATIVE_OPENMPI, LOGP_COLL_REDUCE, 1 << 22, 1, &t2, 1);
    p.fresh = 0.0;
    logp_topo_t z2 = logp_topo_uniform(2, &p);
    ck_assert(ompi == logp_native_predict(LOGP_NATIVE_OPENMPI, LOGP_COLL_REDUCE, 1 << 22, 1, &z2, 1));
    double m = 4194304.0;
    ck_assert(fabs(logp_native_predict(LOGP_NATIVE_MPICH, LOGP_COLL_REDUCE, 1 << 22, 1, &z2, 1) -
                   (2.0 * (2.0 * p.o + p.L) + m * p.G + 0.5 * m * p.gamma + m * p.copy)) < 1e-12);
}
END_TEST

/* How SMPI's collectives send (sched.h, LOGP_LIB_SENDS_*), on a shared
 * network: a rank's children's transfers share its link (binomial bcast
 * of m: (log2 P)(log2 P + 1)/2 m G at P = 16, where ours, one send after
 * another, takes about log2 P m G), and a standard-mode receive pays its
 * overhead (recursive doubling: one o per round more than ours, whose
 * large sends are synchronous); an exchange's plain sends are standard
 * ones already. */
START_TEST(test_native_smpi_sends)
{
    logp_params_t p = {0.1e-6, 0.01e-6, 0.01e-6, 1e-9, 0.0, 0.0};
    logp_topo_t t16 = logp_topo_uniform(16, &p);
    t16.shared = 1;
    double mG = (double)(1 << 20) * p.G;
    double lib = logp_native_predict(LOGP_NATIVE_SMPI, LOGP_COLL_BCAST, 1 << 20, 1, &t16, 1);
    logp_select_query_t q = {LOGP_COLL_BCAST, 1 << 20, 1, 0, 4, &t16, LOGP_NATIVE_SMPI, NULL, 0, 0};
    double ours = logp_select_predict(LOGP_ALGO_BINOMIAL, &q);
    ck_assert_msg(lib > 10.0 * mG && lib < 10.05 * mG, "SMPI's binomial %.9g, 10 m G %.9g", lib, mG * 10.0);
    ck_assert_msg(ours > 4.0 * mG && ours < 4.5 * mG, "ours %.9g, 4 m G %.9g", ours, mG * 4.0);
    /* recursive doubling at 64 KiB: SMPI's pays 4 receive overheads more (g <= o) */
    logp_params_t r = {1e-6, 1e-6, 0.5e-6, 0.1e-9, 0.0, 0.0};
    logp_topo_t u16 = logp_topo_uniform(16, &r);
    u16.shared = 1;
    logp_sched_t s;
    ck_assert_int_eq(logp_plan_build(&s, LOGP_COLL_ALLREDUCE, LOGP_ALGO_RECURSIVE_DOUBLING, 65536, &u16, NULL), LOGP_OK);
    double sync, plain, exch, exch_plain;
    ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &sync), LOGP_OK);
    s.lib_sends = LOGP_LIB_SENDS_STANDARD;
    ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &plain), LOGP_OK);
    logp_sched_free(&s);
    ck_assert_msg(fabs(plain - sync - 4.0 * r.o) < 1e-9, "plain %.9g sync %.9g", plain, sync);
    ck_assert(fabs(logp_native_predict(LOGP_NATIVE_SMPI, LOGP_COLL_ALLREDUCE, 65536, 1, &u16, 1) - plain) < 1e-12);
    ck_assert_int_eq(logp_plan_build(&s, LOGP_COLL_ALLREDUCE, LOGP_ALGO_RECURSIVE_MULTIPLYING, 65536, &u16, NULL), LOGP_OK);
    ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &exch), LOGP_OK);
    s.lib_sends = LOGP_LIB_SENDS_STANDARD;
    ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &exch_plain), LOGP_OK);
    logp_sched_free(&s);
    ck_assert(exch == exch_plain);
}
END_TEST

/* A shared network's simulations count twice against the decision's
 * budget (plan.h): an 8-byte bcast at P = 4096 is decided on estimates
 * there (it simulated every candidate in 71 ms), at P = 256 still by the
 * simulator; LogGP's closed forms need no simulation at either. */
START_TEST(test_shared_budget)
{
    logp_params_t p = logp_params_default();
    int Ps[2] = {256, 4096};
    for (int i = 0; i < 2; i++)
        for (int shared = 0; shared < 2; shared++) {
            logp_topo_t t = logp_topo_uniform(Ps[i], &p);
            t.shared = shared;
            logp_select_query_t q = {LOGP_COLL_BCAST, 8, 1, 0, 4, &t, LOGP_NATIVE_MPICH, NULL, 0, 0};
            double prices[LOGP_ALGO_COUNT];
            int exact = logp_select_prices(&q, prices);
            ck_assert_msg(exact == (!shared || Ps[i] == 256), "P = %d, shared %d: exact %d", Ps[i], shared, exact);
        }
}
END_TEST

/* The Open MPI model follows coll/tuned's fixed tables, and every table
 * answers for every communicator size and message size. */
START_TEST(test_native_openmpi)
{
    const logp_native_lib_t O = LOGP_NATIVE_OPENMPI, M = LOGP_NATIVE_MPICH;
    ck_assert_str_eq(logp_native_algo(O, LOGP_COLL_BCAST, 16, 100, 1), "knomial");
    ck_assert_str_eq(logp_native_algo(O, LOGP_COLL_BCAST, 63, 8, 1), "binomial");
    ck_assert_str_eq(logp_native_algo(O, LOGP_COLL_BCAST, 64, 8, 1), "knomial");
    ck_assert_str_eq(logp_native_algo(O, LOGP_COLL_BCAST, 20, 1 << 20, 1), "scatter-allgather");
    ck_assert_str_eq(logp_native_algo(O, LOGP_COLL_REDUCE, 64, 1 << 20, 0), "in-order-binary-tree");
    ck_assert_str_eq(logp_native_algo(O, LOGP_COLL_REDUCE, 5, 8, 0), "linear");
    ck_assert_str_eq(logp_native_algo(O, LOGP_COLL_REDUCE, 64, 8, 1), "binomial");
    ck_assert_str_eq(logp_native_algo(O, LOGP_COLL_ALLTOALL, 2, 100, 1), "pairwise");
    ck_assert_str_eq(logp_native_algo(O, LOGP_COLL_ALLTOALL, 2, 1000, 1), "two-proc");
    ck_assert_str_eq(logp_native_algo(O, LOGP_COLL_ALLTOALL, 3, 4096, 1), "linear-sync");
    ck_assert_str_eq(logp_native_algo(O, LOGP_COLL_ALLTOALL, 100, 100, 1), "bruck");
    ck_assert_str_eq(logp_native_algo(M, LOGP_COLL_BCAST, 64, 1 << 20, 1), "scatter-allgather-ring");
    ck_assert_str_eq(logp_native_algo(M, LOGP_COLL_BCAST, 4, 1 << 20, 1), "binomial");
    ck_assert_str_eq(logp_native_algo(O, LOGP_COLL_BCAST, 1, 8, 1), "none");
    /* SMPI 3.32's mpich selector: binomial bcast at every size, MPICH's reduce */
    ck_assert_str_eq(logp_native_algo(LOGP_NATIVE_SMPI, LOGP_COLL_BCAST, 64, 1 << 20, 1), "binomial");
    ck_assert_str_eq(logp_native_algo(LOGP_NATIVE_SMPI, LOGP_COLL_REDUCE, 64, 1 << 20, 1), "reduce-scatter-gather");
    ck_assert_int_eq(logp_native_lib_lookup("smpi"), LOGP_NATIVE_SMPI);
    /* its medium all-to-all is MVAPICH2's scatter-dest (4 destinations at
     * a time), priced as our linear in windows of 4; MPICH's own posts 32 */
    ck_assert_str_eq(logp_native_algo(LOGP_NATIVE_SMPI, LOGP_COLL_ALLTOALL, 16, 1024, 1), "scatter-dest");
    ck_assert_str_eq(logp_native_algo(LOGP_NATIVE_SMPI, LOGP_COLL_ALLTOALL, 4, 8, 1), "scatter-dest");
    ck_assert_str_eq(logp_native_algo(LOGP_NATIVE_SMPI, LOGP_COLL_ALLTOALL, 16, 8, 1), "bruck");
    ck_assert_str_eq(logp_native_algo(LOGP_NATIVE_SMPI, LOGP_COLL_ALLTOALL, 16, 65536, 1), "pairwise");
    ck_assert_str_eq(logp_native_algo(M, LOGP_COLL_ALLTOALL, 16, 1024, 1), "linear");
    {
        logp_params_t p = logp_params_default();
        for (int P = 2; P <= 70; P += 17)
            for (size_t m = 256; m < 32768; m *= 4) {
                logp_topo_t t = logp_topo_uniform(P, &p);
                int w = P - 1 < 4 ? P - 1 : 4;
                ck_assert_double_eq_tol(logp_native_predict(LOGP_NATIVE_SMPI, LOGP_COLL_ALLTOALL, m, 1, &t, 1),
                                        logp_linear_time(&p, P, m, w), 1e-12);
                /* four at a time waits for more round trips than all at once */
                if (P > 5)
                    ck_assert(logp_native_predict(LOGP_NATIVE_SMPI, LOGP_COLL_ALLTOALL, m, 1, &t, 1) >
                              logp_native_predict(M, LOGP_COLL_ALLTOALL, m, 1, &t, 1));
            }
    }
    for (int P = 2; P <= 9000; P += P < 70 ? 1 : 37)
        for (size_t m = 1; m <= ((size_t)1 << 26); m *= 2)
            for (int c = 0; c < LOGP_COLL_COUNT; c++)
                for (int lib = 0; lib < LOGP_NATIVE_LIB_COUNT; lib++) {
                    ck_assert_str_ne(logp_native_algo((logp_native_lib_t)lib, (logp_coll_t)c, P, m, 1), "none");
                    ck_assert_str_ne(logp_native_algo((logp_native_lib_t)lib, (logp_coll_t)c, P, m, 0), "none");
                }
    /* priced by our schedule of the same shape where there is one */
    logp_params_t p = logp_params_default();
    logp_topo_t t63 = logp_topo_uniform(63, &p), t2 = logp_topo_uniform(2, &p);
    logp_select_query_t q = {LOGP_COLL_BCAST, 8, 1, 0, 4, &t63, O, NULL, 0, 0};
    ck_assert(logp_native_predict(O, LOGP_COLL_BCAST, 8, 1, &t63, 1) == logp_select_predict(LOGP_ALGO_BINOMIAL, &q));
    ck_assert(logp_select_predict(LOGP_ALGO_NATIVE, &q) == logp_select_predict(LOGP_ALGO_BINOMIAL, &q));
    ck_assert(logp_native_predict(O, LOGP_COLL_ALLTOALL, 1000, 1, &t2, 1) == logp_params_p2p(&p, 1000));
    ck_assert_int_eq(logp_native_lib_lookup("openmpi"), O);
    ck_assert_int_eq(logp_native_lib_lookup("mpich"), M);
    ck_assert_int_eq(logp_native_lib_lookup("lam"), LOGP_NATIVE_LIB_COUNT);
}
END_TEST

/* Alltoallv: where the ranks do not agree on the class, auto and a
 * forced algorithm that does not mix (bruck) run a direct exchange, never
 * the library; where they agree, bruck and native are candidates.  The
 * vote pays for many small blocks at large P (the model: 255 messages
 * against 8 rounds), not at P = 4 (3 messages against 2 rounds and the
 * vote's own 2). */
START_TEST(test_alltoallv_agreement)
{
    logp_params_t p = logp_params_default();
    logp_topo_t t256 = logp_topo_uniform(256, &p), t4 = logp_topo_uniform(4, &p);
    logp_select_query_t q = {LOGP_COLL_ALLTOALLV, 8, 1, 0, 4, &t256, LOGP_NATIVE_MPICH, NULL, 0, 0};
    logp_algo_t a;
    ck_assert_int_eq(logp_select_decide(LOGP_ALGO_AUTO, &q, &a, NULL, NULL), LOGP_OK);
    ck_assert(logp_sched_family(a)->flags & LOGP_FAMILY_A2A_DIRECT);
    ck_assert_int_eq(logp_select_resolve(LOGP_ALGO_BRUCK, &q), LOGP_ALGO_LINEAR);
    ck_assert_int_eq(logp_select_resolve(LOGP_ALGO_RING, &q), LOGP_ALGO_RING);
    q.agreed = 1;
    ck_assert_int_eq(logp_select_decide(LOGP_ALGO_AUTO, &q, &a, NULL, NULL), LOGP_OK);
    ck_assert_int_eq(a, LOGP_ALGO_BRUCK);
    ck_assert_int_eq(logp_select_resolve(LOGP_ALGO_BRUCK, &q), LOGP_ALGO_BRUCK);
    double vote = logp_native_predict(LOGP_NATIVE_MPICH, LOGP_COLL_ALLREDUCE, 16, 1, &t256, 1);
    ck_assert(vote > 0.0);
    ck_assert(logp_select_agreement_pays(&q, vote));
    ck_assert(!logp_select_agreement_pays(&q, 1.0)); /* a vote of a second never pays */
    q.agreed = 0; /* the answer does not depend on the flag it decides */
    ck_assert(logp_select_agreement_pays(&q, vote));
    q.topo = &t4;
    ck_assert(!logp_select_agreement_pays(&q, logp_native_predict(LOGP_NATIVE_MPICH, LOGP_COLL_ALLREDUCE, 16, 1, &t4, 1)));
}
END_TEST

/* node-aggregate on one node has nothing to aggregate: forced or by a
 * rule it runs the ring there (and auto never prices it there); on
 * several nodes, even of one rank each, it runs as itself. */
START_TEST(test_node_aggregate_one_node)
{
    logp_params_t p = logp_params_default();
    logp_topo_t one = logp_topo_uniform(8, &p), nodes, singles;
    ck_assert_int_eq(one.nnodes, 1);
    ck_assert_int_eq(logp_topo_blocks(&nodes, 8, 4, NULL, &p, &p), LOGP_OK);
    ck_assert_int_eq(logp_topo_blocks(&singles, 8, 1, NULL, &p, &p), LOGP_OK);
    logp_select_query_t q = {LOGP_COLL_ALLTOALL, 4 << 20, 1, 0, 4, &one, LOGP_NATIVE_MPICH, NULL, 0, 0};
    ck_assert_int_eq(logp_select_resolve(LOGP_ALGO_NODE_AGGREGATE, &q), LOGP_ALGO_RING);
    logp_algo_t a;
    double t_agg, t_ring;
    ck_assert_int_eq(logp_select_decide(LOGP_ALGO_NODE_AGGREGATE, &q, &a, NULL, &t_agg), LOGP_OK);
    ck_assert_int_eq(a, LOGP_ALGO_RING);
    ck_assert_int_eq(logp_select_decide(LOGP_ALGO_RING, &q, &a, NULL, &t_ring), LOGP_OK);
    ck_assert(t_agg == t_ring);
    double prices[LOGP_ALGO_COUNT];
    logp_select_prices(&q, prices);
    ck_assert(prices[LOGP_ALGO_NODE_AGGREGATE] < 0.0); /* not auto's candidate there */
    q.topo = &nodes;
    ck_assert_int_eq(logp_select_resolve(LOGP_ALGO_NODE_AGGREGATE, &q), LOGP_ALGO_NODE_AGGREGATE);
    q.topo = &singles;
    ck_assert_int_eq(logp_select_resolve(LOGP_ALGO_NODE_AGGREGATE, &q), LOGP_ALGO_NODE_AGGREGATE);
    logp_topo_free(&nodes);
    logp_topo_free(&singles);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {test_decide_priced, test_prune,
        test_registry,
        test_auto_is_cheapest,
        test_one_rank,
        test_alltoallv_agreement,
        test_node_aggregate_one_node,
        test_forced_kept,
        test_estimated_small_simulated,
        test_native_model,
        test_native_fresh,
        test_native_smpi_sends,
        test_shared_budget,
        test_native_openmpi,
    };
    return logp_check_run("select", tests, (int)(sizeof tests / sizeof tests[0]));
}
