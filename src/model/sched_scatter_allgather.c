/* scatter-allgather (bcast; Barnett, van de Geijn et al. 1994, with the
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
 *
 * Not from the seeds: the seeds' trees send the whole message on every
 * edge, so their time grows as (depth) m G; this is one of the classical
 * bandwidth-optimal algorithms, written in the seeds' LogGP cost
 * convention (params.h) and priced by the same simulator.  A rank's
 * operations are closed forms of (rank, root, P, parts): O(1) state in the
 * view, O(1) per operation, no allocation (sched.h).
 */
#include <stdlib.h>

#include "alltoall_pattern.h" /* logp_butterfly_steps: ceil(log2 P) */
#include "sched.h"
#include "sched_replay.h"

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
    long sub = r == 0 ? P : logp_replay_lowbit(r);
    return sub < P - r ? sub : P - r;
}

/* The scatter runs down the binomial family's tree (sched_binomial.c): the
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
            return logp_replay_op(s, LOGP_OP_RECV, v->node.parent, 0, rel, logp_sag_sub(rel, P));
        i--;
    }
    if (i < v->node.nkids) { /* scatter: each child's subtree */
        int child = logp_sag_tree()->kid(s, root, &v->node, i);
        long crel = logp_sched_rel(s, root, child);
        return logp_replay_op(s, LOGP_OP_SEND, child, 0, crel, logp_sag_sub(crel, P));
    }
    i -= v->node.nkids;
    for (int k = 0; k < logp_butterfly_steps(P); k++) { /* O(log P): the step holding operation i */
        long d = 1L << k, to = (rel - d % P + P) % P, f[2], c[2];
        int m = logp_sag_need(to, P, k, f, c); /* sends first: what `to` lacks */
        if (i < m)
            return logp_replay_op(s, LOGP_OP_SEND, logp_sched_abs(s, root, to), 0, f[i], c[i]);
        i -= m;
        m = logp_sag_need(rel, P, k, f, c); /* then receives: what this rank lacks */
        if (i < m)
            return logp_replay_op(s, LOGP_OP_RECV, logp_sched_abs(s, root, rel + d), 0, f[i], c[i]);
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
    if (P * (K + 1) > LOGP_REPLAY_EXACT_STEPS / 2)
        return -1.0;
    logp_replay_clock_t *c = calloc((size_t)P, sizeof(*c));
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
            logp_replay_recv(p, logp_sched_part_bytes(s->bytes, (int)P, (int)r, (int)logp_sag_sub(r, P)), 0,
                            arrive[r], &c[r]);
        for (int j = 0; j < n.nkids; j++) {
            long child = logp_sag_tree()->kid(s, 0, &n, j);
            arrive[child] = logp_replay_send(
                p, logp_sched_part_bytes(s->bytes, (int)P, (int)child, (int)logp_sag_sub(child, P)), child, &c[r]);
        }
    }
    for (int k = 0; k < K; k++) {
        long d = 1L << k, f[2], n[2];
        for (long r = 0; r < P; r++) { /* r sends r - 2^k what it lacks; arrive[2 (r - 2^k) + piece] */
            long to = (r - d % P + P) % P;
            for (int i = 0, m = logp_sag_need(to, P, k, f, n); i < m; i++)
                arrive[2 * to + i] = logp_replay_send(p, logp_sched_part_bytes(s->bytes, (int)P, (int)f[i], (int)n[i]),
                                                     to, &c[r]);
        }
        for (long r = 0; r < P; r++)
            for (int i = 0, m = logp_sag_need(r, P, k, f, n); i < m; i++)
                logp_replay_recv(p, logp_sched_part_bytes(s->bytes, (int)P, (int)f[i], (int)n[i]), 0, arrive[2 * r + i],
                                &c[r]);
    }
    for (long r = 0; r < P; r++)
        total = logp_replay_max(total, c[r].cpu);
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
