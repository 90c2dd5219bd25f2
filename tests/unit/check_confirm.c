/* Unit tests of auto's confirmation without MPI: learned corrections
 * (src/model/learn), trial plans and verdicts, and the agreement vector
 * (src/select/confirm), with ranks simulated by reducing their vectors. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "../../src/model/learn.h"
#include "../../src/model/topo.h"
#include "../../src/select/confirm.h"
#include "check_main.h"

START_TEST(test_learn_factor)
{
    static logp_learn_t l;
    memset(&l, 0, sizeof l);
    ck_assert(logp_learn_factor(&l, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, 10) == 1.0);
    ck_assert(logp_learn_factor(NULL, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, 10) == 1.0);
    ck_assert(fabs(logp_learn_record(&l, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, 4, 3e-6, 1e-6) - 3.0) < 1e-6);
    /* one measured class: every class of the algorithm takes it */
    ck_assert(fabs(logp_learn_factor(&l, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, 0) - 3.0) < 1e-6);
    ck_assert(fabs(logp_learn_factor(&l, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, 30) - 3.0) < 1e-6);
    /* other algorithms and collectives are untouched */
    ck_assert(logp_learn_factor(&l, LOGP_COLL_BCAST, LOGP_ALGO_FLAT, 4) == 1.0);
    ck_assert(logp_learn_factor(&l, LOGP_COLL_REDUCE, LOGP_ALGO_BINOMIAL, 4) == 1.0);
    /* the default (auto's slot) from a trial's candidates: an algorithm
     * never measured takes what the measured ones of ours say, native's
     * factor is no evidence of that */
    static logp_learn_t u;
    memset(&u, 0, sizeof u);
    logp_learn_record(&u, LOGP_COLL_REDUCE, LOGP_ALGO_NATIVE, 10, 9e-6, 1e-6);
    ck_assert(logp_learn_record_default(&u, LOGP_COLL_REDUCE, 10) == 0.0);
    ck_assert(logp_learn_factor(&u, LOGP_COLL_REDUCE, LOGP_ALGO_PIPELINE, 10) == 1.0);
    logp_learn_record(&u, LOGP_COLL_REDUCE, LOGP_ALGO_LOGP_TREE, 10, 0.25e-6, 1e-6);
    logp_learn_record(&u, LOGP_COLL_REDUCE, LOGP_ALGO_FLAT, 10, 1e-6, 1e-6);
    logp_learn_record(&u, LOGP_COLL_REDUCE, LOGP_ALGO_BINOMIAL, 12, 8e-6, 1e-6); /* another class */
    ck_assert(fabs(logp_learn_record_default(&u, LOGP_COLL_REDUCE, 10) - 0.5) < 1e-6); /* sqrt(1/4 x 1) */
    ck_assert(fabs(logp_learn_factor(&u, LOGP_COLL_REDUCE, LOGP_ALGO_PIPELINE, 10) - 0.5) < 1e-6);
    ck_assert(fabs(logp_learn_factor(&u, LOGP_COLL_REDUCE, LOGP_ALGO_PIPELINE, 20) - 0.5) < 1e-6);
    ck_assert(fabs(logp_learn_factor(&u, LOGP_COLL_REDUCE, LOGP_ALGO_NATIVE, 10) - 9.0) < 1e-5);
    ck_assert(fabs(logp_learn_factor(&u, LOGP_COLL_REDUCE, LOGP_ALGO_FLAT, 10) - 1.0) < 1e-6);
    ck_assert(logp_learn_factor(&u, LOGP_COLL_BCAST, LOGP_ALGO_PIPELINE, 10) == 1.0);
    /* two: geometric interpolation between them, the nearest beyond */
    logp_learn_record(&l, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, 8, 12e-6, 1e-6);
    ck_assert(fabs(logp_learn_factor(&l, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, 6) - 6.0) < 1e-5); /* sqrt(3 x 12) */
    ck_assert(fabs(logp_learn_factor(&l, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, 20) - 12.0) < 1e-5);
    /* clamped; nothing recorded without both times */
    ck_assert(fabs(logp_learn_record(&l, LOGP_COLL_ALLTOALL, LOGP_ALGO_RING, 3, 1.0, 1e-9) - LOGP_LEARN_CLAMP) < 1e-3);
    ck_assert(logp_learn_record(&l, LOGP_COLL_ALLTOALL, LOGP_ALGO_RING, 4, 0.0, 1e-9) == 0.0);
    ck_assert(logp_learn_record(&l, LOGP_COLL_ALLTOALL, LOGP_ALGO_RING, 99, 1.0, 1.0) == 0.0);
    ck_assert_int_eq(logp_learn_set(&l, LOGP_COLL_REDUCE, LOGP_ALGO_NATIVE, 20, 5000.0), LOGP_ERR_ARG);
    ck_assert_int_eq(logp_learn_set(&l, LOGP_COLL_REDUCE, LOGP_ALGO_NATIVE, 20, 2.0), LOGP_OK);
    /* apply: prices times factors, non-candidates stay < 0 */
    double t[LOGP_ALGO_COUNT];
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        t[a] = -1.0;
    t[LOGP_ALGO_NATIVE] = 1e-3;
    logp_learn_apply(&l, LOGP_COLL_REDUCE, 20, t);
    ck_assert(fabs(t[LOGP_ALGO_NATIVE] - 2e-3) < 1e-12);
    ck_assert(t[LOGP_ALGO_BINOMIAL] == -1.0);
    static logp_learn_t m;
    memset(&m, 0, sizeof m);
    ck_assert(!logp_learn_any(&m));
    logp_learn_merge(&m, &l);
    ck_assert(logp_learn_any(&m));
    ck_assert(memcmp(&m, &l, sizeof m) == 0);
    /* classes: floor(log2), decided near the geometric middle */
    ck_assert_int_eq(logp_learn_class(1), 0);
    ck_assert_int_eq(logp_learn_class(8), 3);
    ck_assert_int_eq(logp_learn_class(15), 3);
    ck_assert_int_eq(logp_learn_class((size_t)1 << 30), 30);
    for (int c = 1; c < LOGP_LEARN_CLASSES; c++) {
        size_t mid = logp_learn_class_mid(c);
        ck_assert_int_eq(logp_learn_class(mid), c);
        ck_assert(c < 3 || (mid > ((size_t)1 << c) * 1.3 && mid < ((size_t)1 << c) * 1.45));
    }
}
END_TEST

