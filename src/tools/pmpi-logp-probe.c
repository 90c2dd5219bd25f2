/* pmpi-logp-probe: measure L, o, g, G and gamma on this machine and write a
 * tuning file.
 *
 *   mpiexec -n 2 pmpi-logp-probe [--out FILE] [--reps N]
 *
 * Methods (after Culler et al., "LogP performance assessment of fast network
 * interfaces", and Kielmann et al., "Fast measurement of LogP parameters for
 * message passing platforms"), between rank 0 and a partner (rank 1 for a
 * pair on one node; the first rank on another node, if any, for
 * [inter-node]):
 *   o_s   time of one small eager MPI_Send at the sender;
 *   o_r   time of MPI_Recv of a small message that has already arrived
 *         (the receiver waits well past its arrival first);
 *   o     (o_s + o_r) / 2;
 *   g     time per message of a long train of small sends, each followed
 *         by nothing (saturation: the sender's steady-state gap);
 *   L     round trip / 2 - 2o (small messages; clamped at 0);
 *   G     slope of the round trip between 64 KiB and 1 MiB, / 2 (written
 *         clamped at 0, as every value);
 *   gamma MPI_Reduce_local(MPI_SUM) on 1 MiB of doubles, per byte;
 *   copy  memcpy of 16 MiB, per byte (local copies of packing schedules).
 * Each quantity is the median of --reps repetitions (default 7), each the
 * median (g: the mean) of many iterations; the spread printed is
 * (max - min) / median over the repetitions.  While L or o spread more than
 * 20%, the repetitions double (at most three rounds, 64 repetitions).
 * Real clusters need pairs on different nodes for [inter-node]. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SMALL 8

static int g_rank, g_size, g_reps = 7;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    double median, spread;
} stat_t;

static stat_t summarize(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    stat_t s = {v[n / 2], v[n / 2] > 0 ? (v[n - 1] - v[0]) / v[n / 2] : 0};
    return s;
}

/* Median of n samples (sorts them). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* Round trip of m bytes between rank 0 and `peer`: the median of iters
 * round trips (medians resist the scheduler's interruptions). */
