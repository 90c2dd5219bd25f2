/* Unit tests of src/model schedules (sched.h) and the LogGP simulator:
 * every registered algorithm's views pair up, all-to-all blocks arrive,
 * and the closed forms equal the simulator. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../src/model/alltoall.h"
#include "../../src/model/sched.h"
#include "../../src/model/sim.h"
#include "check_main.h"

static const logp_params_t P0 = {1.6e-6, 0.4e-6, 0.6e-6, 0.1e-9, 0.3e-9};

static double urand(double lo, double hi)
{
    return lo + (hi - lo) * rand() / RAND_MAX;
}

/* Every registered algorithm but native and auto, for every collective it
 * supports (the registry drives the tests). */
static int schedulable(int a, int coll)
{
    return a != LOGP_ALGO_NATIVE && a != LOGP_ALGO_AUTO && logp_algo_supports((logp_algo_t)a, (logp_coll_t)coll);
}

static void build(logp_sched_t *s, logp_coll_t coll, logp_algo_t algo, size_t m, const logp_topo_t *t, int k)
{
    logp_sched_opts_t o = {k, 0};
    LOGP_CHECK(logp_sched_build(s, coll, algo, m, t, &o) == LOGP_OK);
}

/* Every tree schedule's operations pair up: bcast, every rank but the root
 * receives once; reduce, every rank but the tree root sends once up; the
 * simulator finishes (no deadlock) for every root. */
START_TEST(test_views_pair_up)
{
    for (int P = 1; P <= 40; P++) {
        logp_topo_t t = logp_topo_uniform(P, &P0);
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            for (int coll = LOGP_COLL_BCAST; coll <= LOGP_COLL_REDUCE; coll++) {
                if (!schedulable(a, coll))
                    continue;
                logp_sched_t s;
                build(&s, (logp_coll_t)coll, (logp_algo_t)a, 100, &t, 3);
                for (int root = 0; root < P; root++)
                    for (int commute = 0; commute <= 1; commute++) {
                        logp_view_t v;
                        int ordered = (s.fam->flags & LOGP_FAMILY_RANK_ORDER) != 0;
                        if (coll == LOGP_COLL_REDUCE && !commute && !ordered) {
                            ck_assert_int_eq(logp_view_init(&v, &s, root, 0, 0), LOGP_ERR_ARG);
                            continue;
                        }
                        int recvs = 0, sends = 0;
                        for (int r = 0; r < P; r++) {
                            LOGP_CHECK(logp_view_init(&v, &s, root, r, commute) == LOGP_OK);
                            for (int i = 0; i < v.nops; i++) {
                                logp_op_t op = logp_view_op(&v, i);
                                LOGP_CHECK(op.peer >= 0 && op.peer < P);
                                recvs += op.kind == LOGP_OP_RECV || op.kind == LOGP_OP_RECV_REDUCE;
                                sends += op.kind == LOGP_OP_SEND;
                            }
                        }
                        int handover = coll == LOGP_COLL_REDUCE && !commute && root != 0;
                        ck_assert_int_eq(sends, P - 1 + handover);
                        ck_assert_int_eq(recvs, P - 1 + handover);
                        double total;
                        ck_assert_int_eq(logp_sim_run(&s, root, commute, NULL, NULL, &total), LOGP_OK);
                        ck_assert(total >= 0 && (P == 1 || total > 0));
                    }
                logp_sched_free(&s);
            }
    }
}
END_TEST

/* Follow the data of the ring and butterfly: every block (i -> j) arrives
 * exactly once, for P = 1..130 (the butterfly's packed steps included). */
