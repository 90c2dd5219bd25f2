/* chunked-rsg (reduce, commutative operators; large messages).  Not from
 * the seeds: Rabenseifner's reduce-scatter + gather (2004), cut into
 * chunks that overlap, with the gather sent straight to the root.
 *
 * Algorithm.  With P' the largest power of two <= P, the first 2(P - P')
 * relative ranks fold in pairs (odd into even), as in
 * reduce-scatter-gather.  The message is cut into C chunks of weights
 * w_i = min(2^i, 2^(C-1-i), 8) (logp_crsg_weights) and every chunk into
 * P' blocks.  For each chunk, new rank n runs K = log2 P' steps of
 * recursive halving (step k: bit b = K - k; it sends the half of its
 * current range whose bit b differs from n's to n xor 2^b and combines
 * the other half with what n xor 2^b sends), so that it ends with block n
 * of the chunk reduced, and sends that block to the root (new rank 0),
 * which receives every block of every chunk directly into its result
 * buffer and copies its own there (so no receive writes where a send of
 * its accumulator may still read).  Chunks overlap: a
 * rank combines one chunk's step while another chunk's data is on its
 * way, and the family is dataflow (sched.h): a rank takes whichever
 * combine's message is in, so that no fixed order makes it wait for one
 * chunk while another's data lies ready.  Its operations are listed in
 * the order of key(c, p) = start(c) + (p - 1)/2 (start(c): the chunks
 * before c in units of the mean chunk; p the step, K + 1 the gather),
 * which is also the order the executor prefers among ready operations;
 * a chunk's first halves are sent two chunks ahead, each after the
 * combine two chunks before, so they do not share the link all at once.
 *
 * Cost (m bytes, frac = (P' - 1)/P', og = max(o, g), m_0 and m_L the
 * first and last chunk, p2p(x) = 2o + L + (x - 1)G):
 *   T ~ fold + p2p(m_0 / 2) + max(frac m gamma + C (K + 1) og,
 *       2 frac m G) + (K - 1)(L + og) + m_L G / 2 + p2p(m_L / P')
 * (fold = p2p(m) + m gamma when P is not a power of two; on LogGP the
 * root also pays og for each of its C (P' - 1) receives, which a shared
 * network's rendezvous messages do not cost; there the root's interface
 * takes their envelopes instead, C (P' - 1) E G with E the envelope's
 * bytes, topo.h: 16 in SMPI): every rank combines the
 * bound's frac m gamma and pays an overhead per message; it waits only
 * for the first chunk's exchange and for the last chunk's steps, one
 * latency each, and the gather's last block.  The root's interface takes
 * 2 frac m bytes (the halves and the gather).  This is the estimate that
 * prices decisions beyond LOGP_PLAN_ESTIMATED_OPS: within 3% of the
 * simulator from 256 KiB at P = 4 - 256 with the chunks below, 7 - 17%
 * high at 64 KiB and up to 70% at 16 KiB (C = 2: the two chunks' steps
 * overlap more than it counts).
 * Chunks (logp_crsg_chunks): on a shared network C = sqrt(m (gamma + G) /
 * (7 og)) within 2 .. 16, fitted to the simulator (P = 4 - 256, 16 KiB -
 * 4 MiB, four parameter sets: 0.5 - 2% above the best C on average, 11%
 * at worst); fewer chunks leave ranks idle while a big chunk's steps wait
 * for each other, which the formula misses, so the formula alone picks
 * too few.  Below 1 a message has nothing to pipeline and every chunk
 * only adds K + 1 messages per rank and P' - 1 gather envelopes at the
 * root: C = 1 (SMPI, the fidelity suite's platform 1, 8 B at P = 64: 7.70
 * us with one chunk, 9.87 with two; 1 KiB 11.2 against 12.4; the
 * simulator on SMPI's default platform within 2.5% of the better of 1 and
 * 2 from 8 B to 16 KiB at P = 16 - 256).  On LogGP the C of least
 * formula.  The simulator prices the schedule as the executor runs it
 * (sim.c's dataflow mode).
 *
 * Measured in SMPI at about 1.2x the bound from 1 MiB, faster than
 * two-tree and reduce-scatter-gather, the simulator within 2.2% of it
 * from 64 KiB (docs/results/measurements-in-code.md, "chunked-rsg"). */
#include "sched_chunked_rsg.h"

#include <math.h>
#include <stdlib.h>

/* Shared data: every rank's operations are a function of this, O(1) to
 * O(log P) each. */
