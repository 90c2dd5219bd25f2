/* Unit suffixes (see units.h). */
#include "units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *unit;
    double scale;  /* seconds (per byte) per unit, or bytes/s per unit of bandwidth */
    int bandwidth; /* the value is a bandwidth: store its inverse */
} logp_unit_t;

/* A non-negative finite number followed by one of `units` exactly. */
static int logp_units_parse(const char *text, const logp_unit_t *units, size_t n, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || !isfinite(v) || v < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(end, units[i].unit) != 0)
            continue;
        if (!units[i].bandwidth) {
            *out = v * units[i].scale;
            return 0;
        }
        if (v <= 0)
            return -1;
        *out = 1.0 / (v * units[i].scale);
        return 0;
    }
    return -1;
}

int logp_units_time(const char *text, double *out)
{
    static const logp_unit_t u[] = {{"", 1e-6, 0}, {"us", 1e-6, 0}, {"ns", 1e-9, 0}, {"ms", 1e-3, 0}, {"s", 1.0, 0}};
    return logp_units_parse(text, u, sizeof u / sizeof u[0], out);
}

int logp_units_per_byte(const char *text, double *out)
{
    static const logp_unit_t u[] = {{"", 1e-9, 0},   {"ns/B", 1e-9, 0}, {"us/B", 1e-6, 0}, {"ms/B", 1e-3, 0},
                                    {"s/B", 1.0, 0}, {"B/s", 1.0, 1},   {"KB/s", 1e3, 1},  {"MB/s", 1e6, 1},
                                    {"GB/s", 1e9, 1}};
    return logp_units_parse(text, u, sizeof u / sizeof u[0], out);
}
