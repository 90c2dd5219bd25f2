/* Corrections of the model learned from measured calls (pure C): one
 * factor measured / predicted per (collective, algorithm, size class).
 * Filled by auto's trials (shim) or read from a learned file (config);
 * the selection multiplies each candidate's predicted time by its factor,
 * so that classes never measured are priced with what the nearest
 * measured classes taught. */
#ifndef LOGP_MODEL_LEARN_H
#define LOGP_MODEL_LEARN_H

#include <stddef.h>

#include "algo.h"
#include "status.h"

/* Size classes floor(log2(bytes)) of 1 B .. INT_MAX B. */
#define LOGP_LEARN_CLASSES 31
/* Factors are kept within [1/LOGP_LEARN_CLAMP, LOGP_LEARN_CLAMP]: beyond
 * that a measurement says more about a broken run than about the model. */
#define LOGP_LEARN_CLAMP 1000.0

typedef struct logp_learn {
    /* measured / predicted; 0: never measured */
    float ratio[LOGP_COLL_COUNT][LOGP_ALGO_COUNT][LOGP_LEARN_CLASSES];
} logp_learn_t;

/* Size class of a byte count: floor(log2(bytes)), 0 for 0 or 1 byte. */
int logp_learn_class(size_t bytes);

/* The size at which a whole class is decided: about 2^sc * sqrt(2), its
 * geometric middle (every size and rank of the class gets one answer). */
size_t logp_learn_class_mid(int sc);

/* Records that `algo` took `measured` seconds where `predicted` were
 * expected (both > 0, else nothing is recorded), replacing what the class
 * held.  Returns the factor stored, 0 if none. */
double logp_learn_record(logp_learn_t *l, logp_coll_t coll, logp_algo_t algo, int sc, double measured,
                         double predicted);

/* Sets the default factor of class sc (for algorithms without a factor
 * of their own) to the geometric mean of the factors recorded at sc for
 * our algorithms (native excluded: a model of someone else's code); call
 * after recording a trial's candidates.  Returns it, 0 if none. */
double logp_learn_record_default(logp_learn_t *l, logp_coll_t coll, int sc);

/* Sets one factor as read from a file (0 clears it).  Returns LOGP_OK, or
 * LOGP_ERR_ARG (nothing set) if an argument or the factor is out of range. */
logp_status_t logp_learn_set(logp_learn_t *l, logp_coll_t coll, logp_algo_t algo, int sc, double factor);

/* The factor for (coll, algo) at class sc: the class's own if measured;
 * else interpolated geometrically between the nearest measured classes
 * below and above; else the nearest one's.  An algorithm never measured
 * for the collective takes the default factor (the slot of
 * LOGP_ALGO_AUTO, looked up the same way; logp_learn_record_default), so
 * that trials of some algorithms do not make the untried ones look dear
 * by comparison when the model misses the whole machine; 1 without one. */
double logp_learn_factor(const logp_learn_t *l, logp_coll_t coll, logp_algo_t algo, int sc);

/* Multiplies every price t[a] >= 0 (a < LOGP_ALGO_COUNT) by its factor. */
void logp_learn_apply(const logp_learn_t *l, logp_coll_t coll, int sc, double *t);

/* Copies every factor `from` has into `to` (later sources win). */
void logp_learn_merge(logp_learn_t *to, const logp_learn_t *from);

/* Nonzero if any factor is set. */
int logp_learn_any(const logp_learn_t *l);

#endif