typedef struct {
    long P2;                                      /* new ranks */
    int K;                                        /* log2 P2 */
    int C, W;                                     /* chunks, sum of their weights */
    int w[LOGP_CRSG_MAX_CHUNKS];                  /* weights */
    int base[LOGP_CRSG_MAX_CHUNKS + 1];           /* first part of each chunk (parts = W P2) */
    int nitems;                                   /* C (K + 1) */
    unsigned char ic[LOGP_CRSG_MAX_CHUNKS * 12];  /* item j's chunk, in key order */
    unsigned char ip[LOGP_CRSG_MAX_CHUNKS * 12];  /* item j's step: 1 .. K, K + 1 the gather */
    short at[LOGP_CRSG_MAX_CHUNKS][12];           /* the item of (chunk, step) */
    int pre[2][LOGP_CRSG_MAX_CHUNKS * 12 + 1];    /* operations before item j: [0] a rank, [1] the root */
} logp_crsg_data_t;

int logp_crsg_weights(int C, int w[LOGP_CRSG_MAX_CHUNKS])
{
    int sum = 0;
    for (int i = 0; i < C; i++) {
        int a = i < 3 ? 1 << i : 8, b = C - 1 - i < 3 ? 1 << (C - 1 - i) : 8;
        w[i] = a < b ? a : b;
        sum += w[i];
    }
    return sum;
}

static long logp_crsg_pow2_floor(long P)
{
    long p = 1;
    while (2 * p <= P)
        p *= 2;
    return p;
}

static int logp_crsg_log2(long P2)
{
    int k = 0;
    while ((1L << k) < P2)
        k++;
    return k;
}

static double logp_crsg_max(double a, double b)
{
    return a > b ? a : b;
}

double logp_crsg_formula(const logp_params_t *p, size_t m, int P, int C, int shared, double envelope)
{
    if (P <= 1)
        return 0.0;
    long P2 = logp_crsg_pow2_floor(P);
    int K = logp_crsg_log2(P2), w[LOGP_CRSG_MAX_CHUNKS];
    int W = logp_crsg_weights(C, w);
    double md = (double)m, frac = (double)(P2 - 1) / (double)P2, og = logp_crsg_max(p->o, p->g);
    size_t m0 = (size_t)(md * w[0] / W), mL = (size_t)(md * w[C - 1] / W);
    double fold = P2 < P ? logp_params_p2p(p, m) + md * p->gamma : 0.0;
    double fill = K >= 1 ? logp_params_p2p(p, m0 / 2) : 0.0;
    double cpu = frac * md * p->gamma + (double)C * (K + 1) * og;
    double root = frac * md * p->gamma + (double)C * K * og + (shared ? 0.0 : (double)C * (double)(P2 - 1) * og);
    double link = 2.0 * frac * md * p->G + (shared ? (double)C * (double)(P2 - 1) * envelope * p->G : 0.0), tail = K >= 1 ? logp_params_p2p(p, mL / (size_t)P2) : 0.0;
    for (int k = 2; k <= K; k++) /* the last chunk's steps wait for each other's messages */
        tail += p->L + og + (double)(mL >> k) * p->G;
    return fold + fill + logp_crsg_max(logp_crsg_max(cpu, root), link) + tail;
}

/* What a rank does at step p (1 .. K) of chunk c, in this order: combine
 * what its partner sends (LOGP_CRSG_RR), send the first half of chunk
 * c + 2 (after step 1: S1), send the next step's half (SNEXT) or, after
 * the last step, its block to the root (GATHER; the root copies its own
 * block into its result buffer, OWN, where the others' blocks land). */
enum { LOGP_CRSG_RR, LOGP_CRSG_S1, LOGP_CRSG_SNEXT, LOGP_CRSG_GATHER, LOGP_CRSG_OWN };

/* The operations of step p of chunk c (p <= K) into w[]; root: the root's. */
static int logp_crsg_step_ops(const logp_crsg_data_t *d, int root, int c, int p, int w[3])
{
    int n = 0;
    w[n++] = LOGP_CRSG_RR;
    if (p == 1 && c + 2 < d->C)
        w[n++] = LOGP_CRSG_S1;
    w[n++] = p < d->K ? LOGP_CRSG_SNEXT : root ? LOGP_CRSG_OWN : LOGP_CRSG_GATHER;
    return n;
}