static void prices(double *t, double native, double tree, double binomial, double flat)
{
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        t[a] = -1.0;
    t[LOGP_ALGO_NATIVE] = native;
    t[LOGP_ALGO_LOGP_TREE] = tree;
    t[LOGP_ALGO_BINOMIAL] = binomial;
    t[LOGP_ALGO_FLAT] = flat;
}

START_TEST(test_plan)
{
    double t[LOGP_ALGO_COUNT];
    logp_trial_plan_t p;
    /* the model's pick first, native, our cheapest other within 2x */
    prices(t, 20e-6, 10e-6, 15e-6, 30e-6);
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_LOGP_TREE, &p), 3);
    ck_assert_int_eq(p.algo[0], LOGP_ALGO_LOGP_TREE);
    ck_assert_int_eq(p.algo[1], LOGP_ALGO_NATIVE);
    ck_assert_int_eq(p.algo[2], LOGP_ALGO_BINOMIAL);
    ck_assert(p.predicted[2] == 15e-6);
    /* an overwhelming margin: no trial */
    prices(t, 100e-6, 10e-6, 50e-6, -1.0);
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_LOGP_TREE, &p), 1);
    /* native unsafe (not priced): ours only */
    prices(t, -1.0, 10e-6, 12e-6, -1.0);
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_LOGP_TREE, &p), 2);
    ck_assert_int_eq(p.algo[1], LOGP_ALGO_BINOMIAL);
    /* native is the pick: our best other is the challenger */
    prices(t, 5e-6, 9e-6, -1.0, -1.0);
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_NATIVE, &p), 2);
    ck_assert_int_eq(p.algo[1], LOGP_ALGO_LOGP_TREE);
    /* after every block, the model's next below the plan: the cheapest not in it, not native, not a twin */
    prices(t, 5e-6, 50e-6, 7e-6, 60e-6); /* the tree and flat beyond native's 8x */
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_NATIVE, &p), 2); /* native, binomial */
    t[LOGP_ALGO_FLAT] = 50.2e-6; /* the tree's twin (0.4% apart): one of them */
    ck_assert_int_eq(logp_confirm_plan_extend(&p, t, t, NULL), 2);
    ck_assert_int_eq(p.algo[2], LOGP_ALGO_LOGP_TREE);
    ck_assert(p.predicted[2] == 50e-6 && p.n == 3);
    ck_assert_int_eq(logp_confirm_plan_extend(&p, t, t, NULL), -1);
    t[LOGP_ALGO_FLAT] = 60e-6;
    ck_assert_int_eq(logp_confirm_plan_extend(&p, t, t, NULL), 3);
    ck_assert_int_eq(p.algo[3], LOGP_ALGO_FLAT);
    p.n = LOGP_CONFIRM_MAX; /* full */
    ck_assert_int_eq(logp_confirm_plan_extend(&p, t, t, NULL), -1);
    /* prices corrected since the plan (native measured 4x its price, the others 3x by the default
     * correction): the one that joins is put on the plan's footing, native's plan price over its
     * price now; the budget's estimate (block 0's measured / plan price) then scales it once */
    prices(t, 5e-6, 50e-6, 7e-6, 60e-6);
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_NATIVE, &p), 2);
    t[LOGP_ALGO_NATIVE] = 20e-6;
    t[LOGP_ALGO_LOGP_TREE] = 150e-6;
    t[LOGP_ALGO_FLAT] = 180e-6;
    ck_assert_int_eq(logp_confirm_plan_extend(&p, t, t, NULL), 2);
    ck_assert_int_eq(p.algo[2], LOGP_ALGO_LOGP_TREE);
    ck_assert(fabs(p.predicted[2] - 150e-6 * 5e-6 / 20e-6) < 1e-15);
    ck_assert(p.predicted[0] == 5e-6 && p.predicted[1] == 7e-6); /* the plan's own prices stay */
    /* a rule's resumed trial (explore): the rule, then the untried candidates that are candidates here,
     * cheapest first; the rule's own bit and the unpriced ones left out */
    prices(t, 5e-6, 9e-6, 7e-6, -1.0);
    ck_assert_int_eq(logp_confirm_plan_untried(t, NULL, LOGP_ALGO_NATIVE,
                                               1u << LOGP_ALGO_LOGP_TREE | 1u << LOGP_ALGO_BINOMIAL |
                                                   1u << LOGP_ALGO_FLAT | 1u << LOGP_ALGO_NATIVE, &p), 3);
    ck_assert_int_eq(p.algo[0], LOGP_ALGO_NATIVE);
    ck_assert_int_eq(p.algo[1], LOGP_ALGO_BINOMIAL);
    ck_assert_int_eq(p.algo[2], LOGP_ALGO_LOGP_TREE);
    ck_assert(p.predicted[1] == 7e-6 && p.band[1] < 0.0);
    ck_assert_int_eq(logp_confirm_plan_untried(t, NULL, LOGP_ALGO_BINOMIAL, 1u << LOGP_ALGO_FLAT, &p), 1);
    ck_assert_int_eq(logp_confirm_plan_untried(t, NULL, LOGP_ALGO_FLAT, 1u << LOGP_ALGO_BINOMIAL, &p), 0);
    prices(t, 5e-6, 9e-6, -1.0, -1.0);
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_NATIVE, &p), 2);
    /* native's block comes again at the end: 3 blocks */
    ck_assert_int_eq(logp_confirm_blocks(&p), 3);
    ck_assert_int_eq(logp_confirm_calls(&p), 3 * LOGP_CONFIRM_ROUNDS);
    /* blocks: each candidate gets BLOCK_WARM untimed then ROUNDS timed calls in a row, and the timed
     * steps map to timed calls in the same order as logp_confirm_turn_of */
    int seen[LOGP_CONFIRM_MAX] = {0}, timed = 0;
    for (int i = 0; i < logp_confirm_calls(&p); i++)
        seen[logp_confirm_turn_of(&p, i)]++;
    ck_assert_int_eq(seen[0], 2 * LOGP_CONFIRM_ROUNDS);
    ck_assert_int_eq(seen[1], LOGP_CONFIRM_ROUNDS);
    ck_assert_int_eq(logp_confirm_turn_of(&p, 2 * LOGP_CONFIRM_ROUNDS), 0); /* native last, too */
    ck_assert_int_eq(logp_confirm_steps(&p), 3 * (LOGP_CONFIRM_BLOCK_WARM + LOGP_CONFIRM_ROUNDS));
    int blocks = 0;
    for (int s = 0, prev = -1; s < logp_confirm_steps(&p); s++) {
        int c, is_timed = logp_confirm_step_of(&p, s, &c);
        ck_assert(c >= 0 && c < p.n);
        blocks += c != prev; /* a candidate's calls in one block */
        if (s == 0)
            ck_assert_int_eq(p.algo[c], LOGP_ALGO_NATIVE); /* the library's collective first */
        ck_assert_int_eq(is_timed, s % (LOGP_CONFIRM_BLOCK_WARM + LOGP_CONFIRM_ROUNDS) >= LOGP_CONFIRM_BLOCK_WARM);
        if (is_timed)
            ck_assert_int_eq(logp_confirm_turn_of(&p, timed++), c);
        prev = c;
    }
    ck_assert_int_eq(timed, logp_confirm_calls(&p));
    ck_assert_int_eq(blocks, logp_confirm_blocks(&p));
    ck_assert_int_eq(logp_confirm_native_index(&p), 0);
    /* native the pick: ours is tried within 8x, not only 2x */
    prices(t, 5e-6, 30e-6, 45e-6, -1.0);
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_NATIVE, &p), 2);
    ck_assert_int_eq(p.algo[1], LOGP_ALGO_LOGP_TREE);
    prices(t, 5e-6, 50e-6, -1.0, -1.0);
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_NATIVE, &p), 1);
    /* a second runner-up within 2x, priced apart from the others: the
     * MPICH n = 2 32 KiB reduce (best rsg 12.57, native 12.99, pipeline
     * 14.12, two-tree 14.25, every tree 15.51) */
    prices(t, 12.99e-6, 15.51e-6, 15.51e-6, 15.51e-6);
    t[LOGP_ALGO_REDUCE_SCATTER_GATHER] = 12.57e-6;
    t[LOGP_ALGO_PIPELINE] = 14.12e-6;
    t[LOGP_ALGO_TWO_TREE] = 14.25e-6;
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_REDUCE_SCATTER_GATHER, &p), 4);
    ck_assert_int_eq(p.algo[1], LOGP_ALGO_NATIVE);
    ck_assert_int_eq(p.algo[2], LOGP_ALGO_PIPELINE);
    ck_assert_int_eq(p.algo[3], LOGP_ALGO_TWO_TREE);
    /* without two-tree, the trees' one price joins once (> 0.5% from pipeline's) */
    t[LOGP_ALGO_TWO_TREE] = -1.0;
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_REDUCE_SCATTER_GATHER, &p), 4);
    ck_assert(p.predicted[3] == 15.51e-6);
    /* a second runner-up priced within 0.5% of the first is the same schedule: not tried (flat and
     * binomial at P = 2 were priced 0.12% apart after a refit) */
    t[LOGP_ALGO_PIPELINE] = 15.505e-6;
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_REDUCE_SCATTER_GATHER, &p), 3);
    ck_assert_int_eq(p.algo[2], LOGP_ALGO_PIPELINE);
    ck_assert_int_eq(logp_confirm_calls(&p), 4 * LOGP_CONFIRM_ROUNDS); /* and native's second block */
    /* without native no second block */
    p.algo[1] = LOGP_ALGO_BINOMIAL;
    ck_assert_int_eq(logp_confirm_blocks(&p), 3);
    /* a runner-up priced as the pick (hetero-tree on a uniform layout is
     * logp-tree) gives way to the next; one priced as native does not */
    prices(t, 15e-6, 10e-6, 15e-6, 19e-6);
    t[LOGP_ALGO_HETERO_TREE] = 10e-6;
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_LOGP_TREE, &p), 4);
    ck_assert_int_eq(p.algo[2], LOGP_ALGO_BINOMIAL);
    ck_assert_int_eq(p.algo[3], LOGP_ALGO_FLAT);
    /* twins by the model's own prices stay twins whatever the corrections
     * say: MPICH n = 2, 16 KiB reduce, binomial / chain / chain-opt are
     * one message each (raw 8.95 us), corrected 2.19 / 2.21 / 2.24;
     * pipeline (raw 8.53, corrected 3.4) is the runner-up to try */
    double raw[LOGP_ALGO_COUNT];
    prices(raw, 8.9e-6, 8.95e-6, 8.95e-6, 8.95e-6);
    raw[LOGP_ALGO_CHAIN] = raw[LOGP_ALGO_CHAIN_OPT] = 8.95e-6;
    raw[LOGP_ALGO_PIPELINE] = 8.53e-6;
    prices(t, 2.31e-6, -1.0, 2.19e-6, 2.25e-6);
    t[LOGP_ALGO_CHAIN] = 2.21e-6;
    t[LOGP_ALGO_CHAIN_OPT] = 2.24e-6;
    t[LOGP_ALGO_PIPELINE] = 3.4e-6;
    ck_assert_int_eq(logp_confirm_plan(t, raw, NULL, LOGP_ALGO_BINOMIAL, &p), 3);
    ck_assert_int_eq(p.algo[1], LOGP_ALGO_NATIVE);
    ck_assert_int_eq(p.algo[2], LOGP_ALGO_PIPELINE);
    ck_assert(p.predicted[2] == 3.4e-6);
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_BINOMIAL, &p), 4); /* judged by corrected prices: twins */
    ck_assert_int_eq(p.algo[2], LOGP_ALGO_CHAIN);
}
END_TEST

