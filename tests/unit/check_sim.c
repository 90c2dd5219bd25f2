/* Unit tests of src/model schedules (sched.h) and the LogGP simulator:
 * every registered algorithm's views pair up, all-to-all blocks arrive,
 * and the closed forms equal the simulator. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/model/alltoall_pattern.h"
#include "../../src/model/sched.h"
#include "../../src/model/sched_alltoall.h"
#include "../../src/model/sched_chunked_rsg.h"
#include "../../src/model/plan.h"
#include "../../src/model/sim.h"
#include "check_main.h"

static const logp_params_t P0 = {1.6e-6, 0.4e-6, 0.6e-6, 0.1e-9, 0.3e-9};

static double urand(double lo, double hi)
{
    return lo + (hi - lo) * rand() / RAND_MAX;
}

/* Every registered algorithm but native and auto, for every collective it
 * supports (the registry drives the tests). */
/* The sweeps leave alltoallv out: its schedules are the all-to-all's
 * (test_alltoallv_is_alltoall checks them operation by operation). */
static int schedulable(int a, int coll)
{
    return a != LOGP_ALGO_NATIVE && a != LOGP_ALGO_AUTO && coll != LOGP_COLL_ALLTOALLV &&
           logp_algo_supports((logp_algo_t)a, (logp_coll_t)coll);
}

static void build(logp_sched_t *s, logp_coll_t coll, logp_algo_t algo, size_t m, const logp_topo_t *t, int k)
{
    logp_sched_opts_t o = {k, 0, 0, 0, 0, 0};
    LOGP_CHECK(logp_plan_build(s, coll, algo, m, t, &o) == LOGP_OK);
}

/* Every schedule's operations pair up (as many receives as sends); a tree
 * schedule's exactly so: bcast, every rank but the root receives once;
 * reduce, every rank but the tree root sends once up; the simulator
 * finishes (no deadlock) for every root. */
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
                        ck_assert_int_eq(sends, recvs);
                        if (s.fam->node)
                            ck_assert_int_eq(sends, P - 1 + handover);
                        double total;
                        ck_assert_int_eq(logp_sim_run(&s, root, commute, NULL, NULL, &total), LOGP_OK);
                        ck_assert(total >= 0 && (P == 1 || total > 0));
                    }
                logp_sched_free(&s);
            }
    }
}
END_TEST

/* Nonzero if rank q's view has a receive from r in phase `arg`. */
static int receives_in_phase(const logp_sched_t *s, int q, int r, int arg)
{
    logp_view_t v;
    logp_view_init(&v, s, 0, q, 1);
    for (int i = 0; i < v.nops; i++) {
        logp_op_t op = logp_view_op(&v, i);
        if (op.kind == LOGP_OP_RECV && op.peer == r && op.arg == arg)
            return 1;
    }
    return 0;
}

/* A Bruck-kind schedule (radix s.k) moves every block home: slots[r][j]
 * holds (source, destination); each digit's messages (the operations
 * with its arg, in flight together) carry, from rank r to the rank d r^s
 * ahead, the slots whose digit s is d (alltoall_pattern.h), as the executor
 * packs them; each message's size is its slots'; every rank ends with
 * slot j from (r - j) mod P, each block exactly once. */