START_TEST(test_alltoall_delivery)
{
    for (int P = 1; P <= 130; P++) {
        logp_topo_t t = logp_topo_uniform(P, &P0);
        logp_sched_t s;
        logp_view_t v, back;
        build(&s, LOGP_COLL_ALLTOALL, LOGP_ALGO_RING, 8, &t, 0);
        char *got = calloc((size_t)P * P, 1);
        for (int r = 0; r < P; r++) {
            got[r * P + r]++; /* the own block is a local copy */
            logp_view_init(&v, &s, 0, r, 1);
            for (int i = 0; i < v.nops; i += 2) {
                logp_op_t snd = logp_view_op(&v, i), rcv = logp_view_op(&v, i + 1);
                LOGP_CHECK(snd.kind == LOGP_OP_SEND);
                LOGP_CHECK(rcv.kind == LOGP_OP_RECV);
                got[r * P + snd.peer]++; /* block r -> snd.peer */
                /* and snd.peer receives it from r in the same phase */
                logp_view_init(&back, &s, 0, snd.peer, 1);
                LOGP_CHECK(logp_view_op(&back, i + 1).peer == r);
            }
        }
        for (int i = 0; i < P * P; i++)
            LOGP_CHECK(got[i] == 1);
        free(got);
        logp_sched_free(&s);

        /* butterfly: slots[r][j] holds (source, destination) */
        build(&s, LOGP_COLL_ALLTOALL, LOGP_ALGO_BUTTERFLY, 8, &t, 0);
        int *src = malloc(sizeof(int) * (size_t)P * P), *dst = malloc(sizeof(int) * (size_t)P * P);
        int *nsrc = malloc(sizeof(int) * (size_t)P * P), *ndst = malloc(sizeof(int) * (size_t)P * P);
        for (int r = 0; r < P; r++)
            for (int j = 0; j < P; j++) {
                src[r * P + j] = r;
                dst[r * P + j] = (r + j) % P;
            }
        logp_view_init(&v, &s, 0, 0, 1);
        for (int i = 0; i < v.nops; i += 2) {
            for (int x = 0; x < P * P; x++) {
                nsrc[x] = src[x];
                ndst[x] = dst[x];
            }
            for (int r = 0; r < P; r++) {
                logp_view_t w;
                logp_view_init(&w, &s, 0, r, 1);
                logp_op_t snd = logp_view_op(&w, i);
                int bit = 1 << snd.arg, nb = 0;
                for (int j = 0; j < P; j++)
                    if (j & bit) {
                        nsrc[snd.peer * P + j] = src[r * P + j];
                        ndst[snd.peer * P + j] = dst[r * P + j];
                        nb++;
                    }
                LOGP_CHECK((size_t)nb * 8 == snd.bytes);
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
                LOGP_CHECK(dst[r * P + j] == r);
                LOGP_CHECK(src[r * P + j] == (r - j + P) % P);
                seen[src[r * P + j] * P + r]++;
            }
        for (int i = 0; i < P * P; i++)
            LOGP_CHECK(seen[i] == 1);
        free(seen);
        free(src);
        free(dst);
        free(nsrc);
        free(ndst);
        logp_sched_free(&s);
    }
}
END_TEST

/* Independent closed forms the simulator must reproduce (derived by hand
 * from the cost convention, not from the families' code). */
START_TEST(test_sim_hand_forms)
{
    srand(99);
    for (int trial = 0; trial < 100; trial++) {
        logp_params_t p = {urand(0.1e-6, 5.1e-6), urand(0.05e-6, 1.05e-6), urand(0.05e-6, 3.05e-6), urand(0, 1e-9),
                           urand(0, 1e-9)};
        int P = 2 + rand() % 300;
        size_t m = (size_t)(rand() % 50000);
        logp_topo_t t = logp_topo_uniform(P, &p);
        logp_sched_t s;
        double sim;
        /* ring: n - 1 phases of one exchange each */
        build(&s, LOGP_COLL_ALLTOALL, LOGP_ALGO_RING, m, &t, 0);
        double ring = (P - 1) * fmax(logp_params_p2p(&p, m), logp_params_gap(&p, m));
        ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &sim), LOGP_OK);
        ck_assert(fabs(sim - ring) <= 1e-9 * ring);
        logp_sched_free(&s);
        /* butterfly, P a power of two: log2 P exchanges of P/2 packed blocks */
        int Pb = 1 << (1 + rand() % 8);
        logp_topo_t tb = logp_topo_uniform(Pb, &p);
        build(&s, LOGP_COLL_ALLTOALL, LOGP_ALGO_BUTTERFLY, m, &tb, 0);
        size_t half = (size_t)(Pb / 2) * m;
        double bf = logp_butterfly_steps(Pb) * fmax(logp_params_p2p(&p, half), logp_params_gap(&p, half));
        ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &sim), LOGP_OK);
        ck_assert(fabs(sim - bf) <= 1e-9 * bf);
        logp_sched_free(&s);
        /* flat bcast: the last of P - 1 sends, one gap apart */
        build(&s, LOGP_COLL_BCAST, LOGP_ALGO_FLAT, m, &t, 0);
        double flat = (P - 2) * logp_params_gap(&p, m) + logp_params_p2p(&p, m);
        ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &sim), LOGP_OK);
        ck_assert(fabs(sim - flat) <= 1e-9 * flat);
        logp_sched_free(&s);
        /* binomial bcast with P = 2^k and g <= o: k rounds of 2o + L + (m-1)G (seed 002) */
        int k = 1 + rand() % 9, Q = 1 << k;
        logp_params_t q = p;
        q.g = q.o;
        q.G = 0;
        logp_topo_t tq = logp_topo_uniform(Q, &q);
        build(&s, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, m, &tq, 0);
        double bin = k * logp_params_p2p(&q, m);
        ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &sim), LOGP_OK);
        ck_assert(fabs(sim - bin) <= 1e-9 * bin);
        logp_sched_free(&s);
    }
}
END_TEST

