/* Schedules for large messages.  Not from the seeds: the seeds' trees send
 * the whole message on every edge, so their time grows as (depth) m G; these
 * are the classical bandwidth-optimal algorithms, written in the seeds'
 * LogGP cost convention (params.h) and priced by the same simulator.
 * A rank's operations are closed forms of (rank, root, P, parts): O(1)
 * state in the view, O(1) per operation (O(log P) for scatter-allgather's
 * doubling steps), no allocation.
 *
 * scatter-allgather (bcast; Barnett, van de Geijn et al. 1994, with the
 *   allgather of Bruck et al. 1997, so any P): the message is cut into P
 *   parts, part c for relative rank c.  A binomial scatter gives each rank
 *   the parts of its binomial subtree [r, r + sub); then in ceil(log2 P)
 *   doubling steps rank r sends r - 2^k the parts it holds that r - 2^k
 *   lacks and receives from r + 2^k the parts [r + 2^k, r + 2^(k+1)) it
 *   lacks (relative, mod P: a range that wraps is two messages; a step
 *   with nothing to move sends nothing).
 *   Cost (uniform, c = m/P): scatter ceil(log2 P)(2o + L) + (P-1)/P m G,
 *   allgather ceil(log2 P)(2o + L) + (P-1)/P m G; the exact replay gives
 *   about 2 log2 P (2o + L) + 3 m G (the root's scatter sends hold it m G
 *   before its first allgather send), against depth x m G for a tree
 *   (MPICH and Open MPI use the same scatter with recursive doubling or a
 *   ring; a ring costs P - 1 latencies, each step waiting for the last).
 * pipeline (bcast, reduce): a chain cut into k segments; a rank forwards
 *   segment j as soon as it has it (a reduce: combined with its own part).
 *   Cost, s = m/k, c = gamma for a reduce (0 for a bcast):
 *     T(k) = (P - 1)(p2p(s) + c s) + (k - 1) max(gap(s), 2o + c s).
 *   With large segments gap(s) = o + (s - 1)G, so
 *     T(k) ~ (P-1)(2o + L) + (P - 2) m (G + c) / k + k o + m (G + c),
 *   minimal at k* = sqrt((P - 2) m (G + c) / o), where
 *     T* ~ (P-1)(2o + L) + m (G + c) + 2 sqrt((P - 2) m (G + c) o).
 *   logp_pipeline_segments takes the k of least T(k) (scanned exactly; a
 *   k dividing m, equal segments, when within 0.1%).
 *   The bcast chain runs in relative rank order from the root.  A
 *   commutative reduce runs the chain root+1, root+2, .., root (it ends at
 *   the root); a non-commutative one runs 0, 1, .., P-1 (each rank
 *   prepends what comes from below, so rank order holds) and P-1 hands each
 *   segment to the root as it is done.
 * reduce-scatter-gather (reduce, commutative; Rabenseifner 2004, MPICH's
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
 *   SMPI (shared network), P = 64: 64 KiB 59.9 -> 55.3 us, 1 MiB 539 ->
 *   459 (MPICH's selector: 61.1, 545); P = 256, 256 KiB: 165 -> 146 (169).
 * binary-pipeline (bcast, commutative reduce; the pipelined binary tree
 *   of MPICH's and Open MPI's segmented trees, SMPI's NTSB): a balanced
 *   binary tree over relative ranks in preorder (the subtree of rank r
 *   with n ranks is [r, r + n); its first child r + 1 roots ceil((n-1)/2)
 *   of them, the second the rest), the message cut into k segments; a
 *   rank forwards segment j to both children as soon as it has it (a
 *   reduce: combines segment j from both children, then sends it up).
 *   With height H = floor(log2 P), s = m/k, c = gamma for a reduce:
 *     T(k) = H (p2p(s) + gap(s) + c s) + (k - 1) max(2 gap(s), 3o + 2 c s)
 *   (the first segment reaches the deepest second child after H hops of
 *   one message and one gap each; every later segment leaves an interior
 *   rank two sends later).  For large segments 2 gap(s) = 2o + 2 s G, so
 *     T(k) ~ H (3o + L) + 2 H m G / k + 2 (k - 1) o + 2 m G,
 *   minimal at k* = sqrt(H m (G + c) / o) (c: see the formula).  The tree
 *   moves about 2 m G through an interior rank (twice the chain's m G) but
 *   the first segment needs H hops, not P - 1: it wins from medium sizes
 *   until the chain's fill is amortised.  k is the minimiser of T(k) over
 *   1 .. LOGP_PIPELINE_MAX_SEGMENTS (k <= m), a divisor of m within 0.1%.
 *   Not a candidate of auto yet (LOGP_FAMILY_FORCED_ONLY): SMPI (P = 64,
 *   256, docs/large-messages.md) measures it 36-50% above this model
 *   from 1 MiB, while scatter-allgather, which it would displace there,
 *   measures 26-35% below its own (and faster); at 64 KiB it measured
 *   the fastest bcast of all (34 us against NTSB's 35 and our
 *   scatter-allgather's 44), which auto reaches once the models agree.
 * two-tree (bcast, commutative reduce; Sanders, Speck and Traeff 2009,
 *   "Two-tree algorithms for full bandwidth broadcast, reduction and
 *   scan"): the non-root ranks 1 .. n (n = P - 1, relative) form tree A,
 *   the in-order binary tree in which position x sits at height ctz(x)
 *   (odd positions are leaves, even ones interior), and tree B, the same
 *   tree relabelled: shifted by one position for odd n, mirrored for even
 *   n, so that every rank is interior in at most one tree.  Even segments
 *   travel in A, odd ones in B: a bcast's root feeds them to the trees'
 *   roots and a rank forwards each to its children in that tree; a
 *   reduce's rank combines each from its children in that tree and sends
 *   it to its parent there, the root taking it from the tree's root.
 *   Every rank receives about m bytes and sends at most m (2 children on
 *   half the segments), so the steady period is one segment's gap where
 *   the pipelined binary tree needs two; a reduce's interior rank
 *   combines m bytes, the others none.  Our own order (not the paper's
 *   edge colouring): a rank takes its segments in the order they are due
 *   at its depth in each tree (below), which keeps the trees from waiting
 *   for each other.  With D = 1 + floor(log2 n), c = gamma for a reduce:
 *     T(k) ~ D (p2p(s) + gap(s) + 2 c s) + (k - 1) max(gap(s) + o, 2o + c s)
 *   (fitted to the simulator: within 18% at the default parameters, 50%
 *   at random ones, check_sim); for a bcast about D (3o + L) + m G + k o
 *   + D m G / k with large segments, minimal near k* = sqrt(D m G / o);
 *   segments stay within LOGP_TWOTREE_MAX_SEGMENT (sched_large.h).  The
 *   simulator prices it exactly (no closed form: the order interleaves
 *   both trees); decisions use T(k), or the simulator while the
 *   schedule has at most LOGP_SIM_ESTIMATED_OPS operations (T(k) is
 *   10 - 38% high at P = 2 - 8, 7% low at P = 64, 1 MiB).  On a shared
 *   network (topo.shared) T(k) misses the children's sends sharing the
 *   rank's interface: there the count is the best of T(k)'s and six
 *   others around it by a simulated proxy on at most 32 ranks
 *   (logp_twotree_proxy), whose time is then the estimate, and a bcast
 *   is paced: every segment synchronous, at most lag + 3 of a rank's in
 *   flight (logp_twotree_window), since a rank's many transfers in flight
 *   would share its interface and each cross a level slower.  Predicted
 *   at P = 64 (default parameters, shared network): bcast 1 MiB 134 us in
 *   160 segments (SMPI, platform parameters: 137) against
 *   binary-pipeline's 460 and the bound (m - 1)G + T* = 114; reduce 1 MiB
 *   434 us (SMPI 431). */