/* The model's error bands (algo.def) widen a trial where the model is
 * known to be far off, and only there. */
START_TEST(test_error_band)
{
    ck_assert(!logp_confirm_within_error(10e-6, 0.0, 19.9e-6, 0.0));
    ck_assert(logp_confirm_within_error(10e-6, 0.1, 10.5e-6, -1.0)); /* not known: 0 */
    ck_assert(!logp_confirm_within_error(10e-6, 0.0, 25e-6, 0.8));    /* 25 / 1.8 = 13.9 > 10 */
    ck_assert(logp_confirm_within_error(10e-6, 0.5, 25e-6, 0.8));     /* 13.9 <= 10 / 0.5 */
    ck_assert(!logp_confirm_within_error(10e-6, 0.99, 1000e-6, 0.0)); /* capped at 0.9: 10 / 0.1 = 100 */
    ck_assert(logp_algo_error_band(LOGP_ALGO_NATIVE, 0) < 0.0 && logp_algo_error_band(LOGP_ALGO_AUTO, 1) < 0.0);
    ck_assert(logp_algo_error_band(LOGP_ALGO_COUNT, 0) < 0.0);
    /* bruck priced 10 us, linear 30 (3x: beyond NEAR), native not a candidate */
    double t[LOGP_ALGO_COUNT], band[LOGP_ALGO_COUNT];
    logp_trial_plan_t p;
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        t[a] = -1.0;
    t[LOGP_ALGO_BRUCK] = 10e-6;
    t[LOGP_ALGO_LINEAR] = 30e-6;
    t[LOGP_ALGO_RING] = 500e-6;
    ck_assert_int_eq(logp_confirm_plan(t, t, NULL, LOGP_ALGO_BRUCK, &p), 1);
    /* the LogGP network's bands: bruck's price may be far off (+-80% on drawn platforms), so linear is tried */
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        band[a] = logp_algo_error_band((logp_algo_t)a, 0);
    ck_assert(band[LOGP_ALGO_BRUCK] > 0.5);
    ck_assert_int_eq(logp_confirm_plan(t, t, band, LOGP_ALGO_BRUCK, &p), 2);
    ck_assert_int_eq(p.algo[1], LOGP_ALGO_LINEAR);
    ck_assert(p.band[0] == band[LOGP_ALGO_BRUCK] && p.band[1] == band[LOGP_ALGO_LINEAR]);
    /* the shared network's (within a few percent): not */
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        band[a] = logp_algo_error_band((logp_algo_t)a, 1);
    ck_assert(band[LOGP_ALGO_BRUCK] >= 0.0 && band[LOGP_ALGO_BRUCK] < 0.1);
    ck_assert_int_eq(logp_confirm_plan(t, t, band, LOGP_ALGO_BRUCK, &p), 1);
}
END_TEST

