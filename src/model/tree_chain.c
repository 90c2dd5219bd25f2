/* k-chain reduce: seed 001 (Kurnosov, "Analysis and optimisation of the
 * k-chain algorithm for root reduction", 2016).
 *
 * Algorithm: the P - 1 non-root ranks form k chains of consecutive ranks;
 * each rank receives its successor's partial result, combines, and sends to
 * its predecessor; the chain heads send to the root, which combines the k
 * results.  The root receives short chains first (section 6), hiding the
 * long chains' extra step.
 * Cost (LogP, a = 2o + L + m gamma, b = max(o + m gamma, g)):
 *   fixed k:   t(k) = ((P-1)/k + 1) a + (k - 1) b          (linear in P)
 *   optimal k: k = sqrt(a (P-1) / b), t = 2 sqrt(ab) sqrt(P-1) + a - b
 *   adaptive chains 1, 2, .., k: t = b sqrt(2(P-1) + 1/4) - b/2 + a
 * (both O(sqrt P)).  The adaptive form is the seed's, and it is optimistic:
 * it takes chain i + 1 to arrive when the root is done with chain i, b
 * later, but a chain one rank longer arrives a later, and a = b + o + L
 * (with G = 0 and b = o + m gamma), so the root waits for every chain:
 * exactly k a, plus b for a last, shorter chain (where gap(m) <= a;
 * logp_chain_time_adaptive_exact, equal to the simulator).  Still
 * O(sqrt P): k ~ sqrt(2P). */
#include "tree_chain.h"

#include <math.h>
#include <stdlib.h>

int logp_chain_lengths(int P, int k, logp_chain_order_t order, int *len)
{
    if (P <= 1)
        return 0;
    if (k < 1)
        k = 1;
    if (k > P - 1)
        k = P - 1;
    int u = (P - 1) / k, longs = (P - 1) % k, shorts = k - longs;
    for (int c = 0; c < k; c++) {
        int is_long = order == LOGP_CHAIN_SHORT_FIRST ? c >= shorts : c < longs;
        len[c] = u + is_long;
    }
    return k;
}

int logp_chain_adaptive_lengths(int P, int *len)
{
    if (P <= 1)
        return 0;
    int k = 0, used = 0;
    while (used + (k + 1) <= P - 1) { /* largest k with k(k+1)/2 <= P-1 */
        k++;
        used += k;
        len[k - 1] = k;
    }
    if (used < P - 1)
        len[k++] = P - 1 - used;
    return k;
}

logp_status_t logp_tree_chains(logp_tree_t *t, int P, const int *len, int nchains)
{
    if (P < 1 || nchains < 0)
        return LOGP_ERR_ARG;
    int *parent = malloc(sizeof(int) * (size_t)P);
    int *order = malloc(sizeof(int) * (size_t)(P > 1 ? P - 1 : 1));
    if (!parent || !order) {
        free(parent);
        free(order);
        return LOGP_ERR_NOMEM;
    }
    parent[0] = -1;
    int r = 1, rc = LOGP_OK;
    for (int c = 0; c < nchains && rc == LOGP_OK; c++) {
        if (len[c] < 1 || r + len[c] > P)
            rc = LOGP_ERR_ARG;
        for (int i = 0; rc == LOGP_OK && i < len[c]; i++, r++)
            parent[r] = i == 0 ? 0 : r - 1;
    }
    if (rc == LOGP_OK && r != P)
        rc = LOGP_ERR_ARG;
    if (rc == LOGP_OK) {
        /* Root sends to heads last chain first (a reduce receives chain 0
         * first); inside a chain there is one child each. */
        int n = 0;
        for (int v = P - 1; v >= 1; v--)
            if (parent[v] == 0)
                order[n++] = v;
        for (int v = 1; v < P; v++)
            if (parent[v] != 0)
                order[n++] = v;
        rc = logp_tree_from_parents(t, P, parent, order);
    }
    free(parent);
    free(order);
    return rc;
}

/* The seed's a = 2o + L + m gamma and b = max(o + m gamma, g), with the
 * LogGP injection time (m-1)G added where params.h charges it (0 if G = 0). */
