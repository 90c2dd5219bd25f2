/* Prototype, not part of the library (2026-11-27, issue 13): a reduce-
 * scatter by recursive halving plus a gather to root 0 (binomial, or
 * DIRECT=1 straight to the root), pipelined over C chunks of the vector,
 * run in SMPI to find a schedule within 1.25x of the 1 MiB reduce bound
 * before building it into the engine (src/model/sched_chunked_rsg.c,
 * chunked-rsg).  Findings: docs/results/large-messages.md, "chunked-rsg".  P a
 * power of two.
 *   smpicc -O2 -o prs prs.c
 *   smpirun -np 64 -platform platform.xml FLAGS --cfg=smpi/test:0 ./prs BYTES WEIGHTS W
 * (platform.xml and FLAGS as scripts/smpi-common.sh writes them for
 * tuning/default.conf).  WEIGHTS: the chunks' relative sizes, e.g.
 * 1,2,4,8,8,8,8,4,2,1; W: receives posted ahead.  Environment: SSEND=1
 * synchronous sends; DYN=1 ready-first order (else static); DIRECT=1
 * gather straight to the root, GW=n at most n of its receives posted;
 * LAGF=f, LAGG=g the order's key, chunk start + f (step - 1) (g for the
 * gather's steps); ONETAG=1 one tag per stream (else one per chunk);
 * NOTEST=1 learn arrivals only through MPI_Waitany; DBG=1, DBG2=rank,
 * DBG3=rank per-rank waits and timelines.  The best found: SSEND=1 DYN=1
 * DIRECT=1 GW=P LAGF=0.5 (P = 64: 375 us; P = 256 with GW=128: 394).
 * The gamma charge is pmpi-logp-bench's (0.3 ns/B); all ranks start at
 * one instant after a barrier, as pmpi-logp-bench does. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double gam = 0.3e-9;
int K;
static int P, n, C, W;
static long cnt;
static long *cs; /* chunk starts, C + 1 */

static long blk(int c, long j) /* element offset of block j of chunk c */
{
    long len = cs[c + 1] - cs[c];
    return cs[c] + j * len / P;
}

typedef struct { int c, p, s; } item_t;
static int direct;

static double lagf = 1.0, lagg = -1.0, ck[256];
static double key_of(int c, int p)
{
    extern int K;
    double g = lagg < 0 ? lagf : lagg;
    return p <= K ? ck[c] + (p - 1) * lagf : ck[c] + (K - 1) * lagf + (p - K) * g;
}
static int cmp_item(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    double kx = key_of(x->c, x->p), ky = key_of(y->c, y->p);
    if (kx != ky) return kx < ky ? -1 : 1;
    if (y->p != x->p) return y->p - x->p; /* larger p first */
    return x->s - y->s;
}

static MPI_Request sreq[100000];
static int ns;

static int cur_c;
static void isend(double *buf, long from, long to, int peer, int tag)
{
    tag = 10 + 2 * cur_c + (tag - 1);
    (getenv("SSEND") ? MPI_Issend : MPI_Isend)(buf + from, (int)(to - from), MPI_DOUBLE, peer, tag, MPI_COMM_WORLD, &sreq[ns++]);
}

/* RS step k (1..K) of chunk c: the range sent and the range kept, blocks */
static void rs_ranges(int k, long *slo, long *shi, long *klo, long *khi, int *peer)
{
    int b = K - k;
    long lo = (long)n & ~((2L << b) - 1);
    long mine = (n >> b) & 1;
    *klo = lo + mine * (1L << b); *khi = *klo + (1L << b);
    *slo = lo + (1 - mine) * (1L << b); *shi = *slo + (1L << b);
    *peer = n ^ (1 << b);
}