int logp_crsg_chunks(const logp_params_t *p, size_t m, int P, int shared)
{
    if (P <= 1)
        return 1;
    if (shared) { /* sqrt(m (gamma + G) / (7 og)), within 2 .. LOGP_CRSG_MAX_CHUNKS; 1 below 1 */
        double og = logp_crsg_max(p->o, p->g), x = og > 0.0 ? sqrt((double)m * (p->gamma + p->G) / (7.0 * og)) : 1e9;
        int C = x < 1.0 ? 1 : x < 2.0 ? 2 : x > LOGP_CRSG_MAX_CHUNKS ? LOGP_CRSG_MAX_CHUNKS : (int)(x + 0.5);
        return C;
    }
    int best = 1;
    double best_t = -1.0;
    for (int C = 1; C <= LOGP_CRSG_MAX_CHUNKS; C++) {
        double t = logp_crsg_formula(p, m, P, C, 0, 0.0);
        if (best_t < 0.0 || t < best_t) {
            best = C;
            best_t = t;
        }
    }
    return best;
}

/* Operations of item (c, p): a step's, or the root's gather of P2 - 1
 * blocks (block s from new rank s). */
static int logp_crsg_item_ops(const logp_crsg_data_t *d, int c, int p, int root)
{
    int w[3];
    if (p > d->K)
        return root ? (int)(d->P2 - 1) : 0;
    return logp_crsg_step_ops(d, root, c, p, w);
}

/* Items in key order: key(c, p) = 2 C start_c + W (p - 1) (start_c the
 * weights before c), ties to the larger p, then the smaller c. */
static void logp_crsg_order(logp_crsg_data_t *d)
{
    int n = 0, before = 0;
    long key[LOGP_CRSG_MAX_CHUNKS * 12];
    for (int c = 0; c < d->C; c++) {
        for (int p = 1; p <= d->K + 1; p++) {
            long k = 2L * d->C * before + (long)d->W * (p - 1);
            int j = n++;
            /* insertion: keys, then larger p, then smaller c (items come by c) */
            while (j > 0 && (key[j - 1] > k || (key[j - 1] == k && d->ip[j - 1] < p))) {
                key[j] = key[j - 1];
                d->ic[j] = d->ic[j - 1];
                d->ip[j] = d->ip[j - 1];
                j--;
            }
            key[j] = k;
            d->ic[j] = (unsigned char)c;
            d->ip[j] = (unsigned char)p;
        }
        before += d->w[c];
    }
    d->nitems = n;
    for (int r = 0; r < 2; r++) {
        d->pre[r][0] = 0;
        for (int j = 0; j < n; j++)
            d->pre[r][j + 1] = d->pre[r][j] + logp_crsg_item_ops(d, d->ic[j], d->ip[j], r);
    }
    for (int j = 0; j < n; j++)
        d->at[d->ic[j]][d->ip[j]] = (short)j;
}

/* Plans C chunks into d (P2, K set). */
static void logp_crsg_plan(const logp_sched_t *s, logp_crsg_data_t *d, int C)
{
    d->C = C;
    d->W = logp_crsg_weights(C, d->w);
    d->base[0] = 0;
    for (int c = 0; c < C; c++)
        d->base[c + 1] = d->base[c] + d->w[c] * (int)d->P2;
    logp_crsg_order(d);
    (void)s;
}

static logp_status_t logp_crsg_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    long P2 = logp_crsg_pow2_floor(s->P);
    if (P2 > LOGP_CRSG_MAX_P2)
        return LOGP_ERR_ARG;
    logp_crsg_data_t *d = calloc(1, sizeof *d);
    if (d == NULL)
        return LOGP_ERR_NOMEM;
    s->data = d;
    d->P2 = P2;
    d->K = logp_crsg_log2(P2);
    int best = logp_crsg_chunks(&s->p, s->bytes, s->P, s->topo.shared);
    if (o->chunks > 0)
        best = o->chunks < LOGP_CRSG_MAX_CHUNKS ? o->chunks : LOGP_CRSG_MAX_CHUNKS;
    logp_crsg_plan(s, d, best);
    s->k = best;
    s->parts = d->W * (int)P2;
    /* the root keeps one chunk's blocks posted: the gather's blocks share
     * the root's interface with the halves it combines, and all at once
     * they crowd them out (docs/results/measurements-in-code.md,
     * "chunked-rsg: the root's receive window") */
    s->recv_window = P2 > 1 ? (int)P2 - 1 : 1;
    /* on a shared network every send synchronous: a rendezvous message
     * lands in its posted buffer and costs the receiver no overhead, and
     * the gather's P' - 1 blocks per chunk would cost the root one each */
    s->window = s->topo.shared ? LOGP_SCHED_WINDOW_MAX : 0;
    return LOGP_OK;
}

