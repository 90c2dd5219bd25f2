/* Text that grows as needed, for the run report and the learned file. */
#ifndef LOGP_SHIM_TEXT_H
#define LOGP_SHIM_TEXT_H

#include <stddef.h>

/* Text that grows as needed: every line is kept (no fixed buffer to
 * truncate or overrun); `lost` counts lines an allocation failure dropped. */
typedef struct logp_text {
    char *buf;
    size_t len, cap;
    unsigned long lost;
} logp_text_t;

/* Appends printf-formatted text; on allocation failure counts it in lost. */
void logp_text_printf(logp_text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Releases the text. */
void logp_text_free(logp_text_t *t);

#endif