#include "sched_large.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "alltoall.h" /* logp_butterfly_steps: ceil(log2 P) */
#include "sim.h"      /* two-tree on a shared network: its proxy */

/* Exact uniform-model times (the simulator's rules, params.h, replayed
 * rank by rank in dependency order) are evaluated when they take at most
 * this many message steps; beyond it the schedule is priced like a layout
 * (simulator or the design formula, sim.h). */
#define LOGP_LARGE_EXACT_STEPS (1L << 20)

/* One rank's clocks under the simulator's rules: CPU free, next send,
 * next receive, and when its large sends to one peer have arrived (a send
 * to another peer waits for that: params.h). */
typedef struct {
    double cpu, nsend, nrecv;
    double serial;
    long serial_peer; /* that peer + 1; 0: none */
} logp_large_clock_t;

/* An m-byte send to `peer` (any number that tells peers apart); returns
 * its arrival. */
static double logp_large_send(const logp_params_t *p, size_t b, long peer, logp_large_clock_t *c)
{
    if (c->serial_peer != 0 && c->serial_peer != peer + 1 && c->serial > c->nsend)
        c->nsend = c->serial;
    double at = logp_params_post(p, b, &c->cpu, &c->nsend);
    if (b > LOGP_PARAMS_SERIAL_BYTES) {
        c->serial = c->serial_peer == peer + 1 && c->serial > at ? c->serial : at;
        c->serial_peer = peer + 1;
    }
    return at;
}

static void logp_large_recv(const logp_params_t *p, size_t b, int combine, double arrive, logp_large_clock_t *c)
{
    logp_recv_state_t rs = {c->cpu, c->nrecv};
    logp_params_take(p, b, combine, arrive, &rs);
    c->cpu = rs.cpu;
    c->nrecv = rs.next;
}

static double logp_large_max(double a, double b)
{
    return a > b ? a : b;
}

static long logp_large_lowbit(long x)
{
    return x & -x;
}

/* Largest power of two <= x (x >= 1). */
static long logp_large_pow2_floor(long x)
{
    long p = 1;
    while (p <= x / 2)
        p *= 2;
    return p;
}

/* An operation on parts [part, part + n) of s's message. */
static logp_op_t logp_large_op(const logp_sched_t *s, int kind, int peer, int arg, long part, long n)
{
    return logp_op_parts(kind, peer, arg, logp_sched_part_bytes(s->bytes, s->parts, (int)part, (int)n), (int)part,
                         (int)n);
}

/* ---- scatter-allgather ------------------------------------------------ */

static logp_status_t logp_sag_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    s->parts = s->P;
    return LOGP_OK;
}

/* Parts relative rank r holds after the scatter: [r, r + sub), its
 * subtree of the binomial tree. */
static long logp_sag_sub(long r, long P)
{
    long sub = r == 0 ? P : logp_large_lowbit(r);
    return sub < P - r ? sub : P - r;
}

/* The scatter runs down the binomial family's tree (sched_tree.c): the
 * same parent, children and send order (largest subtree first). */
static const logp_family_t *logp_sag_tree(void)
{
    return logp_sched_family(LOGP_ALGO_BINOMIAL);
}

/* Relative parts r + x, x in [a, b) (mod P, b <= P), as at most two
 * contiguous ranges; returns how many (0 if a >= b). */
static int logp_sag_pieces(long r, long P, long a, long b, long first[2], long n[2])
{
    if (a >= b)
        return 0;
    long lo = (r + a) % P, len = b - a;
    first[0] = lo;
    n[0] = lo + len <= P ? len : P - lo;
    first[1] = 0;
    n[1] = len - n[0];
    return n[1] > 0 ? 2 : 1;
}

/* The parts relative rank r lacks and receives from r + 2^k at doubling
 * step k: r + x for x in [max(2^k, sub(r)), min(2^(k+1), P)).  Its sender
 * r + 2^k sends exactly these (as pieces of the same shape). */
static int logp_sag_need(long r, long P, int k, long first[2], long n[2])
{
    long lo = 1L << k, hi = 2L << k, sub = logp_sag_sub(r, P);
    return logp_sag_pieces(r, P, lo > sub ? lo : sub, hi < P ? hi : P, first, n);
}

/* Cursor: the binomial node (parent, children), and c[2] the relative rank. */
static int logp_sag_nops(logp_view_t *v)
{
    const logp_sched_t *s = v->s;
    long P = s->P, rel = logp_sched_rel(s, v->root, v->rank);
    logp_sag_tree()->node(s, v->root, v->rank, &v->node);
    v->node.c[2] = rel;
    int n = (v->node.parent >= 0) + v->node.nkids;
    for (int k = 0; k < logp_butterfly_steps((int)P); k++) {
        long f[2], c[2];
        n += logp_sag_need((rel - (1L << k) % P + P) % P, P, k, f, c) + logp_sag_need(rel, P, k, f, c);
    }
    return n;
}

static logp_op_t logp_sag_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    int P = s->P, root = v->root;
    long rel = v->node.c[2];
    if (v->node.parent >= 0) { /* scatter: the parts of this rank's subtree from its parent */
        if (i == 0)
            return logp_large_op(s, LOGP_OP_RECV, v->node.parent, 0, rel, logp_sag_sub(rel, P));
        i--;
    }
    if (i < v->node.nkids) { /* scatter: each child's subtree */
        int child = logp_sag_tree()->kid(s, root, &v->node, i);
        long crel = logp_sched_rel(s, root, child);
        return logp_large_op(s, LOGP_OP_SEND, child, 0, crel, logp_sag_sub(crel, P));
    }
    i -= v->node.nkids;
    for (int k = 0; k < logp_butterfly_steps(P); k++) { /* O(log P): the step holding operation i */
        long d = 1L << k, to = (rel - d % P + P) % P, f[2], c[2];
        int m = logp_sag_need(to, P, k, f, c); /* sends first: what `to` lacks */
        if (i < m)
            return logp_large_op(s, LOGP_OP_SEND, logp_sched_abs(s, root, to), 0, f[i], c[i]);
        i -= m;
        m = logp_sag_need(rel, P, k, f, c); /* then receives: what this rank lacks */
        if (i < m)
            return logp_large_op(s, LOGP_OP_RECV, logp_sched_abs(s, root, rel + d), 0, f[i], c[i]);
        i -= m;
    }
    return logp_op_whole(LOGP_OP_SEND, -1, 0, 0); /* not reached: i < nops */
}

/* Exact uniform time: the scatter in increasing relative rank (a parent
 * comes before its children), then every doubling step in lock step
 * (sends, then the receives they feed): O(P log P), O(P) memory. */
