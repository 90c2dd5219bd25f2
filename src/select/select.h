/* Algorithm selection from predicted LogGP costs (pure C, no MPI). */
#ifndef LOGP_SELECT_SELECT_H
#define LOGP_SELECT_SELECT_H

#include <stddef.h>

#include "../model/algo.h"
#include "../model/learn.h"
#include "../model/sched.h"
#include "../model/topo.h"
#include "native.h"

/* The reach of a trial beyond auto's pick (confirm.h's LOGP_CONFIRM_NEAR):
 * runners-up predicted within this factor of the best are tried, so the
 * pricing may not prune them (select.c). */
#define LOGP_SELECT_NEAR 2.0

typedef struct logp_select_query {
    logp_coll_t coll;
    size_t bytes;            /* bcast/reduce: message; alltoall: one block */
    int commutative;         /* reduce, allreduce: the operator class (algo.h: 0, 1, LOGP_OPS_IDEMPOTENT) */
    int native_unsafe;       /* the MPI library is known to fail on this call */
    int chain_k;             /* k of `chain` */
    const logp_topo_t *topo; /* the machine: P, layout and every parameter */
    logp_native_lib_t native; /* whose defaults "native" runs (0: MPICH) */
    const logp_learn_t *learn; /* corrections of auto's prices (NULL: none) */
    int reproducible;          /* PMPI_LOGP_REPRODUCIBLE: a reduce's bits may not depend on the order in
                                  which messages arrive (no LOGP_FAMILY_DATAFLOW schedule runs it) */
    int agreed;                /* alltoallv: the ranks agree on the size class before each call (the
                                  shim's vote), so they decide alike and any algorithm may run; else
                                  only the direct exchanges, which mix (algo.h) */
} logp_select_query_t;

/* What runs where nothing is decided or a decision cannot stand: the
 * library's collective, or where the library is known to fail on the call
 * (native_unsafe) the safe default, binomial (ring for all-to-all), whose
 * schedule is O(1) numbers (it cannot fail for want of memory). */
logp_algo_t logp_select_safe(logp_coll_t coll, int native_unsafe);

/* The algorithm that `configured` (a name from the registry) runs for this
 * query: a concrete algorithm as is, except native when native_unsafe
 * (then binomial, or ring for alltoall) and hetero-tree or two-level for a
 * non-commutative reduce (then logp-tree: their shapes lose rank order);
 * an idempotent-only schedule (LOGP_FAMILY_IDEMPOTENT) for another
 * operator (then recursive-multiplying: a butterfly like it, exact once);
 * a dataflow reduce (combines in arrival order) where q->reproducible
 * (then reduce-scatter-gather, the same exchange in a fixed order; or
 * logp-tree for a non-commutative operator); where ranks pass sizes of
 * their own (alltoallv) and q->agreed is 0, an algorithm that does not mix
 * with the others (not a direct exchange): linear; node-aggregate on one
 * node (nothing to aggregate): ring; auto: see logp_select_decide. */
logp_algo_t logp_select_resolve(logp_algo_t configured, const logp_select_query_t *q);

/* Decides for `configured` and builds what will run.  auto takes the
 * candidate with the lowest predicted time among every registered
 * algorithm of the collective and native (logp_native_predict), never
 * native when native_unsafe or where ranks pass sizes of their own
 * (logp_coll_local_sizes: alltoallv) and do not agree on them (q->agreed:
 * then only the direct exchanges); native wins ties (leave the library alone
 * unless we predict a gain), then registry order.  With q->learn, every
 * price is multiplied by its learned factor (logp_learn_apply): auto
 * compares corrected prices, and *predicted is the corrected price.  Uniform layouts are
 * priced by closed forms (logp_sched_time); others by the simulator when
 * all candidates' work fits LOGP_PLAN_BUDGET (logp_plan_work), else every candidate by
 * its estimate (logp_sched_estimate), so that one decision stays within
 * about 0.1 s at any P.
 * Writes the predicted time of the choice to *predicted (if not NULL; < 0
 * if unknown) and, unless the choice is native, its schedule to *sched
 * (the caller frees it); on failure to build it, *sched is zeroed and
 * LOGP_ERR_NOMEM is returned with the choice in *algo.  Returns LOGP_OK,
 * LOGP_ERR_ARG or LOGP_ERR_NOMEM. */
logp_status_t logp_select_decide(logp_algo_t configured, const logp_select_query_t *q, logp_algo_t *algo,
                                 logp_sched_t *sched, double *predicted);

/* As logp_select_decide; where auto priced every candidate (auto, P >
 * 1) it also writes their prices without q->learn's corrections to
 * raw[0 .. LOGP_ALGO_COUNT-1] and sets *priced (else *priced is 0), so
 * that a trial takes its candidates from them without pricing every
 * algorithm again (on a shared network that is most of a class's first
 * call).  raw and priced may be NULL. */
logp_status_t logp_select_decide_priced(logp_algo_t configured, const logp_select_query_t *q, logp_algo_t *algo,
                                        logp_sched_t *sched, double *predicted, double *raw, int *priced);

/* What auto sees: the predicted time of every algorithm for the query
 * into t[0 .. LOGP_ALGO_COUNT-1] (< 0: not a candidate, such as a family
 * marked LOGP_FAMILY_FORCED_ONLY), priced as logp_select_decide prices
 * them (with q->learn's corrections).  Returns nonzero if they are exact,
 * 0 if they are estimates. */
int logp_select_prices(const logp_select_query_t *q, double *t);

/* Where ranks pass sizes of their own (alltoallv), whether agreeing on
 * the size class before each call pays at the query's size (call it with
 * the smallest: the agreement pays most where messages are many and
 * small): nonzero if the best algorithm with agreement (any, native
 * included), plus `agreement` (the price of that agreement: one small
 * allreduce), beats the best direct exchange without it.  Pure pricing,
 * alike on every rank. */
int logp_select_agreement_pays(const logp_select_query_t *q, double agreement);

/* Predicted time of one algorithm for the query (root 0), or < 0: exact
 * (closed form or simulation, whatever it costs). */
double logp_select_predict(logp_algo_t algo, const logp_select_query_t *q);

#endif
