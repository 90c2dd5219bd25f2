/* two-tree (bcast, commutative reduce; Sanders, Speck and Traeff 2009,
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
 *   segments stay within LOGP_TWOTREE_MAX_SEGMENT (sched_two_tree.h).  The
 *   simulator prices it exactly (no closed form: the order interleaves
 *   both trees); decisions use T(k), or the simulator while the schedule
 *   has at most LOGP_PLAN_ESTIMATED_OPS operations (T(k) is 10 - 38% high
 *   at P = 2 - 8, 7% low at P = 64, 1 MiB).  On a shared network
 *   (topo.shared) T(k) misses the children's sends sharing the rank's
 *   interface: there the planner (plan_two_tree.c) picks the count by a
 *   simulated proxy, which this file does not do (schedules never
 *   simulate), and a bcast is paced: every segment synchronous, at most
 *   lag + 3 of a rank's in flight (logp_twotree_window), since a rank's
 *   many transfers in flight would share its interface and each cross a
 *   level slower.  Predictions against SMPI:
 *   docs/results/measurements-in-code.md, "two-tree".
 *
 * Not from the seeds: the seeds' trees send the whole message on every
 * edge, so their time grows as (depth) m G; this is one of the classical
 * bandwidth-optimal algorithms, written in the seeds' LogGP cost
 * convention (params.h) and priced by the same simulator.  A rank's
 * operations are closed forms of (rank, root, P, parts): O(1) state in the
 * view, O(log k) per operation, no allocation (sched.h). */
#include "sched_two_tree.h"

#include <limits.h>
#include <math.h>

#include "sched_pipeline.h" /* LOGP_PIPELINE_MAX_SEGMENTS, the count search */
#include "sched_replay.h"

/* The in-order tree over positions 1 .. n (the non-root ranks): position
 * x sits at height ctz(x), so every odd position is a leaf and every even
 * one interior; nominal children x -+ 2^(h-1) and parent x -+ 2^h, a
 * position above n replaced by its nearest relative inside (the right
 * child by its left descendants, the parent by its ancestors). */
static long logp_twotree_root(long n)
{
    return logp_replay_pow2_floor(n);
}

static long logp_twotree_up(long y)
{
    long h = logp_replay_lowbit(y);
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
    long h = logp_replay_lowbit(x) / 2;
    kid[0] = kid[1] = -1;
    if (h == 0)
        return;
    kid[0] = x - h;
    if (x >= n)
        return;
    long c = x + h; /* its subtree holds x + 1 <= n: a left descendant is inside */
    while (c > n)
        c -= logp_replay_lowbit(c) / 2;
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
    for (long h = logp_replay_lowbit(x) * 2; h <= n; h *= 2)
        d += ((x & ~(2 * h - 1)) | h) <= n;
    return d;
}

/* With k segments of m bytes: the time one segment takes to cross a tree
 * level (*hop: both children, and a reduce's two combines) and the steady
 * time between segments (*period), the two terms of T(k). */
void logp_twotree_step(const logp_params_t *p, size_t m, int k, int combine, double *hop, double *period)
{
    size_t seg = (m + (size_t)k - 1) / (size_t)k;
    double c = combine ? (double)seg * p->gamma : 0.0, gap = logp_params_gap(p, seg);
    *hop = logp_params_p2p(p, seg) + gap + 2.0 * c;
    *period = logp_replay_max(gap + p->o, 2.0 * p->o + c);
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
    return logp_pipeline_segments_from(logp_twotree_time, p, m, P, combine,
                                    kmin < LOGP_PIPELINE_MAX_SEGMENTS ? (int)kmin : LOGP_PIPELINE_MAX_SEGMENTS);
}

int logp_twotree_lag(const logp_params_t *p, size_t m, int k, int combine)
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
 * the pipeline stalls.  Synchronous segments land in posted receives,
 * which costs the receiver nothing (sim.h), so pacing pays with few
 * segments too (simulated and measured: docs/results/measurements-in-code.md,
 * "two-tree: pacing").  lag + 3 keeps the deadlock argument below.  A
 * reduce stays unpaced: its receives are posted one ahead only
 * (coll/reduce.c), and a synchronous send would wait for them. */
int logp_twotree_window(const logp_sched_t *s, int lag)
{
    return s->topo.shared && s->coll == LOGP_COLL_BCAST ? lag + 3 : 0;
}

/* The count of least T(k) (on a shared network the planner may pick
 * another: plan_two_tree.c) and the lag and window that go with it. */
static logp_status_t logp_twotree_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    int reduce = s->coll == LOGP_COLL_REDUCE;
    s->parts = o->segments > 0 ? logp_pipeline_segments_forced(s->bytes, o->segments) /* forced (tools) */
                               : logp_twotree_segments(&s->p, s->bytes, s->P, reduce);
    s->k = logp_twotree_lag(&s->p, s->bytes, s->parts, reduce);
    s->window = logp_twotree_window(s, s->k);
    return LOGP_OK;
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
        return logp_replay_op(s, reduce ? in : LOGP_OP_SEND, (int)v->node.c[2 + i % 2], LOGP_SIDE_APPEND, i, 1);
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
                return logp_replay_op(s, e % 2 ? LOGP_OP_SEND : in, (int)v->node.c[e / 2], LOGP_SIDE_APPEND, j, 1);
            int which = reduce ? (int)(q.weight[e] - 1 - t) : (int)t;
            int kid = (int)((v->node.c[2] >> (32 * which)) & 0xffffffffL) - 1;
            return logp_replay_op(s, e % 2 ? LOGP_OP_SEND : in, kid, LOGP_SIDE_APPEND, j, 1);
        }
        t -= q.weight[e];
    }
    return logp_replay_op(s, in, (int)v->node.c[0], LOGP_SIDE_APPEND, 0, 1); /* not reached: i < nops */
}

/* T(k); the planner's proxy replaces it on a shared network (plan.h). */
static double logp_twotree_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    if (s->coll == LOGP_COLL_REDUCE && !commutative)
        return -1.0; /* two trees combine out of rank order */
    return logp_twotree_time(&s->p, s->bytes, s->P, s->coll == LOGP_COLL_REDUCE, s->parts);
}

static long logp_twotree_count(const logp_sched_t *s)
{
    return 2L * s->P * s->parts + s->P;
}

const logp_family_t logp_family_two_tree = {
    .build = logp_twotree_build,
    .nops = logp_twotree_nops,
    .op = logp_twotree_op,
    .estimate = logp_twotree_estimate,
    .count = logp_twotree_count,
    /* simulating it at a decision: 26 ms at P = 1024, 1 MiB bcast
     * (132,096 operations); its estimate is within 18% of that (check_sim) */
    .flags = LOGP_FAMILY_CONCURRENT | LOGP_FAMILY_ESTIMATED,
};