static double logp_sag_time(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    const logp_params_t *p = &s->p;
    long P = s->P;
    int K = logp_butterfly_steps((int)P);
    if (P <= 1)
        return 0.0;
    if (P * (K + 1) > LOGP_LARGE_EXACT_STEPS / 2)
        return -1.0;
    logp_large_clock_t *c = calloc((size_t)P, sizeof(*c));
    double *arrive = malloc(sizeof(double) * 2 * (size_t)P), total = 0.0;
    if (c == NULL || arrive == NULL) {
        free(c);
        free(arrive);
        return -1.0;
    }
    for (long r = 0; r < P; r++) { /* scatter, root 0 (relative = absolute); arrive[r]: r's subtree */
        logp_tnode_t n;
        logp_sag_tree()->node(s, 0, (int)r, &n);
        if (n.parent >= 0)
            logp_large_recv(p, logp_sched_part_bytes(s->bytes, (int)P, (int)r, (int)logp_sag_sub(r, P)), 0,
                            arrive[r], &c[r]);
        for (int j = 0; j < n.nkids; j++) {
            long child = logp_sag_tree()->kid(s, 0, &n, j);
            arrive[child] = logp_large_send(
                p, logp_sched_part_bytes(s->bytes, (int)P, (int)child, (int)logp_sag_sub(child, P)), child, &c[r]);
        }
    }
    for (int k = 0; k < K; k++) {
        long d = 1L << k, f[2], n[2];
        for (long r = 0; r < P; r++) { /* r sends r - 2^k what it lacks; arrive[2 (r - 2^k) + piece] */
            long to = (r - d % P + P) % P;
            for (int i = 0, m = logp_sag_need(to, P, k, f, n); i < m; i++)
                arrive[2 * to + i] = logp_large_send(p, logp_sched_part_bytes(s->bytes, (int)P, (int)f[i], (int)n[i]),
                                                     to, &c[r]);
        }
        for (long r = 0; r < P; r++)
            for (int i = 0, m = logp_sag_need(r, P, k, f, n); i < m; i++)
                logp_large_recv(p, logp_sched_part_bytes(s->bytes, (int)P, (int)f[i], (int)n[i]), 0, arrive[2 * r + i],
                                &c[r]);
    }
    for (long r = 0; r < P; r++)
        total = logp_large_max(total, c[r].cpu);
    free(c);
    free(arrive);
    return total;
}

static double logp_sag_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    const logp_params_t *p = &s->p;
    int P = s->P;
    if (P <= 1)
        return 0.0;
    double m = (double)s->bytes, hop = 2.0 * p->o + p->L;
    /* fitted to the exact time (P = 256 .. 4096): the root's scatter sends
     * take m G before its first allgather send, then the scatter's and the
     * allgather's m G each */
    return 2.0 * logp_butterfly_steps(P) * hop + 3.0 * (double)(P - 1) / P * m * p->G;
}

static long logp_sag_count(const logp_sched_t *s)
{
    return 2L * s->P * (logp_butterfly_steps(s->P) + 2);
}

const logp_family_t logp_family_scatter_allgather = {
    .build = logp_sag_build,
    .nops = logp_sag_nops,
    .op = logp_sag_op,
    .time = logp_sag_time,
    .estimate = logp_sag_estimate,
    .count = logp_sag_count,
};

/* ---- pipeline --------------------------------------------------------- */

double logp_pipeline_time(const logp_params_t *p, size_t m, int P, int combine, int k)
{
    if (P <= 1)
        return 0.0;
    size_t s = (m + (size_t)k - 1) / (size_t)k; /* the largest segment */
    double c = combine ? (double)s * p->gamma : 0.0;
    double cpu = (P > 2 ? 2.0 : 1.0) * p->o + c, gap = logp_params_gap(p, s);
    return (double)(P - 1) * (logp_params_p2p(p, s) + c) + (double)(k - 1) * (gap > cpu ? gap : cpu);
}

/* The k in [kmin, LOGP_PIPELINE_MAX_SEGMENTS] (k <= m; kmin >= 1 wins)
 * of least time(p, m, P, combine, k), a k that divides m (equal segments)
 * when within 0.1%: the exact times then find their steady delay
 * (logp_pipeline_exact). */
static int logp_large_segments_from(double (*time)(const logp_params_t *, size_t, int, int, int),
                                    const logp_params_t *p, size_t m, int P, int combine, int kmin)
{
    int kmax = m < LOGP_PIPELINE_MAX_SEGMENTS ? (int)(m > 0 ? m : 1) : LOGP_PIPELINE_MAX_SEGMENTS;
    if (kmin > kmax)
        kmin = kmax;
    if (kmin < 1 || P <= 1)
        kmin = 1;
    int best = kmin, even = kmin;
    double best_t = time(p, m, P, combine, kmin), even_t = m % (size_t)kmin == 0 ? best_t : INFINITY;
    for (int k = kmin + 1; k <= kmax && P > 1; k++) {
        double t = time(p, m, P, combine, k);
        if (t < best_t) {
            best = k;
            best_t = t;
        }
        if (m % (size_t)k == 0 && t < even_t) {
            even = k;
            even_t = t;
        }
    }
    return even_t <= best_t * 1.001 ? even : best;
}

static int logp_large_segments(double (*time)(const logp_params_t *, size_t, int, int, int), const logp_params_t *p,
                               size_t m, int P, int combine)
{
    return logp_large_segments_from(time, p, m, P, combine, 1);
}

int logp_pipeline_segments(const logp_params_t *p, size_t m, int P, int combine)
{
    return logp_large_segments(logp_pipeline_time, p, m, P, combine);
}

static logp_status_t logp_pipeline_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    s->parts = logp_pipeline_segments(&s->p, s->bytes, s->P, s->coll == LOGP_COLL_REDUCE);
    s->k = s->parts;
    return LOGP_OK;
}

/* Cursor: c[0] the peer segments come from (-1: none), c[1] the peer they
 * go to (-1: none), c[2] the arg of those sends (LOGP_RECV_RESULT for the
 * hand-over to the root), c[3] whether the rank then receives the result
 * (a non-commutative reduce's root). */
static int logp_pipeline_nops(logp_view_t *v)
{
    const logp_sched_t *s = v->s;
    int P = s->P, root = v->root, rank = v->rank, reduce = s->coll == LOGP_COLL_REDUCE;
    long in = -1, out = -1, arg = 0, tail = 0;
    if (!reduce || v->commutative) {
        /* bcast: relative order from the root; commutative reduce: root+1 .. root */
        long pos = reduce ? (rank - root - 1 + 2L * P) % P : logp_sched_rel(s, root, rank);
        long shift = reduce ? root + 1 : root;
        if (pos > 0)
            in = (pos - 1 + shift) % P;
        if (pos < P - 1)
            out = (pos + 1 + shift) % P;
    } else { /* rank order, then the last rank hands over */
        in = rank > 0 ? rank - 1 : -1;
        out = rank < P - 1 ? rank + 1 : rank != root ? root : -1;
        arg = rank == P - 1 ? LOGP_RECV_RESULT : 0;
        tail = rank == root && root != P - 1;
        v->tree_root = P - 1; /* its accumulator is the result */
    }
    v->node.c[0] = in;
    v->node.c[1] = out;
    v->node.c[2] = arg;
    v->node.c[3] = tail;
    return reduce + s->parts * (int)((in >= 0) + (out >= 0) + tail);
}

static logp_op_t logp_pipeline_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    int reduce = s->coll == LOGP_COLL_REDUCE, k = s->parts;
    int in = (int)v->node.c[0], out = (int)v->node.c[1], both = in >= 0 && out >= 0;
    if (reduce) {
        if (i == 0)
            return logp_op_whole(LOGP_OP_INIT_OWN, v->rank, 0, s->bytes);
        i--;
    }
    int chain = k * ((in >= 0) + (out >= 0));
    if (i >= chain) /* the root of a non-commutative reduce: the result, segment by segment */
        return logp_large_op(s, LOGP_OP_RECV, s->P - 1, LOGP_RECV_RESULT, i - chain, 1);
    int j = both ? i / 2 : i, recv = both ? i % 2 == 0 : in >= 0;
    if (recv)
        return logp_large_op(s, reduce ? LOGP_OP_RECV_REDUCE : LOGP_OP_RECV, in, LOGP_SIDE_PREPEND, j, 1);
    return logp_large_op(s, LOGP_OP_SEND, out, (int)v->node.c[2], j, 1);
}

/* Exact uniform time: chain positions in order, each replaying its
 * receives and sends against its predecessor's arrival times (O(k)
 * memory).  Forwarding positions are alike and shift-invariant (a
 * position's clocks start below its first arrival): once a position's
 * output is its input delayed by the same amount for every segment, so is
 * every later forwarding position's, and the walk jumps ahead (segments of
 * unequal size, by one byte, rarely give a common delay: then the walk goes
 * on up to LOGP_LARGE_EXACT_STEPS / 16 steps, beyond which the design
 * formula prices it; it agrees with the exact time to about 1e-6). */
