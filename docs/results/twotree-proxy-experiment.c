/* Experiment, not part of the library (2026-11-30, issue 38): the size of
 * two-tree's shared-network proxy (src/model/plan_two_tree.c) against the
 * full simulation.  On N drawn platforms (L 0.5 - 20 us, o and g 0.1 - 5
 * us, G 0.02 - 2 ns/B log-uniform, gamma 0 - 1 ns/B; P 48, 64, 100 or 128;
 * bcast or reduce; 256 KiB, 1 MiB or 4 MiB) it builds two-tree as a
 * decision does (logp_plan_build: the proxy picks the segment count),
 * simulates the result in full, and with GRID = 1 also every neighbouring
 * count k/4, k/2, 3k/4, 5k/4, 3k/2, 2k, 3k, and prints the picked count's
 * time over the best and the build time.  Findings:
 * docs/results/measurements-in-code.md, "two-tree: the shared-network
 * proxy".  To compare proxy sizes, set LOGP_TWOTREE_PROXY_P and _K in
 * plan_two_tree.c (32 x 64 before 2026-11-30, 16 x 32 since) and build:
 *   gcc -O2 -std=c11 -D_GNU_SOURCE -I src -I src/model -I BUILD -o px \
 *       docs/results/twotree-proxy-experiment.c src/model/*.c -lm
 *   ./px N GRID SEED        # e.g. ./px 60 1 11 (about 2 minutes with GRID)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "model/plan.h"
#include "model/sim.h"
#include "model/topo.h"
static double lu(double a, double b) { return exp(log(a) + drand48() * (log(b) - log(a))); }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20, grid = argc > 2 ? atoi(argv[2]) : 1;
    srand48(argc > 3 ? atoi(argv[3]) : 7);
    int Ps[] = {48, 64, 100, 128};
    size_t ms[] = {262144, 1048576, 4194304};
    for (int i = 0; i < n; i++) {
        logp_params_t p = {lu(0.5e-6, 20e-6), lu(0.1e-6, 5e-6), lu(0.1e-6, 5e-6), lu(0.02e-9, 2e-9), drand48() * 1e-9, 0};
        int P = Ps[lrand48() % 4];
        size_t m = ms[lrand48() % 3];
        logp_coll_t coll = lrand48() % 2 ? LOGP_COLL_BCAST : LOGP_COLL_REDUCE;
        logp_topo_t topo = logp_topo_uniform(P, &p);
        topo.shared = 1;
        logp_sched_opts_t o = {0};
        logp_sched_t s;
        double t0 = now();
        if (logp_plan_build(&s, coll, LOGP_ALGO_TWO_TREE, m, &topo, &o) != LOGP_OK) { puts("build failed"); continue; }
        double tb = now() - t0;
        int k = s.parts;
        double full;
        logp_sim_run(&s, 0, 1, NULL, NULL, &full);
        logp_sched_free(&s);
        double best = full; int kbest = k;
        if (grid) {
            int cand[] = {k / 4, k / 2, (k * 3) / 4, k * 5 / 4, k * 3 / 2, 2 * k, 3 * k};
            for (int j = 0; j < 7; j++) {
                if (cand[j] < 1 || cand[j] > 4096 || (size_t)cand[j] > m) continue;
                logp_sched_opts_t oo = {0}; oo.segments = cand[j];
                if (logp_plan_build(&s, coll, LOGP_ALGO_TWO_TREE, m, &topo, &oo) != LOGP_OK) continue;
                double t; logp_sim_run(&s, 0, 1, NULL, NULL, &t);
                logp_sched_free(&s);
                if (t < best) { best = t; kbest = cand[j]; }
            }
        }
        printf("%d %s P=%d m=%zu k=%d full=%.2f bestk=%d best=%.2f ratio=%.4f build_ms=%.1f\n", i, coll == LOGP_COLL_BCAST ? "bcast" : "reduce", P, m, k, full * 1e6, kbest, best * 1e6, full / best, tb * 1e3);
        fflush(stdout);
    }
    return 0;
}