/* One case of the closed-form check: every algorithm with a closed form,
 * for one (P, parameters, size), every operator and a random root. */
static int closed_form_case(int P, const logp_params_t *p, size_t m, int k, double *worst)
{
    logp_topo_t t = logp_topo_uniform(P, p);
    int n = 0;
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        for (int coll = 0; coll < LOGP_COLL_COUNT; coll++) {
            if (!schedulable(a, coll) || (coll == LOGP_COLL_ALLTOALL && P > 400 && a == LOGP_ALGO_RING))
                continue; /* the simulated ring is P^2 operations */
            logp_sched_t s;
            build(&s, (logp_coll_t)coll, (logp_algo_t)a, m, &t, k);
            int root = rand() % P;
            for (int commute = 0; commute <= (coll == LOGP_COLL_REDUCE); commute++) {
                if (!commute && !(s.fam->flags & LOGP_FAMILY_RANK_ORDER))
                    continue;
                double closed = logp_sched_time(&s, root, commute), sim;
                if (closed < 0.0)
                    ck_abort_msg("%s %s has no closed form", logp_coll_name(coll), logp_algo_name(a));
                LOGP_CHECK(logp_sim_run(&s, root, commute, NULL, NULL, &sim) == LOGP_OK);
                double err = fabs(closed - sim) / (sim > 0 ? sim : 1.0);
                if (!(err <= 1e-9))
                    ck_abort_msg("%s %s P=%d m=%zu root=%d commute=%d: closed %.17g sim %.17g", logp_coll_name(coll),
                                 logp_algo_name(a), P, m, root, commute, closed, sim);
                if (err > *worst)
                    *worst = err;
                n++;
            }
            logp_sched_free(&s);
        }
    return n;
}

static logp_params_t random_params(void)
{
    /* 10 ns .. 50 us latencies, overheads and gaps of any proportion
     * (g below o, g far above L), 0 .. 1 ns/B per byte */
    logp_params_t p = {exp(urand(log(1e-8), log(5e-5))), exp(urand(log(1e-8), log(5e-6))),
                       exp(urand(log(1e-8), log(2e-5))), urand(0, 1e-9), urand(0, 1e-9)};
    if (rand() % 8 == 0)
        p.G = 0;
    if (rand() % 8 == 0)
        p.gamma = 0;
    return p;
}