/* The safe start runs the pick only where native is priced at least
 * LOGP_CONFIRM_SAFE_MARGIN x the pick at the top of its error band. */
/* The basis the learned file writes beside its corrections: the same for
 * the same prices, another for any parameter, the network, the node count
 * or the library "native" models, and never 0 (0 is "none" in the file). */
START_TEST(test_basis)
{
    logp_params_t p = logp_params_default();
    logp_topo_t a = logp_topo_uniform(8, &p), b = logp_topo_uniform(8, &p);
    uint64_t base = logp_confirm_basis(&a, LOGP_NATIVE_MPICH);
    ck_assert(base != 0);
    ck_assert(logp_confirm_basis(&b, LOGP_NATIVE_MPICH) == base);
    ck_assert(logp_confirm_basis(&a, LOGP_NATIVE_OPENMPI) != base);
    double *fields[] = {&b.intra.L, &b.intra.o, &b.intra.g, &b.intra.G, &b.intra.gamma, &b.intra.copy,
                        &b.intra.fresh, &b.inter.L, &b.inter.G, &b.inter.fresh};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        double keep = *fields[i];
        *fields[i] = keep * 1.01 + 1e-12; /* a tuning file edited, or probed again */
        ck_assert_msg(logp_confirm_basis(&b, LOGP_NATIVE_MPICH) != base, "field %zu", i);
        *fields[i] = keep;
    }
    ck_assert(logp_confirm_basis(&b, LOGP_NATIVE_MPICH) == base);
    b.shared = 1;
    ck_assert(logp_confirm_basis(&b, LOGP_NATIVE_MPICH) != base);
    b.shared = 0;
    b.nnodes = 2;
    ck_assert(logp_confirm_basis(&b, LOGP_NATIVE_MPICH) != base);
}
END_TEST

START_TEST(test_pick_first)
{
    double t[LOGP_ALGO_COUNT], band[LOGP_ALGO_COUNT];
    logp_trial_plan_t p;
    for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
        t[a] = -1.0;
        band[a] = -1.0;
    }
    t[LOGP_ALGO_REDUCE_SCATTER_GATHER] = 100e-6;
    band[LOGP_ALGO_REDUCE_SCATTER_GATHER] = 0.1;
    t[LOGP_ALGO_NATIVE] = 221e-6; /* 2 x 1.1 x 100 = 220 */
    ck_assert_int_eq(logp_confirm_plan(t, t, band, LOGP_ALGO_REDUCE_SCATTER_GATHER, &p), 2);
    ck_assert(logp_confirm_pick_first(&p, NULL));
    double raw[LOGP_ALGO_COUNT];
    memcpy(raw, t, sizeof raw);
    ck_assert(logp_confirm_pick_first(&p, raw));
    raw[LOGP_ALGO_NATIVE] = 150e-6; /* the corrections alone set native apart: not enough */
    ck_assert(!logp_confirm_pick_first(&p, raw));
    t[LOGP_ALGO_NATIVE] = 219e-6;
    logp_confirm_plan(t, t, band, LOGP_ALGO_REDUCE_SCATTER_GATHER, &p);
    ck_assert(!logp_confirm_pick_first(&p, NULL));
    band[LOGP_ALGO_REDUCE_SCATTER_GATHER] = -1.0; /* not known: 0, so 2 x 100 */
    logp_confirm_plan(t, t, band, LOGP_ALGO_REDUCE_SCATTER_GATHER, &p);
    ck_assert(logp_confirm_pick_first(&p, NULL));
    t[LOGP_ALGO_NATIVE] = 900e-6; /* beyond LOGP_CONFIRM_SPAN: not a candidate, no trial of it */
    ck_assert_int_eq(logp_confirm_plan(t, t, band, LOGP_ALGO_REDUCE_SCATTER_GATHER, &p), 1);
    ck_assert(!logp_confirm_pick_first(&p, NULL));
    t[LOGP_ALGO_NATIVE] = 50e-6; /* native is the pick */
    logp_confirm_plan(t, t, band, LOGP_ALGO_NATIVE, &p);
    ck_assert(!logp_confirm_pick_first(&p, NULL));
}
END_TEST