static double waitt;
static double run(double *acc, double *out, double *tmp)
{
    /* items */
    int ni = 0;
    item_t *it = malloc(sizeof(item_t) * (size_t)C * (2 * K + P));
    for (int c = 0; c < C; c++) {
        for (int k = 1; k <= K; k++) it[ni++] = (item_t){c, k, 0};
        if (direct) {
            if (n == 0) for (int q = 1; q < P; q++) it[ni++] = (item_t){c, K + 1, q};
            continue;
        }
        for (int g = 1; g <= K; g++) {
            int j = g - 1;
            if ((n & ((2 << j) - 1)) == 0) it[ni++] = (item_t){c, K + g};
            else break;
        }
    }
    qsort(it, ni, sizeof *it, cmp_item);
    MPI_Request *rr = malloc(sizeof(MPI_Request) * ni);
    double **tb = malloc(sizeof(double *) * ni);
    ns = 0;
    double t0 = MPI_Wtime();
    int posted = 0, sent1 = 0, curd = -1;
    long toff = 0;
    for (int i = 0; i < ni; i++) {
        /* step-1 sends one diagonal ahead */
        (void)curd;
        {
            double key = key_of(it[i].c, it[i].p);
            while (sent1 < C && ck[sent1] <= key + 1.0) {
                long slo, shi, klo, khi; int peer;
                rs_ranges(1, &slo, &shi, &klo, &khi, &peer);
                cur_c = sent1; isend(acc, blk(sent1, slo), blk(sent1, shi), peer, 1);
                sent1++;
            }
        }
        while (posted < ni && posted < i + W) {
            item_t x = it[posted];
            if (x.p <= K) {
                long slo, shi, klo, khi; int peer;
                rs_ranges(x.p, &slo, &shi, &klo, &khi, &peer);
                long a = blk(x.c, klo), b = blk(x.c, khi);
                tb[posted] = tmp + toff; toff += b - a;
                MPI_Irecv(tb[posted], (int)(b - a), MPI_DOUBLE, peer, 10 + 2 * x.c, MPI_COMM_WORLD, &rr[posted]);
            } else if (direct) {
                long a = blk(x.c, x.s), b = blk(x.c, x.s + 1);
                MPI_Irecv(out + a, (int)(b - a), MPI_DOUBLE, x.s, 11 + 2 * x.c, MPI_COMM_WORLD, &rr[posted]);
            } else {
                int j = x.p - K - 1;
                long a = blk(x.c, n + (1L << j)), b = blk(x.c, n + (2L << j));
                MPI_Irecv(out + a, (int)(b - a), MPI_DOUBLE, n + (1 << j), 11 + 2 * x.c, MPI_COMM_WORLD, &rr[posted]);
            }
            posted++;
        }
        double tw=MPI_Wtime(); MPI_Wait(&rr[i], MPI_STATUS_IGNORE); waitt += MPI_Wtime()-tw; if (getenv("DBG2") && n==atoi(getenv("DBG2")) && MPI_Wtime()-tw > 2e-6) printf("  r%d item %d (c%d p%d) at %.1f waited %.1f\n", n, i, it[i].c, it[i].p, (tw-t0)*1e6, (MPI_Wtime()-tw)*1e6);
        item_t x = it[i];
        if (x.p <= K) {
            long slo, shi, klo, khi; int peer;
            rs_ranges(x.p, &slo, &shi, &klo, &khi, &peer);
            long a = blk(x.c, klo), b = blk(x.c, khi);
            for (long e = a; e < b; e++) acc[e] += tb[i][e - a];
            smpi_execute_benched(gam * (double)(b - a) * 8);
            if (x.p < K) {
                rs_ranges(x.p + 1, &slo, &shi, &klo, &khi, &peer);
                cur_c = x.c; isend(acc, blk(x.c, slo), blk(x.c, shi), peer, 1);
            } else {
                memcpy(out + a, acc + a, (size_t)(b - a) * 8);
                if (direct) { if (n) { cur_c = x.c; isend(out, a, b, 0, 2); } }
                else if (n & 1) { cur_c = x.c; isend(out, a, b, n - 1, 2); }
            }
        } else if (direct) {
        } else {
            int j = x.p - K - 1; /* received bit j; send at bit j+1 if set */
            if (j + 1 < K && ((n >> (j + 1)) & 1))
                { cur_c = x.c; isend(out, blk(x.c, n), blk(x.c, n + (2L << j)), n - (2 << j), 2); }
        }
    }
    double tw2=MPI_Wtime();
    MPI_Waitall(ns, sreq, MPI_STATUSES_IGNORE);
    double t = MPI_Wtime() - t0;
    if (getenv("DBG") && (n==0||n==1||n==32||n==63)) printf("rank %d: total %.1f wait %.1f final-waitall %.1f items %d sends %d\n", n, t*1e6, waitt*1e6, (MPI_Wtime()-tw2)*1e6, ni, ns);
    waitt=0;
    free(it); free(rr); free(tb);
    return t;
}


/* ready-first: all receives posted up front (window W in key order), the rank
 * combines whichever ready item arrived (smallest key first) */