static void bruck_delivers(logp_algo_t algo, int radix, const logp_topo_t *t)
{
    int P = t->P;
    logp_sched_t s;
    logp_view_t v, w;
    logp_sched_opts_t o = {0, 0, 0, radix, 0, 0};
    LOGP_CHECK(logp_plan_build(&s, LOGP_COLL_ALLTOALL, algo, 8, t, &o) == LOGP_OK);
    LOGP_CHECK(s.k >= 2 && (radix < 2 || s.k == radix));
    int *src = malloc(sizeof(int) * (size_t)P * P), *dst = malloc(sizeof(int) * (size_t)P * P);
    int *nsrc = malloc(sizeof(int) * (size_t)P * P), *ndst = malloc(sizeof(int) * (size_t)P * P);
    for (int r = 0; r < P; r++)
        for (int j = 0; j < P; j++) {
            src[r * P + j] = r;
            dst[r * P + j] = (r + j) % P;
        }
    logp_view_init(&v, &s, 0, 0, 1);
    long weight = 1;
    int digits = 0;
    for (int i = 0; i < v.nops; weight *= s.k, digits++) {
        int end = i;
        while (end < v.nops && logp_view_op(&v, end).arg == logp_view_op(&v, i).arg)
            end++;
        LOGP_CHECK(logp_view_op(&v, i).arg == digits && end - i <= 2 * (s.k - 1) && end > i);
        for (int x = 0; x < P * P; x++) {
            nsrc[x] = src[x];
            ndst[x] = dst[x];
        }
        for (int r = 0; r < P; r++) {
            logp_view_init(&w, &s, 0, r, 1);
            LOGP_CHECK(w.nops == v.nops);
            int sends = 0, recvs = 0;
            for (int k = i; k < end; k++) {
                logp_op_t op = logp_view_op(&w, k);
                LOGP_CHECK(op.arg == digits);
                long dist = op.kind == LOGP_OP_SEND ? (op.peer - r + P) % P : (r - op.peer + P) % P;
                LOGP_CHECK(dist > 0 && dist % weight == 0);
                int d = (int)(dist / weight), nb = 0;
                LOGP_CHECK(d >= 1 && d < s.k);
                if (op.kind != LOGP_OP_SEND) {
                    recvs++;
                    continue;
                }
                sends++;
                for (int j = 0; j < P; j++)
                    if ((j / weight) % s.k == d) {
                        nsrc[op.peer * P + j] = src[r * P + j];
                        ndst[op.peer * P + j] = dst[r * P + j];
                        nb++;
                    }
                LOGP_CHECK((size_t)nb * 8 == op.bytes && nb > 0);
            }
            LOGP_CHECK(sends == recvs);
        }
        int *x = src;
        src = nsrc;
        nsrc = x;
        x = dst;
        dst = ndst;
        ndst = x;
        i = end;
    }
    long reach = 1;
    int want = 0;
    for (; reach < P; reach *= s.k)
        want++; /* ceil(log_r P) */
    LOGP_CHECK(digits == want);
    double closed = logp_sched_time(&s, 0, 1), sim = -1.0; /* the closed form in this radix too */
    LOGP_CHECK(logp_sim_run(&s, 0, 1, NULL, NULL, &sim) == LOGP_OK && fabs(closed - sim) <= 1e-9 * (sim > 0 ? sim : 1));
    if (algo == LOGP_ALGO_BRUCK) { /* and the shared network's replay, at sizes where sharing matters */
        logp_topo_t ts = *t;
        ts.shared = 1;
        for (size_t m = 8; m <= 65536; m *= 32) {
            logp_sched_t sh;
            logp_sched_opts_t os = {0, 0, 0, s.k, 0, 0};
            LOGP_CHECK(logp_plan_build(&sh, LOGP_COLL_ALLTOALL, algo, m, &ts, &os) == LOGP_OK);
            double est = logp_plan_estimate(&sh, 0, 1);
            LOGP_CHECK(logp_sim_run(&sh, 0, 1, NULL, NULL, &sim) == LOGP_OK);
            if (!(fabs(est - sim) <= 1e-9 * (sim > 0 ? sim : 1)))
                ck_abort_msg("bruck shared P=%d r=%d m=%zu: replay %.17g, simulator %.17g", P, sh.k, m, est, sim);
            logp_sched_free(&sh);
        }
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

/* Follow the data of every direct exchange (ring, linear) and of the
 * Bruck kind (butterfly, bruck): every block (i -> j) arrives exactly
 * once, for P = 1..130 (beyond 40 sampled by logp_check_sampled; the packed steps included); a direct exchange's receive is
 * in the phase of its send (the executor keeps a phase in flight and
 * waits at its end: a receive in a later phase would wait forever), and a
 * phase fits the executor's requests. */
START_TEST(test_alltoall_delivery)
{
    static const size_t sizes[] = {8, 16384, 1 << 20}; /* the linear window depends on the size */
    logp_params_t pc = P0;
    pc.copy = 0.1e-9; /* the Bruck kind's closed forms and replays with local copies (sched_bruck.c) */
    for (int P = 1; P <= 130; P++) {
        if (P > 40 && !logp_check_sampled(P))
            continue;
        logp_topo_t t = logp_topo_uniform(P, &pc);
        logp_sched_t s;
        logp_view_t v;
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            for (int z = 0; z < 3; z++) {
                if (!schedulable(a, LOGP_COLL_ALLTOALL) ||
                    !(logp_sched_family((logp_algo_t)a)->flags & LOGP_FAMILY_A2A_DIRECT))
                    continue;
                build(&s, LOGP_COLL_ALLTOALL, (logp_algo_t)a, sizes[z], &t, 0);
                char *got = calloc((size_t)P * P, 1);
                for (int r = 0; r < P; r++) {
                    got[r * P + r]++; /* the own block is a local copy */
                    logp_view_init(&v, &s, 0, r, 1);
                    int in_phase = 0;
                    for (int i = 0; i < v.nops; i++) {
                        logp_op_t op = logp_view_op(&v, i);
                        in_phase = i > 0 && op.arg == logp_view_op(&v, i - 1).arg ? in_phase + 1 : 1;
                        LOGP_CHECK(in_phase <= 64); /* LOGP_DIRECT_WINDOW */
                        if (op.kind != LOGP_OP_SEND)
                            continue;
                        got[r * P + op.peer]++; /* block r -> op.peer */
                        LOGP_CHECK(receives_in_phase(&s, op.peer, r, op.arg));
                    }
                }
                for (int i = 0; i < P * P; i++)
                    LOGP_CHECK(got[i] == 1);
                free(got);
                logp_sched_free(&s);
            }

        /* Bruck kind: the butterfly, bruck in the model's radix and in
         * every radix 2 .. 9 forced (P <= 40 and every 13th P beyond) */
        bruck_delivers(LOGP_ALGO_BUTTERFLY, 0, &t);
        bruck_delivers(LOGP_ALGO_BRUCK, 0, &t);
        for (int radix = 2; radix <= 9 && radix <= P && (P <= 40 || P % 13 == 0); radix++) /* CI's time */
            bruck_delivers(LOGP_ALGO_BRUCK, radix, &t);
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
        int P = 2 + rand() % 400;
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
        /* flat bcast: the last of P - 1 sends, one send gap apart (above
         * LOGP_PARAMS_SERIAL_BYTES each waits for the previous one's arrival) */
        build(&s, LOGP_COLL_BCAST, LOGP_ALGO_FLAT, m, &t, 0);
        double flat = (P - 2) * logp_params_send_gap(&p, m) + logp_params_p2p(&p, m);
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
    /* bruck in radix 4 at P = 4, 8-byte blocks: three 8-byte sends g
     * apart (g > o), the three messages arrive o + L + 7G after their
     * sends, each taken for o as it arrives (g apart, after the sends'
     * CPU time): 2g + o + L + 7G + o */
    {
        logp_sched_t s;
        double sim;
        logp_topo_t t4 = logp_topo_uniform(4, &P0);
        logp_sched_opts_t o4 = {0, 0, 0, 4, 0};
        LOGP_CHECK(logp_plan_build(&s, LOGP_COLL_ALLTOALL, LOGP_ALGO_BRUCK, 8, &t4, &o4) == LOGP_OK);
        LOGP_CHECK(logp_sim_run(&s, 0, 1, NULL, NULL, &sim) == LOGP_OK);
        double want = 2 * P0.g + P0.o + P0.L + 7 * P0.G + P0.o;
        ck_assert_msg(fabs(sim - want) <= 1e-9 * want, "bruck r=4 P=4: %g, want %g", sim, want);
        logp_sched_free(&s);
    }
    /* the butterfly at P = 2 with local copies c per byte, m-byte blocks:
     * both blocks packed (2mc), the peer's copied out (mc), sent: it
     * arrives o + (m - 1)G + L later, is taken (o, L >= mc + o here),
     * copied in (mc), both blocks unpacked (2mc): 6mc + 2o + L + (m - 1)G,
     * the closed form alike */
    {
        logp_sched_t s;
        double sim;
        logp_params_t pc = P0;
        pc.copy = 0.05e-9;
        size_t m = 4096;
        logp_topo_t t2 = logp_topo_uniform(2, &pc);
        LOGP_CHECK(logp_plan_build(&s, LOGP_COLL_ALLTOALL, LOGP_ALGO_BUTTERFLY, m, &t2, NULL) == LOGP_OK);
        LOGP_CHECK(logp_sim_run(&s, 0, 1, NULL, NULL, &sim) == LOGP_OK);
        double want = 6 * (double)m * pc.copy + 2 * pc.o + pc.L + (double)(m - 1) * pc.G;
        ck_assert_msg(fabs(sim - want) <= 1e-9 * want, "butterfly P=2 with copies: %g, want %g", sim, want);
        double closed = logp_sched_time(&s, 0, 1);
        ck_assert_msg(fabs(closed - want) <= 1e-9 * want, "butterfly P=2 closed form with copies: %g, want %g",
                      closed, want);
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
            if (!schedulable(a, coll) ||
                ((coll == LOGP_COLL_ALLTOALL || coll == LOGP_COLL_ALLREDUCE) && P > 400 &&
                 (logp_sched_family((logp_algo_t)a)->flags & LOGP_FAMILY_A2A_DIRECT)))
                continue; /* a simulated direct exchange (and the ring allreduce) is P^2 operations */
            logp_sched_t s;
            build(&s, (logp_coll_t)coll, (logp_algo_t)a, m, &t, k);
            int root = rand() % P;
            if ((s.parts > 1 && logp_sched_ops(&s) > 60000) || /* P^2 (scatter-allgather) or P k (pipeline) to simulate */
                (s.fam->flags & LOGP_FAMILY_ESTIMATED)) {     /* no closed form by design (two-tree) */
                logp_sched_free(&s);
                continue;
            }
            for (int commute = !logp_coll_combines((logp_coll_t)coll); commute <= 1; commute++) {
                if (!commute && !(s.fam->flags & LOGP_FAMILY_RANK_ORDER))
                    continue; /* a non-commutative reduce does not run it */
                double closed = logp_sched_time(&s, root, commute), sim;
                /* an allreduce has closed forms on binomial and flat trees, and for the
                 * ring (a replay of its steps where P does not divide m: sched_ring.c) */
                if (closed < 0.0 && coll == LOGP_COLL_ALLREDUCE && a != LOGP_ALGO_BINOMIAL && a != LOGP_ALGO_FLAT &&
                    a != LOGP_ALGO_RING)
                    continue;
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
    p.copy = 0.5 * p.gamma; /* local copies, from no draw of their own: the tests' sequences stay */
    return p;
}

/* The closed forms (seed 000's lattice, seed 001's chains, the exchange
 * recurrences) equal the simulator for every algorithm, to 1e-9 relative:
 * every P = 1..2000 with fresh random parameters, message sizes 1 B..16 MiB
 * (log-uniform), random roots, both operator kinds (beyond P = 64 one P
 * in logp_check_stride(), of every residue: P mod s = (P / s) mod s). */
START_TEST(test_closed_forms_equal_sim)
{
    srand(2026);
    double worst = 0.0;
    int n = 0;
    for (int P = 1; P <= 2000; P++) {
        logp_params_t p = random_params();
        size_t m = (size_t)exp(urand(0.0, log(16.0 * 1024 * 1024)));
        int roots = 1 + rand() % 40;
        if (P <= 64 || logp_check_sampled(P))
            n += closed_form_case(P, &p, m, roots, &worst);
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

/* Several nodes whose pairs are all alike (one rank per host, as SMPI's
 * clusters give) are "uniform" to the closed forms too.  node-aggregate's
 * form priced a gather to one leader there (64 nodes of one rank, 16 KiB
 * blocks: 209 ms against 1.7 simulated; issue 38's fidelity suite found
 * it): it must now equal the simulator or decline (-1).  The other forms
 * are compared and the worst printed, not checked: across nodes the
 * simulator passes messages through the nodes' interfaces, which the
 * one-node forms leave out (a flat reduce of 252 KiB at P = 23: 5.1 ms
 * closed, 9.9 simulated), an open question of issue 38. */
START_TEST(test_closed_forms_on_alike_nodes)
{
    srand(2027);
    int n = 0;
    double worst = 0.0;
    for (int P = 2; P <= 64; P += 1 + P / 4)
        for (int rpn = 1; rpn <= 4; rpn *= 2) {
            logp_params_t p = random_params();
            size_t m = (size_t)exp(urand(0.0, log(1024.0 * 1024)));
            logp_topo_t t;
            LOGP_CHECK(logp_topo_blocks(&t, P, rpn, NULL, &p, &p) == LOGP_OK);
            for (int a = 0; a < LOGP_ALGO_COUNT; a++)
                for (int coll = 0; coll < LOGP_COLL_COUNT; coll++) {
                    if (!schedulable(a, coll))
                        continue;
                    logp_sched_t s;
                    build(&s, (logp_coll_t)coll, (logp_algo_t)a, m, &t, 4);
                    double closed = logp_sched_time(&s, 0, 1), sim;
                    if (closed >= 0.0 && logp_sched_ops(&s) <= 60000) {
                        LOGP_CHECK(logp_sim_run(&s, 0, 1, NULL, NULL, &sim) == LOGP_OK);
                        double err = fabs(closed - sim) / (sim > 0 ? sim : 1.0);
                        worst = err > worst ? err : worst;
                        if (a == LOGP_ALGO_NODE_AGGREGATE && !(err <= 1e-9))
                            ck_abort_msg("%s %s P=%d rpn=%d m=%zu: closed %.17g sim %.17g", logp_coll_name(coll),
                                         logp_algo_name(a), P, rpn, m, closed, sim);
                        n++;
                    }
                    logp_sched_free(&s);
                }
            logp_topo_free(&t);
        }
    printf("closed forms vs simulator on alike nodes: %d cases, worst relative difference %.3g (not checked)\n", n,
           worst);
    ck_assert_int_gt(n, 100);
}
END_TEST

/* Symbolic execution of the part-wise schedules (sched_scatter_allgather.c .. sched_two_tree.c): messages
 * carry, per part, the set of ranks whose contribution they hold (a bit
 * mask, P <= 64), through FIFO queues per pair as MPI matches them.  A
 * send must hold what it sends; a receive must match its send's parts; a
 * combine must not count a rank twice and, for a non-commutative operator,
 * must join adjacent rank ranges in order (prepend: in just below acc;
 * append: just above).  At the end every rank of a bcast holds every part,
 * and the root of a reduce holds every rank's contribution in every part. */
#define FLOW_P 40
#define FLOW_PARTS 64
#define FLOW_MSGS 16384

typedef struct {
    int part, n, next;
    unsigned long long set[FLOW_PARTS];
} flow_msg_t;

static int contiguous(unsigned long long m)
{
    m >>= __builtin_ctzll(m);
    return (m & (m + 1)) == 0;
}

/* Whether `in` may be combined into `acc` from `side`. */
static int joins(unsigned long long acc, unsigned long long in, int side, int commute)
{
    if (acc & in)
        return 0; /* a contribution counted twice */
    if (commute || acc == 0 || in == 0)
        return 1;
    if (!contiguous(acc) || !contiguous(in))
        return 0;
    unsigned long long lo = side == LOGP_SIDE_PREPEND ? in : acc, hi = side == LOGP_SIDE_PREPEND ? acc : in;
    return 64 - __builtin_clzll(lo) == __builtin_ctzll(hi); /* lo's top bit just below hi's lowest */
}

static void flow_case(const logp_sched_t *s, int root, int commute)
{
    int P = s->P, parts = s->parts, reduce = s->coll == LOGP_COLL_REDUCE, nmsg = 0;
    static unsigned long long have[FLOW_P][FLOW_PARTS], result[FLOW_PARTS];
    static flow_msg_t msg[FLOW_MSGS];
    static int head[FLOW_P][FLOW_P][2], tail[FLOW_P][FLOW_P][2], pc[FLOW_P]; /* per pair and stream */
    logp_view_t v[FLOW_P];
    LOGP_CHECK(P <= FLOW_P && parts <= FLOW_PARTS);
    for (int r = 0; r < P; r++) {
        LOGP_CHECK(logp_view_init(&v[r], s, root, r, commute) == LOGP_OK);
        pc[r] = 0;
        for (int k = 0; k < parts; k++)
            have[r][k] = !reduce && r == root ? 1ull << r : 0;
        for (int x = 0; x < P; x++)
            head[r][x][0] = tail[r][x][0] = head[r][x][1] = tail[r][x][1] = -1;
    }
    for (int k = 0; k < parts; k++)
        result[k] = 0;
    for (int progress = 1; progress;) {
        progress = 0;
        for (int r = 0; r < P; r++) {
            while (pc[r] < v[r].nops) {
                logp_op_t o = logp_view_op(&v[r], pc[r]);
                int lo = o.nparts ? o.part : 0, n = o.nparts ? o.nparts : parts;
                LOGP_CHECK(lo >= 0 && n >= 0 && lo + n <= parts && o.peer >= 0 && o.peer < P);
                if (o.kind == LOGP_OP_SEND) {
                    LOGP_CHECK(nmsg < FLOW_MSGS);
                    flow_msg_t *m = &msg[nmsg];
                    m->part = lo;
                    m->n = n;
                    m->next = -1;
                    for (int k = lo; k < lo + n; k++) {
                        LOGP_CHECK(have[r][k] != 0); /* nothing is sent before it is had */
                        m->set[k] = have[r][k];
                    }
                    int st = logp_op_stream(s, &o);
                    if (tail[r][o.peer][st] >= 0)
                        msg[tail[r][o.peer][st]].next = nmsg;
                    else
                        head[r][o.peer][st] = nmsg;
                    tail[r][o.peer][st] = nmsg++;
                } else if (o.kind == LOGP_OP_RECV || o.kind == LOGP_OP_RECV_REDUCE) {
                    int st = logp_op_stream(s, &o), i = head[o.peer][r][st];
                    if (i < 0)
                        break; /* not sent yet */
                    head[o.peer][r][st] = msg[i].next;
                    if (msg[i].next < 0)
                        tail[o.peer][r][st] = -1;
                    LOGP_CHECK(msg[i].part == lo && msg[i].n == n); /* counts match */
                    for (int k = lo; k < lo + n; k++) {
                        if (o.kind == LOGP_OP_RECV_REDUCE) {
                            LOGP_CHECK(joins(have[r][k], msg[i].set[k], o.arg, commute));
                            have[r][k] |= msg[i].set[k];
                        } else if (o.arg == LOGP_RECV_RESULT) {
                            result[k] = msg[i].set[k];
                        } else {
                            have[r][k] = msg[i].set[k];
                        }
                    }
                } else if (o.kind == LOGP_OP_INIT_OWN) {
                    for (int k = 0; k < parts; k++)
                        have[r][k] = 1ull << r;
                } else if (o.kind == LOGP_OP_RESULT_OWN) {
                    LOGP_CHECK(r == root && v[r].tree_root != root);
                    for (int k = lo; k < lo + n; k++)
                        result[k] = have[r][k];
                }
                pc[r]++;
                progress = 1;
            }
        }
    }
    unsigned long long all = (1ull << P) - 1;
    for (int r = 0; r < P; r++) {
        LOGP_CHECK(pc[r] == v[r].nops); /* nobody waits forever */
        for (int x = 0; x < P; x++)
            LOGP_CHECK(head[r][x][0] < 0 && head[r][x][1] < 0); /* no message left unreceived */
    }
    for (int k = 0; k < parts; k++) {
        if (!reduce) {
            for (int r = 0; r < P; r++)
                ck_assert_msg(have[r][k] == 1ull << root, "%s P=%d parts=%d root=%d: rank %d part %d: %llx",
                              logp_algo_name(s->algo), P, parts, root, r, k, have[r][k]);
        } else {
            LOGP_CHECK((v[root].tree_root == root ? have[root][k] : result[k]) == all);
        }
    }
}

START_TEST(test_parts_dataflow)
{
    const size_t sizes[] = {1, 100, 5000, 40000, 1 << 20};
    for (int P = 1; P <= FLOW_P; P++) {
        logp_topo_t t = logp_topo_uniform(P, &P0);
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            for (int coll = LOGP_COLL_BCAST; coll <= LOGP_COLL_REDUCE; coll++) {
                if (!schedulable(a, coll) || logp_sched_family((logp_algo_t)a)->node)
                    continue;
                for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                    logp_sched_t s;
                    build(&s, (logp_coll_t)coll, (logp_algo_t)a, sizes[z], &t, 3);
                    LOGP_CHECK(s.parts >= 1);
                    if (s.parts > FLOW_PARTS) { /* a long pipeline: beyond what this test tracks */
                        logp_sched_free(&s);
                        continue;
                    }
                    for (int root = 0; root < P; root += 1 + P / 7)
                        for (int commute = coll == LOGP_COLL_BCAST; commute <= 1; commute++)
                            if (commute || (s.fam->flags & LOGP_FAMILY_RANK_ORDER))
                                flow_case(&s, root, commute);
                    logp_sched_free(&s);
                }
            }
    }
}
END_TEST

/* The large-message families' design formulas (what prices them where
 * the exact time would cost too much: pipelines beyond 65,536 message
 * steps, the others beyond P = 32,768) against the simulator, uniform
 * model.  At the default parameters: pipeline within 0.1%,
 * reduce-scatter-gather within 20% (its chunked, base-4 steps are summed
 * from one step's formula; it has an exact time up to P = 32,768),
 * scatter-allgather (fitted at P >= 256) within 25% for P >= 128,
 * binary-pipeline within 25% (its formula follows the deepest second
 * child only).  At random parameters (g far from o) they are rougher:
 * reported. */
START_TEST(test_estimates)
{
    srand(77);
    double worst[2][LOGP_ALGO_COUNT] = {{0}};
    for (int trial = 0; trial < 300; trial++) {
        int rnd = trial % 2;
        logp_params_t p = rnd ? random_params() : P0;
        int P = 2 + rand() % 400;
        size_t m = (size_t)exp(urand(log(1024.0), log(16.0 * 1024 * 1024)));
        if (!logp_check_sampled(trial / 2)) /* (after the draws: the sample's cases stay the same) */
            continue;
        logp_topo_t t = logp_topo_uniform(P, &p);
        const int algos[] = {LOGP_ALGO_PIPELINE, LOGP_ALGO_REDUCE_SCATTER_GATHER, LOGP_ALGO_SCATTER_ALLGATHER,
                             LOGP_ALGO_BINARY_PIPELINE, LOGP_ALGO_TWO_TREE};
        for (int i = 0; i < 5; i++) {
            int a = algos[i], sag = a == LOGP_ALGO_SCATTER_ALLGATHER, bin = a == LOGP_ALGO_BINARY_PIPELINE;
            int two = a == LOGP_ALGO_TWO_TREE;
            logp_sched_t s;
            build(&s, sag || ((bin || two) && trial % 4 < 2) ? LOGP_COLL_BCAST : LOGP_COLL_REDUCE, (logp_algo_t)a, m,
                  &t, 0);
            double sim, est = logp_plan_estimate(&s, 0, 1);
            if (logp_sched_ops(&s) > 400000 || (sag && P < 128)) {
                logp_sched_free(&s);
                continue;
            }
            LOGP_CHECK(logp_sim_run(&s, 0, 1, NULL, NULL, &sim) == LOGP_OK);
            double err = fabs(est - sim) / sim;
            if (err > worst[rnd][a])
                worst[rnd][a] = err;
            int rsag = a == LOGP_ALGO_REDUCE_SCATTER_GATHER;
            ck_assert_msg(rnd || err <= (sag || bin || two ? 0.25 : rsag ? 0.2 : 1e-3), "%s P=%d m=%zu: estimate %.9g sim %.9g",
                          logp_algo_name(s.algo), P, m, est, sim);
            logp_sched_free(&s);
        }
    }
    for (int rnd = 0; rnd <= 1; rnd++)
        printf("estimates vs simulator (%s parameters): pipeline %.3g, reduce-scatter-gather %.3g, "
               "scatter-allgather %.3g, binary-pipeline %.3g, two-tree %.3g\n", rnd ? "random" : "default",
               worst[rnd][LOGP_ALGO_PIPELINE], worst[rnd][LOGP_ALGO_REDUCE_SCATTER_GATHER],
               worst[rnd][LOGP_ALGO_SCATTER_ALLGATHER], worst[rnd][LOGP_ALGO_BINARY_PIPELINE],
               worst[rnd][LOGP_ALGO_TWO_TREE]);
}
END_TEST

/* Rank-local views of the large-message families at P = 2^31 - 1: every
 * peer and part in range (no int overflow), a handful of operations. */
START_TEST(test_large_views_huge_p)
{
    logp_topo_t t = logp_topo_uniform(2147483647, &P0);
    const int algos[] = {LOGP_ALGO_SCATTER_ALLGATHER, LOGP_ALGO_PIPELINE, LOGP_ALGO_REDUCE_SCATTER_GATHER,
                         LOGP_ALGO_BINARY_PIPELINE, LOGP_ALGO_TWO_TREE};
    const int ranks[] = {0, 1, 1234567891, 2147483646, 1073741824};
    for (int i = 0; i < 5; i++) {
        logp_coll_t coll = algos[i] == LOGP_ALGO_REDUCE_SCATTER_GATHER ? LOGP_COLL_REDUCE : LOGP_COLL_BCAST;
        logp_sched_t s;
        build(&s, coll, (logp_algo_t)algos[i], 1 << 20, &t, 0);
        for (int j = 0; j < 5; j++)
            for (int root = 0; root < 2; root++) {
                logp_view_t v;
                ck_assert_int_eq(logp_view_init(&v, &s, root ? 2147483646 : 0, ranks[j], 1), LOGP_OK);
                ck_assert(v.nops >= 1 && v.nops <= 2100);
                for (int k = 0; k < v.nops; k++) {
                    logp_op_t o = logp_view_op(&v, k);
                    ck_assert(o.peer >= 0 && o.peer < 2147483647 && o.part >= 0 && o.nparts >= 0);
                    ck_assert((long)o.part + o.nparts <= s.parts);
                }
            }
        logp_sched_free(&s);
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
    ck_assert_int_eq(logp_plan_build(&s, LOGP_COLL_BCAST, LOGP_ALGO_NATIVE, 8, &t, NULL), LOGP_ERR_ARG);
    ck_assert_int_eq(logp_plan_build(&s, LOGP_COLL_ALLTOALL, LOGP_ALGO_BINOMIAL, 8, &t, NULL), LOGP_ERR_ARG);
    ck_assert_int_eq(logp_plan_build(&s, LOGP_COLL_BCAST, LOGP_ALGO_RING, 8, &t, NULL), LOGP_ERR_ARG);
    build(&s, LOGP_COLL_BCAST, LOGP_ALGO_FLAT, 8, &t, 0);
    logp_view_t v;
    ck_assert_int_eq(logp_view_init(&v, &s, 4, 0, 1), LOGP_ERR_ARG); /* root out of range */
    ck_assert_int_eq(logp_view_init(&v, &s, 0, -1, 1), LOGP_ERR_ARG);
    logp_sched_free(&s);
}
END_TEST

/* two-tree's order (bcast and reduce) is deadlock-free with the executors' sends (sched_two_tree.c):
 * every send synchronous (complete once received), receives in order,
 * posting waits for the rank's send of `window` sends ago, no other wait.
 * The windows here are the argument's least, LOGP_TWOTREE_MAX_LAG + 3 = 19
 * (the executor has 32), and lag + 3 (a paced bcast's); every part reaches every rank, in matching
 * order on every pair. */
static void twotree_window_case(const logp_sched_t *s, int root, int window)
{
    int P = s->P;
    logp_view_t *v = calloc((size_t)P, sizeof *v);
    int *pc = calloc((size_t)P, sizeof *pc), *nsent = calloc((size_t)P, sizeof *nsent);
    int **ids = calloc((size_t)P, sizeof *ids), *head = malloc(sizeof(int) * (size_t)P * (size_t)P);
    int *tail = malloc(sizeof(int) * (size_t)P * (size_t)P), *got = calloc((size_t)P, sizeof *got);
    long total = 0;
    LOGP_CHECK(v && pc && nsent && ids && head && tail && got);
    for (int r = 0; r < P; r++) {
        LOGP_CHECK(logp_view_init(&v[r], s, root, r, 1) == LOGP_OK);
        ids[r] = calloc((size_t)v[r].nops + 1, sizeof(int));
        total += v[r].nops;
    }
    int *part = malloc(sizeof(int) * (size_t)(total + 1)), *next = malloc(sizeof(int) * (size_t)(total + 1));
    char *recvd = calloc((size_t)total + 1, 1);
    LOGP_CHECK(part && next && recvd);
    for (long i = 0; i < (long)P * P; i++)
        head[i] = tail[i] = -1;
    int nmsg = 0, progress = 1;
    while (progress) {
        progress = 0;
        for (int r = 0; r < P; r++)
            while (pc[r] < v[r].nops) {
                logp_op_t o = logp_view_op(&v[r], pc[r]);
                if (o.kind == LOGP_OP_SEND) {
                    int c = nsent[r];
                    if (c >= window && !recvd[ids[r][c - window]])
                        break; /* the window is full: wait for the oldest */
                    part[nmsg] = o.part;
                    next[nmsg] = -1;
                    long ch = (long)r * P + o.peer;
                    if (tail[ch] >= 0)
                        next[tail[ch]] = nmsg;
                    else
                        head[ch] = nmsg;
                    tail[ch] = nmsg;
                    ids[r][nsent[r]++] = nmsg++;
                } else if (o.kind == LOGP_OP_INIT_OWN) {
                    got[r] -= s->parts; /* a reduce: its own part of every segment */
                } else {
                    LOGP_CHECK(o.kind == LOGP_OP_RECV || o.kind == LOGP_OP_RECV_REDUCE);
                    long ch = (long)o.peer * P + r;
                    int m = head[ch];
                    if (m < 0)
                        break; /* not sent yet */
                    head[ch] = next[m];
                    if (head[ch] < 0)
                        tail[ch] = -1;
                    ck_assert_msg(part[m] == o.part, "P=%d root=%d rank %d: part %d arrives, %d expected", P, root,
                                  r, part[m], o.part);
                    recvd[m] = 1;
                    got[r]++;
                }
                pc[r]++;
                progress = 1;
            }
    }
    for (int r = 0; r < P; r++) {
        ck_assert_msg(pc[r] == v[r].nops, "P=%d parts=%d root=%d window=%d: rank %d stuck at op %d of %d", P,
                      s->parts, root, window, r, pc[r], v[r].nops);
        if (s->coll == LOGP_COLL_BCAST)
            LOGP_CHECK(got[r] == (r == root ? 0 : s->parts));
        else /* every segment from each child, nothing more: the sums are check_sim's dataflow's */
            LOGP_CHECK(got[r] + s->parts >= 0);
        free(ids[r]);
    }
    free(v), free(pc), free(nsent), free(ids), free(head), free(tail), free(got), free(part), free(next), free(recvd);
}

START_TEST(test_twotree_window)
{
    const size_t sizes[] = {1, 5000, 70000, 1 << 20, 5 << 20};
    const int big[] = {100, 127, 128, 129, 255, 256};
    for (int i = 0; i < 64 + 6; i++) {
        int P = i < 64 ? i + 1 : big[i - 64];
        if (P > 16 && !logp_check_sampled(i))
            continue;
        logp_topo_t t = logp_topo_uniform(P, &P0);
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            for (int coll = LOGP_COLL_BCAST; coll <= LOGP_COLL_REDUCE; coll++) {
                logp_sched_t s;
                build(&s, (logp_coll_t)coll, LOGP_ALGO_TWO_TREE, sizes[z], &t, 0);
                LOGP_CHECK(s.k >= 1 && s.k <= 16); /* the lag the argument allows */
                for (int root = 0; root < P; root += P > 2 ? P - 2 : 1) {
                    twotree_window_case(&s, root, 19);
                    twotree_window_case(&s, root, s.k + 3); /* a paced bcast's (sched_two_tree.c) */
                }
                logp_sched_free(&s);
            }
        }
    }
}
END_TEST

/* chunked-rsg (sched_chunked_rsg.c), a dataflow schedule: the executor may run
 * a rank's operations in any order its deps and pairs allow.  Run every
 * such order at random: a rank takes a random operation that may go (a
 * send once its dep and its previous send on the same pair and stream
 * went; a combine or receive once its dep is done and its message, the
 * same ordinal on that pair and stream, was sent; local work once its dep
 * is done); follow the contributions of every part.  Every part must
 * reach the root's result exactly once from every rank, nothing may be
 * left waiting, and no combine may write parts an earlier send of the
 * rank reads (the executor counts on it; plain receives go to the
 * result buffer). */
static void crsg_random_case(const logp_sched_t *s, int root, unsigned seed)
{
    int P = s->P, parts = s->parts;
    logp_view_t *v = calloc((size_t)P, sizeof *v);
    long total = 0, *base = calloc((size_t)P + 1, sizeof(long));
    LOGP_CHECK(v && base && P <= 64);
    for (int r = 0; r < P; r++) {
        LOGP_CHECK(logp_view_init(&v[r], s, root, r, 1) == LOGP_OK);
        base[r] = total;
        total += v[r].nops;
    }
    base[P] = total;
    logp_op_t *op = malloc(sizeof(logp_op_t) * (size_t)(total + 1));
    int *dep = malloc(sizeof(int) * (size_t)(total + 1)), *ord = malloc(sizeof(int) * (size_t)(total + 1));
    char *done = calloc((size_t)total + 1, 1);
    unsigned long long *have = calloc((size_t)P * parts, sizeof(unsigned long long));
    unsigned long long *result = calloc((size_t)parts, sizeof(unsigned long long));
    unsigned long long **sent = calloc((size_t)total + 1, sizeof *sent); /* a send's sets, once sent */
    int *count = calloc((size_t)P * P * 2 * 2, sizeof(int));              /* ordinals per (from, to, stream, kind) */
    long *sendop = malloc(sizeof(long) * (size_t)(total + 1));
    LOGP_CHECK(op && dep && ord && done && have && result && sent && count && sendop);
    for (int r = 0; r < P; r++)
        for (int i = 0; i < v[r].nops; i++) {
            long x = base[r] + i;
            op[x] = logp_view_op(&v[r], i);
            dep[x] = logp_view_dep(&v[r], i);
            LOGP_CHECK(dep[x] < i && (i == 0) == (dep[x] < 0));
            ord[x] = -1;
            int snd = op[x].kind == LOGP_OP_SEND;
            if (snd || op[x].kind == LOGP_OP_RECV || op[x].kind == LOGP_OP_RECV_REDUCE) {
                int from = snd ? r : op[x].peer, to = snd ? op[x].peer : r, st = logp_op_stream(s, &op[x]);
                ord[x] = count[(((long)from * P + to) * 2 + st) * 2 + snd]++;
            }
            if (op[x].kind == LOGP_OP_RECV_REDUCE) /* no combine under an earlier send of the same parts */
                for (int j = 0; j < i; j++) {
                    logp_op_t o = logp_view_op(&v[r], j);
                    if (o.kind == LOGP_OP_SEND && o.nparts && op[x].nparts)
                        LOGP_CHECK(o.part + o.nparts <= op[x].part || op[x].part + op[x].nparts <= o.part);
                }
            if (op[x].kind == LOGP_OP_RECV || op[x].kind == LOGP_OP_RESULT_OWN)
                LOGP_CHECK(r == root && (op[x].kind == LOGP_OP_RESULT_OWN || op[x].arg == LOGP_RECV_RESULT));
        }
    /* the send each receive takes: the same ordinal on its pair and stream */
    for (long x = 0; x < total; x++) {
        sendop[x] = -1;
        if (op[x].kind != LOGP_OP_RECV && op[x].kind != LOGP_OP_RECV_REDUCE)
            continue;
        int r = 0;
        while (base[r + 1] <= x)
            r++;
        int from = op[x].peer;
        for (long y = base[from]; y < base[from + 1]; y++)
            if (op[y].kind == LOGP_OP_SEND && op[y].peer == r &&
                logp_op_stream(s, &op[y]) == logp_op_stream(s, &op[x]) && ord[y] == ord[x])
                sendop[x] = y;
        LOGP_CHECK(sendop[x] >= 0);
        LOGP_CHECK(op[sendop[x]].part == op[x].part && op[sendop[x]].nparts == op[x].nparts);
    }
    srand(seed);
    long left = total;
    while (left > 0) {
        /* the ops that may go, everywhere; take one at random */
        long pick = -1, seen = 0;
        for (int r = 0; r < P; r++)
            for (long x = base[r]; x < base[r + 1]; x++) {
                if (done[x] || (dep[x] >= 0 && !done[base[r] + dep[x]]))
                    continue;
                if (op[x].kind == LOGP_OP_SEND) {
                    int prev_ok = 1;
                    for (long y = base[r]; y < x; y++)
                        if (!done[y] && op[y].kind == LOGP_OP_SEND && op[y].peer == op[x].peer &&
                            logp_op_stream(s, &op[y]) == logp_op_stream(s, &op[x]))
                            prev_ok = 0;
                    if (!prev_ok)
                        continue;
                } else if (op[x].kind == LOGP_OP_RECV || op[x].kind == LOGP_OP_RECV_REDUCE) {
                    if (!done[sendop[x]])
                        continue;
                }
                if (rand() % ++seen == 0)
                    pick = x;
            }
        if (pick < 0)
            ck_abort_msg("%s P=%d parts=%d root=%d: %ld operations wait forever", logp_algo_name(s->algo), P, parts,
                         root, left);
        int r = 0;
        while (base[r + 1] <= pick)
            r++;
        logp_op_t o = op[pick];
        int lo = o.nparts ? o.part : 0, n = o.nparts ? o.nparts : parts;
        unsigned long long *mine = have + (long)r * parts;
        switch (o.kind) {
        case LOGP_OP_INIT_OWN:
            for (int k = 0; k < parts; k++)
                mine[k] = 1ull << r;
            break;
        case LOGP_OP_SEND:
            sent[pick] = malloc(sizeof(unsigned long long) * (size_t)n);
            for (int k = 0; k < n; k++) {
                LOGP_CHECK(mine[lo + k] != 0);
                sent[pick][k] = mine[lo + k];
            }
            break;
        case LOGP_OP_RECV_REDUCE:
            for (int k = 0; k < n; k++) {
                LOGP_CHECK((mine[lo + k] & sent[sendop[pick]][k]) == 0); /* nothing counted twice */
                mine[lo + k] |= sent[sendop[pick]][k];
            }
            break;
        case LOGP_OP_RECV:
            for (int k = 0; k < n; k++) {
                LOGP_CHECK(result[lo + k] == 0);
                result[lo + k] = sent[sendop[pick]][k];
            }
            break;
        case LOGP_OP_RESULT_OWN:
            for (int k = 0; k < n; k++) {
                LOGP_CHECK(result[lo + k] == 0);
                result[lo + k] = mine[lo + k];
            }
            break;
        }
        done[pick] = 1;
        left--;
    }
    unsigned long long all = P == 64 ? ~0ull : (1ull << P) - 1;
    for (int k = 0; k < parts; k++)
        if ((v[root].tree_root == root ? have[(long)root * parts + k] : result[k]) != all)
            ck_abort_msg("%s P=%d parts=%d root=%d: part %d is %llx", logp_algo_name(s->algo), P, parts, root, k,
                         v[root].tree_root == root ? have[(long)root * parts + k] : result[k]);
    for (long x = 0; x < total; x++)
        free(sent[x]);
    free(v), free(base), free(op), free(dep), free(ord), free(done), free(have), free(result), free(sent), free(count);
    free(sendop);
}

START_TEST(test_chunked_rsg)
{
    const logp_params_t smpi = {1.2e-6, 0.6e-6, 0.6e-6, 0.1e-9, 0.3e-9}; /* the SMPI platform's (docs/results/smpi-large) */
    /* every order of the dataflow, for chunk counts up to 16 and folds (P not a power of two) */
    const int Ps[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 31, 32};
    for (size_t a = 0; a < sizeof Ps / sizeof Ps[0]; a++)
        for (int C = 1; C <= LOGP_CRSG_MAX_CHUNKS; C += 1 + (Ps[a] > 8) * 4) {
            logp_topo_t t = logp_topo_uniform(Ps[a], &P0);
            logp_sched_t s;
            logp_sched_opts_t o = {0, 0, 0, 0, C, 0};
            LOGP_CHECK(logp_plan_build(&s, LOGP_COLL_REDUCE, LOGP_ALGO_CHUNKED_RSG, 1 << 20, &t, &o) == LOGP_OK);
            LOGP_CHECK(s.k == C && s.parts >= 1);
            for (int root = 0; root < Ps[a]; root += 1 + Ps[a] / 3)
                crsg_random_case(&s, root, (unsigned)(7 * C + root));
            double sim;
            LOGP_CHECK(logp_sim_run(&s, Ps[a] - 1, 1, NULL, NULL, &sim) == LOGP_OK);
            logp_sched_free(&s);
        }
    /* the chunks: sqrt(m (gamma + G) / (7 og)) on a shared network, within 2 .. 16 (1 below 1) */
    ck_assert_int_eq(logp_crsg_chunks(&smpi, 1 << 20, 256, 1), 10);
    ck_assert_int_eq(logp_crsg_chunks(&smpi, 1 << 16, 256, 1), 2);
    ck_assert_int_eq(logp_crsg_chunks(&smpi, 1 << 18, 64, 1), 5);
    ck_assert_int_eq(logp_crsg_chunks(&smpi, 64 << 20, 64, 1), LOGP_CRSG_MAX_CHUNKS);
    /* below 1 nothing to pipeline: sqrt(8 KiB 0.4 ns/B / 4.2 us) = 0.88; 16 KiB: 1.25 */
    ck_assert_int_eq(logp_crsg_chunks(&smpi, 8192, 64, 1), 1);
    ck_assert_int_eq(logp_crsg_chunks(&smpi, 16384, 64, 1), 2);
    int w[LOGP_CRSG_MAX_CHUNKS];
    ck_assert_int_eq(logp_crsg_weights(10, w), 46); /* 1 2 4 8 8 8 8 4 2 1 */
    ck_assert(w[0] == 1 && w[3] == 8 && w[6] == 8 && w[9] == 1);
    /* SMPI's platform, shared network: the simulator within 1.25x of the
     * bound (P - 1)/P m gamma at 1 MiB (SMPI: 374.0 us at P = 64), and the
     * formula, which prices decisions, within 5% of the simulator from 256 KiB */
    const int Qs[] = {16, 64};
    for (int a = 0; a < 2; a++)
        for (size_t m = 1 << 18; m <= 4u << 20; m *= 4) {
            logp_topo_t t = logp_topo_uniform(Qs[a], &smpi);
            t.shared = 1;
            logp_sched_t s;
            LOGP_CHECK(logp_plan_build(&s, LOGP_COLL_REDUCE, LOGP_ALGO_CHUNKED_RSG, m, &t, NULL) == LOGP_OK);
            double sim, est = logp_plan_estimate(&s, 0, 1), bound = (Qs[a] - 1.0) / Qs[a] * (double)m * smpi.gamma;
            LOGP_CHECK(logp_sim_run(&s, 0, 1, NULL, NULL, &sim) == LOGP_OK);
            ck_assert_msg(fabs(est - sim) <= 0.05 * sim, "P=%d m=%zu: estimate %g, simulator %g", Qs[a], m, est, sim);
            if (m == 1 << 20)
                ck_assert_msg(sim <= 1.25 * bound, "P=%d: %g us, bound %g", Qs[a], sim * 1e6, bound * 1e6);
            logp_sched_free(&s);
        }
    logp_topo_t big = logp_topo_uniform(2 * LOGP_CRSG_MAX_P2, &P0);
    logp_sched_t s;
    ck_assert_int_eq(logp_plan_build(&s, LOGP_COLL_REDUCE, LOGP_ALGO_CHUNKED_RSG, 1 << 20, &big, NULL), LOGP_ERR_ARG);
}
END_TEST

/* The envelope (topo.h): every message carries E bytes through a shared
 * network's interfaces.  One message alone arrives E G later; and SMPI's
 * 16-byte envelope is what a gather of many empty blocks waits on: a
 * chunked-rsg of 8 bytes (2 chunks, 2 x 63 gather messages into the root's
 * link) on the fidelity suite's platform 1 (o = g = 0.4528 us, L = 0.3955
 * us, G = 1.58 ns/B), SMPI 3.32: 9.8706 us at P = 64 and 21.3893 at P =
 * 256 (docs/results/smpi-fidelity, "the envelope"); without it the
 * simulator said 6.74 and 8.55. */
START_TEST(test_envelope)
{
    const logp_params_t p1 = {0.3955e-6, 0.4528e-6, 0.4528e-6, 1.58e-9, 0.3585e-9};
    for (size_t m = 8; m <= 1 << 20; m *= 64) {
        double T[2];
        for (int e = 0; e < 2; e++) {
            logp_topo_t t = logp_topo_uniform(2, &p1);
            t.shared = 1;
            t.envelope = 16.0 * e;
            logp_sched_t s;
            ck_assert_int_eq(logp_plan_build(&s, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, m, &t, NULL), LOGP_OK);
            ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &T[e]), LOGP_OK);
            logp_sched_free(&s);
        }
        ck_assert_msg(fabs(T[1] - T[0] - 16.0 * p1.G) <= 1e-12 * T[0], "m=%zu: %g, %g", m, T[0], T[1]);
    }
    const struct { int P; double smpi; } cases[] = {{64, 9.8706e-6}, {256, 21.3893e-6}};
    for (int i = 0; i < 2; i++) {
        logp_topo_t t = logp_topo_uniform(cases[i].P, &p1);
        t.shared = 1;
        t.envelope = 16.0;
        logp_sched_t s;
        logp_sched_opts_t o = {0, 0, 0, 0, 2, 0};
        ck_assert_int_eq(logp_plan_build(&s, LOGP_COLL_REDUCE, LOGP_ALGO_CHUNKED_RSG, 8, &t, &o), LOGP_OK);
        double sim, est = logp_plan_estimate(&s, 0, 1);
        ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &sim), LOGP_OK);
        ck_assert_msg(fabs(sim / cases[i].smpi - 1.0) <= 0.01, "P=%d: simulator %g us, SMPI %g", cases[i].P, sim * 1e6,
                      cases[i].smpi * 1e6);
        if (cases[i].P == 256) /* the estimate prices decisions there */
            ck_assert_msg(fabs(est / cases[i].smpi - 1.0) <= 0.05, "P=256: estimate %g us", est * 1e6);
        logp_sched_free(&s);
    }
}
END_TEST

/* --- allreduce: every rank ends with every rank's contribution ------------ */

/* A part's value in the symbolic run: the ranks combined in it (a mask),
 * and, in rank order, the range [lo, hi] it covers (ordered: every
 * combine joined adjacent ranges, the lower first); shape, a hash of its
 * expression tree (the association: the same on every rank means the same
 * bits for floating point); n, how many contributions it combines, a
 * rank counted again each time it is combined again (n > P at the end:
 * some rank's twice). */
typedef struct {
    unsigned long long mask;
    int lo, hi, ordered;
    unsigned long long shape;
    int n;
} ar_val_t;

#define AR_MAXP 40
#define AR_MAXPARTS 64
#define AR_MAXQ 4096

/* A message in flight: the parts it carries. */
typedef struct {
    int from, to, part, nparts;
    ar_val_t v[AR_MAXPARTS];
} ar_msg_t;

static ar_val_t ar_join(ar_val_t a, ar_val_t b) /* a op b */
{
    ar_val_t r = {a.mask | b.mask, a.lo, b.hi, a.ordered && b.ordered && a.hi + 1 == b.lo && !(a.mask & b.mask),
                  (a.shape * 0x9E3779B97F4A7C15ull + 0x7F4A7C15ull) ^ (b.shape * 0xC2B2AE3D27D4EB4Full + 0x165667B1ull),
                  a.n + b.n};
    return r;
}

/* Runs every rank's operations of s (each rank in order; a receive waits
 * for the oldest message from its peer, as MPI matches one tag) and checks
 * that each part of every rank's accumulator ends holding every rank once
 * and, where the view keeps rank order (!commute or the family combines in
 * rank order anyway), ranks 0 .. P-1 in order, in the same association on
 * every rank.  An idempotent operator (commute LOGP_OPS_IDEMPOTENT) asks
 * only that every rank hold every rank at least once: combining one twice,
 * or in another association, gives the same bits.  Returns nonzero on
 * success. */
static int ar_run(const logp_sched_t *s, int commute, char *why, size_t whylen)
{
    int P = s->P, parts = s->parts < 1 ? 1 : s->parts;
    static ar_val_t acc[AR_MAXP][AR_MAXPARTS], slot[AR_MAXP][LOGP_SCHED_SLOTS_MAX][AR_MAXPARTS];
    static ar_msg_t q[AR_MAXQ];
    logp_view_t v[AR_MAXP];
    int pc[AR_MAXP], nq = 0, head = 0, done = 0;
    if (P > AR_MAXP || parts > AR_MAXPARTS)
        return snprintf(why, whylen, "too large"), 0;
    for (int r = 0; r < P; r++) {
        LOGP_CHECK(logp_view_init(&v[r], s, 0, r, commute) == LOGP_OK);
        pc[r] = 0;
    }
    while (done < P) {
        int progress = 0;
        done = 0;
        for (int r = 0; r < P; r++) {
            while (pc[r] < v[r].nops) {
                logp_op_t o = logp_view_op(&v[r], pc[r]);
                int first = o.nparts ? o.part : 0, n = o.nparts ? o.nparts : parts;
                ar_val_t own = {1ull << r, r, r, 1, 0x100000001ull * (unsigned long long)(r + 1), 1};
                if (o.kind == LOGP_OP_INIT_OWN) {
                    for (int k = 0; k < parts; k++)
                        acc[r][k] = own;
                } else if (o.kind == LOGP_OP_REDUCE_OWN) {
                    for (int k = 0; k < parts; k++)
                        acc[r][k] = ar_join(own, acc[r][k]);
                } else if (o.kind == LOGP_OP_SEND) {
                    if (nq >= AR_MAXQ)
                        return snprintf(why, whylen, "queue full"), 0;
                    ar_msg_t *m = &q[nq++];
                    m->from = r, m->to = o.peer, m->part = first, m->nparts = n;
                    for (int k = 0; k < n; k++)
                        m->v[k] = acc[r][first + k];
                } else if (o.kind == LOGP_OP_RECV || o.kind == LOGP_OP_RECV_REDUCE) {
                    int j = head;
                    while (j < nq && !(q[j].to == r && q[j].from == o.peer))
                        j++;
                    if (j == nq)
                        break; /* not sent yet */
                    if (q[j].part != first || q[j].nparts != n)
                        return snprintf(why, whylen, "rank %d op %d: parts %d+%d from %d, sent %d+%d", r, pc[r], first,
                                        n, o.peer, q[j].part, q[j].nparts), 0;
                    for (int k = 0; k < n; k++) {
                        ar_val_t in = q[j].v[k], *a = &acc[r][first + k];
                        if (o.kind == LOGP_OP_RECV && o.arg >= LOGP_RECV_SLOT)
                            slot[r][o.arg - LOGP_RECV_SLOT][first + k] = in;
                        else if (o.kind == LOGP_OP_RECV)
                            *a = in;
                        else
                            *a = o.arg == LOGP_SIDE_PREPEND || v[r].commutative ? ar_join(in, *a) : ar_join(*a, in);
                    }
                    q[j].to = -1; /* taken */
                    while (head < nq && q[head].to < 0)
                        head++;
                } else if (o.kind == LOGP_OP_FOLD) { /* v_0 op (v_1 op (...)), v_peer the accumulator */
                    if (o.arg - 1 > s->slots || o.peer < 0 || o.peer >= o.arg)
                        return snprintf(why, whylen, "rank %d op %d: fold of %d, own %d, %d slots", r, pc[r], o.arg,
                                        o.peer, s->slots), 0;
                    for (int k = 0; k < parts; k++) {
                        ar_val_t t = o.peer == o.arg - 1 ? acc[r][k] : slot[r][o.arg - 2][k];
                        for (int d = o.arg - 2; d >= 0; d--)
                            t = ar_join(d == o.peer ? acc[r][k] : slot[r][d < o.peer ? d : d - 1][k], t);
                        acc[r][k] = t;
                    }
                } else {
                    return snprintf(why, whylen, "rank %d: operation kind %d", r, o.kind), 0;
                }
                pc[r]++;
                progress = 1;
            }
            done += pc[r] == v[r].nops;
        }
        if (!progress && done < P)
            return snprintf(why, whylen, "deadlock"), 0;
    }
    if (head != nq)
        return snprintf(why, whylen, "messages left over"), 0;
    unsigned long long all = P == 64 ? ~0ull : (1ull << P) - 1;
    int idem = commute == LOGP_OPS_IDEMPOTENT;
    for (int r = 0; r < P; r++)
        for (int k = 0; k < parts; k++) {
            ar_val_t a = acc[r][k];
            if (a.mask != all || (!v[r].commutative && !(a.ordered && a.lo == 0 && a.hi == P - 1)))
                return snprintf(why, whylen, "rank %d part %d: mask %llx lo %d hi %d ordered %d", r, k, a.mask, a.lo,
                                a.hi, a.ordered), 0;
            if (!idem && a.n != P)
                return snprintf(why, whylen, "rank %d part %d: %d contributions combined, %d ranks", r, k, a.n, P), 0;
            if (!idem && a.shape != acc[0][k].shape) /* every rank the same association: the same bits */
                return snprintf(why, whylen, "rank %d part %d: another association than rank 0's", r, k), 0;
        }
    return 1;
}

/* Every allreduce's results (ar_run), for each operator class it runs:
 * non-commutative where it keeps rank order, commutative, and for an
 * idempotent family (LOGP_FAMILY_IDEMPOTENT) the idempotent class only,
 * which the run's duplicates need: some P must combine a rank twice
 * (commutative would fail there, which shows the check sees them), and a
 * non-commutative view is refused. */
START_TEST(test_allreduce_results)
{
    int twice = 0;
    for (int P = 1; P <= AR_MAXP; P++) {
        logp_topo_t t = logp_topo_uniform(P, &P0);
        for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
            if (!schedulable(a, LOGP_COLL_ALLREDUCE))
                continue;
            for (int radix = 0; radix <= 32; radix = radix ? 2 * radix : 2) { /* the model's, then forced */
                logp_sched_t s;
                logp_sched_opts_t o = {3, 0, 0, radix, 0, 0};
                LOGP_CHECK(logp_plan_build(&s, LOGP_COLL_ALLREDUCE, (logp_algo_t)a, 1000, &t, &o) == LOGP_OK);
                int idem = (s.fam->flags & LOGP_FAMILY_IDEMPOTENT) != 0;
                char why[160] = "";
                if (idem) {
                    logp_view_t v;
                    ck_assert_int_eq(logp_view_init(&v, &s, 0, 0, 0), LOGP_ERR_ARG);
                    twice += radix == 0 && !ar_run(&s, LOGP_OPS_COMMUTATIVE, why, sizeof why) &&
                             strstr(why, "contributions combined") != NULL;
                }
                int first = idem ? LOGP_OPS_IDEMPOTENT : 0, last = idem ? LOGP_OPS_IDEMPOTENT : LOGP_OPS_COMMUTATIVE;
                for (int commute = first; commute <= last; commute++) {
                    if (!commute && !(s.fam->flags & LOGP_FAMILY_RANK_ORDER))
                        continue;
                    if (!ar_run(&s, commute, why, sizeof why))
                        ck_abort_msg("allreduce %s P=%d radix=%d commute=%d: %s", logp_algo_name((logp_algo_t)a), P,
                                     s.k, commute, why);
                }
                logp_sched_free(&s);
            }
        }
    }
    ck_assert_int_gt(twice, 0);
}
END_TEST

/* recursive-multiplying: its estimate (a new rank's path) is the
 * simulator's time where no rank folds, for every radix and random
 * parameters, and within the fold's two messages where ranks fold (a
 * group's members that did not fold wait for those that did); the model's radix is the least estimate, so never above radix 2's. */
START_TEST(test_rmul_estimate)
{
    srand(91);
    for (int trial = 0; trial < 60; trial++) {
        logp_params_t p = trial % 3 ? random_params() : P0;
        int P = trial % 2 ? 1 << (1 + rand() % 8) : 2 + rand() % 200;
        size_t m = (size_t)exp(urand(0.0, log(65536.0)));
        logp_topo_t t = logp_topo_uniform(P, &p);
        double model = -1.0;
        for (int radix = 0; radix <= 16; radix = radix ? 2 * radix : 2) {
            logp_sched_t s;
            logp_sched_opts_t o = {0, 0, 0, radix, 0, 0};
            LOGP_CHECK(logp_plan_build(&s, LOGP_COLL_ALLREDUCE, LOGP_ALGO_RECURSIVE_MULTIPLYING, m, &t, &o) == LOGP_OK);
            double sim, est = logp_sched_estimate(&s, 0, 0);
            LOGP_CHECK(logp_sim_run(&s, 0, 0, NULL, NULL, &sim) == LOGP_OK);
            int folds = (P & (P - 1)) != 0;
            double slack = folds ? 2.0 * logp_params_p2p(&p, m) : 1e-9 * sim;
            ck_assert_msg(fabs(est - sim) <= slack, "P=%d m=%zu radix %d: estimate %.9g sim %.9g",
                          P, m, s.k, est, sim);
            if (radix == 0)
                model = est;
            else
                ck_assert_msg(model <= est * (1.0 + 1e-12), "P=%d m=%zu: the model's radix %.9g, radix %d %.9g", P, m,
                              model, s.k, est);
            logp_sched_free(&s);
        }
    }
}
END_TEST

/* dissemination: the circulant of docs/results/smpi-allreduce/bound
 * (section 5) in units of 0.2 us (o = 2, g = 3, L = 8, G = gamma = 0):
 * depth 3, 36, 52, 64 and 80 units at P = 16, 64, 256 and 1024, where
 * recursive-multiplying's estimate is 36, 54, 72 and 90; its time is the
 * simulator's, there and at random parameters and sizes (large ones
 * included: no large send waits for another's arrival). */
START_TEST(test_dissemination_estimate)
{
    const logp_params_t units = {1.6e-6, 0.4e-6, 0.6e-6, 0, 0, 0, 0};
    const struct { int P; double diss, rmul; } want[] = {{16, 7.2e-6, 7.2e-6}, {64, 10.4e-6, 10.8e-6},
                                                         {256, 12.8e-6, 14.4e-6}, {1024, 16.0e-6, 18.0e-6}};
    for (int i = 0; i < 4; i++) {
        logp_topo_t t = logp_topo_uniform(want[i].P, &units);
        logp_sched_t s, r;
        double sim;
        LOGP_CHECK(logp_plan_build(&s, LOGP_COLL_ALLREDUCE, LOGP_ALGO_DISSEMINATION, 8, &t, NULL) == LOGP_OK);
        LOGP_CHECK(logp_plan_build(&r, LOGP_COLL_ALLREDUCE, LOGP_ALGO_RECURSIVE_MULTIPLYING, 8, &t, NULL) == LOGP_OK);
        double est = logp_sched_estimate(&s, 0, LOGP_OPS_IDEMPOTENT), rm = logp_sched_estimate(&r, 0, 0);
        LOGP_CHECK(logp_sim_run(&s, 0, LOGP_OPS_IDEMPOTENT, NULL, NULL, &sim) == LOGP_OK);
        ck_assert_msg(s.k == 3 && fabs(est - want[i].diss) <= 1e-9 * want[i].diss && est == sim &&
                          est == logp_sched_time(&s, 0, LOGP_OPS_IDEMPOTENT),
                      "P=%d: d %d, estimate %.9g us, simulator %.9g, want %.9g", want[i].P, s.k, est * 1e6, sim * 1e6,
                      want[i].diss * 1e6);
        ck_assert_msg(fabs(rm - want[i].rmul) <= 1e-9 * want[i].rmul, "P=%d: recursive-multiplying %.9g us",
                      want[i].P, rm * 1e6);
        logp_sched_free(&s);
        logp_sched_free(&r);
    }
    srand(93);
    for (int trial = 0; trial < 200; trial++) {
        logp_params_t p = random_params();
        int P = trial % 4 ? 1 + rand() % 1000 : 1 << rand() % 11;
        size_t m = (size_t)exp(urand(0.0, log(4.0 * 1024 * 1024)));
        logp_topo_t t = logp_topo_uniform(P, &p);
        logp_sched_t s;
        double sim;
        LOGP_CHECK(logp_plan_build(&s, LOGP_COLL_ALLREDUCE, LOGP_ALGO_DISSEMINATION, m, &t, NULL) == LOGP_OK);
        double est = logp_sched_estimate(&s, 0, LOGP_OPS_IDEMPOTENT);
        LOGP_CHECK(logp_sim_run(&s, 0, LOGP_OPS_IDEMPOTENT, NULL, NULL, &sim) == LOGP_OK);
        ck_assert_msg(fabs(est - sim) <= 1e-9 * sim, "P=%d m=%zu d=%d: estimate %.17g, simulator %.17g", P, m, s.k, est,
                      sim);
        logp_sched_free(&s);
    }
}
END_TEST

/* dissemination's views, P = 1 .. 300 under three parameter sets (depths
 * 1 to 8 among them): the own value, then send k after the combines of
 * messages t <= k - d and combine t after sends t + d - 1; every rank
 * alike, each send k D_k ahead (D_k distinct, 0 < D_k < P), and rank r's
 * send t is the receive t of the rank it names, which names r; the
 * ranges a rank holds stay contiguous (each message adjacent to the
 * range, or overlapping it) and reach P; the estimate is the simulator's.
 * And at P = 2^31 - 1 (only d = 1 fits the slots) every peer in range. */
START_TEST(test_dissemination_views)
{
    const logp_params_t sets[3] = {{1.6e-6, 0.4e-6, 0.6e-6, 0.1e-9, 0.3e-9, 0, 0},
                                   {5e-6, 0.4e-6, 0.6e-6, 0.1e-9, 0.3e-9, 0, 0},
                                   {0.1e-6, 1e-6, 1e-6, 0.1e-9, 0.3e-9, 0, 0}};
    int seen[LOGP_SCHED_SLOTS_MAX + 1] = {0};
    for (int z = 0; z < 3; z++)
        for (int P = 1; P <= 300; P++) {
            logp_topo_t t = logp_topo_uniform(P, &sets[z]);
            logp_sched_t s;
            LOGP_CHECK(logp_plan_build(&s, LOGP_COLL_ALLREDUCE, LOGP_ALGO_DISSEMINATION, 8, &t, NULL) == LOGP_OK);
            int d = s.k, M = s.slots;
            LOGP_CHECK(d >= 1 && d <= 8 && M >= 0 && M <= LOGP_SCHED_SLOTS_MAX && (P > 1 || M == 0));
            LOGP_CHECK(logp_sched_ops(&s) == (long)P * (1 + 2 * M));
            seen[d]++;
            size_t n = (size_t)P * (size_t)(M + 1);
            int *S = malloc(sizeof(int) * n), *R = malloc(sizeof(int) * n);
            long D[LOGP_SCHED_SLOTS_MAX];
            LOGP_CHECK(S && R);
            for (int r = 0; r < P; r++) {
                logp_view_t v;
                LOGP_CHECK(logp_view_init(&v, &s, 0, r, LOGP_OPS_IDEMPOTENT) == LOGP_OK && v.nops == 1 + 2 * M);
                logp_op_t o = logp_view_op(&v, 0);
                LOGP_CHECK(o.kind == LOGP_OP_INIT_OWN && o.peer == r);
                int ns = 0, nr = 0;
                for (int i = 1; i < v.nops; i++) {
                    o = logp_view_op(&v, i);
                    LOGP_CHECK(o.peer >= 0 && o.peer < P && o.peer != r && o.bytes == 8 && o.nparts == 0);
                    if (o.kind == LOGP_OP_SEND) {
                        LOGP_CHECK(ns < M && nr == (ns - d + 1 > 0 ? ns - d + 1 : 0));
                        S[r * M + ns++] = o.peer;
                    } else {
                        LOGP_CHECK(o.kind == LOGP_OP_RECV_REDUCE && o.arg == LOGP_SIDE_APPEND && nr < M);
                        LOGP_CHECK(ns == (nr + d < M ? nr + d : M));
                        R[r * M + nr++] = o.peer;
                    }
                }
                LOGP_CHECK(ns == M && nr == M);
            }
            for (int k = 0; k < M; k++) {
                D[k] = S[k]; /* rank 0's */
                LOGP_CHECK(D[k] > 0 && D[k] < P);
                for (int j = 0; j < k; j++)
                    LOGP_CHECK(D[j] != D[k]);
                for (int r = 0; r < P; r++) {
                    LOGP_CHECK((S[r * M + k] - r + P) % P == D[k]);
                    if (R[S[r * M + k] * M + k] != r) /* (no ck_assert in the inner loop: each costs a write) */
                        ck_abort_msg("P=%d d=%d: rank %d's send %d to %d, whose receive %d names %d", P, d, r, k,
                                     S[r * M + k], k, R[S[r * M + k] * M + k]);
                }
            }
            /* the ranges, every rank's alike: [r - len + 1, r] */
            long len = 1, sent[LOGP_SCHED_SLOTS_MAX];
            for (int k = 0; k < M + d - 1; k++) {
                if (k < M)
                    sent[k] = len;
                int u = k - d + 1;
                if (u >= 0 && u < M) {
                    LOGP_CHECK(D[u] <= len); /* no gap between the ranges */
                    len = D[u] + sent[u] > len ? D[u] + sent[u] : len;
                    len = len < P ? len : P;
                }
            }
            ck_assert_msg(len == P, "P=%d d=%d: ranks hold %ld", P, d, len);
            double sim, est = logp_sched_estimate(&s, 0, LOGP_OPS_IDEMPOTENT);
            LOGP_CHECK(logp_sim_run(&s, 0, LOGP_OPS_IDEMPOTENT, NULL, NULL, &sim) == LOGP_OK);
            ck_assert_msg(fabs(est - sim) <= 1e-12 * sim, "P=%d d=%d: estimate %.17g, simulator %.17g", P, d, est, sim);
            free(S);
            free(R);
            logp_sched_free(&s);
        }
    logp_topo_t big = logp_topo_uniform(2147483647, &sets[0]);
    logp_sched_t s;
    LOGP_CHECK(logp_plan_build(&s, LOGP_COLL_ALLREDUCE, LOGP_ALGO_DISSEMINATION, 8, &big, NULL) == LOGP_OK);
    LOGP_CHECK(s.slots >= 1 && s.slots <= LOGP_SCHED_SLOTS_MAX && logp_sched_estimate(&s, 0, LOGP_OPS_IDEMPOTENT) > 0);
    const int ranks[] = {0, 1, 1234567891, 2147483646};
    for (int j = 0; j < 4; j++) {
        logp_view_t v;
        LOGP_CHECK(logp_view_init(&v, &s, 0, ranks[j], LOGP_OPS_IDEMPOTENT) == LOGP_OK && v.nops == 1 + 2 * s.slots);
        for (int i = 1; i < v.nops; i++) {
            logp_op_t o = logp_view_op(&v, i);
            LOGP_CHECK(o.peer >= 0 && o.peer < 2147483647 && o.peer != ranks[j]);
        }
    }
    logp_sched_free(&s);
    int depths = 0;
    for (int d = 1; d <= 8; d++)
        depths += seen[d] > 0;
    ck_assert_msg(depths == 8, "depths chosen: %d of 8", depths);
}
END_TEST

/* Alltoallv's schedules are the all-to-all's at the rank's mean block,
 * and its direct exchanges have the property that lets ranks of
 * different classes run different ones on one call
 * (src/coll/alltoall_direct.c): a phase (op.arg) is a contiguous range of
 * shifts k, sends to rank + k and receives from rank - k, the phases'
 * ranges increase, and a whole phase fits the executor's requests in
 * flight (2 LOGP_LINEAR_WINDOW_MAX).  The others (bruck) run only where
 * the ranks agree on the class (algo.h): the same schedule, no mixing. */
START_TEST(test_alltoallv_is_alltoall)
{
    static const size_t sizes[] = {1, 100, 70000, 1 << 20};
    int found = 0;
    for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
        if (a == LOGP_ALGO_NATIVE || a == LOGP_ALGO_AUTO || !logp_algo_supports((logp_algo_t)a, LOGP_COLL_ALLTOALLV))
            continue;
        int direct = (logp_sched_family((logp_algo_t)a)->flags & LOGP_FAMILY_A2A_DIRECT) != 0;
        found += direct;
        for (int P = 1; P <= 40; P++)
            for (int z = 0; z < 4; z++) {
                logp_topo_t t = logp_topo_uniform(P, &P0);
                logp_sched_t v, u;
                build(&v, LOGP_COLL_ALLTOALLV, (logp_algo_t)a, sizes[z], &t, 0);
                build(&u, LOGP_COLL_ALLTOALL, (logp_algo_t)a, sizes[z], &t, 0);
                ck_assert(fabs(logp_sched_time(&v, 0, 1) - logp_sched_time(&u, 0, 1)) <= 1e-12);
                for (int r = 0; r < P; r++) {
                    logp_view_t vv, uv;
                    LOGP_CHECK(logp_view_init(&vv, &v, 0, r, 1) == LOGP_OK && logp_view_init(&uv, &u, 0, r, 1) == LOGP_OK);
                    ck_assert_int_eq(vv.nops, uv.nops);
                    for (int i = 0; i < vv.nops && !direct; i++) {
                        logp_op_t x = logp_view_op(&vv, i), y = logp_view_op(&uv, i);
                        LOGP_CHECK(x.kind == y.kind && x.peer == y.peer && x.arg == y.arg && x.bytes == y.bytes);
                    }
                    if (!direct)
                        continue;
                    int phase = -1, lo = 0, hi = 0, prev_hi = 0, in_phase = 0; /* the phase's shifts [lo, hi] */
                    for (int i = 0; i < vv.nops; i++) {
                        logp_op_t x = logp_view_op(&vv, i), y = logp_view_op(&uv, i);
                        LOGP_CHECK(x.kind == y.kind && x.peer == y.peer && x.arg == y.arg && x.bytes == y.bytes);
                        int send = x.kind == LOGP_OP_SEND;
                        LOGP_CHECK(send || x.kind == LOGP_OP_RECV);
                        int k = send ? (x.peer - r + P) % P : (r - x.peer + P) % P;
                        LOGP_CHECK(k >= 1);
                        if (x.arg != phase) {
                            LOGP_CHECK(x.arg > phase);
                            prev_hi = phase < 0 ? 0 : hi;
                            phase = x.arg;
                            lo = hi = k;
                            in_phase = 0;
                        }
                        LOGP_CHECK(k > prev_hi); /* every shift of a phase above the last phase's */
                        lo = k < lo ? k : lo;
                        hi = k > hi ? k : hi;
                        LOGP_CHECK(++in_phase <= 2 * LOGP_LINEAR_WINDOW_MAX && 2 * (hi - lo + 1) >= in_phase);
                    }
                }
                logp_sched_free(&v);
                logp_sched_free(&u);
            }
    }
    ck_assert_int_ge(found, 2); /* ring and linear */
}
END_TEST

