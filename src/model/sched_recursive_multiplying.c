/* recursive-multiplying (registry: recursive-multiplying; allreduce): the
 *   butterfly of recursive-doubling in mixed radix.  Fold P to P' ranks as
 *   recursive-doubling does (sched_fold.h: of ranks 0 .. 2(P - P') - 1
 *   the even ones hand their contribution to the odd one above and get
 *   the result back last), P' = P where P's prime factors are all at most
 *   13, else the largest power of two or 7-smooth number <= P.  A new
 *   rank's digits in radices q_0, q_1, ... (product P': each odd prime
 *   factor a radix of its own, the power of two in radix 2^b, the last
 *   digit smaller where b does not divide it).  Round j: the q_j members
 *   of a group (new ranks that differ in digit j only, member x the one
 *   whose digit is x) exchange partial results, each a contiguous range of
 *   ranks: member x sends its own to members x - 1, x - 2, ... (mod q_j),
 *   takes theirs from x + 1, x + 2, ... into receive slots (its k-th
 *   message is the k-th its sender sent, so they arrive in the order they
 *   are taken), then folds v_0 op (v_1 op (... op v_{q_j - 1})).  Not a
 *   seed: Ruefenacht, Bull and Booth (2017), "Generalisation of recursive
 *   doubling for AllReduce" (MPICH's recursive_multiplying); the mixed
 *   radix spares the fold's two messages at P = 24, 48, 96, ...
 * LogGP cost (no fold, every rank alike): per round q - 1 sends max(g, o)
 *   apart, the q - 1 receives as they arrive, then (q - 1) m gamma:
 *   sum over rounds of about o + (q - 2) max(g, o) + L + (m-1)G + o
 *   + (q - 1) m gamma where the receives keep up; a fold adds a message and
 *   a combine before and a message after.  It trades a round's L for
 *   q - 2 more overheads: where L is large against o and g, radix 4 - 16
 *   halves recursive doubling's log2 P latencies at 8 B
 *   (docs/results/smpi-allreduce/rmul).  `estimate` follows a new rank's
 *   path (params.h's rules), exact where no rank folds; the shape (P' and
 *   b) is the least estimate over b = 1 .. 4 and the P' above.
 * Same bits everywhere: every member of a group folds the same q_j
 *   operands in the same association, whatever order they arrived in (a
 *   single accumulator cannot: a member's own operand would always be the
 *   innermost), and the operands are rank ranges in rank order, so
 *   non-commutative operators keep it. */
#include <stdlib.h>

#include "sched_fold.h"

/* The largest radix (its slots: LOGP_RMUL_RADIX_MAX - 1 buffers). */
#define LOGP_RMUL_RADIX_MAX (LOGP_SCHED_SLOTS_MAX + 1)
/* Rounds at most: every radix >= 2 and P' < 2^31. */
#define LOGP_RMUL_ROUNDS_MAX 32

/* The shape: P', the radix and weight of each round and where its
 * operations start among a new rank's butterfly (first[R]: their number). */
typedef struct {
    long pp;
    int R;
    int q[LOGP_RMUL_ROUNDS_MAX];
    long w[LOGP_RMUL_ROUNDS_MAX];
    int first[LOGP_RMUL_ROUNDS_MAX + 1];
} logp_rmul_t;

/* The rounds for pp = 2^a times odd primes <= 13 in radix 2^b for the
 * power of two; 0 if pp has another factor. */
static int logp_rmul_shape(logp_rmul_t *d, long pp, int b)
{
    static const int odd[] = {3, 5, 7, 11, 13};
    long x = pp, w = 1;
    d->pp = pp;
    d->R = 0;
    for (int i = 0; i < 5; i++)
        while (x % odd[i] == 0) {
            d->q[d->R++] = odd[i];
            x /= odd[i];
        }
    int a = 0;
    while (x % 2 == 0) {
        x /= 2;
        a++;
    }
    if (x != 1)
        return 0;
    for (; a > 0; a -= b)
        d->q[d->R++] = 1 << (a < b ? a : b);
    d->first[0] = 0;
    for (int j = 0; j < d->R; j++) {
        d->w[j] = w;
        w *= d->q[j];
        d->first[j + 1] = d->first[j] + 2 * d->q[j] - 1;
    }
    return 1;
}

/* The largest 7-smooth number <= P (and >= P / 2: a power of two is). */
static long logp_rmul_smooth(long P)
{
    long best = 1;
    for (long a = 1; a <= P; a *= 2)
        for (long b = a; b <= P; b *= 3)
            for (long c = b; c <= P; c *= 5)
                for (long e = c; e <= P; e *= 7)
                    if (e > best)
                        best = e;
    return best;
}

static int logp_rmul_nops(logp_view_t *v)
{
    const logp_rmul_t *d = v->s->data;
    v->commutative = 0; /* rank order always: the same bits on every rank */
    return logp_fold_view_to(v, d->first[d->R], d->pp);
}