static double run_dyn(double *acc, double *out, double *tmp)
{
    int ni = 0;
    item_t *it = malloc(sizeof(item_t) * (size_t)C * 2 * K);
    free(it);
    it = malloc(sizeof(item_t) * (size_t)C * (2 * K + P));
    for (int c = 0; c < C; c++) {
        for (int k = 1; k <= K; k++) it[ni++] = (item_t){c, k, 0};
        if (direct) {
            if (n == 0) for (int q = 1; q < P; q++) it[ni++] = (item_t){c, K + 1, q};
            continue;
        }
        for (int g = 1; g <= K; g++) {
            int j = g - 1;
            if ((n & ((2 << j) - 1)) == 0) it[ni++] = (item_t){c, K + g, 0};
            else break;
        }
    }
    qsort(it, ni, sizeof *it, cmp_item);
    MPI_Request *rr = malloc(sizeof(MPI_Request) * ni);
    double **tb = malloc(sizeof(double *) * ni);
    char *arrived = calloc(ni, 1), *done = calloc(ni, 1), *postedf = calloc(ni, 1);
    int gw = getenv("GW") ? atoi(getenv("GW")) : 1000000;
    int nk[256], ngr[256], gneed[256];
    int lowbit = 0; while (lowbit < K && !((n >> lowbit) & 1)) lowbit++; /* n's lowest set bit (K for 0) */
    for (int c = 0; c < C; c++) { nk[c] = 1; ngr[c] = 0; gneed[c] = lowbit; }
    ns = 0;
    double t0 = MPI_Wtime();
    long toff = 0;
    int posted = 0, ndone = 0, sent1 = 0;
    for (int c = 0; c < C && c < 2; c++) { long slo, shi, klo, khi; int peer; rs_ranges(1, &slo, &shi, &klo, &khi, &peer); cur_c = c; isend(acc, blk(c, slo), blk(c, shi), peer, 1); sent1++; }
    while (ndone < ni) {
        int outg = 0;
        for (int q = 0; q < ni; q++) if (postedf[q] && !arrived[q] && it[q].p > K) outg++;
        for (posted = 0; posted < ni && posted < ndone + W; posted++) {
            if (postedf[posted]) continue;
            if (it[posted].p > K && direct && outg >= gw) continue;
            if (it[posted].p > K) outg++;
            postedf[posted] = 1;
            item_t x = it[posted];
            if (x.p <= K) {
                long slo, shi, klo, khi; int peer;
                rs_ranges(x.p, &slo, &shi, &klo, &khi, &peer);
                long a = blk(x.c, klo), b = blk(x.c, khi);
                tb[posted] = tmp + toff; toff += b - a;
                MPI_Irecv(tb[posted], (int)(b - a), MPI_DOUBLE, peer, 10 + 2 * x.c, MPI_COMM_WORLD, &rr[posted]);
            } else if (direct) {
                long a = blk(x.c, x.s), b = blk(x.c, x.s + 1);
                MPI_Irecv(out + a, (int)(b - a), MPI_DOUBLE, x.s, 11 + 2 * x.c, MPI_COMM_WORLD, &rr[posted]);
            } else {
                int j = x.p - K - 1;
                long a = blk(x.c, n + (1L << j)), b = blk(x.c, n + (2L << j));
                MPI_Irecv(out + a, (int)(b - a), MPI_DOUBLE, n + (1 << j), 11 + 2 * x.c, MPI_COMM_WORLD, &rr[posted]);
            }
        }
        /* find a ready arrived item, smallest index */
        int pick = -1;
        for (int i = 0; i < ni && pick < 0; i++) {
            if (done[i] || !postedf[i]) continue;
            if (!arrived[i] && !getenv("NOTEST")) { int f = 0; MPI_Test(&rr[i], &f, MPI_STATUS_IGNORE); if (f) arrived[i] = 1; }
            if (!arrived[i]) continue;
            item_t x = it[i];
            if (x.p <= K && nk[x.c] != x.p) continue;
            pick = i;
        }
        if (pick < 0) { /* wait for any */
            int idx; double tw = MPI_Wtime();
            static MPI_Request tmpr[65536]; static int map[65536]; int m = 0;
            for (int i = 0; i < ni && m < 65536; i++) if (postedf[i] && !done[i] && !arrived[i]) { tmpr[m] = rr[i]; map[m++] = i; }
            MPI_Waitany(m, tmpr, &idx, MPI_STATUS_IGNORE);
            rr[map[idx]] = tmpr[idx]; arrived[map[idx]] = 1;
            waitt += MPI_Wtime() - tw;
            if (getenv("DBG2") && n == atoi(getenv("DBG2")) && MPI_Wtime() - tw > 1e-6) {
                printf("  r%d at %.1f waited %.1f for (c%d p%d); pending:", n, (tw - t0) * 1e6, (MPI_Wtime() - tw) * 1e6, it[map[idx]].c, it[map[idx]].p);
                for (int q = 0; q < m && q < 6; q++) printf(" (c%d p%d)", it[map[q]].c, it[map[q]].p);
                printf("\n");
            }
            continue;
        }
        item_t x = it[pick];
        done[pick] = 1; ndone++;
        if (getenv("DBG3") && n == atoi(getenv("DBG3"))) printf("R%d %.1f done c%d p%d s%d\n", n, (MPI_Wtime() - t0) * 1e6, x.c, x.p, x.s);
        if (x.p <= K) {
            long slo, shi, klo, khi; int peer;
            rs_ranges(x.p, &slo, &shi, &klo, &khi, &peer);
            long a = blk(x.c, klo), b = blk(x.c, khi);
            for (long e = a; e < b; e++) acc[e] += tb[pick][e - a];
            smpi_execute_benched(gam * (double)(b - a) * 8);
            nk[x.c]++;
            if (x.p == 1 && sent1 < C) { long s1, s2, k1, k2; int pr; rs_ranges(1, &s1, &s2, &k1, &k2, &pr); cur_c = sent1; isend(acc, blk(sent1, s1), blk(sent1, s2), pr, 1); sent1++; }
            if (x.p < K) {
                rs_ranges(x.p + 1, &slo, &shi, &klo, &khi, &peer);
                cur_c = x.c; isend(acc, blk(x.c, slo), blk(x.c, shi), peer, 1);
            } else {
                memcpy(out + a, acc + a, (size_t)(b - a) * 8);
                if (direct && n != 0) { cur_c = x.c; isend(out, a, b, 0, 2); }
            }
        } else {
            ngr[x.c]++;
        }
        if (direct) continue;
        /* gather send of chunk x.c once RS done and every gather receive below lowbit */
        if (n != 0 && nk[x.c] == K + 1 && ngr[x.c] == gneed[x.c]) {
            ngr[x.c] = 1000;
            cur_c = x.c; isend(out, blk(x.c, n), blk(x.c, n + (1L << lowbit)), n - (1 << lowbit), 2);
        }
    }
    MPI_Waitall(ns, sreq, MPI_STATUSES_IGNORE);
    double t = MPI_Wtime() - t0;
    if (getenv("DBG") && (n==0||n==1||n==P/2||n==P-1||t*1e6 > atof(getenv("DBG")))) printf("dyn rank %d: total %.1f wait %.1f\n", n, t*1e6, waitt*1e6);
    waitt = 0;
    free(it); free(rr); free(tb); free(arrived); free(done);
    return t;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &n);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    for (K = 0; (1 << K) < P; K++) ;
    long bytes = argc > 1 ? atol(argv[1]) : 1048576;
    W = argc > 3 ? atoi(argv[3]) : 4;
    if (getenv("LAGF")) lagf = atof(getenv("LAGF"));
    direct = getenv("DIRECT") != NULL;
    if (getenv("LAGG")) lagg = atof(getenv("LAGG"));
    /* chunk sizes: comma list of weights */
    const char *wts = argc > 2 ? argv[2] : "1,1,1,1";
    double w[256]; C = 0;
    for (const char *q = wts; *q; ) { w[C++] = atof(q); q = strchr(q, ','); if (!q) break; q++; }
    double tot = 0; for (int c = 0; c < C; c++) tot += w[c];
    cnt = bytes / 8;
    cs = malloc(sizeof(long) * (C + 1));
    double run_w = 0; cs[0] = 0;
    for (int c = 0; c < C; c++) { run_w += w[c]; cs[c + 1] = (long)(cnt * run_w / tot + 0.5); }
    cs[C] = cnt;
    { double acc_w = 0; for (int c = 0; c < C; c++) { ck[c] = acc_w / (tot / C); acc_w += w[c]; } }
    double *acc = malloc(8 * cnt), *out = malloc(8 * cnt), *tmp = malloc(8 * cnt * 2);
    double best = 1e9;
    for (int rep = 0; rep < 2; rep++) {
        for (long e = 0; e < cnt; e++) acc[e] = n + 0.001 * (e % 97);
        memset(out, 0, 8 * cnt);
        MPI_Barrier(MPI_COMM_WORLD);
        { /* a common start, as pmpi-logp-bench does: the barrier's exits are skewed */
            double now = MPI_Wtime(), start;
            MPI_Allreduce(&now, &start, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            start += 1e-3;
            smpi_execute_benched(start - MPI_Wtime());
        }
        double t = getenv("DYN") ? run_dyn(acc, out, tmp) : run(acc, out, tmp), tm;
        MPI_Reduce(&t, &tm, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (n == 0) {
            long bad = 0;
            for (long e = 0; e < cnt; e++) {
                double want = (double)P * (P - 1) / 2 + P * 0.001 * (e % 97);
                if (out[e] < want - 1e-6 * want || out[e] > want + 1e-6 * want) bad++;
            }
            if (tm < best) best = tm;
            if (bad) printf("BAD %ld\n", bad);
        }
    }
    if (n == 0) printf("P=%d bytes=%ld chunks=%s W=%d: %.1f us\n", P, bytes, wts, W, best * 1e6);
    MPI_Finalize();
    return 0;
}