static double pingpong(int peer, char *buf, int m, int iters)
{
    double *v = malloc(sizeof(double) * (size_t)iters), t = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters; i++) {
        if (g_rank == 0) {
            double s = MPI_Wtime();
            MPI_Send(buf, m, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, m, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            v[i] = MPI_Wtime() - s;
        } else if (g_rank == peer) {
            MPI_Recv(buf, m, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, m, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    if (g_rank == 0)
        t = median(v, iters);
    free(v);
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t;
}

/* Sender overhead and gap: a train of n small sends, each timed (o_s: the
 * median send; g: the train's time per message, the steady-state gap). */
static void send_train(int peer, char *buf, int n, double *os, double *g)
{
    double *v = malloc(sizeof(double) * (size_t)n);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (g_rank == 0) {
        for (int i = 0; i < n; i++) {
            double s = MPI_Wtime();
            MPI_Send(buf, SMALL, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
            v[i] = MPI_Wtime() - s;
        }
        *g = (MPI_Wtime() - t0) / n;
        *os = median(v, n);
        MPI_Recv(buf, 1, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (g_rank == peer) {
        for (int i = 0; i < n; i++)
            MPI_Recv(buf, SMALL, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, 1, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
    }
    free(v);
    MPI_Bcast(os, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(g, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* Receiver overhead: the peer sends; rank 0 waits long enough for it to
 * arrive (ten round trips), then times MPI_Recv alone. */
static double recv_overhead(int peer, char *buf, double rtt, int iters)
{
    double *v = calloc((size_t)iters, sizeof(double)), t = 0;
    for (int i = 0; i < iters; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (g_rank == peer)
            MPI_Send(buf, SMALL, MPI_BYTE, 0, 4, MPI_COMM_WORLD);
        else if (g_rank == 0) {
            double until = MPI_Wtime() + 10 * rtt + 5e-6;
            while (MPI_Wtime() < until)
                ;
            double s = MPI_Wtime();
            MPI_Recv(buf, SMALL, MPI_BYTE, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            v[i] = MPI_Wtime() - s;
        }
    }
    if (g_rank == 0)
        t = median(v, iters);
    free(v);
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t;
}

typedef struct {
    stat_t L, o, g, G;
} pair_t;

static pair_t measure_pair_once(int peer, char *buf)
{
    double L[64], o[64], g[64], G[64];
    for (int r = 0; r < g_reps; r++) {
        double rtt = pingpong(peer, buf, SMALL, 1000);
        double os, gg;
        send_train(peer, buf, 2000, &os, &gg);
        double orr = recv_overhead(peer, buf, rtt, 200);
        double big = pingpong(peer, buf, 1 << 20, 20), mid = pingpong(peer, buf, 1 << 16, 100);
        o[r] = (os + orr) / 2;
        g[r] = gg > o[r] ? gg : o[r];
        L[r] = rtt / 2 - 2 * o[r] > 0 ? rtt / 2 - 2 * o[r] : 0;
        G[r] = (big - mid) / 2 / (double)((1 << 20) - (1 << 16));
    }
    pair_t p = {summarize(L, g_reps), summarize(o, g_reps), summarize(g, g_reps), summarize(G, g_reps)};
    return p;
}

/* Repeats until L and o are stable (spread <= 20%), doubling the
 * repetitions, at most three rounds; the last round is reported. */
static pair_t measure_pair(int peer, char *buf)
{
    pair_t p = measure_pair_once(peer, buf);
    for (int round = 1; round < 3 && (p.L.spread > 0.2 || p.o.spread > 0.2) && g_reps < 64; round++) {
        g_reps = g_reps * 2 > 64 ? 64 : g_reps * 2;
        p = measure_pair_once(peer, buf);
    }
    return p;
}

static stat_t measure_gamma(void)
{
    int n = (1 << 20) / (int)sizeof(double);
    double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n), v[64];
    for (int i = 0; i < n; i++)
        a[i] = b[i] = 1.0;
    for (int r = 0; r < g_reps; r++) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < 10; i++)
            MPI_Reduce_local(a, b, n, MPI_DOUBLE, MPI_SUM);
        v[r] = (MPI_Wtime() - t0) / 10 / (double)(1 << 20);
    }
    free(a);
    free(b);
    return summarize(v, g_reps);
}

/* copy: memcpy of 16 MiB, per byte: the packing of large all-to-all
 * blocks (Bruck's kind), whose buffers outgrow the caches, is what the
 * model charges it for (model/params.h). */
static stat_t measure_copy(void)
{
    size_t n = (size_t)16 << 20;
    char *a = malloc(n), *b = malloc(n);
    double v[64];
    if (a == NULL || b == NULL) {
        free(a);
        free(b);
        stat_t none = {0.0, 0.0};
        return none;
    }
    memset(a, 1, n);
    memset(b, 2, n);
    for (int r = 0; r < g_reps; r++) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < 4; i++)
            memcpy(i % 2 ? a : b, i % 2 ? b : a, n);
        v[r] = (MPI_Wtime() - t0) / 4 / (double)n;
    }
    free(a);
    free(b);
    return summarize(v, g_reps);
}

/* Spreads above this are marked: the value is not to be trusted. */
#define LOGP_PROBE_SPREAD_WARN 0.5

/* One "key = value  # spread" line, marked (in the file and on stderr)
 * when the spread is large or the value hit the clamp at 0. */
static int write_value(FILE *f, const char *section, const char *key, const stat_t *v, double scale,
                       const char *unit)
{
    /* a cost is never negative; a difference or a slope of noisy times can be (L: round trip / 2 - 2o; G) */
    double x = v->median > 0.0 ? v->median : 0.0;
    const char *why = v->median <= 0.0 ? "clamped at 0 (measured <= 0: the machine is too noisy, or for L o is "
                                         "overestimated); set it by hand"
                      : v->spread > LOGP_PROBE_SPREAD_WARN ? "spread over 50%: re-run on a quiet machine or with "
                                                             "more --reps"
                                                           : NULL;
    fprintf(f, "%s = %.4g%s  # spread %.0f%%%s%s\n", key, x * scale, unit, v->spread * 100,
            why ? "  WARNING: " : "", why ? why : "");
    if (why)
        fprintf(stderr, "pmpi-logp-probe: warning: [%s] %s = %.4g%s: %s\n", section, key, v->median * scale, unit, why);
    return why != NULL;
}

static int write_section(FILE *f, const char *name, const pair_t *p, const stat_t *gamma, const stat_t *copy)
{
    fprintf(f, "[%s]\n", name);
    int warned = write_value(f, name, "L", &p->L, 1e6, "us");
    warned += write_value(f, name, "o", &p->o, 1e6, "us");
    warned += write_value(f, name, "g", &p->g, 1e6, "us");
    warned += write_value(f, name, "G", &p->G, 1e9, "ns/B");
    if (gamma)
        warned += write_value(f, name, "gamma", gamma, 1e9, "ns/B");
    if (copy)
        warned += write_value(f, name, "copy", copy, 1e9, "ns/B");
    return warned;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    for (int i = 1; i < argc; i++) {
        const char *bad = NULL;
        char *end = NULL;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            if (g_rank == 0)
                printf("usage: mpiexec -n 2 pmpi-logp-probe [--out FILE] [--reps N]\n"
                       "  measures L, o, g, G (rank 0 with a rank on its node and, if any, one on another\n"
                       "  node) and gamma, and writes a tuning file (standard output without --out).\n"
                       "  --reps N   repetitions per quantity, 3..64 (7); doubled while L or o spread > 20%%\n"
                       "  Values whose spread exceeds 50%% or that hit a clamp are marked WARNING.\n");
            MPI_Finalize();
            return 0;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            long r = strtol(argv[++i], &end, 10);
            if (*end != '\0' || end == argv[i] || r < 3 || r > 64)
                bad = "--reps: expected an integer 3..64";
            else
                g_reps = (int)r;
        } else {
            bad = "unknown option or missing value";
        }
        if (bad) {
            if (g_rank == 0)
                fprintf(stderr, "pmpi-logp-probe: %s: %s (see pmpi-logp-probe --help)\n", argv[i], bad);
            MPI_Finalize();
            return 2;
        }
    }
    if (g_size < 2) {
        if (g_rank == 0)
            fprintf(stderr, "pmpi-logp-probe: needs at least 2 ranks (mpiexec -n 2 ...)\n");
        MPI_Finalize();
        return 2;
    }
    /* node of every rank: same node as rank 0 or not */
    MPI_Comm node;
    int nrank, *same = malloc(sizeof(int) * (size_t)g_size), mine;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &nrank);
    int leader = g_rank;
    MPI_Bcast(&leader, 1, MPI_INT, 0, node); /* world rank of my node's first rank */
    mine = leader;
    MPI_Allgather(&mine, 1, MPI_INT, same, 1, MPI_INT, MPI_COMM_WORLD);
    int intra = -1, inter = -1;
    for (int r = 1; r < g_size; r++) {
        if (same[r] == same[0] && intra < 0)
            intra = r;
        if (same[r] != same[0] && inter < 0)
            inter = r;
    }
    char *buf = calloc(1, 1 << 20);
    pair_t pi, pe;
    memset(&pi, 0, sizeof pi);
    memset(&pe, 0, sizeof pe);
    if (intra > 0)
        pi = measure_pair(intra, buf);
    if (inter > 0)
        pe = measure_pair(inter, buf);
    stat_t gamma = measure_gamma(), copy = {0.0, 0.0};
    MPI_Barrier(MPI_COMM_WORLD);
    if (g_rank == 0) /* alone: the other ranks' copies would share the memory bandwidth */
        copy = measure_copy();
    MPI_Barrier(MPI_COMM_WORLD);
    if (g_rank == 0) {
        FILE *f = out ? fopen(out, "w") : stdout;
        if (f == NULL) {
            perror(out);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        fprintf(f, "# written by pmpi-logp-probe (%d ranks, %d repetitions; spread = (max - min) / median)\n",
                g_size, g_reps);
        const pair_t *d = inter > 0 ? &pe : &pi;
        int warned = write_section(f, "default", d, &gamma, &copy);
        if (intra > 0 && inter > 0) {
            warned += write_section(f, "intra-node", &pi, NULL, NULL);
            warned += write_section(f, "inter-node", &pe, NULL, NULL);
        } else {
            fprintf(f, "# only %s pairs were available\n", inter > 0 ? "inter-node" : "intra-node");
        }
        if (f != stdout) {
            fclose(f);
            printf("pmpi-logp-probe: wrote %s%s\n", out, warned ? " (with warnings: see the WARNING comments)" : "");
        }
    }
    free(buf);
    free(same);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return 0;
}
