/* Unit suffixes (see units.h). */
#include "units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int logp_units_number(const char *text, double *v, const char **unit)
{
    char *end;
    *v = strtod(text, &end);
    if (end == text || !isfinite(*v) || *v < 0)
        return -1;
    *unit = end;
    return 0;
}

int logp_units_time(const char *text, double *out)
{
    static const struct {
        const char *unit;
        double scale;
    } u[] = {{"", 1e-6}, {"us", 1e-6}, {"ns", 1e-9}, {"ms", 1e-3}, {"s", 1.0}};
    double v;
    const char *unit;
    if (logp_units_number(text, &v, &unit) != 0)
        return -1;
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        if (strcmp(unit, u[i].unit) == 0) {
            *out = v * u[i].scale;
            return 0;
        }
    return -1;
}

int logp_units_per_byte(const char *text, double *out)
{
    static const struct {
        const char *unit;
        double scale;
        int bandwidth;
    } u[] = {{"", 1e-9, 0},    {"ns/B", 1e-9, 0}, {"us/B", 1e-6, 0}, {"ms/B", 1e-3, 0}, {"s/B", 1.0, 0},
             {"B/s", 1.0, 1},  {"KB/s", 1e3, 1},  {"MB/s", 1e6, 1},  {"GB/s", 1e9, 1}};
    double v;
    const char *unit;
    if (logp_units_number(text, &v, &unit) != 0)
        return -1;
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        if (strcmp(unit, u[i].unit) == 0) {
            if (!u[i].bandwidth) {
                *out = v * u[i].scale;
                return 0;
            }
            if (v <= 0)
                return -1;
            *out = 1.0 / (v * u[i].scale);
            return 0;
        }
    return -1;
}