static logp_op_t logp_rmul_op(const logp_view_t *v, int i)
{
    const logp_rmul_t *d = v->s->data;
    logp_op_t o;
    int j, round = 0;
    if (logp_fold_op(v, i, d->first[d->R], LOGP_SIDE_PREPEND, &o, &j)) /* the even rank's goes first */
        return o;
    while (d->first[round + 1] <= j)
        round++;
    long me = v->node.c[0], r = v->node.c[1], w = d->w[round];
    int q = d->q[round], t = j - d->first[round], x = (int)((me / w) % q);
    size_t m = v->s->bytes;
    if (t == 2 * q - 2) /* the fold: peer names the own operand's place */
        return logp_op_whole(LOGP_OP_FOLD, x, q, m);
    int send = t < q - 1, y = send ? (x - 1 - t + 2 * q) % q : (x + 1 + t - (q - 1)) % q;
    int peer = logp_fold_real(me + (long)(y - x) * w, r);
    if (send)
        return logp_op_whole(LOGP_OP_SEND, peer, 0, m);
    return logp_op_whole(LOGP_OP_RECV, peer, LOGP_RECV_SLOT + (y < x ? y : y - 1), m);
}

/* A new rank's path (params.h's rules): the fold's contribution, then per
 * round the sends, the receives at the arrivals of the same index, the
 * fold's combines; the hand-back. */
static double logp_rmul_path(const logp_sched_t *s, const logp_rmul_t *d)
{
    const logp_params_t *p = &s->p;
    size_t m = s->bytes;
    int fold = s->P > d->pp;
    logp_recv_state_t st = {0.0, 0.0};
    double next_send = 0.0, arrive[LOGP_RMUL_RADIX_MAX];
    if (fold)
        logp_fold_estimate_in(s, &st);
    for (int j = 0; j < d->R; j++) {
        for (int k = 0; k < d->q[j] - 1; k++)
            arrive[k] = logp_params_post(p, m, &st.cpu, &next_send);
        for (int k = 0; k < d->q[j] - 1; k++)
            logp_params_take(p, m, 0, arrive[k], &st);
        st.cpu += (double)(d->q[j] - 1) * (double)m * p->gamma;
    }
    return fold ? logp_fold_estimate_out(s, &st, &next_send) : st.cpu;
}

/* The shape: the least estimate over P' (P itself, the largest 7-smooth
 * number, the largest power of two) and the power of two's radix 2^b
 * (forced: b = floor(log2 radix), P' still the least estimate). */
static logp_status_t logp_rmul_build(logp_sched_t *s, const logp_sched_opts_t *o)
{
    logp_rmul_t *d = malloc(sizeof *d), c;
    if (d == NULL)
        return LOGP_ERR_NOMEM;
    long pps[3] = {s->P, logp_rmul_smooth(s->P), 1L << logp_fold_log2(s->P)};
    int bmin = 1, bmax = 4;
    if (o->radix > 1) {
        for (bmin = 1; bmin < 4 && (2 << bmin) <= o->radix; bmin++)
            ;
        bmax = bmin;
    }
    double best = -1.0;
    for (int i = 0; i < 3; i++)
        for (int b = bmin; b <= bmax && (i == 0 || pps[i] != pps[i - 1]); b++) { /* each P' once (the three do not increase) */
            if (!logp_rmul_shape(&c, pps[i], b))
                break; /* P has a larger prime factor */
            double t = logp_rmul_path(s, &c);
            if (best < 0.0 || t < best - 1e-15) {
                best = t;
                *d = c;
            }
        }
    s->data = d;
    s->k = 2;
    for (int j = 0; j < d->R; j++)
        s->k = d->q[j] > s->k ? d->q[j] : s->k;
    s->slots = s->k - 1;
    return LOGP_OK;
}

static void logp_rmul_release(logp_sched_t *s)
{
    free(s->data);
    s->data = NULL;
}

static double logp_rmul_estimate(const logp_sched_t *s, int root, int commutative)
{
    (void)root;
    (void)commutative;
    return logp_rmul_path(s, s->data);
}

static long logp_rmul_count(const logp_sched_t *s)
{
    const logp_rmul_t *d = s->data;
    return (long)s->P * (3 + d->first[d->R]);
}

const logp_family_t logp_family_recursive_multiplying = {
    .build = logp_rmul_build,
    .release = logp_rmul_release,
    .nops = logp_rmul_nops,
    .op = logp_rmul_op,
    .estimate = logp_rmul_estimate,
    .count = logp_rmul_count,
    /* concurrent: a member's large sends to its q - 1 partners must all be
     * out before it receives; held back one peer at a time (buffer.h's
     * LogGP rule), member x's second send waits for x - 1 to receive,
     * which is sending to x - 2 first, ...: a cycle round the group;
     * an exchange: a round's receives are all posted as it begins */
    .flags = LOGP_FAMILY_RANK_ORDER | LOGP_FAMILY_CONCURRENT | LOGP_FAMILY_EXCHANGE,
};
