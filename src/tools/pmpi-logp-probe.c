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
 *   L     round trip / 2 - 2o - (m - 1) G (small messages of m bytes;
 *         clamped at 0);
 *   G     slope of the round trip between 64 KiB and 1 MiB, / 2 (written
 *         clamped at 0, as every value);
 *   gamma MPI_Reduce_local(MPI_SUM) on 1 MiB of doubles, per byte;
 *   copy  memcpy of 16 MiB, per byte (local copies of packing schedules);
 *   fresh memset of 16 MiB just mapped, less memset of 16 MiB already
 *         touched, per byte (the page faults of buffers an MPI library
 *         gets back from the kernel at every call);
 *   network  with 3 ranks or more: k = 2..4 ranks (on other nodes if any)
 *         send 4 MiB each to rank 0 at once.  If the transfers slowed each
 *         other (the last ended after more than half of k - 1 extra
 *         transfers' time) and ended together (the first after more than
 *         half of that delay), they share the interface: `shared`
 *         (model/net.h); if they passed one at a time (the first ended as
 *         if alone) or did not slow each other, `loggp`.
 * Each quantity is the median of --reps repetitions (default 7), each the
 * median (g: the mean) of many iterations; the spread printed is
 * (max - min) / median over the repetitions.  While L or o spread more than
 * 20%, the repetitions double (at most three rounds, 64 repetitions).
 * Real clusters need pairs on different nodes for [inter-node]. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

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
#ifdef SMPI_H /* a simulated clock moves only when the rank sleeps or communicates */
            struct timespec wait = {0, (long)((10 * rtt + 5e-6) * 1e9)};
            nanosleep(&wait, NULL);
#else
            double until = MPI_Wtime() + 10 * rtt + 5e-6;
            while (MPI_Wtime() < until)
                ;
#endif
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
        G[r] = (big - mid) / 2 / (double)((1 << 20) - (1 << 16));
        /* a message of m bytes: 2o + L + (m - 1) G (model/params.h) */
        double lat = rtt / 2 - 2 * o[r] - (SMALL - 1) * (G[r] > 0 ? G[r] : 0);
        L[r] = lat > 0 ? lat : 0;
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

/* fresh: what the first touch of newly mapped memory costs beyond writing
 * it (page faults, the kernel's zeroing), per byte: what MPICH's large
 * reduce pays for the buffers it allocates at every call
 * (select/native.c).  The pages come from mmap itself, as glibc's do
 * above its thresholds. */
static stat_t measure_fresh(void)
{
    size_t n = (size_t)16 << 20;
    char *warm = malloc(n);
    double v[64];
    stat_t none = {0.0, 0.0};
    if (warm == NULL)
        return none;
    memset(warm, 1, n);
    int r = 0;
    for (; r < g_reps; r++) {
        void *map = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (map == MAP_FAILED) /* out of address space: what was measured so far */
            break;
        double t0 = MPI_Wtime();
        memset(map, r + 2, n);
        double t1 = MPI_Wtime();
        memset(warm, r + 2, n);
        double t2 = MPI_Wtime();
        munmap(map, n);
        v[r] = ((t1 - t0) - (t2 - t1)) / (double)n;
    }
    free(warm);
    return r > 0 ? summarize(v, r) : none;
}

/* The sharing test: its message is long enough that its bytes, not the
 * latency, fix its time on any network the model targets (4 MiB at G =
 * 0.02 ns/B: 84 us), and at most this many senders. */
#define LOGP_PROBE_SHARE_BYTES (4 << 20)
#define LOGP_PROBE_SHARE_MAX 4

/* The ranks that send to rank 0 at once (up to LOGP_PROBE_SHARE_MAX, in
 * who[]): one per other node first, then other ranks off rank 0's node,
 * and on a single node the others on it; same[r] is rank r's node
 * leader.  Every rank computes the same list.  Returns their count. */
static int sharing_senders(const int *same, int *who)
{
    int k = 0, off_any = 0;
    for (int r = 1; r < g_size; r++)
        off_any |= same[r] != same[0];
    for (int pass = 0; pass < 2; pass++)
        for (int r = 1; r < g_size && k < LOGP_PROBE_SHARE_MAX; r++) {
            int off = same[r] != same[0], taken = 0;
            int want = off_any ? off && (pass == 1 || same[r] == r) : pass == 0;
            for (int i = 0; i < k; i++)
                taken |= who[i] == r;
            if (want && !taken)
                who[k++] = r;
        }
    return k;
}

/* One incast: after a barrier, who[0..k-1] each send `bytes` to rank 0,
 * which has posted their receives before it; rank 0's completion times
 * since its barrier, ascending, in t[0..k-1] (rank 0 only). */
