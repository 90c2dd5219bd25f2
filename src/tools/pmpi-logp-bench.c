/* pmpi-logp-bench: every algorithm of every collective, native included,
 * timed side by side in one run, with the model's prediction.
 *
 *   mpiexec -n P pmpi-logp-bench [--coll bcast|reduce|alltoall|allreduce|alltoallv|all] [--skew K]
 *       [--sizes 8,1024,...] [--iters N] [--tuning FILE] [--transpose]
 *       [--rpn R] [--algos a,b,..] [--network loggp|shared] [--shape radix=R,chunks=C,window=W,segments=S]
 *       [--dispatch [--large-count] [--nonblocking | --persistent]]
 *
 * A time is the mean over iterations of the slowest rank's time for one
 * call (ranks start together after a barrier).  Native is PMPI_*; ours are
 * the library's executors called directly on a private duplicate, so one
 * run compares them all.  The layout (nodes, speeds, intra/inter-node
 * parameters) is found as the shim finds it; --rpn R makes R consecutive
 * ranks one node.  --algos limits the run to some algorithms (native is
 * always run, except under --shape).  --transpose re-runs seed 004's experiment: the
 * all-to-all of a distributed transpose of N x N doubles, N = 1024..4096.
 * Prints the ratio to native: < 1 is faster than the MPI library. */
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../coll/alltoall.h"
#include "../coll/bcast.h"
#include "../coll/engine.h"
#include "../coll/layout.h"
#include "../coll/library.h"
#include "../coll/reduce.h"
#include "../config/config.h"
#include "../config/units.h"
#include "../model/sched.h"
#include "../model/plan.h"
#include "../select/select.h"

static const char logp_bench_usage[] =
    "usage: mpiexec -n P pmpi-logp-bench [options]\n"
    "  every algorithm of every collective, native included, timed side by side in one run\n"
    "  --coll bcast|reduce|alltoall|allreduce|alltoallv|all   collectives (all)\n"
    "  --skew K                           alltoallv: blocks to and from rank 0 K times the others' (1)\n"
    "  --sizes 8,64K,1M                   bytes per call (all-to-all: per block); units B, K, M, G\n"
    "  --iters N                          timed calls per case (20); a call's time is the slowest rank's\n"
    "  --tuning FILE                      parameters (default: $PMPI_LOGP_TUNING, else built-in)\n"
    "  --rpn R                            R consecutive ranks form a node\n"
    "  --algos a,b,..                     only these algorithms (native always runs)\n"
    "  --network loggp|shared             the model's network: LogGP or interfaces that share bandwidth\n"
    "                                     (model/net.h); default: the file's, else shared between nodes;\n"
    "                                     predictions and auto's pick follow it\n"
    "  --shape radix=R,chunks=C,window=W,segments=S  shapes instead of the model's: bruck's radix,\n"
    "                                     chunked-rsg's chunks, linear's window, pipeline's and two-tree's\n"
    "                                     segments (comparing shapes; predictions stay the\n"
    "                                     model's; `model`: the model's own); native is not run\n"
    "  --native-only | --transpose | --pingpong | --csv | --dispatch\n"
    "  --large-count                      --dispatch: call the MPI-4 large-count forms (MPI_Bcast_c ...)\n"
    "  --nonblocking | --persistent       --dispatch: call MPI_Ibcast ... and MPI_Wait, or MPI_Bcast_init ...\n"
    "                                     once per size and MPI_Start + MPI_Wait (PMPI_LOGP_NONBLOCKING=1 set)\n"
    "  --entry                            also time the MPI_* entry point after warm-up calls at every size\n"
    "                                     (2 x 32 each, round robin) and 128 at the size: under the\n"
    "                                     shim, auto's steady state (trials done); median / fastest row\n"
    "  --help\n";

static int g_rank, g_size, g_csv, g_native_only, g_entry;
static const logp_topo_t *g_topo; /* the layout every prediction and plan uses */
static char g_algos[512];        /* --algos: ",a,b," or "" for all */
static logp_sched_opts_t g_shape = {4, 0, 0, 0, 0, 0}; /* --shape: every schedule's options */
static int g_shaped;                                  /* --shape given: native (shapeless) not run */
static double g_gamma;   /* per-byte cost charged by the reduction operator under SMPI */
static MPI_Op g_sum;     /* MPI_SUM, or under SMPI a sum that charges gamma */
static int g_skew = 1;   /* --skew */
static int *g_av_counts; /* alltoallv: counts and displacements, the same both ways */
static logp_alltoallv_t g_av;

#ifdef SMPI_H
/* SMPI charges nothing for predefined operators: give native and ours the
 * same operator, which adds and charges gamma per byte of simulated time. */