/* pipeline on a shared network (plan_pipeline.c): beyond its proxy's
 * ranks or segments a decision prices the chain by the proxy, within 6%
 * of the full simulation (the design formula, which it replaced there,
 * was 2-3x low: 0.50 at P = 64, 1 MiB), without the simulation. */
START_TEST(test_pipeline_shared_proxy)
{
    const logp_params_t drawn = {0.3955e-6, 0.4528e-6, 0.4528e-6, 1.58e-9, 0.3585e-9, 0.0};
    const logp_params_t *ps[2] = {&P0, &drawn};
    const int Ps[] = {8, 40, 64};
    const size_t ms[] = {65536, 1048576};
    int proxied = 0;
    for (int pi = 0; pi < 2; pi++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 2; j++)
                for (int coll = LOGP_COLL_BCAST; coll <= LOGP_COLL_REDUCE; coll++) {
                    logp_topo_t t = logp_topo_uniform(Ps[i], ps[pi]);
                    t.shared = 1;
                    logp_sched_t s;
                    logp_sched_opts_t o = {4, 0, 0, 0, 0, 0};
                    ck_assert_int_eq(logp_plan_build(&s, (logp_coll_t)coll, LOGP_ALGO_PIPELINE, ms[j], &t, &o), LOGP_OK);
                    double price = logp_plan_price(&s, 0, 1, 1), exact = -1.0;
                    ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &exact), LOGP_OK);
                    int far = Ps[i] > 32 || s.parts > 32;
                    proxied += far;
                    if (far)
                        ck_assert_msg(fabs(price / exact - 1.0) <= 0.06, "pipeline %s P=%d m=%zu k=%d: proxy %g, simulated %g",
                                      coll == LOGP_COLL_BCAST ? "bcast" : "reduce", Ps[i], ms[j], s.parts, price, exact);
                    else
                        ck_assert_msg(fabs(price - exact) <= 1e-9 * exact, "pipeline P=%d m=%zu: the simulation itself",
                                      Ps[i], ms[j]);
                    logp_sched_free(&s);
                }
    ck_assert_int_ge(proxied, 16);
}
END_TEST