START_TEST(test_verdict)
{
    logp_trial_plan_t p = {3, {LOGP_ALGO_LOGP_TREE, LOGP_ALGO_NATIVE, LOGP_ALGO_BINOMIAL}, {1e-6, 2e-6, 1.5e-6}, {-1, -1, -1}};
    logp_trial_verdict_t v;
    /* timed calls in blocks: native first, then tree and binomial; a candidate's time is its fastest call
     * (a first-call outlier of 1 ms is dropped) */
    ck_assert_int_eq(logp_confirm_turn_of(&p, 0), 1);
    ck_assert_int_eq(logp_confirm_turn_of(&p, LOGP_CONFIRM_ROUNDS), 0);
    ck_assert_int_eq(logp_confirm_turn_of(&p, 2 * LOGP_CONFIRM_ROUNDS), 2);
    double times[LOGP_CONFIRM_CALLS] = {5e-6, 5e-6, 5e-6, 1e-3, 10e-6, 10e-6, 3e-6, 3e-6, 3e-6};
    logp_confirm_verdict(&p, times, NULL, NULL, &v);
    ck_assert_int_eq(v.winner, 2);
    ck_assert(fabs(v.time[0] - 10e-6) < 1e-12 && fabs(v.time[1] - 5e-6) < 1e-12 && fabs(v.time[2] - 3e-6) < 1e-12);
    /* exploration beyond native (the base): the tree's block, warm calls included; binomial is cheaper */
    ck_assert(fabs(v.base - 5e-6) < 1e-12);
    ck_assert(fabs(v.overhead - (LOGP_CONFIRM_BLOCK_WARM + LOGP_CONFIRM_ROUNDS) * 5e-6) < 1e-12);
    /* within the margin the model's pick stays */
    double close[LOGP_CONFIRM_CALLS] = {9.8e-6, 9.8e-6, 9.8e-6, 10e-6, 10e-6, 10e-6, 9.7e-6, 9.7e-6, 9.7e-6};
    logp_confirm_verdict(&p, close, NULL, NULL, &v);
    ck_assert_int_eq(v.winner, 0);
    /* a candidate with a missing time has no claim */
    double missing[LOGP_CONFIRM_CALLS] = {1e-6, 0.0, 1e-6, 10e-6, 10e-6, 10e-6, 9e-6, 9e-6, 9e-6};
    logp_confirm_verdict(&p, missing, NULL, NULL, &v);
    ck_assert_int_eq(v.winner, 2);
    ck_assert(v.time[1] == 0.0);
    /* two disturbed calls of three (a cold library): the undisturbed one counts (binomial 3 us; medians
     * would have made native the winner, 5 us against binomial's 8) */
    double cold[LOGP_CONFIRM_CALLS] = {9e-6, 5e-6, 5e-6, 7e-6, 7e-6, 7e-6, 3e-6, 8e-6, 9e-6};
    logp_confirm_verdict(&p, cold, NULL, NULL, &v);
    ck_assert_int_eq(v.winner, 2);
    ck_assert(fabs(v.time[2] - 3e-6) < 1e-12 && fabs(v.time[1] - 5e-6) < 1e-12);
    /* the pick without its times (never cut by the budget, but a rank may miss them): the fastest wins */
    double nopick[LOGP_CONFIRM_CALLS] = {5e-6, 5e-6, 5e-6, 0.0, 0.0, 0.0, 6e-6, 6e-6, 6e-6};
    logp_confirm_verdict(&p, nopick, NULL, NULL, &v);
    ck_assert_int_eq(v.winner, 1);
    ck_assert_int_eq(v.tried, 2);
    /* native cold in its first block (right after the safe start), warm in its second: its fastest call
     * of both counts (MPICH n = 2, allreduce 16 KiB: 13-14.5 us, then 7.6; ring 8.2) */
    ck_assert_int_eq(logp_confirm_turn_of(&p, 3 * LOGP_CONFIRM_ROUNDS), 1);
    double rewarm[LOGP_CONFIRM_CALLS] = {14e-6, 13e-6, 14e-6, 10e-6, 10e-6, 10e-6, 8.2e-6, 8.5e-6, 8.3e-6,
                                         7.7e-6, 7.6e-6, 7.8e-6};
    logp_confirm_verdict(&p, rewarm, NULL, NULL, &v);
    ck_assert_int_eq(v.winner, 1);
    ck_assert(fabs(v.time[1] - 7.6e-6) < 1e-12);
    ck_assert(fabs(v.time[2] - 8.2e-6) < 1e-12);
    /* drift: 3x off the reference either way */
    double slow[5] = {31e-6, 35e-6, 40e-6, 10e-6, 50e-6}, same[5] = {10e-6, 11e-6, 9e-6, 30e-6, 10e-6};
    ck_assert(logp_confirm_drifted(10e-6, slow, 5));
    ck_assert(!logp_confirm_drifted(10e-6, same, 5));
    double fast[3] = {3e-6, 2e-6, 3e-6};
    ck_assert(logp_confirm_drifted(10e-6, fast, 3));
    ck_assert(!logp_confirm_drifted(0.0, fast, 3));
    ck_assert(fabs(logp_confirm_median((double[]){4, 1, 3, 2}, 4) - 2.5) < 1e-12);
}
END_TEST

/* The exploration budget: blocks go on while the blocks of candidates
 * other than native cost less than LOGP_CONFIRM_BUDGET calls of native
 * beyond as many native calls; the verdict's overhead is that sum. */
