/* Algorithm selection from predicted LogGP costs (pure C, no MPI). */
#ifndef LOGP_SELECT_SELECT_H
#define LOGP_SELECT_SELECT_H

#include <stddef.h>

#include "../model/algo.h"
#include "../model/params.h"
#include "../model/plan.h"
#include "../model/topo.h"

typedef struct logp_select_query {
    logp_coll_t coll;
    int P;
    size_t bytes;      /* bcast/reduce: message; alltoall: one block */
    int commutative;   /* reduce operator */
    int native_unsafe; /* the MPI library is known to fail on this call */
    int chain_k;       /* k of `chain` */
    const logp_topo_t *topo; /* where the ranks are (NULL: one uniform node);
                                every plan is priced under it */
} logp_select_query_t;

/* The algorithm to run for `configured` (a name from the registry):
 * a concrete algorithm is returned as is (native too, unless native_unsafe:
 * then binomial; hetero-tree and two-level for a non-commutative reduce:
 * then logp-tree, which their plans fall back to); `auto` returns the candidate with the lowest predicted
 * time among every registered algorithm of the collective and native
 * (logp_native_predict, with `params`), never native when native_unsafe.
 * `params` are the communicator's uniform parameters (logp_topo_rep of
 * q->topo when there is one).  Writes the
 * predicted time of the choice to *predicted (if not NULL; < 0 if unknown). */
logp_algo_t logp_select_choose(logp_algo_t configured, const logp_select_query_t *q, const logp_params_t *params,
                               double *predicted);

/* Predicted time of one algorithm for the query (root 0), or < 0. */
double logp_select_predict(logp_algo_t algo, const logp_select_query_t *q, const logp_params_t *params);

#endif
