/* The LogP-optimal broadcast tree and summation plan of seed 000
 * (Shou & Chen, after Karp, Sahay, Santos, Schauser 1993). */
#ifndef LOGP_MODEL_TREE_LOGP_H
#define LOGP_MODEL_TREE_LOGP_H

#include <stddef.h>

#include "params.h"
#include "tree.h"

/* Optimal broadcast tree for P ranks when a message takes `delay` from the
 * start of its send until the receiver holds it (2o + L + (m-1)G; for the
 * summation tree add the combine cost, seed: L + 1) and an informed rank
 * can start a new send every `gap` (max(g, o + (m-1)G)).
 * Greedy earliest arrival over the universal tree GBT, then the preorder
 * prefix of P nodes of OBT(f_T) (seed definition 4), children numbered as in
 * theorem 3.  O(P log P).  If `ready` is not NULL it receives, per rank, the
 * time it holds the data (its label); `*T` (if not NULL) the completion time.
 * delay > 0 and gap >= 0 required (else LOGP_ERR_ARG).  Returns LOGP_OK,
 * LOGP_ERR_ARG or LOGP_ERR_NOMEM. */
logp_status_t logp_tree_optimal(logp_tree_t *t, int P, double delay, double gap, double *ready, double *T);

/* The (delay, gap) of logp_tree_optimal for m-byte messages under p:
 * broadcast 2o + L + (m-1)G and its send gap (logp_params_send_gap:
 * max(g, o + (m-1)G), above LOGP_PARAMS_SERIAL_BYTES at least o +
 * (m-1)G + L, the executors' rule); the summation tree
 * (reduce != 0) adds the combine m gamma to the delay, and a parent cannot
 * take results faster than it combines them: gap >= o + m gamma. */
void logp_tree_costs(const logp_params_t *p, size_t bytes, int reduce, double *delay, double *gap);

/* logp_tree_optimal with logp_tree_costs; a free network (delay 0) gets the
 * binomial tree (every tree is then optimal).  `ready` and what it returns
 * as logp_tree_optimal (all 0 for the binomial case). */
logp_status_t logp_tree_model(logp_tree_t *t, int P, const logp_params_t *p, size_t bytes, int reduce, double *ready);

/* Seed 000 theorem 2 for integer parameters: f[0..n] = number of ranks an
 * optimal broadcast informs within time 0..n (delay = L + 2o).  LOGP_OK,
 * or LOGP_ERR_ARG (negative times, g < 1 or L + 2o < 1). */
logp_status_t logp_tree_fn(long L, long o, long g, long n, long *f);

/* Seed 000 ComputeParent, literally: parent (relative rank) of relative
 * rank v > 0 in T*(P; L, o, g) whose root has effective time T, given f[0..T]
 * from logp_tree_fn with the same L.  -1 if not found. */
int logp_tree_seed_parent(int v, long T, long L, long o, long g, const long *f);

/* One node of the seed's algorithm 2 (summation of N operands on S*(P;L,o,g)). */
typedef struct logp_sum_node {
    long T; /* effective time T_i */
    int K;  /* children K_i */
    long A; /* own operands A_i = T_i - (o+1) K_i + 1 (lemma 1) */
    long B; /* balanced share B_i = floor((N - sum A) / P) (+1 for the first remainder ranks) */
} logp_sum_node_t;

/* Algorithm 2 of seed 000 with integer L, o, g: fills nodes[0..P-1] (relative
 * ranks of S*(P;L,o,g) = T*(P;L+1,o,g)), returns in *T_B the tree's time,
 * *N_S = sum A_i (theorem 5) and *time the completion time
 * T_B + ceil((N - N_S) / P) (theorem 6; the seed writes (N - N_S)/P).
 * N < N_S is allowed: B_i are then 0 and the plan finishes early.
 * Returns LOGP_OK or LOGP_ERR_ARG / LOGP_ERR_NOMEM. */
logp_status_t logp_tree_sum_plan(int P, long N, long L, long o, long g, logp_sum_node_t *nodes, long *T_B,
                                 long *N_S, double *time);

#endif