static void logp_crsg_release(logp_sched_t *s)
{
    free(s->data);
    s->data = NULL;
}

static const logp_crsg_data_t *logp_crsg_data(const logp_sched_t *s)
{
    return (const logp_crsg_data_t *)s->data;
}

/* Absolute rank of new rank n (after the fold of P - P2 pairs). */
static int logp_crsg_abs(const logp_view_t *v, long n)
{
    long extra = v->s->P - logp_crsg_data(v->s)->P2;
    return logp_sched_abs(v->s, v->root, n < extra ? 2 * n : n + extra);
}

/* First halves a rank sends before its first combine: chunks 0 and 1. */
static int logp_crsg_head_sends(const logp_crsg_data_t *d)
{
    return d->K >= 1 ? (d->C < 2 ? d->C : 2) : 0;
}

/* Cursor: c[0] relative rank, c[1] new rank (-1: folded away), c[2]
 * operations before the first item (its own part, the fold's combine,
 * the first halves of chunks 0 and 1), c[3] 1 at the root. */
static int logp_crsg_nops(logp_view_t *v)
{
    const logp_crsg_data_t *d = logp_crsg_data(v->s);
    long rel = logp_sched_rel(v->s, v->root, v->rank), extra = v->s->P - d->P2;
    v->node.c[0] = rel;
    if (d->P2 >= 2) /* the result reaches the root's result buffer block by block, not as its accumulator */
        v->tree_root = logp_crsg_abs(v, 1);
    if (rel < 2 * extra && rel % 2 == 1) {
        v->node.c[1] = -1;
        return 2; /* its own vector, sent whole to rel - 1 */
    }
    long n = rel < 2 * extra ? rel / 2 : rel - extra;
    v->node.c[1] = n;
    v->node.c[2] = 1 + (rel < 2 * extra) + logp_crsg_head_sends(d);
    v->node.c[3] = n == 0;
    return (int)v->node.c[2] + d->pre[n == 0][d->nitems];
}

/* Step k (1 .. K) of new rank n: the blocks it keeps and sends (2^(K-k)
 * of each), and its partner. */
static void logp_crsg_step(const logp_crsg_data_t *d, long n, int k, long *keep, long *send, long *size,
                           long *partner)
{
    int b = d->K - k;
    long lo = n & ~((2L << b) - 1), bit = (n >> b) & 1;
    *size = 1L << b;
    *keep = lo + bit * *size;
    *send = lo + (1 - bit) * *size;
    *partner = n ^ (1L << b);
}

/* An operation on blocks [blk, blk + nb) of chunk c. */
static logp_op_t logp_crsg_op_blocks(const logp_view_t *v, int kind, long peer, int arg, int c, long blk, long nb)
{
    const logp_sched_t *s = v->s;
    const logp_crsg_data_t *d = logp_crsg_data(s);
    int part = d->base[c] + (int)blk * d->w[c], np = (int)nb * d->w[c];
    return logp_op_parts(kind, logp_crsg_abs(v, peer), arg, logp_sched_part_bytes(s->bytes, s->parts, part, np), part,
                         np);
}

/* The item of operation i >= c[2] (binary search of the prefix counts),
 * and i's place in it. */
static int logp_crsg_locate(const logp_view_t *v, int i, int *q)
{
    const logp_crsg_data_t *d = logp_crsg_data(v->s);
    const int *pre = d->pre[v->node.c[3]];
    int x = i - (int)v->node.c[2], lo = 0, hi = d->nitems - 1;
    while (lo < hi) { /* the last item that starts at or before x */
        int mid = (lo + hi + 1) / 2;
        if (pre[mid] <= x)
            lo = mid;
        else
            hi = mid - 1;
    }
    *q = x - pre[lo];
    return lo;
}

/* The index of the operation a rank's first steps follow: its own part
 * (0), or the fold's combine (1). */
static int logp_crsg_own(const logp_view_t *v)
{
    const logp_crsg_data_t *d = logp_crsg_data(v->s);
    return v->node.c[1] >= 0 && v->node.c[2] - 1 - logp_crsg_head_sends(d) ? 1 : 0;
}

