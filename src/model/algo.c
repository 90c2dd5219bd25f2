/* Name and description tables generated from the registry algo.def. */
#include "algo.h"

#include <stddef.h>
#include <string.h>

static const struct {
    const char *name;
    unsigned colls;
    double band[2]; /* percent: loggp, shared */
    const char *desc;
} logp_algo_table[LOGP_ALGO_COUNT] = {
#define LOGP_ALGO_X(id, name, colls, family, band_loggp, band_shared, desc) {name, colls, {band_loggp, band_shared}, desc},
#include "algo.def"
#undef LOGP_ALGO_X
};

const char *logp_algo_name(logp_algo_t algo)
{
    return (unsigned)algo < LOGP_ALGO_COUNT ? logp_algo_table[algo].name : "?";
}

const char *logp_algo_describe(logp_algo_t algo)
{
    return (unsigned)algo < LOGP_ALGO_COUNT ? logp_algo_table[algo].desc : "?";
}

double logp_algo_error_band(logp_algo_t algo, int shared)
{
    if ((unsigned)algo >= LOGP_ALGO_COUNT || logp_algo_table[algo].band[shared != 0] < 0.0)
        return -1.0;
    return logp_algo_table[algo].band[shared != 0] / 100.0;
}

int logp_algo_supports(logp_algo_t algo, logp_coll_t coll)
{
    return (unsigned)algo < LOGP_ALGO_COUNT && (unsigned)coll < LOGP_COLL_COUNT &&
           (logp_algo_table[algo].colls & (1u << coll)) != 0;
}

logp_algo_t logp_algo_lookup(logp_coll_t coll, const char *name)
{
    if (name == NULL)
        return LOGP_ALGO_COUNT;
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        if (strcmp(logp_algo_table[a].name, name) == 0 && logp_algo_supports((logp_algo_t)a, coll))
            return (logp_algo_t)a;
    return LOGP_ALGO_COUNT;
}

const char *logp_coll_name(logp_coll_t coll)
{
    static const char *const names[LOGP_COLL_COUNT] = {"bcast", "reduce", "alltoall", "allreduce", "alltoallv"};
    return (unsigned)coll < LOGP_COLL_COUNT ? names[coll] : "?";
}

const char *logp_algo_mask(logp_coll_t coll, char *list, uint32_t *mask)
{
    *mask = 0;
    for (char *name = list, *comma; name; name = comma) {
        if ((comma = strchr(name, ',')) != NULL)
            *comma++ = '\0';
        logp_algo_t a = logp_algo_lookup(coll, name);
        if (a == LOGP_ALGO_COUNT || a == LOGP_ALGO_AUTO)
            return name;
        *mask |= (uint32_t)1 << a;
    }
    return NULL;
}

logp_coll_t logp_coll_lookup(const char *name)
{
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        if (name && strcmp(name, logp_coll_name((logp_coll_t)c)) == 0)
            return (logp_coll_t)c;
    return LOGP_COLL_COUNT;
}