static double logp_pipeline_exact(const logp_sched_t *s, int root, int commutative)
{
    const logp_params_t *p = &s->p;
    int P = s->P, k = s->parts, reduce = s->coll == LOGP_COLL_REDUCE;
    int handover = reduce && !commutative && root != P - 1; /* P-1 sends the result on to the root */
    int special = reduce && !commutative ? root : 0;       /* a position that does more than forward */
    double arr[LOGP_PIPELINE_MAX_SEGMENTS], total = 0.0;
    logp_large_clock_t at_root = {0};
    if (P <= 1)
        return 0.0;
    if (k > LOGP_PIPELINE_MAX_SEGMENTS || ((long)P * k > LOGP_LARGE_EXACT_STEPS / 16 && s->bytes % (size_t)k != 0))
        return -1.0; /* long, and unequal segments: no common delay to jump with */
    for (int pos = 0; pos < P; pos++) {
        logp_large_clock_t c = {0};
        int forward = pos > 0 && pos < P - 1 && pos != special, same = forward && pos > 1 && pos - 1 != special;
        double delay = 0.0;
        for (int j = 0; j < k; j++) {
            size_t b = logp_sched_part_bytes(s->bytes, k, j, 1);
            if (pos > 0)
                logp_large_recv(p, b, reduce, arr[j], &c);
            if (pos < P - 1 || handover) {
                double out = logp_large_send(p, b, 0, &c); /* one peer: the next in the chain, or the root */
                if (j == 0)
                    delay = out - arr[j];
                else if (fabs((out - arr[j]) - delay) > 1e-12 * (fabs(out) + 1e-300))
                    same = 0; /* arr[j] is still the predecessor's output here */
                arr[j] = out;
            }
        }
        if (handover && pos == root)
            at_root = c;
        total = logp_large_max(total, c.cpu);
        if ((long)pos * k > LOGP_LARGE_EXACT_STEPS / 16 && !same)
            return -1.0; /* no steady shift found within the budget: priced by the estimate */
        if (same) { /* forwarding positions pos+1 .. stop-1 repeat this one, each `delay` later */
            int stop = special > pos && special < P - 1 ? special : P - 1, jump = stop - 1 - pos;
            if (jump > 0) {
                for (int j = 0; j < k; j++)
                    arr[j] += (double)jump * delay;
                total = logp_large_max(total, c.cpu + (double)jump * delay);
                pos += jump;
            }
        }
    }
    for (int j = 0; handover && j < k; j++)
        logp_large_recv(p, logp_sched_part_bytes(s->bytes, k, j, 1), 0, arr[j], &at_root);
    return logp_large_max(total, at_root.cpu);
}

static double logp_pipeline_time_exact(const logp_sched_t *s, int root, int commutative)
{
    return logp_pipeline_exact(s, root, commutative || s->coll != LOGP_COLL_REDUCE);
}

static double logp_pipeline_estimate(const logp_sched_t *s, int root, int commutative)
{
    double t = logp_pipeline_time(&s->p, s->bytes, s->P, s->coll == LOGP_COLL_REDUCE, s->parts);
    if (s->coll == LOGP_COLL_REDUCE && !commutative && root != s->P - 1 && s->P > 1)
        t += logp_params_p2p(&s->p, logp_sched_part_bytes(s->bytes, s->parts, 0, 1));
    return t;
}

static long logp_pipeline_count(const logp_sched_t *s)
{
    return (s->coll == LOGP_COLL_REDUCE ? 3L : 2L) * s->P * s->parts + s->P;
}

const logp_family_t logp_family_pipeline = {
    .build = logp_pipeline_build,
    .nops = logp_pipeline_nops,
    .op = logp_pipeline_op,
    .time = logp_pipeline_time_exact,
    .estimate = logp_pipeline_estimate,
    .count = logp_pipeline_count,
    .flags = LOGP_FAMILY_RANK_ORDER,
};

/* ---- reduce-scatter-gather -------------------------------------------- */

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
    long P2 = logp_large_pow2_floor(s->P);
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
     * receiver no overhead (sim.c); SMPI, 64 KiB: P = 16 45.5 -> 43.5 us,
     * P = 64 55.3 -> 53.1, P = 256 64.0 -> 61.8 (predicted 41.1, 49.5,
     * 57.0: SMPI seems to charge a receive posted after its synchronous
     * message started, which the simulator leaves out).  Below, SMPI
     * gains nothing (8 B, P = 16: 16.82 us paced, 16.81 not) and the
     * simulator would promise 14%.  From 1 MiB every send is synchronous
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
    double cpu = logp_large_max(n * p->o, first) + (n - 1.0) * (p->o + comb);
    return logp_large_max(last, cpu) + p->o + comb;
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
            return logp_large_op(s, send ? LOGP_OP_SEND : LOGP_OP_RECV_REDUCE, logp_rsag_abs(v, peer),
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
            return logp_large_op(s, LOGP_OP_SEND, logp_rsag_abs(v, n - ((n >> b) % r) * d), 0, n * Q, d * Q);
        if (i < r - 1)
            return logp_large_op(s, LOGP_OP_RECV, logp_rsag_abs(v, n + (i + 1) * d), 0, (n + (i + 1) * d) * Q, d * Q);
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
    if ((long)logp_rsag_scatter_ops(s) * P2 + 8 * P > LOGP_LARGE_EXACT_STEPS)
        return -1.0;
    logp_large_clock_t *c = calloc((size_t)P, sizeof(*c));
    /* arrivals by (receiver, sender's digit, chunk) */
    double *arrive = malloc(sizeof(double) * (size_t)(P2 * LOGP_RSAG_RADIX * LOGP_RSAG_CHUNKS)), total = 0.0;
    if (c == NULL || arrive == NULL) {
        free(c);
        free(arrive);
        return -1.0;
    }
    for (long x = 1; x < 2 * extra; x += 2) { /* the fold: odd into even */
        double a = logp_params_post(p, s->bytes, &c[x].cpu, &c[x].nsend);
        logp_large_recv(p, s->bytes, 1, a, &c[x - 1]);
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
                    logp_large_clock_t *me = &c[logp_rsag_rel(n, extra)];
                    if (send) /* concurrent sends: no serial rule */
                        arrive[(peer * LOGP_RSAG_RADIX + (n >> b) % r) * LOGP_RSAG_CHUNKS + j] =
                            logp_params_post(p, bytes, &me->cpu, &me->nsend);
                    else
                        logp_large_recv(p, bytes, 1, arrive[(n * LOGP_RSAG_RADIX + (peer >> b) % r) * LOGP_RSAG_CHUNKS + j], me);
                }
        }
    }
    for (int k = steps - 1; k >= 0; k--) { /* gather */
        logp_rsag_digit(s, k, &b, &r);
        long d = 1L << b;
        for (long n = d; n < P2; n += d)
            if ((n >> b) % r != 0) {
                logp_large_clock_t *me = &c[logp_rsag_rel(n, extra)];
                arrive[n] = logp_params_post(p, logp_sched_part_bytes(s->bytes, s->parts, (int)(n * Q), (int)(d * Q)),
                                             &me->cpu, &me->nsend);
            }
        for (long n = 0; n < P2; n += r * d)
            for (long y = 1; y < r; y++)
                logp_large_recv(p, logp_sched_part_bytes(s->bytes, s->parts, (int)((n + y * d) * Q), (int)(d * Q)), 0,
                                arrive[n + y * d], &c[logp_rsag_rel(n, extra)]);
    }
    for (long x = 0; x < P; x++)
        total = logp_large_max(total, c[x].cpu);
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

/* ---- binary-pipeline -------------------------------------------------- */

