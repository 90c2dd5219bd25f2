/* reduce-scatter-gather (reduce, commutative; Rabenseifner 2004, MPICH's
 *   large-message reduce, here in base 4 and with chunked steps): with P'
 *   the largest power of two <= P, the first 2(P - P') relative ranks
 *   fold in pairs (odd into even); the P' left scatter the reduction over
 *   the digits of their new rank n, from the top: at a base-r digit
 *   (r = 4, or 2 for an odd bit left over) a rank keeps the r-th of its
 *   current range that its digit names, sends each of its r - 1 partners
 *   (n with that digit changed) theirs, and combines its own from each,
 *   so that new rank n ends with block n of P' fully reduced; a gather
 *   over the same digits from the bottom brings the blocks to the root
 *   (new rank 0).  Each exchange is cut into q chunks (q per step, the
 *   least of a one-step formula, logp_rsag_step), sent two chunks ahead
 *   of the combines, so that combining chunk j overlaps the transfer of
 *   chunk j + 1.  Cost, base 2 without chunks: fold p2p(m) + m gamma (if
 *   P is not a power of two), then 2 log2 P' (2o + L) + 2 (P'-1)/P' m G
 *   + (P'-1)/P' m gamma: the vector crosses a link about twice instead
 *   of log2 P times.  Base 4 halves the 2 log2 P' latencies; chunks hide
 *   the scatter's (P'-1)/P' m G under its combines where gamma >= G, at
 *   two overheads per chunk.  The radix is priced: on LogGP a rank's three
 *   partners' bytes leave one after another and base 2 wins from about
 *   256 KiB (P = 64, default parameters); on a shared network base 4.
 *   Measured against SMPI: docs/results/measurements-in-code.md,
 *   "reduce-scatter-gather".
 *
 * Not from the seeds: the seeds' trees send the whole message on every
 * edge, so their time grows as (depth) m G; this is one of the classical
 * bandwidth-optimal algorithms, written in the seeds' LogGP cost
 * convention (params.h) and priced by the same simulator.  A rank's
 * operations are closed forms of (rank, root, P, parts): O(1) state in the
 * view, O(1) per operation, no allocation (sched.h).
 */
#include <limits.h>
#include <stdlib.h>

#include "alltoall_pattern.h" /* logp_butterfly_steps: ceil(log2 P) */
#include "sched.h"
#include "sched_replay.h"

/* Parts per new rank: a step's exchange with each partner is cut into up
 * to this many chunks (logp_rsag_chunks), so that combining one overlaps
 * the transfer of the next. */
#define LOGP_RSAG_CHUNKS 4
#define LOGP_RSAG_RADIX 4 /* the larger radix (the other is 2) */
#define LOGP_RSAG_PACED_BYTES 65536 /* paced from here on a shared network (build) */

/* What build decides once, so that a rank's operations cost O(1) each
 * (the executor asks for them on every call): the steps and their chunk
 * counts for the radix s->k, and the operations they make. */
typedef struct {
    int bits;                 /* of the new ranks: log2 P' */
    int steps;
    int scatter_ops;          /* 2 per chunk and partner, all steps */
    unsigned char chunks[32]; /* per reduce-scatter step (at most 30 of them) */
} logp_rsag_data_t;

static double logp_rsag_time(const logp_sched_t *s, int root, int commutative);
static double logp_rsag_estimate(const logp_sched_t *s, int root, int commutative);
static void logp_rsag_plan(const logp_sched_t *s, logp_rsag_data_t *d);

/* Replay steps the radix choice may spend on exact times (about 0.1 ms:
 * P = 64 at any size, P = 1024 for 8 B); beyond, the estimate. */
#define LOGP_RSAG_EXACT_BUILD 8192L

/* The radix (s->k): 4 (half the steps, three partners a step) unless 2 is
 * priced lower: by the exact time on LogGP while it is cheap (a rank
 * injects its three partners' bytes one after another there, so that base
 * 4 loses from about 256 KiB at P = 64, default parameters), else by the
 * estimate (on a shared network, where the three transfers share the link
 * and base 4 saves its steps' latency at every size, and at large P). */