/* Forced segment counts (pmpi-logp-bench --shape segments=S): pipeline
 * and two-tree take them as given, clamped to 1 .. 1024 and to one
 * segment per byte; two-tree's shared-network planner keeps them. */
START_TEST(test_forced_segments)
{
    const logp_algo_t algos[2] = {LOGP_ALGO_PIPELINE, LOGP_ALGO_TWO_TREE};
    const struct { size_t m; int want, got; } cases[] = {{1 << 20, 7, 7}, {1 << 20, 5000, 1024}, {100, 300, 100}, {1 << 16, 1, 1}};
    for (int shared = 0; shared <= 1; shared++)
        for (int a = 0; a < 2; a++)
            for (int i = 0; i < 4; i++) {
                logp_topo_t t = logp_topo_uniform(9, &P0);
                t.shared = shared;
                logp_sched_t s;
                logp_sched_opts_t o = {4, 0, 0, 0, 0, cases[i].want};
                ck_assert_int_eq(logp_plan_build(&s, LOGP_COLL_BCAST, algos[a], cases[i].m, &t, &o), LOGP_OK);
                ck_assert_msg(s.parts == cases[i].got, "%s m=%zu segments=%d: %d parts", logp_algo_name(algos[a]),
                              cases[i].m, cases[i].want, s.parts);
                double T = -1.0;
                ck_assert_int_eq(logp_sim_run(&s, 0, 1, NULL, NULL, &T), LOGP_OK);
                ck_assert(T > 0.0);
                logp_sched_free(&s);
            }
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        test_views_pair_up, test_alltoall_delivery, test_sim_hand_forms, test_closed_forms_equal_sim, test_closed_forms_on_alike_nodes,
        test_seed004_formulas, test_sim_deadlock, test_parts_dataflow, test_estimates, test_large_views_huge_p,
        test_twotree_window, test_chunked_rsg, test_allreduce_results, test_rmul_estimate, test_dissemination_estimate, test_dissemination_views, test_alltoallv_is_alltoall, test_pipeline_shared_proxy, test_forced_segments,
        test_envelope,
    };
    return logp_check_run("model/sim", tests, (int)(sizeof tests / sizeof tests[0]));
}
