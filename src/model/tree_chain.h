/* k parallel chains for reduce (seed 001, Kurnosov 2016). */
#ifndef LOGP_MODEL_TREE_CHAIN_H
#define LOGP_MODEL_TREE_CHAIN_H

#include "params.h"
#include "tree.h"

/* Order in which the root receives the chains' results. */
typedef enum logp_chain_order {
    LOGP_CHAIN_SHORT_FIRST = 0, /* seed 001 section 6: what `chain` runs */
    LOGP_CHAIN_LONG_FIRST = 1   /* Open MPI / seed figure 2: for comparison only */
} logp_chain_order_t;

/* Chain lengths for P ranks in k chains (k clipped to [1, P-1]), in the
 * order the root receives them: writes them to len[0..k-1] and returns k
 * (0 for P = 1).  Chain c holds consecutive ranks starting after chain c-1. */
int logp_chain_lengths(int P, int k, logp_chain_order_t order, int *len);

/* Adaptive chains (seed 001 section 7): lengths 1, 2, .., k with
 * k = floor((sqrt(8(P-1)+1) - 1) / 2), then the remaining
 * P - 1 - k(k+1)/2 ranks as one more chain received last.  len must hold
 * k + 1 entries (k <= sqrt(2P) + 1); returns the number of chains. */
int logp_chain_adaptive_lengths(int P, int *len);

/* Tree of chains: chain c is ranks [h_c, h_c + len[c]) with head h_c, each
 * rank's parent the one before it, the heads' parent the root; the root
 * receives chain 0 first (so sends to heads in descending order).
 * Returns LOGP_OK, LOGP_ERR_ARG (lengths that do not cover 1..P-1) or
 * LOGP_ERR_NOMEM. */
logp_status_t logp_tree_chains(logp_tree_t *t, int P, const int *len, int nchains);

/* Seed 001 closed forms with a = 2o + L + m gamma, b = max(o + m gamma, g)
 * (plus the injection time (m-1)G in a and b when G > 0):
 * long-first t(k) = floor((P-1)/k) a + (k-2) b + 3o + L + 2 m gamma (section 4),
 * short-first t(k) of section 6, the optimum over real k
 * 2 sqrt(ab) sqrt(P-1) + a - b (section 5) and adaptive
 * b sqrt(2(P-1) + 1/4) - b/2 + a (section 8). */
double logp_chain_time_long_first(const logp_params_t *p, size_t bytes, int P, int k);
double logp_chain_time_short_first(const logp_params_t *p, size_t bytes, int P, int k);
double logp_chain_time_opt(const logp_params_t *p, size_t bytes, int P);
double logp_chain_time_adaptive(const logp_params_t *p, size_t bytes, int P);

/* Chains logp_chain_adaptive_lengths can return for P up to
 * LOGP_CHAIN_ADAPTIVE_MAX (LOGP_CHAIN_ADAPTIVE_MAX - 1) / 2 ranks. */
#define LOGP_CHAIN_ADAPTIVE_MAX 4096

/* The exact LogP time of the adaptive chains (a chain of length l hands
 * its result to the root at (l - 1) a + p2p(m) - o; the root takes them in
 * order, o + m gamma each, gap(m) apart): k a, plus b for a last, shorter
 * chain, where gap(m) <= a.  The seed's closed form above assumes the root
 * never waits for a chain: a + k b against k a, below it once
 * (k - 1)(a - b) > 2b (a - b = o + L + (m - 1)G where b = o + m gamma).
 * -1 beyond
 * LOGP_CHAIN_ADAPTIVE_MAX's reach (P > 8,386,560). */
double logp_chain_time_adaptive_exact(const logp_params_t *p, size_t bytes, int P);

/* chain-opt: the integer k in [1, P-1] minimising the short-first time
 * (the seed's sqrt(a(P-1)/b) rounded the best way); 1 for P <= 2. */
int logp_chain_best_k(const logp_params_t *p, size_t bytes, int P);

/* The seed's continuous optimum k = sqrt(a (P-1) / b) (section 5). */
double logp_chain_k_continuous(const logp_params_t *p, size_t bytes, int P);

#endif