static void logp_chain_ab(const logp_params_t *p, size_t bytes, double *a, double *b)
{
    double mg = (double)bytes * p->gamma, gap = logp_params_gap(p, bytes);
    *a = logp_params_p2p(p, bytes) + mg;
    *b = p->o + mg > gap ? p->o + mg : gap;
}

/* Time of k equal chains of u ranks: the first result is in at u a, the
 * other k - 1 follow b apart (b's last term is o + m gamma, not max(., g)). */
static double logp_chain_time_equal(const logp_params_t *p, size_t bytes, int u, int k)
{
    double a, b, mg = (double)bytes * p->gamma;
    logp_chain_ab(p, bytes, &a, &b);
    return k > 1 ? (double)u * a + (double)(k - 2) * b + p->o + mg : (double)u * a;
}

double logp_chain_time_long_first(const logp_params_t *p, size_t bytes, int P, int k)
{
    double a, b, mg = (double)bytes * p->gamma;
    logp_chain_ab(p, bytes, &a, &b);
    if ((P - 1) % k == 0) /* the seed's formula assumes a longer chain exists */
        return logp_chain_time_equal(p, bytes, (P - 1) / k, k);
    return (double)((P - 1) / k) * a + (double)(k - 2) * b + 3.0 * p->o + p->L + 2.0 * mg;
}

double logp_chain_time_short_first(const logp_params_t *p, size_t bytes, int P, int k)
{
    double a, b, mg = (double)bytes * p->gamma;
    logp_chain_ab(p, bytes, &a, &b);
    int u = (P - 1) / k, v = (P - 1) % k, s = k - v;
    if (v == 0)
        return logp_chain_time_equal(p, bytes, u, k);
    /* Section 6: the first short result arrives at (u-1) a + o + L; the root
     * takes the s short ones (s b) while the first long one needs a more,
     * then the other v - 1 (b each), the last costing o + m gamma.  The
     * seed prints the tail as "+ 2o + m gamma", one L short of its own
     * P = 11 example (7o + 2L + 4 m gamma + max(m gamma, L)): we use the form
     * that agrees with the example and with the simulator. */
    double wait = (double)s * b > a ? (double)s * b : a;
    return (double)(u - 1) * a + p->o + p->L + wait + (double)(v - 1) * b + p->o + mg;
}

int logp_chain_best_k(const logp_params_t *p, size_t bytes, int P)
{
    int best = 1;
    for (int k = 2; k < P; k++)
        if (logp_chain_time_short_first(p, bytes, P, k) < logp_chain_time_short_first(p, bytes, P, best))
            best = k;
    return best;
}

double logp_chain_k_continuous(const logp_params_t *p, size_t bytes, int P)
{
    double a, b;
    logp_chain_ab(p, bytes, &a, &b);
    return sqrt(a * (double)(P - 1) / b);
}

double logp_chain_time_opt(const logp_params_t *p, size_t bytes, int P)
{
    double a, b;
    logp_chain_ab(p, bytes, &a, &b);
    return 2.0 * sqrt(a * b) * sqrt((double)(P - 1)) + a - b;
}

double logp_chain_time_adaptive(const logp_params_t *p, size_t bytes, int P)
{
    double a, b;
    logp_chain_ab(p, bytes, &a, &b);
    return b * sqrt(2.0 * (double)(P - 1) + 0.25) - b / 2.0 + a;
}

double logp_chain_time_adaptive_exact(const logp_params_t *p, size_t bytes, int P)
{
    int len[LOGP_CHAIN_ADAPTIVE_MAX];
    if (P <= 1 || (double)P > (double)LOGP_CHAIN_ADAPTIVE_MAX * (LOGP_CHAIN_ADAPTIVE_MAX - 1) / 2)
        return P <= 1 ? 0.0 : -1.0;
    int n = logp_chain_adaptive_lengths(P, len);
    double a, b, first = logp_params_p2p(p, bytes) - p->o; /* a head's result reaches the root */
    logp_chain_ab(p, bytes, &a, &b);
    logp_recv_state_t root = {0.0, 0.0};
    for (int c = 0; c < n; c++) /* in the order the root takes them: lengths 1, 2, .., k, the rest */
        logp_params_take(p, bytes, 1, (double)(len[c] - 1) * a + first, &root);
    return root.cpu;
}