double logp_binpipe_time(const logp_params_t *p, size_t m, int P, int combine, int k)
{
    if (P <= 1)
        return 0.0;
    size_t seg = (m + (size_t)k - 1) / (size_t)k; /* the largest segment */
    /* a bcast's rank sends each segment to two peers (params.h's rule), a reduce's to one */
    double c = combine ? (double)seg * p->gamma : 0.0;
    double gap = combine ? logp_params_gap(p, seg) : logp_params_send_gap(p, seg);
    double period = logp_large_max(2.0 * gap, 3.0 * p->o + 2.0 * c);
    double height = floor(log2((double)P));
    return height * (logp_params_p2p(p, seg) + gap + c) + (double)(k - 1) * period;
}

int logp_binpipe_segments(const logp_params_t *p, size_t m, int P, int combine)
{
    return logp_large_segments(logp_binpipe_time, p, m, P, combine);
}

static logp_status_t logp_binpipe_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    s->parts = logp_binpipe_segments(&s->p, s->bytes, s->P, s->coll == LOGP_COLL_REDUCE);
    s->k = s->parts;
    return LOGP_OK;
}

/* The place of relative rank `rel` in the balanced preorder binary tree
 * of P ranks: its parent (-1 at the root), children (-1: none) and
 * subtree size, relative; O(log P). */
static void logp_binpipe_place(long P, long rel, long *parent, long *kid0, long *kid1)
{
    long r = 0, n = P, up = -1;
    while (r != rel) {
        long left = n / 2; /* ceil((n - 1) / 2) */
        up = r;
        if (rel <= r + left) {
            r = r + 1;
            n = left;
        } else {
            r = r + 1 + left;
            n = n - 1 - left;
        }
    }
    long left = n / 2, right = n - 1 - left;
    *parent = up;
    *kid0 = left > 0 ? r + 1 : -1;
    *kid1 = right > 0 ? r + 1 + left : -1;
}

/* Cursor: c[0] parent, c[1] first child, c[2] second child (absolute; -1: none). */
static int logp_binpipe_nops(logp_view_t *v)
{
    const logp_sched_t *s = v->s;
    long up, k0, k1;
    logp_binpipe_place(s->P, logp_sched_rel(s, v->root, v->rank), &up, &k0, &k1);
    v->node.c[0] = up < 0 ? -1 : logp_sched_abs(s, v->root, up);
    v->node.c[1] = k0 < 0 ? -1 : logp_sched_abs(s, v->root, k0);
    v->node.c[2] = k1 < 0 ? -1 : logp_sched_abs(s, v->root, k1);
    v->tree_root = v->root;
    int reduce = s->coll == LOGP_COLL_REDUCE;
    return reduce + s->parts * (int)((up >= 0) + (k0 >= 0) + (k1 >= 0));
}

/* Per segment, a bcast receives from the parent, then sends to the first
 * and the second child; a reduce combines the second child's segment (the
 * smaller subtree, done first), then the first's, then sends it up. */
static logp_op_t logp_binpipe_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    int reduce = s->coll == LOGP_COLL_REDUCE;
    if (reduce) {
        if (i == 0)
            return logp_op_whole(LOGP_OP_INIT_OWN, v->rank, 0, s->bytes);
        i--;
    }
    int up = (int)v->node.c[0], k0 = (int)v->node.c[1], k1 = (int)v->node.c[2];
    int per = (up >= 0) + (k0 >= 0) + (k1 >= 0), j = i / per, t = i % per;
    int order[3], n = 0;
    if (reduce) {
        if (k1 >= 0)
            order[n++] = k1;
        if (k0 >= 0)
            order[n++] = k0;
        if (up >= 0)
            order[n++] = up;
        return t < n - (up >= 0) ? logp_large_op(s, LOGP_OP_RECV_REDUCE, order[t], LOGP_SIDE_APPEND, j, 1)
                                 : logp_large_op(s, LOGP_OP_SEND, order[t], 0, j, 1);
    }
    if (up >= 0)
        order[n++] = up;
    if (k0 >= 0)
        order[n++] = k0;
    if (k1 >= 0)
        order[n++] = k1;
    return t == 0 && up >= 0 ? logp_large_op(s, LOGP_OP_RECV, up, 0, j, 1)
                             : logp_large_op(s, LOGP_OP_SEND, order[t], 0, j, 1);
}

/* Exact uniform replay of the subtree of n ranks whose root gets segment
 * j at in[j] (bcast; NULL at the tree's root), depth first; `work` holds
 * 2 k doubles per level below.  Returns the subtree's latest finish. */
static double logp_binpipe_bcast(const logp_sched_t *s, long n, const double *in, double *work)
{
    const logp_params_t *p = &s->p;
    int k = s->parts;
    long left = n / 2, right = n - 1 - left;
    double *a0 = work, *a1 = work + k;
    logp_large_clock_t c = {0};
    for (int j = 0; j < k; j++) {
        size_t b = logp_sched_part_bytes(s->bytes, k, j, 1);
        if (in)
            logp_large_recv(p, b, 0, in[j], &c);
        if (left > 0)
            a0[j] = logp_large_send(p, b, 1, &c);
        if (right > 0)
            a1[j] = logp_large_send(p, b, 2, &c);
    }
    double done = c.cpu;
    if (left > 0)
        done = logp_large_max(done, logp_binpipe_bcast(s, left, a0, work + 2 * k));
    if (right > 0)
        done = logp_large_max(done, logp_binpipe_bcast(s, right, a1, work + 2 * k));
    return done;
}

/* The same for a reduce: the subtree of n ranks; out[j] (if not NULL)
 * gets when its root's segment j arrives at the parent.  Returns the
 * subtree's latest finish. */
static double logp_binpipe_reduce(const logp_sched_t *s, long n, double *out, double *work)
{
    const logp_params_t *p = &s->p;
    int k = s->parts;
    long left = n / 2, right = n - 1 - left;
    double *a0 = work, *a1 = work + k, done = 0.0;
    if (left > 0)
        done = logp_binpipe_reduce(s, left, a0, work + 2 * k);
    if (right > 0)
        done = logp_large_max(done, logp_binpipe_reduce(s, right, a1, work + 2 * k));
    logp_large_clock_t c = {0};
    for (int j = 0; j < k; j++) {
        size_t b = logp_sched_part_bytes(s->bytes, k, j, 1);
        if (right > 0)
            logp_large_recv(p, b, 1, a1[j], &c);
        if (left > 0)
            logp_large_recv(p, b, 1, a0[j], &c);
        if (out)
            out[j] = logp_large_send(p, b, 0, &c); /* the parent */
    }
    return logp_large_max(done, c.cpu);
}

static double logp_binpipe_exact(const logp_sched_t *s, int root, int commutative)
{
    (void)root; /* a relabeling: every root takes as long */
    if (s->coll == LOGP_COLL_REDUCE && !commutative)
        return -1.0;
    if (s->P <= 1)
        return 0.0;
    if ((long)s->P * s->parts > LOGP_LARGE_EXACT_STEPS / 3)
        return -1.0; /* priced by the design formula */
    int levels = (int)floor(log2((double)s->P)) + 2;
    double *work = malloc(sizeof(double) * 2 * (size_t)s->parts * (size_t)levels), t;
    if (work == NULL)
        return -1.0;
    if (s->coll == LOGP_COLL_REDUCE)
        t = logp_binpipe_reduce(s, s->P, NULL, work);
    else
        t = logp_binpipe_bcast(s, s->P, NULL, work);
    free(work);
    return t;
}

static double logp_binpipe_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    if (s->coll == LOGP_COLL_REDUCE && !commutative)
        return -1.0;
    return logp_binpipe_time(&s->p, s->bytes, s->P, s->coll == LOGP_COLL_REDUCE, s->parts);
}

static long logp_binpipe_count(const logp_sched_t *s)
{
    return 3L * s->P * s->parts + s->P;
}

