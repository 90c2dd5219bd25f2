/* Unit suffixes (see units.h). */
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *unit;
    double scale;  /* seconds (per byte) per unit, or bytes/s per unit of bandwidth */
    int bandwidth; /* the value is a bandwidth: store its inverse */
} logp_unit_t;

logp_units_locale_t logp_units_c_begin(void)
{
    logp_units_locale_t l = {newlocale(LC_NUMERIC_MASK, "C", (locale_t)0), (locale_t)0};
    if (l.c != (locale_t)0)
        l.old = uselocale(l.c);
    return l;
}

void logp_units_c_end(logp_units_locale_t l)
{
    if (l.c == (locale_t)0)
        return;
    uselocale(l.old);
    freelocale(l.c);
}

double logp_units_number(const char *text, char **end)
{
    logp_units_locale_t l = logp_units_c_begin();
    double v = strtod(text, end);
    logp_units_c_end(l);
    return v;
}

/* A non-negative finite number followed by one of `units` exactly. */
static logp_status_t logp_units_parse(const char *text, const logp_unit_t *units, size_t n, double *out)
{
    char *end;
    double v = logp_units_number(text, &end);
    if (end == text || !isfinite(v) || v < 0)
        return LOGP_ERR_PARSE;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(end, units[i].unit) != 0)
            continue;
        if (!units[i].bandwidth) {
            *out = v * units[i].scale;
            return LOGP_OK;
        }
        if (v <= 0)
            return LOGP_ERR_PARSE;
        *out = 1.0 / (v * units[i].scale);
        return LOGP_OK;
    }
    return LOGP_ERR_PARSE;
}

logp_status_t logp_units_time(const char *text, double *out)
{
    static const logp_unit_t u[] = {{"", 1e-6, 0}, {"us", 1e-6, 0}, {"ns", 1e-9, 0}, {"ms", 1e-3, 0}, {"s", 1.0, 0}};
    return logp_units_parse(text, u, sizeof u / sizeof u[0], out);
}

logp_status_t logp_units_per_byte(const char *text, double *out)
{
    static const logp_unit_t u[] = {{"", 1e-9, 0},   {"ns/B", 1e-9, 0}, {"us/B", 1e-6, 0}, {"ms/B", 1e-3, 0},
                                    {"s/B", 1.0, 0}, {"B/s", 1.0, 1},   {"KB/s", 1e3, 1},  {"MB/s", 1e6, 1},
                                    {"GB/s", 1e9, 1}};
    return logp_units_parse(text, u, sizeof u / sizeof u[0], out);
}

logp_status_t logp_units_bytes(const char *text, size_t *out)
{
    static const struct {
        const char *unit;
        unsigned shift;
    } u[] = {{"", 0}, {"B", 0}, {"K", 10}, {"KiB", 10}, {"M", 20}, {"MiB", 20}, {"G", 30}, {"GiB", 30}};
    char *end;
    if (text[0] < '0' || text[0] > '9') /* no sign, no space, no "inf" */
        return LOGP_ERR_PARSE;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text || errno)
        return LOGP_ERR_PARSE;
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        if (strcmp(end, u[i].unit) != 0)
            continue;
        if (v > (unsigned long long)SIZE_MAX >> u[i].shift)
            return LOGP_ERR_PARSE;
        *out = (size_t)v << u[i].shift;
        return LOGP_OK;
    }
    return LOGP_ERR_PARSE;
}

logp_status_t logp_units_count(const char *text, long lo, long hi, long *out)
{
    char *end;
    if (!((text[0] >= '0' && text[0] <= '9') || (text[0] == '-' && text[1] >= '0' && text[1] <= '9')))
        return LOGP_ERR_PARSE;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (*end != '\0' || errno || v < lo || v > hi)
        return LOGP_ERR_PARSE;
    *out = v;
    return LOGP_OK;
}