static void logp_bench_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((double *)inout)[i] += ((double *)in)[i];
    smpi_execute_benched(g_gamma * (double)*len * sizeof(double));
}
#endif
static logp_scratch_t g_scratch; /* staging reused across calls, as in the shim */

static double logp_bench_host_speed(const char *host, void *cfg)
{
    return logp_config_host_speed(cfg, host);
}

/* One call of `algo` on `comm` (native: PMPI on `user`; auto: the MPI_*
 * entry point on `user`, which is the shim's when it is preloaded or
 * linked). */
static int run_once(logp_coll_t coll, logp_algo_t algo, const logp_view_t *v, void *a, void *b, int count,
                    MPI_Comm user, MPI_Comm comm)
{
    if (algo == LOGP_ALGO_AUTO)
        switch (coll) {
        case LOGP_COLL_BCAST:
            return MPI_Bcast(a, count, MPI_DOUBLE, 0, user);
        case LOGP_COLL_REDUCE:
            return MPI_Reduce(a, b, count, MPI_DOUBLE, g_sum, 0, user);
        case LOGP_COLL_ALLREDUCE:
            return MPI_Allreduce(a, b, count, MPI_DOUBLE, g_sum, user);
        case LOGP_COLL_ALLTOALLV:
            return MPI_Alltoallv(a, g_av.sendcounts, g_av.sdispls, MPI_DOUBLE, b, g_av.recvcounts, g_av.rdispls,
                                 MPI_DOUBLE, user);
        default:
            return MPI_Alltoall(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, user);
        }
    switch (coll) {
    case LOGP_COLL_BCAST:
        return algo == LOGP_ALGO_NATIVE ? PMPI_Bcast(a, count, MPI_DOUBLE, 0, user)
                                        : logp_coll_bcast(a, count, MPI_DOUBLE, comm, LOGP_TAG_FIRST, v, &g_scratch);
    case LOGP_COLL_REDUCE:
        return algo == LOGP_ALGO_NATIVE ? PMPI_Reduce(a, b, count, MPI_DOUBLE, g_sum, 0, user)
                                        : logp_coll_reduce(a, b, count, MPI_DOUBLE, g_sum, comm, LOGP_TAG_FIRST, v, &g_scratch);
    case LOGP_COLL_ALLREDUCE: /* PMPI_Allreduce is the library's here: the bench links no shim (SMPI: the
                                 shim compiled in answers MPI_Allreduce only) */
        return algo == LOGP_ALGO_NATIVE ? PMPI_Allreduce(a, b, count, MPI_DOUBLE, g_sum, user)
                                        : logp_coll_reduce(a, b, count, MPI_DOUBLE, g_sum, comm, LOGP_TAG_FIRST, v, &g_scratch);
    case LOGP_COLL_ALLTOALLV:
        if (algo != LOGP_ALGO_NATIVE && !logp_sched_mixes(algo)) {
            /* what the shim pays before such a schedule: the ranks' vote on the class (shim.c) */
            unsigned long long mine[2] = {(unsigned long long)count, 0}, all[2];
            int rc = PMPI_Allreduce(mine, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, user);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        return algo == LOGP_ALGO_NATIVE ? PMPI_Alltoallv(a, g_av.sendcounts, g_av.sdispls, MPI_DOUBLE, b, g_av.recvcounts,
                                                         g_av.rdispls, MPI_DOUBLE, user)
                                        : logp_coll_alltoallv(a, MPI_DOUBLE, b, MPI_DOUBLE, &g_av,
                                                              (size_t)count * (size_t)g_skew * sizeof(double), comm,
                                                              LOGP_TAG_FIRST, v, &g_scratch); /* every rank knows the largest block */
    default:
        return algo == LOGP_ALGO_NATIVE ? PMPI_Alltoall(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, user)
                                        : logp_coll_alltoall(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, comm, LOGP_TAG_FIRST, v,
                                                             &g_scratch);
    }
}

/* The slowest rank's time per call over the iterations. */
typedef struct {
    double mean, min, median, max;
} logp_bench_stat_t;

static int logp_bench_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Times `iters` calls; each call's time is the slowest rank's.  Under SMPI
 * the clock is global: every rank first waits until one common instant,
 * so the time is exactly "last exit - common start" (no barrier skew). */
static logp_bench_stat_t time_algo(logp_coll_t coll, logp_algo_t algo, const logp_view_t *v, void *a, void *b,
                                   int count, int iters, MPI_Comm comm)
{
    double sum = 0, *all = malloc(sizeof(double) * (size_t)iters);
    logp_bench_stat_t st = {0, 0, 0, 0};
    /* warm-up; through the entry point, enough calls for the shim's trial
     * (at most 15 calls), its agreement point (at most 32 later), and a
     * second trial after a refit of L or G */
    for (int w = 0; w < (algo == LOGP_ALGO_AUTO ? 128 : 1); w++)
        run_once(coll, algo, v, a, b, count, MPI_COMM_WORLD, comm);
    for (int i = 0; i < iters; i++) {
        PMPI_Barrier(MPI_COMM_WORLD);
        double t0 = PMPI_Wtime();
#ifdef SMPI_H
        double start;
        logp_coll_library_allreduce(&t0, &start, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        start += 1e-3; /* later than any rank leaves the allreduce */
        double wait = start - PMPI_Wtime();
        if (wait > 0)
            smpi_execute_benched(wait);
        t0 = start;
#endif
        run_once(coll, algo, v, a, b, count, MPI_COMM_WORLD, comm);
        double t = PMPI_Wtime() - t0, tmax;
        logp_coll_library_allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        sum += tmax;
        if (all)
            all[i] = tmax;
    }
    st.mean = sum / iters;
    if (all) {
        qsort(all, (size_t)iters, sizeof(double), logp_bench_cmp);
        st.min = all[0];
        st.median = all[iters / 2];
        st.max = all[iters - 1];
    }
    free(all);
    return st;
}

/* A case's buffers for `bytes` per call (all-to-all: per block; alltoallv:
 * per block, --skew times that to and from rank 0), the send buffer
 * filled; returns the count of doubles per call (per block). */
static int bench_buffers(logp_coll_t coll, size_t bytes, double **a, double **b)
{
    int count = bytes / sizeof(double) > 0 ? (int)(bytes / sizeof(double)) : 1;
    size_t n = (size_t)count * (logp_coll_exchanges(coll) ? (size_t)g_size : 1);
    if (coll == LOGP_COLL_ALLTOALLV) { /* counts and displacements alike both ways */
        free(g_av_counts);
        g_av_counts = malloc(sizeof(int) * 2 * (size_t)g_size);
        n = 0;
        for (int j = 0; g_av_counts && j < g_size; j++) {
            g_av_counts[j] = count * (g_rank == 0 || j == 0 ? g_skew : 1);
            g_av_counts[g_size + j] = (int)n;
            n += (size_t)g_av_counts[j];
        }
        g_av = (logp_alltoallv_t){g_av_counts, g_av_counts + g_size, g_av_counts, g_av_counts + g_size, 0};
    }
    *a = malloc(n * sizeof(double));
    *b = malloc(n * sizeof(double));
    for (size_t i = 0; *a && i < n; i++)
        (*a)[i] = (double)(g_rank + i % 7);
    return count;
}

/* --entry: before any size is timed, calls the entry point at every size
 * of the list, round robin (2 rounds of 32 calls per size), so that what
 * the trials of one size teach the shim (a refit of L and G decides every
 * class again) reaches the sizes timed before it: the entry rows are then
 * the run's steady state, not the state right after each size's own
 * trials. */
static void warm_entry(logp_coll_t coll, const char *sizes, MPI_Comm comm)
{
    for (int round = 0; round < 2; round++) {
        char list[512], *save = NULL;
        snprintf(list, sizeof list, "%s", sizes);
        for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            size_t m = 8;
            logp_units_bytes(t, &m);
            double *a, *b;
            int count = bench_buffers(coll, m, &a, &b);
            for (int w = 0; a && b && w < 32; w++)
                run_once(coll, LOGP_ALGO_AUTO, NULL, a, b, count, MPI_COMM_WORLD, comm);
            free(a);
            free(b);
        }
    }
}

static void bench(logp_coll_t coll, size_t bytes, int iters, MPI_Comm comm, const char *label)
{
    double *a, *b;
    int count = bench_buffers(coll, bytes, &a, &b);
    double native = 0, times[LOGP_ALGO_COUNT];
    logp_bench_stat_t stats[LOGP_ALGO_COUNT];
    logp_select_query_t q = {coll, (size_t)count * sizeof(double), 1, 0, 4, g_topo, logp_native_lib_default(), NULL, 0,
                             1}; /* alltoallv: every rank passes the same pattern */
    /* predictions on rank 0 only (at P = 1024 in SMPI every rank's model
     * work is host time); the others learn what auto picks */
    double pred_auto = -1.0;
    int chosen = LOGP_ALGO_NATIVE;
    if (g_rank == 0) {
        logp_algo_t a_auto = LOGP_ALGO_NATIVE;
        logp_select_decide(LOGP_ALGO_AUTO, &q, &a_auto, NULL, &pred_auto);
        chosen = (int)a_auto;
    }
    PMPI_Bcast(&chosen, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int alg = 0; alg < LOGP_ALGO_COUNT; alg++) {
        times[alg] = -1;
        char key[64];
        snprintf(key, sizeof key, ",%s,", logp_algo_name((logp_algo_t)alg));
        if (alg == LOGP_ALGO_AUTO || !logp_algo_supports((logp_algo_t)alg, coll) || (alg == LOGP_ALGO_NATIVE && g_shaped) ||
            (alg != LOGP_ALGO_NATIVE && (g_native_only || (g_algos[0] && alg != chosen && !strstr(g_algos, key)))))
            continue;
        logp_sched_t sched;
        logp_view_t view;
        logp_sched_opts_t opts = g_shape;
        double pred = g_rank == 0 ? logp_select_predict((logp_algo_t)alg, &q) : -1.0;
        size_t mine = (size_t)count * sizeof(double); /* alltoallv: the rank's own mean block, as the shim's class */
        int direct = logp_sched_mixes((logp_algo_t)alg);
        if (coll == LOGP_COLL_ALLTOALLV && g_size > 0) /* one that does not mix: rank 0's, the largest (the vote's) */
            mine = mine * (size_t)(g_rank == 0 || !direct ? g_skew : (g_size - 1 + g_skew) / g_size);
        if (alg != LOGP_ALGO_NATIVE &&
            (logp_plan_build(&sched, coll, (logp_algo_t)alg, mine, g_topo, &opts) != LOGP_OK ||
             logp_view_init(&view, &sched, 0, g_rank, 1) != LOGP_OK))
            continue;
        stats[alg] = time_algo(coll, (logp_algo_t)alg, alg == LOGP_ALGO_NATIVE ? NULL : &view, a, b, count, iters, comm);
        double t = stats[alg].mean;
        if (alg == LOGP_ALGO_NATIVE)
            native = t;
        times[alg] = t;
        if (g_rank == 0 && g_csv)
            printf("%d,%s,%zu,%s,%.4f,%.4f\n", g_size, logp_coll_name(coll), (size_t)count * sizeof(double),
                   logp_algo_name((logp_algo_t)alg), t * 1e6, pred * 1e6);
        else if (g_rank == 0)
            printf("%-9s %-10s %10zu %-15s %12.2f %12.2f %10.2f %10.2f %10.2f %10.2f\n", logp_coll_name(coll), label,
                   (size_t)count * sizeof(double), logp_algo_name((logp_algo_t)alg), t * 1e6, pred * 1e6,
                   native > 0 ? t / native : 1.0, stats[alg].min * 1e6, stats[alg].median * 1e6,
                   stats[alg].max * 1e6);
        if (alg != LOGP_ALGO_NATIVE)
            logp_sched_free(&sched);
    }
    /* --entry: the MPI_* entry point after its warm-up (under the shim:
     * auto with its trials done), against the fastest row of this run */
    if (g_entry) {
        logp_bench_stat_t e = time_algo(coll, LOGP_ALGO_AUTO, NULL, a, b, count, iters, comm);
        int best = -1;
        for (int alg = 0; alg < LOGP_ALGO_COUNT; alg++)
            if (times[alg] > 0 && (best < 0 || stats[alg].median < stats[best].median))
                best = alg;
        if (g_rank == 0 && best >= 0)
            printf("%-9s %-10s %10zu %-15s %12.2f %12s %10.2f %10.2f %10.2f %10.2f  median/best %.3f (best %s)\n",
                   logp_coll_name(coll), label, (size_t)count * sizeof(double), "entry", e.mean * 1e6, "-",
                   native > 0 ? e.mean / native : 1.0, e.min * 1e6, e.median * 1e6, e.max * 1e6,
                   e.median / stats[best].median, logp_algo_name((logp_algo_t)best));
    }
    /* what `auto` runs: the chosen algorithm's time from this same run */
    if (g_rank == 0 && times[chosen] >= 0) {
        char name[64];
        snprintf(name, sizeof name, "auto:%s", logp_algo_name(chosen));
        if (g_csv)
            printf("%d,%s,%zu,%s,%.4f,%.4f\n", g_size, logp_coll_name(coll), (size_t)count * sizeof(double), name,
                   times[chosen] * 1e6, pred_auto * 1e6);
        else
            printf("%-9s %-10s %10zu %-15s %12.2f %12.2f %10.2f %10.2f %10.2f %10.2f\n", logp_coll_name(coll), label,
                   (size_t)count * sizeof(double), name, times[chosen] * 1e6, pred_auto * 1e6,
                   native > 0 ? times[chosen] / native : 1.0, stats[chosen].min * 1e6, stats[chosen].median * 1e6,
                   stats[chosen].max * 1e6);
    }
    free(a);
    free(b);
}

/* --shape KEY=N,..: radix, chunks, window, segments into *o ("model": the model's
 * own); NULL or what is wrong. */
static const char *bench_shape(const char *arg, logp_sched_opts_t *o)
{
    char buf[128];
    if (strcmp(arg, "model") == 0)
        return NULL;
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        long n;
        if (eq == NULL || logp_units_count(eq + 1, 1, 1 << 20, &n) != LOGP_OK)
            return "--shape: expected radix=R, chunks=C, window=W or segments=S (integers >= 1), comma-separated";
        *eq = '\0';
        if (strcmp(kv, "radix") == 0)
            o->radix = (int)n;
        else if (strcmp(kv, "chunks") == 0)
            o->chunks = (int)n;
        else if (strcmp(kv, "window") == 0)
            o->window = (int)n;
        else if (strcmp(kv, "segments") == 0)
            o->segments = (int)n;
        else
            return "--shape: expected radix=R, chunks=C, window=W or segments=S (integers >= 1), comma-separated";
    }
    return NULL;
}