static logp_status_t logp_rsag_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    long P2 = logp_replay_pow2_floor(s->P);
    logp_rsag_data_t *d = malloc(sizeof *d);
    if (d == NULL)
        return LOGP_ERR_NOMEM;
    s->data = d;
    s->parts = (int)(P2 <= INT_MAX / LOGP_RSAG_CHUNKS ? P2 * LOGP_RSAG_CHUNKS : P2);
    double t[2];
    for (int i = 0; i < 2; i++) {
        s->k = i ? 2 : LOGP_RSAG_RADIX;
        logp_rsag_plan(s, d);
        int cheap = (long)d->scatter_ops * P2 <= LOGP_RSAG_EXACT_BUILD;
        t[i] = s->topo.shared || !cheap ? -1.0 : logp_rsag_time(s, 0, 1);
        if (t[i] < 0.0)
            t[i] = logp_rsag_estimate(s, 0, 1);
    }
    if (t[1] >= t[0]) {
        s->k = LOGP_RSAG_RADIX;
        logp_rsag_plan(s, d);
    }
    /* on a shared network from 64 KiB every send synchronous: a
     * rendezvous message lands in its posted receive and costs the
     * receiver no overhead (sim.h); SMPI gains a few percent there and
     * nothing below, where the simulator would promise 14%
     * (docs/results/measurements-in-code.md, "reduce-scatter-gather:
     * pacing").  From 1 MiB every send is synchronous
     * anyway, at most 32 in flight, and the level order below is
     * deadlock-free in that regime (logp_rsag_level). */
    s->window = s->topo.shared && s->bytes >= LOGP_RSAG_PACED_BYTES ? LOGP_SCHED_WINDOW_MAX : 0;
    return LOGP_OK;
}

static void logp_rsag_release(logp_sched_t *s)
{
    free(s->data);
    s->data = NULL;
}

/* The new ranks: the largest power of two <= P. */
static long logp_rsag_p2(const logp_sched_t *s)
{
    return s->parts > s->P ? s->parts / LOGP_RSAG_CHUNKS : s->parts;
}

/* Parts per new-rank block: LOGP_RSAG_CHUNKS, or 1 where P' times that
 * exceeds INT_MAX (then parts = P' <= P; else parts = LOGP_RSAG_CHUNKS P'
 * > P, since P < 2 P'). */
static long logp_rsag_q(const logp_sched_t *s)
{
    return s->parts > s->P ? LOGP_RSAG_CHUNKS : 1;
}

/* Steps of the reduce-scatter (and of the gather): one per digit of the
 * new ranks in the schedule's radix s->k (2 or 4; with 4, one base-2
 * step for an odd number of bits; logp_rsag_plan counts them). */
static int logp_rsag_steps(const logp_sched_t *s)
{
    return ((const logp_rsag_data_t *)s->data)->steps;
}

/* Reduce-scatter step k (0 first): its digit's lowest bit *b and its
 * radix *r; the digits go from the top.  The gather takes them in
 * reverse order. */
static void logp_rsag_digit(const logp_sched_t *s, int k, int *b, int *r)
{
    int K = ((const logp_rsag_data_t *)s->data)->bits;
    *r = s->k == LOGP_RSAG_RADIX && 2 * k + 2 <= K ? LOGP_RSAG_RADIX : 2;
    *b = s->k == LOGP_RSAG_RADIX ? K - 2 * k - (*r == LOGP_RSAG_RADIX ? 2 : 1) : K - 1 - k;
}

/* One step's time for a sub-range of h bytes per partner (r - 1 of them)
 * cut into q chunks of c bytes (uniform parameters p): the first chunk
 * arrives after p2p(c) - o, the others a gap(c) apart; the receiver, done
 * with its sends (o each), takes each (o) and combines it (c gamma), the
 * last one once it has arrived and the others are combined.  (It leaves
 * out LogGP's one injection at a time, which makes a rank's three
 * partners' sends cost it their gaps: the exact time has it.) */
static double logp_rsag_step(const logp_params_t *p, size_t h, int q, int r)
{
    size_t c = (h + (size_t)q - 1) / (size_t)q;
    double comb = (double)c * p->gamma, first = logp_params_p2p(p, c) - p->o, n = (double)q * (r - 1);
    double last = first + (n - 1.0) * logp_params_gap(p, c);
    double cpu = logp_replay_max(n * p->o, first) + (n - 1.0) * (p->o + comb);
    return logp_replay_max(last, cpu) + p->o + comb;
}

/* Chunks of reduce-scatter step k: the q in 1, 2, 4, .., LOGP_RSAG_CHUNKS
 * of least logp_rsag_step (a larger q only if 1% faster: each chunk
 * costs two overheads the formula may underrate).  q divides the sub-
 * range's 2^b LOGP_RSAG_CHUNKS parts. */