static void incast(const int *who, int k, char **bufs, int bytes, double *t)
{
    MPI_Request req[LOGP_PROBE_SHARE_MAX];
    int sender = 0;
    for (int i = 0; i < k; i++) {
        sender |= who[i] == g_rank;
        if (g_rank == 0)
            MPI_Irecv(bufs[i], bytes, MPI_BYTE, who[i], 5, MPI_COMM_WORLD, &req[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (sender)
        MPI_Send(bufs[0], bytes, MPI_BYTE, 0, 5, MPI_COMM_WORLD);
    for (int n = 0; g_rank == 0 && n < k; n++) {
        int idx;
        MPI_Waitany(k, req, &idx, MPI_STATUS_IGNORE);
        t[n] = MPI_Wtime() - t0;
    }
}

typedef struct {
    int k;               /* senders (0: not measured, fewer than 3 ranks) */
    int off_node;        /* the senders are on other nodes than rank 0 */
    stat_t slowed;       /* (last - alone) / ((k - 1) (alone - latency)): 1 if they share or queue, 0 if not */
    stat_t together;     /* (first - alone) / (last - alone): 1 if they share, 0 if one at a time */
    int shared;          /* the verdict: transfers in flight share the interface */
} sharing_t;

/* Whether transfers in flight share rank 0's interface: `latency` is a
 * small message's one-way time (L + 2o) on the senders' kind of pair. */
static sharing_t measure_sharing(const int *same, double latency)
{
    sharing_t s;
    memset(&s, 0, sizeof s);
    int who[LOGP_PROBE_SHARE_MAX], k = sharing_senders(same, who);
    if (k < 2)
        return s;
    int mine = g_rank == 0 ? k : 0;
    for (int i = 0; i < k; i++)
        mine += who[i] == g_rank;
    char *bufs[LOGP_PROBE_SHARE_MAX] = {NULL};
    int ok = 1;
    for (int i = 0; i < mine; i++)
        ok &= (bufs[i] = calloc(1, LOGP_PROBE_SHARE_BYTES)) != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (ok) {
        double slowed[64], together[64], alone[LOGP_PROBE_SHARE_MAX], t[LOGP_PROBE_SHARE_MAX];
        incast(who, k, bufs, LOGP_PROBE_SHARE_BYTES, t); /* warm-up: connections, pages */
        for (int r = 0; r < g_reps; r++) {
            incast(who, 1, bufs, LOGP_PROBE_SHARE_BYTES, alone);
            incast(who, k, bufs, LOGP_PROBE_SHARE_BYTES, t);
            if (g_rank != 0)
                continue;
            double data = alone[0] - latency > 0.1 * alone[0] ? alone[0] - latency : 0.1 * alone[0];
            double delay = t[k - 1] - alone[0];
            slowed[r] = delay / ((k - 1) * data);
            together[r] = delay > 0 ? (t[0] - alone[0]) / delay : 0.0;
        }
        s.k = k;
        s.off_node = same[who[0]] != same[0];
        if (g_rank == 0) {
            s.slowed = summarize(slowed, g_reps);
            s.together = summarize(together, g_reps);
            s.shared = s.slowed.median > 0.5 && s.together.median > 0.5;
        }
    }
    for (int i = 0; i < mine; i++)
        free(bufs[i]);
    return s;
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

static int write_section(FILE *f, const char *name, const pair_t *p, const stat_t *gamma, const stat_t *copy,
                         const stat_t *fresh)
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
    if (fresh)
        warned += write_value(f, name, "fresh", fresh, 1e9, "ns/B");
    return warned;
}

/* The `network` line of [default], or why there is none. */
static void write_network(FILE *f, const sharing_t *s)
{
    if (s->k < 2) {
        fprintf(f, "# network: not measured (it takes 3 ranks or more: 2 - 4 sending to one at once); "
                   "the default applies: loggp within one node, shared between nodes\n");
        return;
    }
    fprintf(f, "network = %s  # %d %s ranks sent 4 MiB each to one at once: slowed %.2f, together %.2f "
               "(1 and 1: they share its interface; together near 0: one at a time; slowed near 0: no limit)\n",
            s->shared ? "shared" : "loggp", s->k, s->off_node ? "off-node" : "on-node", s->slowed.median,
            s->together.median);
    if (s->slowed.spread > LOGP_PROBE_SPREAD_WARN || s->together.spread > LOGP_PROBE_SPREAD_WARN)
        fprintf(stderr, "pmpi-logp-probe: warning: [default] network = %s: the sharing test spread over 50%%\n",
                s->shared ? "shared" : "loggp");
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
                       "  node), gamma, copy, fresh and, with 3 ranks or more, whether transfers in flight\n"
                       "  share an interface (network), and writes a tuning file (standard output\n"
                       "  without --out).\n"
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
    const pair_t *d = inter > 0 ? &pe : &pi;
    sharing_t sharing = measure_sharing(same, d->L.median + 2 * d->o.median);
    stat_t gamma = measure_gamma(), copy = {0.0, 0.0}, fresh = {0.0, 0.0};
    MPI_Barrier(MPI_COMM_WORLD);
    if (g_rank == 0) { /* alone: the other ranks' copies would share the memory bandwidth */
        copy = measure_copy();
        fresh = measure_fresh();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (g_rank == 0) {
        FILE *f = out ? fopen(out, "w") : stdout;
        if (f == NULL) {
            perror(out);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        fprintf(f, "# written by pmpi-logp-probe (%d ranks, %d repetitions; spread = (max - min) / median)\n",
                g_size, g_reps);
        int warned = write_section(f, "default", d, &gamma, &copy, &fresh);
        write_network(f, &sharing);
        if (intra > 0 && inter > 0) {
            warned += write_section(f, "intra-node", &pi, NULL, NULL, NULL);
            warned += write_section(f, "inter-node", &pe, NULL, NULL, NULL);
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
