/* The run report (PMPI_LOGP_REPORT): collected in memory, written once per
 * process at the end of the run. */
#ifndef LOGP_SHIM_REPORT_H
#define LOGP_SHIM_REPORT_H

#include <stddef.h>

#include "state.h"
#include "text.h"

/* Adds st's block to the process's report (rank 0 of st only): a row per
 * decision, times rank 0's own (the root's view of a bcast, everyone's for
 * all-to-all) and, where gathered at the end, the slowest and fastest
 * rank's totals; with auto's trial on a line of its own. */
void logp_report_comm(const logp_comm_state_t *st);

/* At the end of the run, with every rank here (MPI_Finalize or the
 * session's end): every rank's own total time per decision, sent to rank
 * 0 of each communicator whose ranks all time their calls, for the
 * report's slowest and fastest rank.  Each rank first posts its sends for
 * every communicator of all[0 .. n) and only then receives, so no order
 * of communicators between ranks can make two ranks wait for each other.
 * Point to point on the private communicator with the communicator's tag,
 * which no collective uses any more.  A failed receive leaves that
 * communicator's rows with rank 0's times. */
void logp_report_gather(logp_comm_state_t *const *all, int n);

/* Adds a communicator's block to the process's report (thread-safe). */
void logp_report_add(const logp_text_t *block);

/* Nonzero if the report at `path` is CSV (its name ends in ".csv"). */
int logp_report_csv(const char *path);

/* The CSV columns, one row per communicator, collective, size class and
 * algorithm (logp_report_comm writes the rows).  trial_us: auto's trial,
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