static int logp_rsag_choose_chunks(const logp_sched_t *s, int k)
{
    int b, r, best = 1;
    logp_rsag_digit(s, k, &b, &r);
    size_t h = logp_sched_part_bytes(s->bytes, s->parts, 0, (int)((1L << b) * logp_rsag_q(s)));
    double best_t = logp_rsag_step(&s->p, h, 1, r);
    for (int q = 2; q <= LOGP_RSAG_CHUNKS && q <= (1L << b) * logp_rsag_q(s); q *= 2) {
        double t = logp_rsag_step(&s->p, h, q, r);
        if (t < best_t * 0.99) {
            best = q;
            best_t = t;
        }
    }
    return best;
}

/* The chunks of step k, as planned. */
static int logp_rsag_chunks(const logp_sched_t *s, int k)
{
    return ((const logp_rsag_data_t *)s->data)->chunks[k];
}

/* Chunk level t (0 <= t < 2q) of a step in q chunks: the first two
 * chunks' sends, then each chunk's combines followed by the sends of the
 * chunk two ahead, then the last combines (every level: one message per
 * partner).  Chunk j + 1 is on its way while j is combined.  No deadlock
 * with synchronous sends: every rank posts the sends of chunks 0 and 1
 * unconditionally and those of chunk j + 2 once it combined chunk j, so
 * by induction on j every rank's chunk j arrives.  Returns chunk j;
 * *send set if level t sends it. */
static int logp_rsag_level(int q, int t, int *send)
{
    int u = t - 2;
    *send = t < 2 && t < q;
    if (*send)
        return t;
    if (q == 1)
        return 0;
    if (u < 2 * (q - 2)) {
        *send = u % 2;
        return *send ? u / 2 + 2 : u / 2;
    }
    return q - 2 + (u - 2 * (q - 2));
}

/* Relative rank of new rank n (after the fold of `extra` pairs). */
static long logp_rsag_rel(long n, long extra)
{
    return n < extra ? 2 * n : n + extra;
}

/* Absolute rank of new rank n. */
static int logp_rsag_abs(const logp_view_t *v, long n)
{
    return logp_sched_abs(v->s, v->root, logp_rsag_rel(n, v->s->P - logp_rsag_p2(v->s)));
}

/* The partner of new rank n in slot k (0 .. r - 2) of the step whose
 * digit starts at bit b with radix r: digit x + 1 + k (mod r), so that
 * the ranks of a group start with different partners. */
static long logp_rsag_partner(long n, int b, int r, int k)
{
    long d = 1L << b, x = (n >> b) % r, y = (x + 1 + k) % r;
    return n + (y - x) * d;
}

/* Plans the radix s->k: its steps, each step's chunks and the
 * reduce-scatter's operations (2 per chunk and partner). */
static void logp_rsag_plan(const logp_sched_t *s, logp_rsag_data_t *d)
{
    int K = d->bits = logp_butterfly_steps((int)logp_rsag_p2(s));
    d->steps = s->k == LOGP_RSAG_RADIX ? K / 2 + K % 2 : K;
    d->scatter_ops = 0;
    for (int k = 0; k < d->steps; k++) {
        int b, r;
        logp_rsag_digit(s, k, &b, &r);
        d->chunks[k] = (unsigned char)logp_rsag_choose_chunks(s, k);
        d->scatter_ops += 2 * d->chunks[k] * (r - 1);
    }
}

static int logp_rsag_scatter_ops(const logp_sched_t *s)
{
    return ((const logp_rsag_data_t *)s->data)->scatter_ops;
}

/* Gather receives of new rank n: r - 1 per gather step up to the digit
 * of its lowest set bit (every step for n = 0). */
static int logp_rsag_gather_recvs(const logp_sched_t *s, long n)
{
    int recvs = 0;
    for (int k = logp_rsag_steps(s) - 1; k >= 0; k--) {
        int b, r;
        logp_rsag_digit(s, k, &b, &r);
        if (n != 0 && (n >> b) % r != 0)
            break;
        recvs += r - 1;
    }
    return recvs;
}

/* Cursor: c[0] relative rank, c[1] new rank (-1: folded away), c[2]
 * whether the rank takes its odd neighbour's vector first, c[3] gather
 * receives. */