/* The closed forms (seed 000's lattice, seed 001's chains, the exchange
 * recurrences) equal the simulator for every algorithm, to 1e-9 relative:
 * every P = 1..2000 with fresh random parameters, message sizes 1 B..16 MiB
 * (log-uniform), random roots, both operator kinds. */
START_TEST(test_closed_forms_equal_sim)
{
    srand(2026);
    double worst = 0.0;
    int n = 0;
    for (int P = 1; P <= 2000; P++) {
        logp_params_t p = random_params();
        size_t m = (size_t)exp(urand(0.0, log(16.0 * 1024 * 1024)));
        n += closed_form_case(P, &p, m, 1 + rand() % 40, &worst);
    }
    /* the degenerate corners: no latency and no overhead, zero gap, huge g */
    const logp_params_t corners[] = {{0, 0, 0, 0, 0}, {1e-6, 0, 0, 0, 0}, {1e-6, 1e-7, 0, 0, 0},
                                     {1e-6, 1e-7, 1e-3, 0, 1e-9}, {1e-3, 1e-9, 1e-9, 1e-12, 0}};
    for (size_t c = 0; c < sizeof corners / sizeof corners[0]; c++)
        for (int P = 1; P <= 300; P += 1 + P / 10)
            n += closed_form_case(P, &corners[c], c % 2 ? 1 : 4096, 4, &worst);
    printf("closed forms vs simulator: %d cases, worst relative difference %.3g\n", n, worst);
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

/* A family whose receives never match: rank r waits for r + 1. */
static void stuck_node(const logp_sched_t *s, int root, int rank, logp_tnode_t *n)
{
    (void)root;
    n->parent = (rank + 1) % s->P;
    n->nkids = 0;
}

static const logp_family_t stuck = {.node = stuck_node, .flags = LOGP_FAMILY_RANK_ORDER};

/* A schedule that cannot complete is reported, not hung; bad requests are refused. */
START_TEST(test_sim_deadlock)
{
    logp_topo_t t = logp_topo_uniform(4, &P0);
    logp_sched_t s;
    build(&s, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, 8, &t, 0);
    s.fam = &stuck;
    double total;
    ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &total), LOGP_ERR_DEADLOCK);
    s.fam = logp_sched_family(LOGP_ALGO_BINOMIAL);
    logp_sched_free(&s);
    ck_assert_int_eq(logp_sched_build(&s, LOGP_COLL_BCAST, LOGP_ALGO_NATIVE, 8, &t, NULL), LOGP_ERR_ARG);
    ck_assert_int_eq(logp_sched_build(&s, LOGP_COLL_ALLTOALL, LOGP_ALGO_BINOMIAL, 8, &t, NULL), LOGP_ERR_ARG);
    ck_assert_int_eq(logp_sched_build(&s, LOGP_COLL_BCAST, LOGP_ALGO_RING, 8, &t, NULL), LOGP_ERR_ARG);
    build(&s, LOGP_COLL_BCAST, LOGP_ALGO_FLAT, 8, &t, 0);
    logp_view_t v;
    ck_assert_int_eq(logp_view_init(&v, &s, 4, 0, 1), LOGP_ERR_ARG); /* root out of range */
    ck_assert_int_eq(logp_view_init(&v, &s, 0, -1, 1), LOGP_ERR_ARG);
    logp_sched_free(&s);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        test_views_pair_up, test_alltoall_delivery, test_sim_hand_forms, test_closed_forms_equal_sim,
        test_seed004_formulas, test_sim_deadlock,
    };
    return logp_check_run("model/sim", tests, (int)(sizeof tests / sizeof tests[0]));
}