const logp_family_t logp_family_binary_pipeline = {
    .build = logp_binpipe_build,
    .nops = logp_binpipe_nops,
    .op = logp_binpipe_op,
    .time = logp_binpipe_exact,
    .estimate = logp_binpipe_estimate,
    .count = logp_binpipe_count,
    .flags = LOGP_FAMILY_FORCED_ONLY,
};

/* ---- two-tree --------------------------------------------------------- */

/* The in-order tree over positions 1 .. n (the non-root ranks): position
 * x sits at height ctz(x), so every odd position is a leaf and every even
 * one interior; nominal children x -+ 2^(h-1) and parent x -+ 2^h, a
 * position above n replaced by its nearest relative inside (the right
 * child by its left descendants, the parent by its ancestors). */
static long logp_twotree_root(long n)
{
    return logp_large_pow2_floor(n);
}

static long logp_twotree_up(long y)
{
    long h = logp_large_lowbit(y);
    return (y & (2 * h)) ? y - h : y + h;
}

/* Parent position of y (0: the real root, which feeds the tree's root). */
static long logp_twotree_parent(long n, long y)
{
    if (y == logp_twotree_root(n))
        return 0;
    long q = logp_twotree_up(y);
    while (q > n)
        q = logp_twotree_up(q);
    return q;
}

/* Children positions of x (-1: none), the left (complete) subtree first. */
static void logp_twotree_kids(long n, long x, long kid[2])
{
    long h = logp_large_lowbit(x) / 2;
    kid[0] = kid[1] = -1;
    if (h == 0)
        return;
    kid[0] = x - h;
    if (x >= n)
        return;
    long c = x + h; /* its subtree holds x + 1 <= n: a left descendant is inside */
    while (c > n)
        c -= logp_large_lowbit(c) / 2;
    kid[1] = c;
}

/* The second tree is the first relabelled so that a rank interior in one
 * is a leaf in the other: shifted by one position when n is odd (even
 * positions go to odd ones; position 1 wraps to n, odd), mirrored when n
 * is even (x -> n + 1 - x changes parity). */
static long logp_twotree_pos_b(long n, long rel)
{
    if (n % 2)
        return rel == 1 ? n : rel - 1;
    return n + 1 - rel;
}

static long logp_twotree_rel_b(long n, long y)
{
    if (y == 0)
        return 0;
    if (n % 2)
        return y == n ? 1 : y + 1;
    return n + 1 - y;
}

/* Hops from the tree's root down to position x: its ancestors in the
 * complete in-order tree that are inside 1 .. n. */
static long logp_twotree_depth(long n, long x)
{
    long d = 0;
    for (long h = logp_large_lowbit(x) * 2; h <= n; h *= 2)
        d += ((x & ~(2 * h - 1)) | h) <= n;
    return d;
}

/* With k segments of m bytes: the time one segment takes to cross a tree
 * level (*hop: both children, and a reduce's two combines) and the steady
 * time between segments (*period), the two terms of T(k). */
static void logp_twotree_step(const logp_params_t *p, size_t m, int k, int combine, double *hop, double *period)
{
    size_t seg = (m + (size_t)k - 1) / (size_t)k;
    double c = combine ? (double)seg * p->gamma : 0.0, gap = logp_params_gap(p, seg);
    *hop = logp_params_p2p(p, seg) + gap + 2.0 * c;
    *period = logp_large_max(gap + p->o, 2.0 * p->o + c);
}

double logp_twotree_time(const logp_params_t *p, size_t m, int P, int combine, int k)
{
    if (P <= 1)
        return 0.0;
    double hop, period, levels = 1.0 + floor(log2((double)(P - 1)));
    logp_twotree_step(p, m, k, combine, &hop, &period);
    return levels * hop + (double)(k - 1) * period;
}

int logp_twotree_segments(const logp_params_t *p, size_t m, int P, int combine)
{
    size_t kmin = (m + LOGP_TWOTREE_MAX_SEGMENT - 1) / LOGP_TWOTREE_MAX_SEGMENT;
    return logp_large_segments_from(logp_twotree_time, p, m, P, combine,
                                    kmin < LOGP_PIPELINE_MAX_SEGMENTS ? (int)kmin : LOGP_PIPELINE_MAX_SEGMENTS);
}

/* The lag: segments the root sends while one crosses a tree level (at most
 * LOGP_TWOTREE_MAX_LAG: see the deadlock argument below). */
#define LOGP_TWOTREE_MAX_LAG 16
static int logp_twotree_lag(const logp_params_t *p, size_t m, int k, int combine)
{
    double hop, period;
    logp_twotree_step(p, m, k, combine, &hop, &period);
    double lag = 2.0 * hop / period;
    return lag < 1.0 ? 1 : lag > LOGP_TWOTREE_MAX_LAG ? LOGP_TWOTREE_MAX_LAG : (int)(lag + 0.5);
}

/* A bcast on a shared network is paced (sched.h: window): every segment
 * synchronous, a rank's next send waiting until its (lag + 3)-th last one
 * is received.  Unpaced, a rank's up to 32 sends in flight share its
 * interface, each crossing a level up to 32 times slower than alone, and
 * the pipeline stalls (the simulator, SMPI's parameters L 1.2 us, o = g =
 * 0.6 us, P = 64, 4 MiB in 16 KiB segments: 688 us unpaced, 492 paced; 8
 * KiB, unpaced, the best before: 638; SMPI measured 638).  Synchronous
 * segments land in posted receives, which costs the receiver nothing
 * (sim.c), so pacing pays with few segments too (SMPI, 64 KiB in 10 - 12
 * segments: P = 64, 31.4 us unpaced, 24.5 paced; P = 256, 39.1 -> 30.0;
 * predicted within 0.1%).  lag + 3 keeps the deadlock argument below.  A
 * reduce stays unpaced: its receives are posted one ahead only
 * (coll/reduce.c), and a synchronous send would wait for them. */
static int logp_twotree_window(const logp_sched_t *s, int lag)
{
    return s->topo.shared && s->coll == LOGP_COLL_BCAST ? lag + 3 : 0;
}

/* On a shared network (topo.shared) T(k) misprices two-tree: a rank's
 * sends to its two children share its interface, so a segment crosses a
 * level later than LogGP says, and by how much depends on how fast the
 * rank posts them (the simulator, within 9% of SMPI there, puts 1 MiB at
 * P = 64 at 231 us in the 16 KiB segments T(k) picks and 164 us in 8 KiB
 * ones; SMPI measured 214 and 177).  There the count is chosen by
 * simulating a proxy: the same segments on P' = min(P, 32) ranks, at most
 * 64 of them (k' = 32 and 64 extrapolated linearly to k: the steady
 * period is reached by then), plus T(k)'s hop for each level P has beyond
 * P'.  At the default parameters the proxy ranks the candidates as the
 * full simulation does for P = 64 and 256, bcast and reduce, 1 and 4 MiB,
 * within 10% of its times (at most 2 x 4,128 operations per candidate,
 * about 2-9 ms; independent of P).  -1 if the proxy cannot run. */
#define LOGP_TWOTREE_PROXY_P 32
#define LOGP_TWOTREE_PROXY_K 64

/* The proxy's simulated times, remembered per thread (no lock; a hit is
 * the very value the run would give, the model being pure): every
 * communicator's first call of a size class runs up to 7 proxies of 2 - 9
 * ms each, and communicators of equal parameters and message size ask
 * for the same ones (so does any P >= 32 of the same tree depth: the
 * proxy's ranks are then 32, and its counts come from the depth).  A
 * fixed table, oldest entry replaced: no allocation. */