static logp_op_t logp_crsg_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    const logp_crsg_data_t *d = logp_crsg_data(s);
    long rel = v->node.c[0], n = v->node.c[1], keep, send, size, partner;
    if (i == 0)
        return logp_op_whole(LOGP_OP_INIT_OWN, v->rank, 0, s->bytes);
    if (n < 0)
        return logp_op_whole(LOGP_OP_SEND, logp_sched_abs(s, v->root, rel - 1), 0, s->bytes);
    int own = logp_crsg_own(v);
    if (own && i == 1)
        return logp_op_whole(LOGP_OP_RECV_REDUCE, logp_sched_abs(s, v->root, rel + 1), LOGP_SIDE_APPEND, s->bytes);
    if (i < v->node.c[2]) { /* the first halves of chunks 0 and 1 */
        logp_crsg_step(d, n, 1, &keep, &send, &size, &partner);
        return logp_crsg_op_blocks(v, LOGP_OP_SEND, partner, 0, i - 1 - own, send, size);
    }
    int q, j = logp_crsg_locate(v, i, &q), c = d->ic[j], p = d->ip[j], w[3];
    if (p > d->K) /* the root's gather: block q + 1 from new rank q + 1, into its result buffer */
        return logp_crsg_op_blocks(v, LOGP_OP_RECV, q + 1, LOGP_RECV_RESULT, c, q + 1, 1);
    logp_crsg_step_ops(d, (int)v->node.c[3], c, p, w);
    switch (w[q]) {
    case LOGP_CRSG_RR:
        logp_crsg_step(d, n, p, &keep, &send, &size, &partner);
        return logp_crsg_op_blocks(v, LOGP_OP_RECV_REDUCE, partner, LOGP_SIDE_APPEND, c, keep, size);
    case LOGP_CRSG_S1:
        logp_crsg_step(d, n, 1, &keep, &send, &size, &partner);
        return logp_crsg_op_blocks(v, LOGP_OP_SEND, partner, 0, c + 2, send, size);
    case LOGP_CRSG_SNEXT:
        logp_crsg_step(d, n, p + 1, &keep, &send, &size, &partner);
        return logp_crsg_op_blocks(v, LOGP_OP_SEND, partner, 0, c, send, size);
    case LOGP_CRSG_GATHER: /* its block to the root */
        return logp_crsg_op_blocks(v, LOGP_OP_SEND, 0, LOGP_SEND_PLAIN, c, n, 1);
    default: /* the root's own block of the chunk, into its result buffer */
        return logp_crsg_op_blocks(v, LOGP_OP_RESULT_OWN, 0, 0, c, 0, 1);
    }
}

static int logp_crsg_dep(const logp_view_t *v, int i)
{
    const logp_crsg_data_t *d = logp_crsg_data(v->s);
    if (i == 0)
        return -1;
    int own = v->node.c[1] >= 0 ? logp_crsg_own(v) : 0;
    if (v->node.c[1] < 0 || i < v->node.c[2])
        return i == own ? 0 : own; /* the fold's combine follows its own part; the rest follows both */
    int q, j = logp_crsg_locate(v, i, &q), c = d->ic[j], p = d->ip[j];
    int head = (int)v->node.c[2];
    const int *pre = d->pre[v->node.c[3]];
    if (p > d->K) /* the root's gather lands in its result buffer: no wait */
        return own;
    if (q == 0) /* a combine follows the chunk's previous one */
        return p == 1 ? own : head + pre[d->at[c][p - 1]];
    return head + pre[j]; /* the rest follows this step's combine */
}

static double logp_crsg_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    return logp_crsg_formula(&s->p, s->bytes, s->P, logp_crsg_data(s)->C, s->topo.shared, s->topo.envelope);
}

static long logp_crsg_count(const logp_sched_t *s)
{
    const logp_crsg_data_t *d = logp_crsg_data(s);
    return d->P2 * (4L + d->pre[0][d->nitems]) + d->pre[1][d->nitems] + 2L * (s->P - d->P2);
}

const logp_family_t logp_family_chunked_rsg = {
    .build = logp_crsg_build,
    .release = logp_crsg_release,
    .nops = logp_crsg_nops,
    .op = logp_crsg_op,
    .dep = logp_crsg_dep,
    .estimate = logp_crsg_estimate,
    .count = logp_crsg_count,
    /* sends to several peers in flight at once (no serial rule): a rank's
     * next step does not wait for its previous sends; decisions price it
     * by its formula beyond LOGP_PLAN_ESTIMATED_OPS (a shared network's
     * simulation of 1 MiB takes 9 ms at P = 64, 20 at P = 256, 40 at
     * P = 1024, and its budget cuts it off there anyway) */
    .flags = LOGP_FAMILY_DATAFLOW | LOGP_FAMILY_CONCURRENT | LOGP_FAMILY_ESTIMATED,
};
