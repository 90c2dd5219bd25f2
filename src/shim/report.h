/* The run report (PMPI_LOGP_REPORT): collected in memory, written once per
 * process at the end of the run. */
#ifndef LOGP_SHIM_REPORT_H
#define LOGP_SHIM_REPORT_H

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

/* Adds a communicator's block to the process's report (thread-safe). */
void logp_report_add(const logp_text_t *block);

/* Nonzero if the report at `path` is CSV (its name ends in ".csv"). */
int logp_report_csv(const char *path);

/* The CSV columns, one row per communicator, collective, size class and
 * algorithm (logp_state_report writes the rows).  trial_us: auto's trial,
 * "algo=us;algo=us" (each candidate's fastest call, slowest rank per call),
 * empty if none. */
#define LOGP_REPORT_CSV_HEADER                                                                                         \
    "comm,P,nodes,coll,bytes_lo,bytes_hi,algorithm,calls,bytes,total_us,mean_us,predicted_us,measured_over_predicted," \
    "slowest_total_us,slowest_rank,fastest_total_us,trial_us,trial_winner,trial_overhead_us\n"

/* Writes the process's report to `path` in one append, opened with
 * O_NOFOLLOW and only if it is a regular file (or a new one): a symlink,
 * FIFO, device or directory is refused with one line on stderr.  Text:
 * starts with "==== pmpi-logp run report: date, host, `ranks`, tuning" and
 * the command line when `header` is nonzero (world rank 0: it separates
 * runs appended to one file).  CSV: the column names when the file is
 * empty, then rows.  Each process holds an advisory lock (fcntl) on the
 * file while it writes.  Nothing is written if nothing was added and no header
 * is asked for.  Idempotent: a second call writes nothing. */
void logp_report_write(const char *path, int header, int ranks, const char *tuning);

#endif
