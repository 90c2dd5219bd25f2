/* Quantities with units, as written in tuning files and on command lines. */
#ifndef LOGP_CONFIG_UNITS_H
#define LOGP_CONFIG_UNITS_H

#include <stddef.h>

/* A time: number with ns, us, ms or s (no unit: us).  Writes seconds to
 * *out; returns 0, or -1 if the text is not a finite non-negative time. */
int logp_units_time(const char *text, double *out);

/* A per-byte cost: number with ns/B, us/B, ms/B, s/B (no unit: ns/B), or a
 * bandwidth B/s, KB/s, MB/s, GB/s (converted to its inverse, s/B).  Writes
 * seconds per byte; returns 0 or -1. */
int logp_units_per_byte(const char *text, double *out);

/* A byte count: digits with no unit or B, K or KiB (2^10), M or MiB
 * (2^20), G or GiB (2^30): "64K" is 65536.  Returns 0, or -1 if the text is
 * not such a count or it does not fit a size_t. */
int logp_units_bytes(const char *text, size_t *out);

/* A decimal integer in lo..hi with nothing after it.  Returns 0 or -1. */
int logp_units_count(const char *text, long lo, long hi, long *out);

#endif