#define LOGP_TWOTREE_MEMO 32
typedef struct {
    logp_params_t p;
    size_t bytes;
    int coll, P, k, lag, used;
    double total;
} logp_twotree_memo_t;
static _Thread_local logp_twotree_memo_t logp_twotree_memo[LOGP_TWOTREE_MEMO];
static _Thread_local unsigned logp_twotree_memo_next;
static _Thread_local unsigned long logp_twotree_memo_hit;

unsigned long logp_twotree_memo_hits(void)
{
    return logp_twotree_memo_hit;
}

static logp_twotree_memo_t *logp_twotree_memo_find(const logp_twotree_memo_t *key)
{
    for (int i = 0; i < LOGP_TWOTREE_MEMO; i++) {
        logp_twotree_memo_t *e = &logp_twotree_memo[i];
        if (e->used && e->coll == key->coll && e->P == key->P && e->k == key->k && e->lag == key->lag &&
            e->bytes == key->bytes && e->p.L == key->p.L && e->p.o == key->p.o && e->p.g == key->p.g &&
            e->p.G == key->p.G && e->p.gamma == key->p.gamma)
            return e;
    }
    return NULL;
}

static double logp_twotree_proxy(const logp_sched_t *s, int k, int lag)
{
    int reduce = s->coll == LOGP_COLL_REDUCE;
    size_t seg = (s->bytes + (size_t)k - 1) / (size_t)k;
    logp_sched_t x = *s;
    x.P = s->P < LOGP_TWOTREE_PROXY_P ? s->P : LOGP_TWOTREE_PROXY_P;
    logp_twotree_memo_t key = {s->p, s->bytes, (int)s->coll, x.P, k, lag, 1, 0.0}, *hit = logp_twotree_memo_find(&key);
    double total;
    if (hit != NULL) {
        total = hit->total;
        logp_twotree_memo_hit++;
    } else {
        x.topo = logp_topo_uniform(x.P, &s->p);
        x.topo.shared = 1;
        x.k = lag;
        x.window = logp_twotree_window(s, lag);
        double t[2];
        int ks[2] = {k < LOGP_TWOTREE_PROXY_K ? k : LOGP_TWOTREE_PROXY_K / 2, LOGP_TWOTREE_PROXY_K};
        for (int i = 0; i < (k > LOGP_TWOTREE_PROXY_K ? 2 : 1); i++) {
            x.parts = ks[i];
            x.bytes = k > LOGP_TWOTREE_PROXY_K ? seg * (size_t)ks[i] : s->bytes;
            if (logp_sim_run(&x, 0, 1, NULL, NULL, &t[i]) != LOGP_OK)
                return -1.0;
        }
        total = k > LOGP_TWOTREE_PROXY_K ? t[1] + (t[1] - t[0]) / (ks[1] - ks[0]) * (k - ks[1]) : t[0];
        key.total = total;
        logp_twotree_memo[logp_twotree_memo_next++ % LOGP_TWOTREE_MEMO] = key;
    }
    double hop, period, extra = floor(log2((double)(s->P - 1))) - floor(log2((double)(x.P - 1)));
    logp_twotree_step(&s->p, s->bytes, k, reduce, &hop, &period);
    return total + extra * hop;
}

/* Nonzero if two-tree's count is chosen by the proxy (a shared network,
 * ranks alike, more than 2 of them). */
static int logp_twotree_proxied(const logp_sched_t *s)
{
    return s->topo.shared && s->P > 2 && logp_sched_alike(s);
}

/* The proxy's time of the count build chose (its estimate, which a
 * decision asks for next: one proxy run, 2 - 9 ms, not done twice). */
typedef struct {
    int parts, lag;
    double t;
} logp_twotree_data_t;

static logp_status_t logp_twotree_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    (void)o;
    int reduce = s->coll == LOGP_COLL_REDUCE;
    s->parts = logp_twotree_segments(&s->p, s->bytes, s->P, reduce);
    s->k = logp_twotree_lag(&s->p, s->bytes, s->parts, reduce);
    s->window = logp_twotree_window(s, s->k);
    if (!logp_twotree_proxied(s))
        return LOGP_OK;
    /* candidates around T(k)'s count: segments 2x smaller, 2x larger,
     * and 1.25x, 1.5x smaller; then 1.25x either side of the best of
     * those (T(k) prices every receive an overhead, which a rendezvous
     * message does not cost on a shared network: sim.c; paced in SMPI, a
     * 1 MiB bcast at P = 256 takes 149.5 us in 128 segments, 145.5 in
     * 160, 151.2 in 192).  4x smaller segments never won (P = 16 - 1024,
     * 64 KiB - 16 MiB, bcast and reduce): not tried, one proxy run less. */
    int k0 = s->parts, kmax = s->bytes < LOGP_PIPELINE_MAX_SEGMENTS ? (int)s->bytes : LOGP_PIPELINE_MAX_SEGMENTS;
    int cand[7] = {k0, k0 / 2, 2 * k0, k0 + k0 / 4, k0 + k0 / 2, 0, 0};
    double best = logp_twotree_proxy(s, k0, s->k);
    for (int i = 1; i < 7 && best >= 0.0; i++) {
        if (i == 5) { /* then 1.25x either side of the best so far */
            cand[5] = s->parts + s->parts / 4;
            cand[6] = s->parts - s->parts / 5;
        }
        int k = cand[i], lag, seen = 0;
        for (int j = 0; j < i; j++)
            seen |= cand[j] == k; /* k0 + k0/4 is k0 itself below 4 */
        if (k < 1 || k > kmax || seen)
            continue;
        lag = logp_twotree_lag(&s->p, s->bytes, k, reduce);
        double t = logp_twotree_proxy(s, k, lag);
        if (t >= 0.0 && t < best) {
            best = t;
            s->parts = k;
            s->k = lag;
            s->window = logp_twotree_window(s, lag);
        }
    }
    logp_twotree_data_t *d = best >= 0.0 ? malloc(sizeof *d) : NULL;
    if (d != NULL) /* else the estimate runs the proxy again */
        *d = (logp_twotree_data_t){s->parts, s->k, best};
    s->data = d;
    return LOGP_OK;
}

static void logp_twotree_release(logp_sched_t *s)
{
    free(s->data);
    s->data = NULL;
}

/* The order of a rank's operations.  A bcast's segment j of tree t is due
 * at depth d at key j + lag d (in segment periods: lag is the time one
 * takes to cross a level); a reduce's leaves start, so its key there is j
 * + lag (H - d), H = floor(log2 n) bounding every depth.  A rank takes
 * its segments in the order (key, j): a bcast receives each and forwards
 * it at once, a reduce combines it from its children and sends it up at
 * once.  In plain segment order a rank interior in A would wait for B's
 * segment, still deep in B, before forwarding the next segment of A, and
 * every pair of segments would pay both trees' depths (the simulator: 18
 * us more per segment at P = 132).
 * No deadlock, even with every send synchronous: order the messages by
 * (receiver's key, j, child order).  A rank reaches its receive of message
 * E after receives that come before E in that order and after posting
 * sends; posting waits only for the rank's oldest send when LOGP_SENDQ_
 * WINDOW (32) are in flight (paced: lag + 3), and at most lag + 2 of a
 * rank's sends can come after E in the order (they follow receives within
 * one lag of E's key), so with lag <= LOGP_TWOTREE_MAX_LAG the oldest
 * comes before E; E's
 * sender posted it right after a receive one lag earlier.  By induction
 * every message completes.  This needs the executor not to hold a large
 * send until the sends to other peers are received (buffer.h): the family
 * is LOGP_FAMILY_CONCURRENT.
 * Cursor: c[0], c[1] the parents in A and B (absolute; -1 at the root);
 * c[2] the children in tree node.parent (0: A, 1: B; a rank is interior
 * in at most one), node.nkids of them, packed as kid0 + 1 + 2^32 (kid1 +
 * 1); c[3] the depths in A and B, packed as dA + 2^16 dB.  At the root
 * c[2], c[3] are the two trees' roots, fed (bcast) or drained (reduce)
 * alternately.  A reduce's first operation is its own contribution. */