/* Half round trip of m bytes between ranks 0 and `peer`, in us (model check). */
static double bench_pingpong(int m, int iters, int peer)
{
    char *buf = calloc(1, (size_t)m + 1);
    PMPI_Barrier(MPI_COMM_WORLD);
    double t0 = PMPI_Wtime();
    for (int i = 0; i < iters && g_size > 1; i++) {
        if (g_rank == 0) {
            PMPI_Send(buf, m, MPI_BYTE, peer, 9, MPI_COMM_WORLD);
            PMPI_Recv(buf, m, MPI_BYTE, peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (g_rank == peer) {
            PMPI_Recv(buf, m, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            PMPI_Send(buf, m, MPI_BYTE, 0, 9, MPI_COMM_WORLD);
        }
    }
    free(buf);
    return (PMPI_Wtime() - t0) / iters / 2 * 1e6;
}

/* --dispatch: the shim's own work per call (it must be preloaded or linked:
 * the calls below are MPI_*, which the shim answers; it prints the
 * `dispatch ...` lines at the end, see src/shim/dispatch.h).  Each
 * collective is called with 256 distinct sizes, 8 B to 64 KiB (all-to-all
 * blocks: up to 64 KiB / P), the root rotating, `rounds` times, through
 * entry point `form` (0 blocking, 1 nonblocking + MPI_Wait, 2 persistent:
 * each size's request made once, then MPI_Start + MPI_Wait), with int
 * counts or (`large_count`) MPI_Count ones.  Persistent roots stay those
 * of the first round. */
#if MPI_VERSION >= 4
#define BENCH_LARGE(name) name##_c
typedef MPI_Count bench_count_t;
#else
#define BENCH_LARGE(name) name /* no large-count calls: the int ones (a note says so) */
typedef int bench_count_t;
#endif
#define BENCH_CALL(large, name, ...) ((large) ? BENCH_LARGE(name)(__VA_ARGS__) : name(__VA_ARGS__))

/* One call of collective c at one size through `form`; *req: the size's
 * persistent request (made at its first call). */
static void bench_dispatch_call(int c, int form, int large, double *a, double *b, bench_count_t count,
                                bench_count_t block, int root, MPI_Request *req)
{
    MPI_Request r = MPI_REQUEST_NULL;
    if (form == 2 && *req != MPI_REQUEST_NULL) {
        MPI_Start(req);
        MPI_Wait(req, MPI_STATUS_IGNORE);
        return;
    }
    MPI_Request *to = form == 2 ? req : &r;
    switch (c) {
    case LOGP_COLL_BCAST:
        if (form == 0)
            BENCH_CALL(large, MPI_Bcast, a, count, MPI_DOUBLE, root, MPI_COMM_WORLD);
        else if (form == 1)
            BENCH_CALL(large, MPI_Ibcast, a, count, MPI_DOUBLE, root, MPI_COMM_WORLD, to);
#if MPI_VERSION >= 4
        else
            BENCH_CALL(large, MPI_Bcast_init, a, count, MPI_DOUBLE, root, MPI_COMM_WORLD, MPI_INFO_NULL, to);
#endif
        break;
    case LOGP_COLL_REDUCE:
        if (form == 0)
            BENCH_CALL(large, MPI_Reduce, a, b, count, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
        else if (form == 1)
            BENCH_CALL(large, MPI_Ireduce, a, b, count, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD, to);
#if MPI_VERSION >= 4
        else
            BENCH_CALL(large, MPI_Reduce_init, a, b, count, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                       to);
#endif
        break;
    case LOGP_COLL_ALLTOALL:
        if (form == 0)
            BENCH_CALL(large, MPI_Alltoall, a, block, MPI_DOUBLE, b, block, MPI_DOUBLE, MPI_COMM_WORLD);
        else if (form == 1)
            BENCH_CALL(large, MPI_Ialltoall, a, block, MPI_DOUBLE, b, block, MPI_DOUBLE, MPI_COMM_WORLD, to);
#if MPI_VERSION >= 4
        else
            BENCH_CALL(large, MPI_Alltoall_init, a, block, MPI_DOUBLE, b, block, MPI_DOUBLE, MPI_COMM_WORLD,
                       MPI_INFO_NULL, to);
#endif
        break;
    case LOGP_COLL_ALLREDUCE:
        if (form == 0)
            BENCH_CALL(large, MPI_Allreduce, a, b, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else if (form == 1)
            BENCH_CALL(large, MPI_Iallreduce, a, b, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, to);
#if MPI_VERSION >= 4
        else
            BENCH_CALL(large, MPI_Allreduce_init, a, b, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, to);
#endif
        break;
    default:
        return;
    }
    if (form == 1)
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    else if (form == 2 && *req != MPI_REQUEST_NULL) /* made: its first start */
        bench_dispatch_call(c, form, large, a, b, count, block, root, req);
}

static void bench_dispatch(int rounds, const char *which, int large_count, int form)
{
#if MPI_VERSION < 4
    if ((large_count || form == 2) && g_rank == 0)
        fprintf(stderr, "pmpi-logp-bench: --large-count, --persistent: this MPI has neither; blocking int calls used\n");
    form = form == 2 ? 0 : form;
#endif
    int on[LOGP_COLL_COUNT];
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        on[c] = strcmp(which, "all") == 0 || strcmp(which, logp_coll_name((logp_coll_t)c)) == 0;
    size_t sizes[256];
    for (int i = 0; i < 256; i++) { /* geometric, then nudged apart: 256 distinct counts of doubles */
        size_t b = (size_t)(8.0 * pow(8192.0, i / 255.0)) & ~(size_t)7;
        sizes[i] = i > 0 && b <= sizes[i - 1] ? sizes[i - 1] + 8 : b;
    }
    size_t a2a_max = (size_t)65536 / (size_t)g_size;
    double *a = calloc((size_t)65536 / 8 + (size_t)g_size, sizeof(double));
    double *b = calloc((size_t)65536 / 8 + (size_t)g_size, sizeof(double));
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * 256 * LOGP_COLL_COUNT);
    for (int i = 0; i < 256 * LOGP_COLL_COUNT; i++)
        reqs[i] = MPI_REQUEST_NULL;
    /* a blocking collective sets the communicator up for the shim's engine
     * (a nonblocking call never does: it may not synchronize) */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int round = 0; round < rounds; round++)
        for (int i = 0; i < 256; i++) {
            int count = (int)(sizes[i] / 8), root = (round * 256 + i) % g_size;
            int block = (int)((sizes[i] < a2a_max ? sizes[i] : a2a_max) / 8);
            block = block > 0 ? block : 1;
            for (int c = 0; c < LOGP_COLL_COUNT; c++)
                if (on[c] && c != LOGP_COLL_ALLTOALLV)
                    bench_dispatch_call(c, form, large_count, a, b, count, block, root, &reqs[i * LOGP_COLL_COUNT + c]);
        }
    for (int i = 0; i < 256 * LOGP_COLL_COUNT; i++)
        if (reqs[i] != MPI_REQUEST_NULL)
            MPI_Request_free(&reqs[i]);
    free(reqs);
    free(a);
    free(b);
    if (g_rank == 0)
        printf("# dispatch: %d calls of each collective; the shim prints its timing at MPI_Finalize\n", rounds * 256);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) /* the shim reads it at MPI_Init */
        if (strcmp(argv[i], "--dispatch") == 0)
            setenv("PMPI_LOGP_DISPATCH", "1", 1);
        else if (strcmp(argv[i], "--nonblocking") == 0 || strcmp(argv[i], "--persistent") == 0)
            setenv("PMPI_LOGP_NONBLOCKING", "1", 0); /* the shim's engine, unless the user says otherwise */
    MPI_Init(&argc, &argv);
    /* the schedules wait as the shim's would (PMPI_LOGP_WAIT, state.c) */
    int wait = logp_engine_wait_setting(getenv("PMPI_LOGP_WAIT"));
    logp_engine_set_yielding(wait == 1 || (wait < 0 && logp_layout_oversubscribed(0)));
    PMPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &g_size);
    const char *which = "all", *tuning = NULL;
    char sizes[512] = "8,1024,65536,1048576";
    int iters = 20, transpose = 0, pingpong = 0, native_only = 0, rpn = 0, dispatch = 0, shared = -1, large_count = 0,
        form = 0;
    for (int i = 1; i < argc; i++) {
        const char *bad = NULL;
        long n = 0;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            if (g_rank == 0)
                printf("%s", logp_bench_usage);
            PMPI_Finalize();
            return 0;
        } else if (strcmp(argv[i], "--coll") == 0 && i + 1 < argc) {
            which = argv[++i];
            int known = strcmp(which, "all") == 0;
            for (int c = 0; c < LOGP_COLL_COUNT; c++)
                known |= strcmp(which, logp_coll_name((logp_coll_t)c)) == 0;
            if (!known)
                bad = "--coll: expected bcast, reduce, alltoall, allreduce, alltoallv or all";
        } else if (strcmp(argv[i], "--skew") == 0 && i + 1 < argc) {
            g_skew = atoi(argv[++i]);
            if (g_skew < 1 || g_skew > 1000)
                bad = "--skew: expected an integer 1..1000";
        } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            snprintf(sizes, sizeof sizes, "%s", argv[++i]);
            char list[512], *save = NULL;
            size_t m;
            snprintf(list, sizeof list, "%s", sizes);
            for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
                if (logp_units_bytes(t, &m) != LOGP_OK || m > (size_t)1 << 30)
                    bad = "--sizes: expected byte counts up to 1G separated by commas (8,64K,1M)";
        } else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc) {
            if (logp_units_count(argv[++i], 1, 1000000, &n) == LOGP_OK)
                iters = (int)n;
            else
                bad = "--iters: expected an integer 1..1000000";
        }
        else if (strcmp(argv[i], "--tuning") == 0 && i + 1 < argc)
            tuning = argv[++i];
        else if (strcmp(argv[i], "--transpose") == 0)
            transpose = 1;
        else if (strcmp(argv[i], "--csv") == 0)
            g_csv = 1;
        else if (strcmp(argv[i], "--pingpong") == 0)
            pingpong = 1;
        else if (strcmp(argv[i], "--dispatch") == 0)
            dispatch = 1;
        else if (strcmp(argv[i], "--entry") == 0)
            g_entry = 1;
        else if (strcmp(argv[i], "--large-count") == 0)
            large_count = 1;
        else if (strcmp(argv[i], "--nonblocking") == 0)
            form = 1;
        else if (strcmp(argv[i], "--persistent") == 0)
            form = 2;
        else if (strcmp(argv[i], "--native-only") == 0)
            native_only = 1;
        else if (strcmp(argv[i], "--rpn") == 0 && i + 1 < argc) {
            if (logp_units_count(argv[++i], 1, INT_MAX, &n) == LOGP_OK)
                rpn = (int)n;
            else
                bad = "--rpn: expected an integer >= 1";
        } else if (strcmp(argv[i], "--algos") == 0 && i + 1 < argc)
            snprintf(g_algos, sizeof g_algos, ",%s,", argv[++i]);
        else if (strcmp(argv[i], "--network") == 0 && i + 1 < argc) {
            shared = strcmp(argv[++i], "shared") == 0;
            if (!shared && strcmp(argv[i], "loggp") != 0)
                bad = "--network: expected loggp or shared";
        } else if (strcmp(argv[i], "--shape") == 0 && i + 1 < argc) {
            bad = bench_shape(argv[++i], &g_shape);
            g_shaped = 1;
        } else
            bad = "unknown option or missing value";
        if (bad) {
            if (g_rank == 0)
                fprintf(stderr, "pmpi-logp-bench: %s: %s (see pmpi-logp-bench --help)\n", argv[i], bad);
            PMPI_Finalize();
            return 2;
        }
    }
    if (tuning == NULL) /* the file the shim would read */
        tuning = getenv("PMPI_LOGP_TUNING") && *getenv("PMPI_LOGP_TUNING") ? getenv("PMPI_LOGP_TUNING") : NULL;
    if (dispatch) {
        bench_dispatch(iters, which, large_count, form);
        MPI_Finalize();
        return 0;
    }
    logp_config_t cfg = {0};
    char err[640];
    if (tuning && logp_config_load(&cfg, tuning, err, sizeof err) != LOGP_OK) {
        if (g_rank == 0)
            fprintf(stderr, "pmpi-logp-bench: %s\n", err);
        PMPI_Finalize();
        return 1;
    }
    /* as the shim: both pair classes, then the layout says which one
     * stands for the communicator */
    logp_comm_facts_t facts = {g_size, "MPI_COMM_WORLD", 1};
    logp_resolved_t r, r_inter;
    logp_config_resolve(&cfg, &facts, &r);
    facts.intra_node = 0;
    logp_config_resolve(&cfg, &facts, &r_inter);
    MPI_Comm comm;
    PMPI_Comm_dup(MPI_COMM_WORLD, &comm);
    logp_topo_t topo;
    logp_layout_discover(comm, g_rank, rpn > 0 ? rpn : r_inter.ranks_per_node, logp_bench_host_speed, &cfg, &r.params,
                         &r_inter.params, &topo);
    g_topo = &topo;
    if (topo.nnodes > 1)
        r = r_inter;
    topo.shared = shared >= 0 ? shared : r.shared; /* predictions (and auto): --network, else the file's or built-in */
    g_gamma = r.params.gamma;
    g_sum = MPI_SUM;
