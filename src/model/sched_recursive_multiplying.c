/* recursive-multiplying (registry: recursive-multiplying; allreduce): the
 *   butterfly of recursive-doubling in radix q = s->k (a power of two).
 *   Fold to P' = 2^a as recursive-doubling does (sched_fold.h).  A new
 *   rank's digits in radix q from the lowest, ceil(a / log2 q) of them (the
 *   last of radix 2^(a mod log2 q) when log2 q does not divide a).  Round
 *   j: the q_j members of a group (new ranks that differ in digit j only,
 *   member x the one whose digit is x) exchange partial results, each a
 *   contiguous range of ranks: member x sends its own to members x - 1,
 *   x - 2, ... (mod q_j), takes theirs from x + 1, x + 2, ... into slots
 *   (its k-th message the k-th its sender sent: they arrive in the order
 *   they are taken), then folds v_0 op (v_1 op (... op v_{q_j - 1})).  Not
 *   a seed: Ruefenacht, Bull and Booth (2017), "Generalisation of
 *   recursive doubling for AllReduce" (MPICH's recursive_multiplying).
 * LogGP cost (P a power of q, every rank alike): per round q - 1 sends
 *   max(g, o) apart, the q - 1 receives as they arrive, each o + (m-1)G
 *   behind the send of the same index, then (q - 1) m gamma:
 *   log_q P (o + (q - 2) max(g, o) + L + (m-1)G + o + (q - 1) m gamma)
 *   where the receives keep up.  It trades a round's L for q - 2 more
 *   overheads per q - 1 exchanged: where L is large against o and g,
 *   radix 4 - 16 halves recursive doubling's log2 P latencies at 8 B
 *   (docs/results/smpi-allreduce).  `estimate` follows a new rank's path
 *   (params.h's rules) and is exact where no rank folds; the radix is the
 *   least estimate over q = 2 .. LOGP_RMUL_RADIX_MAX.
 * Same bits everywhere: every member of a group folds the same q_j
 *   operands in the same association, whatever order they arrived in
 *   (a single accumulator cannot: a member's own operand would always be
 *   the innermost), and the operands are rank ranges in rank order, so
 *   non-commutative operators keep it. */
#include "sched_fold.h"

/* The largest radix priced (its slots: LOGP_RMUL_RADIX_MAX - 1 buffers). */
#define LOGP_RMUL_RADIX_MAX (LOGP_SCHED_SLOTS_MAX + 1)

/* log2 of the radix. */
static int logp_rmul_bits(const logp_sched_t *s)
{
    int b = 0;
    while ((2 << b) <= s->k)
        b++;
    return b;
}

/* Rounds for 2^lg new ranks and the last round's radix. */
static int logp_rmul_rounds(int lg, int b, int *last_q)
{
    int R = (lg + b - 1) / b, rest = lg - (R - 1) * b;
    *last_q = R > 0 ? 1 << rest : 1;
    return R;
}

/* Operations of the butterfly per new rank: per round q_j - 1 sends,
 * q_j - 1 receives and the fold. */
static int logp_rmul_inner(const logp_sched_t *s)
{
    int lq, R = logp_rmul_rounds(logp_fold_log2(s->P), logp_rmul_bits(s), &lq);
    return R == 0 ? 0 : (R - 1) * (2 * s->k - 1) + 2 * lq - 1;
}

static int logp_rmul_nops(logp_view_t *v)
{
    v->commutative = 0; /* rank order always: the same bits on every rank */
    return logp_fold_view(v, logp_rmul_inner(v->s));
}

static logp_op_t logp_rmul_op(const logp_view_t *v, int i)
{
    logp_op_t o;
    int j;
    if (logp_fold_op(v, i, logp_rmul_inner(v->s), LOGP_SIDE_PREPEND, &o, &j)) /* the even rank's goes first */
        return o;
    const logp_sched_t *s = v->s;
    int b = logp_rmul_bits(s), lq, R = logp_rmul_rounds((int)v->node.c[2], b, &lq), per = 2 * s->k - 1;
    int round = j / per < R - 1 ? j / per : R - 1, q = round < R - 1 ? s->k : lq, t = j - round * per;
    long me = v->node.c[0], r = v->node.c[1], w = 1L << (round * b);
    int x = (int)((me >> (round * b)) & (q - 1));
    size_t m = s->bytes;
    if (t == 2 * q - 2) /* the fold: peer names the own operand's place */
        return logp_op_whole(LOGP_OP_FOLD, x, q, m);
    int send = t < q - 1, d = send ? (x - 1 - t + 2 * q) % q : (x + 1 + t - (q - 1)) % q;
    int peer = logp_fold_real(me + (long)(d - x) * w, r);
    if (send)
        return logp_op_whole(LOGP_OP_SEND, peer, 0, m);
    return logp_op_whole(LOGP_OP_RECV, peer, LOGP_RECV_SLOT + (d < x ? d : d - 1), m);
}

/* A new rank's path (params.h's rules): the fold's contribution, then per
 * round the sends, the receives at the arrivals of the same index, the
 * fold's combines; the hand-back. */
static double logp_rmul_path(const logp_sched_t *s)
{
    const logp_params_t *p = &s->p;
    size_t m = s->bytes;
    int lg = logp_fold_log2(s->P), fold = s->P > (1 << lg), lq, R = logp_rmul_rounds(lg, logp_rmul_bits(s), &lq);
    logp_recv_state_t st = {0.0, 0.0};
    double next_send = 0.0, arrive[LOGP_RMUL_RADIX_MAX];
    if (fold)
        logp_params_take(p, m, 1, p->o + logp_params_inj(p, m) + p->L, &st);
    for (int round = 0; round < R; round++) {
        int q = round < R - 1 ? s->k : lq;
        for (int k = 0; k < q - 1; k++)
            arrive[k] = logp_params_post(p, m, &st.cpu, &next_send);
        for (int k = 0; k < q - 1; k++)
            logp_params_take(p, m, 0, arrive[k], &st);
        st.cpu += (double)(q - 1) * (double)m * p->gamma;
    }
    if (!fold)
        return st.cpu;
    double got = logp_params_post(p, m, &st.cpu, &next_send) + p->o;
    return got > st.cpu ? got : st.cpu;
}

/* The radix: forced (rounded down to a power of two), or the least
 * estimate. */
static logp_status_t logp_rmul_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    int lg = logp_fold_log2(s->P);
    if (o->radix > 1) {
        int want = o->radix < LOGP_RMUL_RADIX_MAX ? o->radix : LOGP_RMUL_RADIX_MAX;
        for (s->k = 2; 2 * s->k <= want; s->k *= 2)
            ;
        s->slots = s->k - 1;
        return LOGP_OK;
    }
    double best = -1.0;
    int best_q = 2;
    for (int q = 2; q <= LOGP_RMUL_RADIX_MAX && q <= (1 << lg); q *= 2) {
        s->k = q;
        double t = logp_rmul_path(s);
        if (best < 0.0 || t < best) {
            best = t;
            best_q = q;
        }
    }
    s->k = best_q;
    s->slots = s->k - 1;
    return LOGP_OK;
}

static double logp_rmul_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    return logp_rmul_path(s);
}

static long logp_rmul_count(const logp_sched_t *s)
{
    return (long)s->P * (3 + logp_rmul_inner(s));
}

const logp_family_t logp_family_recursive_multiplying = {
    .build = logp_rmul_build,
    .nops = logp_rmul_nops,
    .op = logp_rmul_op,
    .estimate = logp_rmul_estimate,
    .count = logp_rmul_count,
    .flags = LOGP_FAMILY_RANK_ORDER,
};