static int logp_rsag_nops(logp_view_t *v)
{
    long P2 = logp_rsag_p2(v->s);
    long rel = logp_sched_rel(v->s, v->root, v->rank), extra = v->s->P - P2;
    v->node.c[0] = rel;
    if (rel < 2 * extra && rel % 2 == 1) {
        v->node.c[1] = -1;
        return 2; /* its own vector, sent whole to rel - 1 */
    }
    long n = rel < 2 * extra ? rel / 2 : rel - extra;
    v->node.c[1] = n;
    v->node.c[2] = rel < 2 * extra;
    v->node.c[3] = logp_rsag_gather_recvs(v->s, n);
    return (int)(1 + v->node.c[2] + logp_rsag_scatter_ops(v->s) + v->node.c[3] + (n != 0));
}

static logp_op_t logp_rsag_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    long rel = v->node.c[0], n = v->node.c[1], Q = logp_rsag_q(s);
    int steps = logp_rsag_steps(s), b, r;
    if (i == 0)
        return logp_op_whole(LOGP_OP_INIT_OWN, v->rank, 0, s->bytes);
    i--;
    if (n < 0)
        return logp_op_whole(LOGP_OP_SEND, logp_sched_abs(s, v->root, rel - 1), 0, s->bytes);
    if (v->node.c[2]) {
        if (i == 0)
            return logp_op_whole(LOGP_OP_RECV_REDUCE, logp_sched_abs(s, v->root, rel + 1), LOGP_SIDE_APPEND,
                                 s->bytes);
        i--;
    }
    /* reduce-scatter: at digit (b, r) the rank keeps the sub-range of its
     * digit x of its current range [hi, hi + r 2^b) of new-rank blocks
     * (block c: parts c Q .. c Q + Q), sends partner y's sub-range to y,
     * and combines its own from every partner, chunk by chunk */
    for (int k = 0; k < steps; k++) {
        int q = logp_rsag_chunks(s, k);
        logp_rsag_digit(s, k, &b, &r);
        if (i < 2 * q * (r - 1)) {
            int send, j = logp_rsag_level(q, i / (r - 1), &send);
            long d = 1L << b, hi = n & ~(r * d - 1), per = d * Q / q;
            long peer = logp_rsag_partner(n, b, r, i % (r - 1));
            long sub = send ? hi + ((peer >> b) % r) * d : hi + ((n >> b) % r) * d;
            return logp_replay_op(s, send ? LOGP_OP_SEND : LOGP_OP_RECV_REDUCE, logp_rsag_abs(v, peer),
                                 send ? 0 : LOGP_SIDE_APPEND, sub * Q + j * per, per);
        }
        i -= 2 * q * (r - 1);
    }
    /* gather, digits from the bottom: a rank whose lower digits are 0
     * receives [n + y 2^b, + 2^b) from n + y 2^b (y = 1 .. r - 1), then
     * one whose digit is not 0 sends all it holds down */
    for (int k = steps - 1; k >= 0; k--) {
        logp_rsag_digit(s, k, &b, &r);
        long d = 1L << b;
        if (n != 0 && (n >> b) % r != 0)
            return logp_replay_op(s, LOGP_OP_SEND, logp_rsag_abs(v, n - ((n >> b) % r) * d), 0, n * Q, d * Q);
        if (i < r - 1)
            return logp_replay_op(s, LOGP_OP_RECV, logp_rsag_abs(v, n + (i + 1) * d), 0, (n + (i + 1) * d) * Q, d * Q);
        i -= r - 1;
    }
    return logp_op_whole(LOGP_OP_INIT_OWN, v->rank, 0, s->bytes); /* not reached: i < nops */
}

static double logp_rsag_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    const logp_params_t *p = &s->p;
    long P = s->P, P2 = logp_rsag_p2(s);
    if (P <= 1)
        return 0.0;
    double m = (double)s->bytes, frac = (double)(P2 - 1) / (double)P2;
    double t = P2 < P ? logp_params_p2p(p, s->bytes) + m * p->gamma : 0.0; /* the fold */
    for (int k = 0; k < logp_rsag_steps(s); k++) {
        int b, r;
        logp_rsag_digit(s, k, &b, &r);
        t += logp_rsag_step(p, logp_sched_part_bytes(s->bytes, s->parts, 0, (int)((1L << b) * logp_rsag_q(s))),
                            logp_rsag_chunks(s, k), r) +
             (r - 2) * logp_params_gap(p, 0) + logp_params_p2p(p, 0); /* and its gather step */
    }
    return t + frac * m * p->G; /* the gather's bytes into the root */
}

