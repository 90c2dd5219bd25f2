/* The uniform tree schedules: binomial (sched_binomial.c), flat
 * (sched_flat.c) and the LogP-optimal tree of seed 000 (sched_logp_tree.c),
 * each computed for one rank at a time (sched.h). */
#ifndef LOGP_MODEL_SCHED_TREE_H
#define LOGP_MODEL_SCHED_TREE_H

#include <stddef.h>

#include "params.h"
#include "sched.h"

/* A child's result, sent when it is done, arrives at the parent. */
static inline double logp_sched_tree_arrive(const logp_params_t *p, size_t m, double done)
{
    return done + p->o + logp_params_inj(p, m) + p->L;
}

/* When `rank` holds the data of a bcast (or, reduce, the combined result
 * of its subtree) in a uniform-tree schedule s with this root, in the
 * uniform model; < 0 if s is not one of the three families above.
 * O(log P) for bcast; a reduce may cost O(lattice) (logp-tree). */
double logp_sched_tree_ready(const logp_sched_t *s, int root, int rank, int commutative);

/* The LogP-optimal tree's completion time T for P ranks, message delay
 * `delay` and gap `gap` (seed 000: the P-th smallest label of the universal
 * tree, f_{T-1} < P <= f_T), computed without building the tree: a search
 * over T on the lattice of labels a delay + b gap.  0 for P = 1; < 0 for
 * invalid arguments (delay <= 0 or gap <= 0 are the degenerate shapes:
 * binomial and flat). */
double logp_sched_tree_T(int P, double delay, double gap);

/* logp_sched_tree_ready of relative rank v (counted from the tree's
 * root) in a binomial, resp. flat, tree of s's shape. */
double logp_sched_binomial_ready(const logp_sched_t *s, long v, int commutative);
double logp_sched_flat_ready(const logp_sched_t *s, long v, int commutative);

#endif