#ifdef SMPI_H
    PMPI_Op_create(logp_bench_sum, 1, &g_sum);
#endif
    g_native_only = native_only;
    if (pingpong) {
        /* rank 1 and, when there is one, the first rank on another node */
        int peers[2] = {1, -1};
        for (int q = 1; q < g_size && peers[1] < 0; q++)
            if (logp_topo_node(&topo, q) != logp_topo_node(&topo, 0))
                peers[1] = q;
        if (peers[1] >= 0 && logp_topo_node(&topo, 1) != logp_topo_node(&topo, 0))
            peers[1] = -1; /* rank 1 is already on another node */
        const int ms[3] = {8, 65536, 1048576};
        for (int k = 0; k < 2 && g_size > 1; k++) {
            if (peers[k] < 0)
                continue;
            const logp_params_t *pp = logp_topo_pair(&topo, 0, peers[k]);
            for (int i = 0; i < 3; i++) {
                double t = bench_pingpong(ms[i], 20, peers[k]);
                if (g_rank == 0)
                    printf("pingpong %d B: half round trip %.4f us, model 2o + L + (m-1)G = %.4f us (ranks 0-%d, %s)\n",
                           ms[i], t, logp_params_p2p(pp, (size_t)ms[i]) * 1e6, peers[k],
                           pp == &topo.intra ? "same node" : "different nodes");
            }
        }
        logp_topo_free(&topo);
        PMPI_Comm_free(&comm);
        PMPI_Finalize();
        return 0;
    }
    if (g_rank == 0 && g_csv) {
        printf("P,coll,bytes,variant,measured_us,predicted_us\n");
    } else if (g_rank == 0) {
        printf("# pmpi-logp-bench: P=%d, %d iterations, model L=%gus o=%gus g=%gus G=%gns/B gamma=%gns/B (%s)\n",
               g_size, iters, r.params.L * 1e6, r.params.o * 1e6, r.params.g * 1e6, r.params.G * 1e9,
               r.params.gamma * 1e9, tuning ? tuning : "built-in");
        if (topo.nnodes > 1)
            printf("# %d nodes; same-node pairs L=%gus o=%gus g=%gus G=%gns/B\n", topo.nnodes, topo.intra.L * 1e6,
                   topo.intra.o * 1e6, topo.intra.g * 1e6, topo.intra.G * 1e9);
        printf("# time of a call: the slowest rank's; measured: mean over iterations (then min, median, max);"
               " vs_native: mean / native mean\n");
        printf("%-9s %-10s %10s %-15s %12s %12s %10s %10s %10s %10s\n", "coll", "case", "bytes", "algorithm",
               "measured_us", "predicted_us", "vs_native", "min_us", "median_us", "max_us");
    }
    if (transpose) {
        /* seed 004: N x N doubles distributed by columns; the transpose moves
         * an (N/P) x (N/P) block to every rank */
        for (int N = 1024; N <= 4096; N *= 2) {
            char label[32];
            snprintf(label, sizeof label, "T%d", N);
            size_t blk = (size_t)(N / g_size) * (size_t)(N / g_size) * sizeof(double);
            bench(LOGP_COLL_ALLTOALL, blk, iters, comm, label);
        }
    } else {
        for (int c = 0; c < LOGP_COLL_COUNT; c++) {
            if (strcmp(which, "all") != 0 && strcmp(which, logp_coll_name((logp_coll_t)c)) != 0)
                continue;
            char list[512], *save = NULL;
            snprintf(list, sizeof list, "%s", sizes);
            if (g_entry)
                warm_entry((logp_coll_t)c, sizes, comm);
            for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                size_t m = 8;
                logp_units_bytes(t, &m); /* checked above */
                bench((logp_coll_t)c, m, iters, comm, "-");
            }
        }
    }
    logp_topo_free(&topo);
    PMPI_Comm_free(&comm);
    logp_scratch_free(&g_scratch);
    logp_config_free(&cfg);
    PMPI_Finalize();
    return 0;
}