/* Exact uniform time: every rank in lock step (fold, each reduce-scatter
 * level, each gather step: sends first, then the receives they feed),
 * O(P log P) steps, O(P) memory.  Indexed by relative rank. */
static double logp_rsag_time(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    const logp_params_t *p = &s->p;
    long P = s->P, P2 = logp_rsag_p2(s), extra = P - P2, Q = logp_rsag_q(s);
    int steps = logp_rsag_steps(s), b, r;
    if (P <= 1)
        return 0.0;
    if ((long)logp_rsag_scatter_ops(s) * P2 + 8 * P > LOGP_REPLAY_EXACT_STEPS)
        return -1.0;
    logp_replay_clock_t *c = calloc((size_t)P, sizeof(*c));
    /* arrivals by (receiver, sender's digit, chunk) */
    double *arrive = malloc(sizeof(double) * (size_t)(P2 * LOGP_RSAG_RADIX * LOGP_RSAG_CHUNKS)), total = 0.0;
    if (c == NULL || arrive == NULL) {
        free(c);
        free(arrive);
        return -1.0;
    }
    for (long x = 1; x < 2 * extra; x += 2) { /* the fold: odd into even */
        double a = logp_params_post(p, s->bytes, &c[x].cpu, &c[x].nsend);
        logp_replay_recv(p, s->bytes, 1, a, &c[x - 1]);
    }
    for (int k = 0; k < steps; k++) { /* new rank n is relative rank logp_rsag_rel(n, extra) */
        int q = logp_rsag_chunks(s, k);
        logp_rsag_digit(s, k, &b, &r);
        long d = 1L << b, per = d * Q / q;
        for (int t = 0; t < 2 * q; t++) { /* the step's levels in order: a send precedes its receive */
            int send, j = logp_rsag_level(q, t, &send);
            for (int slot = 0; slot < r - 1; slot++)
                for (long n = 0; n < P2; n++) {
                    long peer = logp_rsag_partner(n, b, r, slot), hi = n & ~(r * d - 1);
                    long sub = hi + (((send ? peer : n) >> b) % r) * d;
                    size_t bytes = logp_sched_part_bytes(s->bytes, s->parts, (int)(sub * Q + j * per), (int)per);
                    logp_replay_clock_t *me = &c[logp_rsag_rel(n, extra)];
                    if (send) /* concurrent sends: no serial rule */
                        arrive[(peer * LOGP_RSAG_RADIX + (n >> b) % r) * LOGP_RSAG_CHUNKS + j] =
                            logp_params_post(p, bytes, &me->cpu, &me->nsend);
                    else
                        logp_replay_recv(p, bytes, 1, arrive[(n * LOGP_RSAG_RADIX + (peer >> b) % r) * LOGP_RSAG_CHUNKS + j], me);
                }
        }
    }
    for (int k = steps - 1; k >= 0; k--) { /* gather */
        logp_rsag_digit(s, k, &b, &r);
        long d = 1L << b;
        for (long n = d; n < P2; n += d)
            if ((n >> b) % r != 0) {
                logp_replay_clock_t *me = &c[logp_rsag_rel(n, extra)];
                arrive[n] = logp_params_post(p, logp_sched_part_bytes(s->bytes, s->parts, (int)(n * Q), (int)(d * Q)),
                                             &me->cpu, &me->nsend);
            }
        for (long n = 0; n < P2; n += r * d)
            for (long y = 1; y < r; y++)
                logp_replay_recv(p, logp_sched_part_bytes(s->bytes, s->parts, (int)((n + y * d) * Q), (int)(d * Q)), 0,
                                arrive[n + y * d], &c[logp_rsag_rel(n, extra)]);
    }
    for (long x = 0; x < P; x++)
        total = logp_replay_max(total, c[x].cpu);
    free(c);
    free(arrive);
    return total;
}

static long logp_rsag_count(const logp_sched_t *s)
{
    return (long)s->P * (3L + 3L * logp_rsag_steps(s) + logp_rsag_scatter_ops(s));
}

const logp_family_t logp_family_rsag = {
    .build = logp_rsag_build,
    .release = logp_rsag_release,
    .nops = logp_rsag_nops,
    .op = logp_rsag_op,
    .time = logp_rsag_time,
    .estimate = logp_rsag_estimate,
    .count = logp_rsag_count,
    /* a base-4 step sends to three partners before it receives: held
     * large sends (buffer.h's serial rule) would wait in a cycle */
    .flags = LOGP_FAMILY_CONCURRENT,
};