START_TEST(test_budget)
{
    logp_trial_plan_t p = {3, {LOGP_ALGO_LOGP_TREE, LOGP_ALGO_NATIVE, LOGP_ALGO_BINOMIAL}, {1e-6, 2e-6, 1.5e-6}, {-1, -1, -1}};
    const double len = LOGP_CONFIRM_BLOCK_WARM + LOGP_CONFIRM_ROUNDS;
    double times[LOGP_CONFIRM_CALLS] = {5e-6, 5e-6, 5e-6, 0, 0, 0, 0, 0, 0}, cost[LOGP_CONFIRM_BLOCKS_MAX] = {len * 5e-6};
    logp_trial_verdict_t v;
    ck_assert_int_eq(logp_confirm_block_of(&p, 0), 1); /* native's block first, then the pick */
    ck_assert_int_eq(logp_confirm_block_of(&p, 1), 0);
    ck_assert_int_eq(logp_confirm_block_of(&p, 2), 2);
    ck_assert(logp_confirm_affordable(&p, 0, cost, NULL, 0));
    ck_assert(logp_confirm_affordable(&p, 1, cost, NULL, 0)); /* after native's block nothing is spent */
    ck_assert(!logp_confirm_affordable(&p, 4, cost, NULL, 0)); /* no block 4 */
    /* the pick's block cost 9 native calls more than native's would have: binomial may still run */
    times[3] = times[4] = times[5] = 5.2e-6;
    cost[1] = len * 5e-6 + 9 * 5e-6;
    ck_assert(logp_confirm_affordable(&p, 2, cost, NULL, 0));
    /* 10 more: the budget is spent, binomial is not tried */
    cost[1] = len * 5e-6 + 10 * 5e-6;
    ck_assert(!logp_confirm_affordable(&p, 2, cost, NULL, 0));
    ck_assert_uint_eq(logp_confirm_resume_after(&p, 2, cost, NULL, 0), 1); /* at the budget: one call more */
    ck_assert_int_eq(logp_confirm_block_of(&p, 3), 1); /* native's second block: it costs nothing, always run */
    ck_assert(logp_confirm_affordable(&p, 3, cost, NULL, 0));
    /* the class pays for the rest: one native call of budget per LOGP_CONFIRM_EARN calls after the
     * verdict; 10.3 calls over needs 10.3 x 4 = 41.2, so 42 calls */
    cost[1] = len * 5e-6 + 20.3 * 5e-6;
    unsigned long r0 = logp_confirm_resume_after(&p, 2, cost, NULL, 0);
    ck_assert(r0 >= (unsigned long)(10.3 * LOGP_CONFIRM_EARN) && r0 <= (unsigned long)(10.3 * LOGP_CONFIRM_EARN) + 1);
    ck_assert(!logp_confirm_affordable(&p, 2, cost, NULL, r0 - 1));
    ck_assert(logp_confirm_affordable(&p, 2, cost, NULL, r0));
    ck_assert_uint_eq(logp_confirm_resume_after(&p, 2, cost, NULL, r0 - 1), 1);
    cost[1] = len * 5e-6 + 10 * 5e-6;
    logp_confirm_verdict(&p, times, cost, NULL, &v);
    ck_assert_int_eq(v.winner, 0); /* native 5 against 5.2: within the margin, the pick stays */
    ck_assert_int_eq(v.tried, 2);
    ck_assert(v.time[2] == 0.0);
    ck_assert(fabs(v.overhead - 10 * 5e-6) < 1e-12); /* the blocks' own cost, not an estimate */
    /* a block faster than native costs nothing (not a negative cost) */
    cost[1] = len * 4e-6;
    ck_assert(logp_confirm_affordable(&p, 2, cost, NULL, 0));
    logp_confirm_verdict(&p, times, cost, NULL, &v);
    ck_assert(v.overhead == 0.0);
    /* without native, the base is the fastest measured candidate */
    logp_trial_plan_t q = {2, {LOGP_ALGO_LOGP_TREE, LOGP_ALGO_BINOMIAL}, {1e-6, 1.5e-6}, {-1, -1}};
    double cq[LOGP_CONFIRM_BLOCKS_MAX] = {len * 4e-6};
    ck_assert_int_eq(logp_confirm_block_of(&q, 0), 0);
    ck_assert(logp_confirm_affordable(&q, 1, cq, NULL, 0));
    /* a candidate the model prices 4x native (scaled by native's measured / priced) is expected to cost
     * 11 x 3 native calls in its block: it waits, even with nothing spent yet */
    logp_trial_plan_t e = {3, {LOGP_ALGO_RING, LOGP_ALGO_NATIVE, LOGP_ALGO_NODE_AGGREGATE}, {1e-6, 1e-6, 4e-6}, {-1, -1, -1}};
    double ce[LOGP_CONFIRM_BLOCKS_MAX] = {len * 5e-6, len * 5e-6};
    ck_assert(!logp_confirm_affordable(&e, 2, ce, NULL, 0));
    ck_assert(logp_confirm_resume_after(&e, 2, ce, NULL, 0) > 20 * LOGP_CONFIRM_EARN);
    e.predicted[2] = 1.5e-6; /* 1.5x: 5.5 native calls expected, affordable */
    ck_assert(logp_confirm_affordable(&e, 2, ce, NULL, 0));
    /* the application's skew between ranks (20 us before each untimed call, no barrier there) is in
     * native's block as in the others: it is not exploration */
    cost[0] = len * 5e-6 + LOGP_CONFIRM_BLOCK_WARM * 20e-6;
    cost[1] = len * 5.2e-6 + LOGP_CONFIRM_BLOCK_WARM * 20e-6;
    ck_assert(logp_confirm_affordable(&p, 2, cost, NULL, 0));
    logp_confirm_verdict(&p, times, cost, NULL, &v);
    ck_assert(fabs(v.overhead - len * 0.2e-6) < 1e-12);
    /* the trial's own barriers count in every block, native's too: with 4
     * native calls of them in native's block and 4 in the pick's, 9 calls'
     * worth of the pick's block is over the budget (the next block's own
     * expected as the last one's), with 1 it is within */
    cost[0] = len * 5e-6;
    cost[1] = len * 5e-6 + 1 * 5e-6;
    logp_trial_own_t own = {{4 * 5e-6, 4 * 5e-6}, 0.0};
    ck_assert(logp_confirm_affordable(&p, 1, cost, &own, 0));     /* 4 spent, 4 expected */
    ck_assert(!logp_confirm_affordable(&p, 2, cost, &own, 0));    /* 1 + 8 spent, 4 expected */
    own.block[0] = own.block[1] = 1 * 5e-6;
    ck_assert(logp_confirm_affordable(&p, 2, cost, &own, 0));     /* 1 + 2 spent, 1 expected */
    ck_assert(logp_confirm_affordable(&p, 3, cost, &own, 0));     /* native's second block: always */
    /* the first call's check is spent once, not expected again of the next block */
    own.check = 5 * 5e-6;
    ck_assert(logp_confirm_affordable(&p, 2, cost, &own, 0));     /* 1 + 2 + 5 spent, 1 expected */
    own.check = 7 * 5e-6;
    ck_assert(!logp_confirm_affordable(&p, 2, cost, &own, 0));    /* 1 + 2 + 7 spent, 1 expected */
    own.check = 40 * 5e-6;                                        /* a costly first check */
    ck_assert(!logp_confirm_affordable(&p, 1, cost, &own, 0));    /* even the pick's block waits */
    ck_assert(logp_confirm_resume_after(&p, 1, cost, &own, 0) > 30 * LOGP_CONFIRM_EARN);
    ck_assert(logp_confirm_waits(&p, 1, 0) && logp_confirm_waits(&p, 1, 1)); /* the pick, native's second block */
    ck_assert(!logp_confirm_waits(&p, 3, 0) && logp_confirm_waits(&p, 3, 1) && !logp_confirm_waits(&p, 0, 2));
    own.check = 0.0;
    own.block[0] = own.block[1] = 2 * 5e-6;
    logp_confirm_verdict(&p, times, cost, &own, &v);
    ck_assert(fabs(v.barriers - 4 * 5e-6) < 1e-12);
    ck_assert(fabs(v.overhead - 5 * 5e-6) < 1e-12); /* 1 of the pick's calls and 4 of barriers */
}
END_TEST

/* The agreement vector over simulated ranks: MPI_MAX element by element. */
static void reduce_max(double *out, double v[][LOGP_AGREE_LEN], int ranks)
{
    for (int i = 0; i < LOGP_AGREE_LEN; i++) {
        out[i] = v[0][i];
        for (int r = 1; r < ranks; r++)
            out[i] = v[r][i] > out[i] ? v[r][i] : out[i];
    }
}