typedef struct {
    /* per tree t: its receives (e = 2t) and sends (e = 2t + 1) */
    long first[4]; /* key of the tree's first segment (t) */
    long weight[4]; /* operations per segment */
} logp_twotree_seq_t;

static void logp_twotree_seqs(const logp_view_t *v, logp_twotree_seq_t *q)
{
    const logp_sched_t *s = v->s;
    long lag = s->k, depth[2] = {v->node.c[3] & 0xffff, v->node.c[3] >> 16};
    long height = (long)floor(log2((double)(s->P - 1))), reduce = s->coll == LOGP_COLL_REDUCE;
    for (int t = 0; t < 2; t++) {
        long kids = v->node.parent == t ? v->node.nkids : 0;
        q->first[2 * t] = q->first[2 * t + 1] = lag * (reduce ? height - depth[t] : depth[t]);
        q->weight[2 * t] = reduce ? kids : 1;      /* from the parent, or combined from the children */
        q->weight[2 * t + 1] = reduce ? 1 : kids;  /* to the children, or up to the parent */
    }
}

/* Operations with key < key (the reduce's own contribution aside). */
static long logp_twotree_before(const logp_view_t *v, const logp_twotree_seq_t *q, long key)
{
    long k = v->s->parts, n = 0;
    for (int e = 0; e < 4; e++) {
        long x = key - q->first[e] < k ? key - q->first[e] : k; /* segments j < x */
        if (x > 0)
            n += q->weight[e] * (e / 2 ? x / 2 : (x + 1) / 2); /* tree B: odd j */
    }
    return n;
}

static int logp_twotree_nops(logp_view_t *v)
{
    const logp_sched_t *s = v->s;
    long n = s->P - 1, rel = logp_sched_rel(s, v->root, v->rank);
    int own = s->coll == LOGP_COLL_REDUCE;
    v->tree_root = v->root;
    v->node.parent = 0;
    v->node.nkids = 0;
    v->node.c[0] = v->node.c[1] = v->node.c[2] = v->node.c[3] = -1;
    if (n == 0)
        return own;
    if (rel == 0) {
        v->node.c[2] = logp_sched_abs(s, v->root, logp_twotree_root(n));
        v->node.c[3] = logp_sched_abs(s, v->root, logp_twotree_rel_b(n, logp_twotree_root(n)));
        return own + s->parts;
    }
    long b = logp_twotree_pos_b(n, rel), kid[2], packed = 0;
    v->node.c[0] = logp_sched_abs(s, v->root, logp_twotree_parent(n, rel));
    v->node.c[1] = logp_sched_abs(s, v->root, logp_twotree_rel_b(n, logp_twotree_parent(n, b)));
    if (rel % 2 == 0) {
        logp_twotree_kids(n, rel, kid);
    } else {
        logp_twotree_kids(n, b, kid);
        v->node.parent = 1;
        for (int i = 0; i < 2; i++)
            kid[i] = kid[i] < 0 ? -1 : logp_twotree_rel_b(n, kid[i]);
    }
    for (int i = 0; i < 2; i++)
        if (kid[i] >= 0)
            packed |= (long)(logp_sched_abs(s, v->root, kid[i]) + 1L) << (32 * v->node.nkids++);
    v->node.c[2] = packed;
    v->node.c[3] = logp_twotree_depth(n, rel) | logp_twotree_depth(n, b) << 16;
    logp_twotree_seq_t q;
    logp_twotree_seqs(v, &q);
    return own + (int)logp_twotree_before(v, &q, LONG_MAX / 2);
}

/* Operation i: the root sends segment i to (bcast), or combines it from
 * (reduce), tree i % 2's root; any other rank finds the key of its
 * operation i by bisection (O(log k)), then the events at that key in the
 * order of their segments, a segment's receives before its sends.  A
 * reduce combines the second child's segment (the smaller subtree) first. */
static logp_op_t logp_twotree_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    int reduce = s->coll == LOGP_COLL_REDUCE;
    if (reduce && i-- == 0)
        return logp_op_whole(LOGP_OP_INIT_OWN, v->rank, 0, s->bytes);
    int in = reduce ? LOGP_OP_RECV_REDUCE : LOGP_OP_RECV;
    if (v->node.c[0] < 0)
        return logp_large_op(s, reduce ? in : LOGP_OP_SEND, (int)v->node.c[2 + i % 2], LOGP_SIDE_APPEND, i, 1);
    logp_twotree_seq_t q;
    logp_twotree_seqs(v, &q);
    long lo = 0, hi = 0;
    for (int e = 0; e < 4; e++)
        hi = q.first[e] > hi ? q.first[e] : hi;
    hi += s->parts; /* every key is below */
    while (hi - lo > 1) { /* the last key with at most i operations before it */
        long mid = lo + (hi - lo) / 2;
        if (logp_twotree_before(v, &q, mid) <= i)
            lo = mid;
        else
            hi = mid;
    }
    long t = i - logp_twotree_before(v, &q, lo), seg[4];
    int order[4], m = 0;
    for (int e = 0; e < 4; e++) {
        seg[e] = lo - q.first[e];
        if (q.weight[e] > 0 && seg[e] >= 0 && seg[e] < s->parts && (seg[e] & 1) == e / 2) {
            int at = m++;
            while (at > 0 && seg[order[at - 1]] > seg[e]) { /* by segment, then receives first */
                order[at] = order[at - 1];
                at--;
            }
            order[at] = e;
        }
    }
    for (int x = 0; x < m; x++) {
        int e = order[x], j;
        if (t < q.weight[e]) {
            j = (int)seg[e];
            int to_kid = (e % 2 == 1) != reduce; /* a bcast's sends, a reduce's receives */
            if (!to_kid)
                return logp_large_op(s, e % 2 ? LOGP_OP_SEND : in, (int)v->node.c[e / 2], LOGP_SIDE_APPEND, j, 1);
            int which = reduce ? (int)(q.weight[e] - 1 - t) : (int)t;
            int kid = (int)((v->node.c[2] >> (32 * which)) & 0xffffffffL) - 1;
            return logp_large_op(s, e % 2 ? LOGP_OP_SEND : in, kid, LOGP_SIDE_APPEND, j, 1);
        }
        t -= q.weight[e];
    }
    return logp_large_op(s, in, (int)v->node.c[0], LOGP_SIDE_APPEND, 0, 1); /* not reached: i < nops */
}

static double logp_twotree_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    if (s->coll == LOGP_COLL_REDUCE && !commutative)
        return -1.0; /* two trees combine out of rank order */
    if (logp_twotree_proxied(s)) {
        const logp_twotree_data_t *d = s->data;
        if (d != NULL && d->parts == s->parts && d->lag == s->k)
            return d->t;
        double t = logp_twotree_proxy(s, s->parts, s->k);
        if (t >= 0.0)
            return t;
    }
    return logp_twotree_time(&s->p, s->bytes, s->P, s->coll == LOGP_COLL_REDUCE, s->parts);
}

static long logp_twotree_count(const logp_sched_t *s)
{
    return 2L * s->P * s->parts + s->P;
}

const logp_family_t logp_family_two_tree = {
    .build = logp_twotree_build,
    .release = logp_twotree_release,
    .nops = logp_twotree_nops,
    .op = logp_twotree_op,
    .estimate = logp_twotree_estimate,
    .count = logp_twotree_count,
    /* simulating it at a decision: 26 ms at P = 1024, 1 MiB bcast
     * (132,096 operations); its estimate is within 18% of that (check_sim) */
    .flags = LOGP_FAMILY_CONCURRENT | LOGP_FAMILY_ESTIMATED,
};
