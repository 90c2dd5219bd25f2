/* Learned corrections: measured / predicted per (collective, algorithm,
 * size class), interpolated in log size between measured classes. */
#include "learn.h"

#include <math.h>

int logp_learn_class(size_t bytes)
{
    int c = 0;
    while (bytes > 1) {
        bytes >>= 1;
        c++;
    }
    return c;
}

size_t logp_learn_class_mid(int sc)
{
    size_t mid = (size_t)1 << sc;
    if (sc > 0)
        mid += mid / 2 - (mid >> 3); /* 1.375 x: close to sqrt(2) in integers */
    return mid;
}

static int logp_learn_valid(logp_coll_t coll, logp_algo_t algo, int sc)
{
    return (int)coll >= 0 && coll < LOGP_COLL_COUNT && (int)algo >= 0 && algo < LOGP_ALGO_COUNT && sc >= 0 &&
           sc < LOGP_LEARN_CLASSES;
}

logp_status_t logp_learn_set(logp_learn_t *l, logp_coll_t coll, logp_algo_t algo, int sc, double factor)
{
    if (!logp_learn_valid(coll, algo, sc))
        return LOGP_ERR_ARG;
    if (factor != 0.0 && !(factor >= 1.0 / LOGP_LEARN_CLAMP && factor <= LOGP_LEARN_CLAMP))
        return LOGP_ERR_ARG;
    l->ratio[coll][algo][sc] = (float)factor;
    return LOGP_OK;
}

double logp_learn_record(logp_learn_t *l, logp_coll_t coll, logp_algo_t algo, int sc, double measured,
                         double predicted)
{
    if (!logp_learn_valid(coll, algo, sc) || !(measured > 0.0) || !(predicted > 0.0))
        return 0.0;
    double r = measured / predicted;
    r = r < 1.0 / LOGP_LEARN_CLAMP ? 1.0 / LOGP_LEARN_CLAMP : r > LOGP_LEARN_CLAMP ? LOGP_LEARN_CLAMP : r;
    l->ratio[coll][algo][sc] = (float)r;
    return l->ratio[coll][algo][sc];
}

/* The algorithm's own factor at class sc (interpolated as the header
 * says), 0 if it was never measured for the collective. */
static double logp_learn_own(const float *r, int sc)
{
    if (r[sc] > 0.0f)
        return r[sc];
    int lo = sc - 1, hi = sc + 1;
    while (lo >= 0 && !(r[lo] > 0.0f))
        lo--;
    while (hi < LOGP_LEARN_CLASSES && !(r[hi] > 0.0f))
        hi++;
    if (lo >= 0 && hi < LOGP_LEARN_CLASSES) { /* geometric: the model's errors are ratios */
        double w = (double)(sc - lo) / (double)(hi - lo);
        return exp((1.0 - w) * log(r[lo]) + w * log(r[hi]));
    }
    if (lo >= 0)
        return r[lo];
    if (hi < LOGP_LEARN_CLASSES)
        return r[hi];
    return 0.0;
}

double logp_learn_factor(const logp_learn_t *l, logp_coll_t coll, logp_algo_t algo, int sc)
{
    if (l == NULL || !logp_learn_valid(coll, algo, sc))
        return 1.0;
    double own = logp_learn_own(l->ratio[coll][algo], sc);
    if (own > 0.0)
        return own;
    /* never measured: the default (auto's slot), what the trials taught
     * about our algorithms in general */
    if (algo != LOGP_ALGO_AUTO) {
        double def = logp_learn_own(l->ratio[coll][LOGP_ALGO_AUTO], sc);
        if (def > 0.0)
            return def;
    }
    return 1.0;
}

double logp_learn_record_default(logp_learn_t *l, logp_coll_t coll, int sc)
{
    if (l == NULL || !logp_learn_valid(coll, LOGP_ALGO_AUTO, sc))
        return 0.0;
    double logsum = 0.0;
    int n = 0;
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        if (a != LOGP_ALGO_NATIVE && a != LOGP_ALGO_AUTO && l->ratio[coll][a][sc] > 0.0f) {
            logsum += log(l->ratio[coll][a][sc]);
            n++;
        }
    if (n == 0)
        return 0.0;
    l->ratio[coll][LOGP_ALGO_AUTO][sc] = (float)exp(logsum / n);
    return l->ratio[coll][LOGP_ALGO_AUTO][sc];
}

void logp_learn_apply(const logp_learn_t *l, logp_coll_t coll, int sc, double *t)
{
    for (int a = 0; l && a < LOGP_ALGO_COUNT; a++)
        if (t[a] >= 0.0)
            t[a] *= logp_learn_factor(l, coll, (logp_algo_t)a, sc);
}

void logp_learn_merge(logp_learn_t *to, const logp_learn_t *from)
{
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            for (int s = 0; s < LOGP_LEARN_CLASSES; s++)
                if (from->ratio[c][a][s] > 0.0f)
                    to->ratio[c][a][s] = from->ratio[c][a][s];
}

int logp_learn_any(const logp_learn_t *l)
{
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            for (int s = 0; s < LOGP_LEARN_CLASSES; s++)
                if (l->ratio[c][a][s] > 0.0f)
                    return 1;
    return 0;
}