START_TEST(test_agree)
{
    static double v[4][LOGP_AGREE_LEN];
    double r[LOGP_AGREE_LEN], times[LOGP_CONFIRM_CALLS];
    double a[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, b[9] = {9, 1, 1, 1, 1, 1, 1, 1, 10};
    /* durations (no global clock): each call takes its slowest rank's */
    for (int k = 0; k < 4; k++)
        logp_confirm_agree_init(v[k]);
    logp_confirm_agree_put(v[0], 0, 17, a, NULL, 9);
    logp_confirm_agree_put(v[1], 0, 17, b, NULL, 9);
    logp_confirm_agree_put(v[2], 0, 17, a, NULL, 9);
    logp_confirm_agree_put(v[3], 0, 17, a, NULL, 6); /* fewer calls: the rest count as missing */
    reduce_max(r, v, 4);
    ck_assert_int_eq(logp_confirm_agree_key(r, 0, times), 17);
    ck_assert(times[0] == 9 && times[1] == 2 && times[8] == 10);
    ck_assert_int_eq(logp_confirm_agree_key(r, 1, NULL), 0); /* empty everywhere */
    ck_assert(!logp_confirm_agree_busy(r));
    ck_assert_int_eq(logp_confirm_agree_drift(r), 0);
    /* a global clock: from the last start to the last end, not the barrier's skew */
    double start0[2] = {100.0, 200.0}, end0[2] = {112.0, 209.0}; /* rank 0 starts early, ends last */
    double start1[2] = {107.0, 205.0}, end1[2] = {108.0, 206.0};
    logp_confirm_agree_init(v[0]);
    logp_confirm_agree_init(v[1]);
    logp_confirm_agree_put(v[0], 0, 3, end0, start0, 2);
    logp_confirm_agree_put(v[1], 0, 3, end1, start1, 2);
    reduce_max(r, v, 2);
    ck_assert_int_eq(logp_confirm_agree_key(r, 0, times), 3);
    ck_assert(fabs(times[0] - 5.0) < 1e-12 && fabs(times[1] - 4.0) < 1e-12);
    ck_assert(times[2] == 0.0); /* missing */
    /* ranks whose trials differ (sizes of different classes): -1 on every rank */
    for (int k = 0; k < 4; k++)
        logp_confirm_agree_init(v[k]);
    logp_confirm_agree_put(v[0], 0, 17, a, NULL, 9);
    logp_confirm_agree_put(v[1], 0, 17, a, NULL, 9);
    logp_confirm_agree_put(v[2], 0, 16, a, NULL, 9);
    logp_confirm_agree_put(v[1], 1, 5, a, NULL, 9); /* only rank 1 waits on a second one */
    reduce_max(r, v, 4);
    ck_assert_int_eq(logp_confirm_agree_key(r, 0, NULL), -1);
    ck_assert_int_eq(logp_confirm_agree_key(r, 1, NULL), -1);
    /* drift and busy: any rank's wish counts; the largest key */
    logp_confirm_agree_put_drift(v[0], 40);
    logp_confirm_agree_put_drift(v[3], 41);
    logp_confirm_agree_put_busy(v[2]);
    reduce_max(r, v, 4);
    ck_assert_int_eq(logp_confirm_agree_drift(r), 41);
    ck_assert(logp_confirm_agree_busy(r));
    ck_assert_int_eq(logp_confirm_agree_key(r, LOGP_AGREE_SLOTS, NULL), -1);
    /* the head: the body is reduced only where some rank filled a slot,
     * and the head alone carries drift and busy */
    for (int k = 0; k < 4; k++)
        logp_confirm_agree_init(v[k]);
    logp_confirm_agree_put_drift(v[1], 7);
    logp_confirm_agree_put_busy(v[3]);
    reduce_max(r, v, 4);
    ck_assert(!logp_confirm_agree_waiting(r));
    ck_assert_int_eq(logp_confirm_agree_drift(r), 7);
    ck_assert(logp_confirm_agree_busy(r));
    logp_confirm_agree_put(v[2], 1, 9, a, NULL, 9); /* one rank, second slot: the others must join */
    reduce_max(r, v, 4);
    ck_assert(logp_confirm_agree_waiting(r));
    ck_assert_int_eq(logp_confirm_agree_key(r, 1, NULL), -1);
    for (int i = 0; i < LOGP_AGREE_BODY; i++) /* drift and busy lie in the head, after the slots */
        ck_assert(v[1][i] == 0.0 && v[3][i] == 0.0);
}
END_TEST

/* A block-end barrier's message over simulated ranks (element-wise
 * maximum): the slowest rank's times and costs, the least rank's own
 * barriers and check, the keys alike or not. */
START_TEST(test_block_message)
{
    int v[3][LOGP_CONFIRM_BLOCK_INTS], r[LOGP_CONFIRM_BLOCK_INTS];
    double t[3][6] = {{1e-6, 2e-6, 3e-6, 4e-6, 5e-6, 6e-6}, {2e-6, 1e-6, 3e-6, 9e-6, 5e-6, 1e-6}, {1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 7e-6}};
    double c[3][2] = {{20e-6, 30e-6}, {25e-6, 10e-6}, {5e-6, 5e-6}};
    logp_trial_own_t o[3] = {{{3e-6, 4e-6}, 9e-6}, {{1e-6, 8e-6}, 2e-6}, {{120e-6, 5e-6}, 3e-6}}, own;
    double times[LOGP_CONFIRM_CALLS], cost[LOGP_CONFIRM_BLOCKS_MAX];
    for (int k = 0; k < 3; k++)
        logp_confirm_block_pack(v[k], 17, t[k], 6, c[k], &o[k], 2);
    for (int i = 0; i < LOGP_CONFIRM_BLOCK_INTS; i++)
        r[i] = v[0][i] > v[1][i] ? (v[0][i] > v[2][i] ? v[0][i] : v[2][i]) : (v[1][i] > v[2][i] ? v[1][i] : v[2][i]);
    ck_assert(logp_confirm_block_unpack(r, 17, times, 6, cost, &own, 2));
    double want_t[6] = {2e-6, 2e-6, 3e-6, 9e-6, 5e-6, 7e-6};
    for (int i = 0; i < 6; i++)
        ck_assert(fabs(times[i] - want_t[i]) < 1e-15);
    ck_assert(fabs(cost[0] - 25e-6) < 1e-14 && fabs(cost[1] - 30e-6) < 1e-14);
    /* the least rank's: the one descheduled for 120 us does not count its wait */
    ck_assert(fabs(own.block[0] - 1e-6) < 1e-14 && fabs(own.block[1] - 4e-6) < 1e-14);
    ck_assert(fabs(own.check - 2e-6) < 1e-14);
    /* sent again unchanged (rounded as sent) */
    int again[LOGP_CONFIRM_BLOCK_INTS];
    logp_confirm_block_pack(again, 17, times, 6, cost, &own, 2);
    for (int i = 0; i < LOGP_CONFIRM_BLOCK_INTS; i++)
        ck_assert_int_eq(again[i], r[i]);
    /* a rank whose trial differs: no rank sees its key alike */
    logp_confirm_block_pack(v[1], 16, t[1], 6, c[1], &o[1], 2);
    for (int i = 0; i < LOGP_CONFIRM_BLOCK_INTS; i++)
        r[i] = v[0][i] > v[1][i] ? v[0][i] : v[1][i];
    ck_assert(!logp_confirm_block_unpack(r, 17, times, 6, cost, &own, 2));
    ck_assert(!logp_confirm_block_unpack(r, 16, times, 6, cost, &own, 2));
}
END_TEST

START_TEST(test_points)
{
    /* the first point comes when a trial can first be waiting: its
     * class's warm-up and two blocks (a point before it had nothing to
     * agree on) */
    ck_assert_int_eq(logp_confirm_agree_first(LOGP_CONFIRM_WARMUP), LOGP_CONFIRM_WARMUP + 2 * LOGP_CONFIRM_BLOCK);
    ck_assert_int_eq(logp_confirm_agree_first(0), 2 * LOGP_CONFIRM_BLOCK);
    ck_assert_int_eq(logp_confirm_agree_first(-3), 2 * LOGP_CONFIRM_BLOCK);
    logp_trial_plan_t two = {2, {LOGP_ALGO_BINOMIAL, LOGP_ALGO_CHAIN}, {1e-6, 2e-6}, {-1.0, -1.0}};
    ck_assert_int_eq(logp_confirm_steps(&two), 2 * LOGP_CONFIRM_BLOCK); /* the shortest trial */
    /* every rank computes the same points from the count and the agreed
     * busy flag; idle gaps grow with the count up to 4096 */
    ck_assert_int_eq(logp_confirm_agree_next(8, 1), 8 + LOGP_AGREE_BUSY_GAP);
    ck_assert_int_eq(logp_confirm_agree_next(8, 0), 8 + 32);
    ck_assert_int_eq(logp_confirm_agree_next(1000, 0), 1250);
    ck_assert_int_eq(logp_confirm_agree_next(1000, 1), 1032);
    ck_assert_int_eq(logp_confirm_agree_next(100000, 0), 100000 + LOGP_AGREE_IDLE_MAX);
    unsigned long n = 8;
    int points = 1;
    while (n < 1000000) {
        n = logp_confirm_agree_next(n, 0);
        points++;
    }
    /* idle: about 25 points in the first 4096 calls, then one per 4096 */
    ck_assert_msg(points < 25 + 1000000 / 4096 + 2, "%d points in 1e6 calls", points);
}
END_TEST

/* Learning the machine: a wrong tuning file (L x 4, G / 4) and the times
 * the true machine gives at 8 B, 1 KiB, 64 KiB and 1 MiB: the joint fit
 * finds L / 4 and G x 4; from 8-byte samples alone it finds L and leaves
 * G (the pull); design-formula families and native do not fit. */
START_TEST(test_fit)
{
    logp_params_t truth = logp_params_default(), wrong = truth;
    wrong.L *= 4.0;
    wrong.G /= 4.0;
    const int Ps[] = {16, 64, 256, 1000};
    const size_t sizes[] = {8, 1024, 65536, 1048576};
    const logp_algo_t algos[] = {LOGP_ALGO_LOGP_TREE, LOGP_ALGO_BINOMIAL, LOGP_ALGO_SCATTER_ALLGATHER,
                                 LOGP_ALGO_PIPELINE};
    for (int i = 0; i < 4; i++) {
        if (Ps[i] > 256 && logp_check_stride() > 1) /* the same fit, only slower (CI's sampled passes) */
            continue;
        logp_topo_t tt = logp_topo_uniform(Ps[i], &truth), tw = logp_topo_uniform(Ps[i], &wrong);
        logp_fit_sample_t s[LOGP_FIT_SAMPLES];
        int n = 0;
        for (int z = 0; z < 4; z++)
            for (int a = 0; a < 2; a++) {
                logp_select_query_t qt = {LOGP_COLL_BCAST, sizes[z], 1, 0, 4, &tt, LOGP_NATIVE_MPICH, NULL, 0, 0};
                logp_algo_t algo = algos[z < 2 ? a : 2 + a];
                s[n] = (logp_fit_sample_t){qt, algo, logp_select_predict(algo, &qt)};
                s[n++].q.topo = &tw;
            }
        double fL, fG, before, after = logp_confirm_fit_joint(s, n, &fL, &fG, &before);
        ck_assert_msg(fabs(fL - 0.25) < 0.25 * 0.05 && fabs(fG - 4.0) < 4.0 * 0.05,
                      "P=%d: factors L %g G %g, want 0.25 and 4", Ps[i], fL, fG);
        ck_assert(before > log(LOGP_CONFIRM_REFIT) && after < 0.1 * before);
        /* 8-byte samples alone: L found, G left where it was */
        after = logp_confirm_fit_joint(s, 2, &fL, &fG, &before);
        ck_assert_msg(fabs(fL - 0.25) < 0.25 * 0.05 && fabs(fG - 1.0) < 0.05, "P=%d: 8 B only: L %g G %g", Ps[i],
                      fL, fG);
        /* times the model already explains: no change */
        for (int k = 0; k < n; k++)
            s[k].measured = logp_select_predict(s[k].algo, &s[k].q);
        after = logp_confirm_fit_joint(s, n, &fL, &fG, &before);
        ck_assert(before < 1e-9 && fabs(fL - 1.0) < 0.01 && fabs(fG - 1.0) < 0.01);
        /* nothing to price */
        ck_assert(logp_confirm_fit_joint(s, 0, &fL, &fG, &before) < 0.0);
    }
    ck_assert(!logp_confirm_fittable(LOGP_ALGO_TWO_TREE));
    ck_assert(!logp_confirm_fittable(LOGP_ALGO_NATIVE));
    ck_assert(logp_confirm_fittable(LOGP_ALGO_LOGP_TREE));
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {test_learn_factor, test_plan, test_error_band, test_pick_first, test_basis, test_verdict, test_budget, test_agree, test_block_message, test_points, test_fit};
    return logp_check_run("confirm", tests, (int)(sizeof tests / sizeof tests[0]));
}
