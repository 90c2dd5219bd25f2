/* Quantities with units, as written in tuning files and on command lines. */
#ifndef LOGP_CONFIG_UNITS_H
#define LOGP_CONFIG_UNITS_H

#include <locale.h>
#include <stddef.h>

#include "../model/status.h"

/* The numeric locale "C" on the calling thread while the library reads or
 * writes its files: their numbers use '.' whatever locale the application
 * chose (setlocale before its first collective: under de_DE strtod reads
 * "1.6us" as 1 and stops at '.').  logp_units_c_begin switches (nothing
 * if it cannot), logp_units_c_end switches back. */
typedef struct {
    locale_t c, old;
} logp_units_locale_t;
logp_units_locale_t logp_units_c_begin(void);
void logp_units_c_end(logp_units_locale_t l);

/* strtod in the "C" locale. */
double logp_units_number(const char *text, char **end);

/* A time: number with ns, us, ms or s (no unit: us).  Writes seconds to
 * *out; returns LOGP_OK, or LOGP_ERR_PARSE if the text is not a finite
 * non-negative time. */
logp_status_t logp_units_time(const char *text, double *out);

/* A per-byte cost: number with ns/B, us/B, ms/B, s/B (no unit: ns/B), or a
 * bandwidth B/s, KB/s, MB/s, GB/s (converted to its inverse, s/B).  Writes
 * seconds per byte; returns LOGP_OK or LOGP_ERR_PARSE. */
logp_status_t logp_units_per_byte(const char *text, double *out);

/* A byte count: digits with no unit or B, K or KiB (2^10), M or MiB
 * (2^20), G or GiB (2^30): "64K" is 65536.  Returns LOGP_OK, or
 * LOGP_ERR_PARSE if the text is not such a count or it does not fit a
 * size_t. */
logp_status_t logp_units_bytes(const char *text, size_t *out);

/* A decimal integer in lo..hi with nothing after it.  Returns LOGP_OK or
 * LOGP_ERR_PARSE (not such an integer, or outside lo..hi). */
logp_status_t logp_units_count(const char *text, long lo, long hi, long *out);

#endif
