/* The run report (see report.h). */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "next.h"
#include "process.h"

static pthread_mutex_t logp_report_lock = PTHREAD_MUTEX_INITIALIZER;
static logp_text_t logp_report; /* every block of this process, under the lock */
static int logp_report_done;

void logp_report_add(const logp_text_t *block)
{
    pthread_mutex_lock(&logp_report_lock);
    if (block->len > 0)
        logp_text_printf(&logp_report, "%s", block->buf);
    logp_report.lost += block->lost;
    pthread_mutex_unlock(&logp_report_lock);
}

/* The command line, from /proc/self/cmdline (arguments separated by spaces). */
static void logp_report_command(char *out, size_t n)
{
    out[0] = '\0';
    int fd = open("/proc/self/cmdline", O_RDONLY);
    if (fd < 0)
        return;
    ssize_t got = read(fd, out, n - 1);
    close(fd);
    if (got <= 0) {
        out[0] = '\0';
        return;
    }
    out[got] = '\0';
    for (ssize_t i = 0; i < got - 1; i++)
        if (out[i] == '\0')
            out[i] = ' ';
}

int logp_report_csv(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n >= 4 && strcmp(path + n - 4, ".csv") == 0;
}

void logp_report_write(const char *path, int header, int ranks, const char *tuning)
{
    pthread_mutex_lock(&logp_report_lock);
    if (logp_report_done || path == NULL || (logp_report.len == 0 && !header && logp_report.lost == 0)) {
        logp_report_done = 1;
        pthread_mutex_unlock(&logp_report_lock);
        return;
    }
    logp_report_done = 1;
    logp_text_t out = {0};
    int csv = logp_report_csv(path);
    if (header && !csv) {
        char date[64] = "", host[256] = "", cmd[1024];
        time_t now = time(NULL);
        struct tm tm;
        if (localtime_r(&now, &tm))
            strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %z", &tm);
        gethostname(host, sizeof host - 1);
        logp_report_command(cmd, sizeof cmd);
        logp_text_printf(&out, "==== pmpi-logp run report: %s, host %s, %d ranks, tuning %s\n==== command: %s\n", date,
                         host, ranks, tuning && tuning[0] ? tuning : "built-in", cmd);
    }
    if (logp_report.len > 0)
        logp_text_printf(&out, "%s", logp_report.buf);
    if (logp_report.lost + out.lost > 0 && !csv)
        logp_text_printf(&out, "  (%lu report lines left out: out of memory)\n", logp_report.lost + out.lost);
    pthread_mutex_unlock(&logp_report_lock);
    /* never follow a link, never block on a FIFO, only append to a file */
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    struct stat sb;
    if (fd < 0) {
        fprintf(stderr, "pmpi-logp: PMPI_LOGP_REPORT=%s: %s; no report written\n", path,
                errno == ELOOP ? "a symbolic link (refused)" : strerror(errno));
    } else if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fprintf(stderr, "pmpi-logp: PMPI_LOGP_REPORT=%s: not a regular file; no report written\n", path);
    } else {
        size_t done = 0;
        /* The processes of a job append at about the same time: an
         * advisory lock makes each one's check for an empty file and its
         * writes one step, so the CSV column names come once and blocks do
         * not interleave.  Without locks (some file systems) it goes on
         * unlocked. */
        struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        while (fcntl(fd, F_SETLKW, &lk) != 0 && errno == EINTR)
            ;
        if (csv && fstat(fd, &sb) == 0 && sb.st_size == 0) {
            const char *h = LOGP_REPORT_CSV_HEADER;
            if (write(fd, h, strlen(h)) < 0)
                fprintf(stderr, "pmpi-logp: PMPI_LOGP_REPORT=%s: %s\n", path, strerror(errno));
        }
        while (done < out.len) {
            ssize_t w = write(fd, out.buf + done, out.len - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                fprintf(stderr, "pmpi-logp: PMPI_LOGP_REPORT=%s: %s\n", path, strerror(errno));
                break;
            }
            done += (size_t)w;
        }
    }
    if (fd >= 0)
        close(fd);
    logp_text_free(&out);
}

/* The report block of one communicator (rank 0 of it adds it; times are
 * rank 0's own: the root's view of a bcast, everyone's for alltoall; and,
 * where gathered at the end, the slowest and fastest rank's totals). */
void logp_report_comm(const logp_comm_state_t *st)
{
    const char *path = logp_process_env()->report;
    if (path == NULL || st->rank != 0)
        return;
    logp_text_t t = {0};
    int csv = logp_report_csv(path);
    char name[2 * MPI_MAX_OBJECT_NAME + 3], *q = name;
    if (csv) { /* one row per decision; the name quoted, quotes doubled */
        *q++ = '"';
        for (const char *c = st->name; *c; c++) {
            if (*c == '"')
                *q++ = '"';
            *q++ = *c;
        }
        *q++ = '"';
        *q = '\0';
    } else {
        const logp_params_t *rep = logp_topo_rep(&st->topo);
        logp_text_printf(&t,
                         "comm %s P=%d nodes=%d tuning: %s; L=%.3gus o=%.3gus g=%.3gus G=%.3gns/B gamma=%.3gns/B%s\n",
                         st->name, st->size, st->topo.nnodes, st->matched, rep->L * 1e6, rep->o * 1e6, rep->g * 1e6,
                         rep->G * 1e9, rep->gamma * 1e9,
                         st->no_private ? " (no private communicator could be had: MPI library only)" : "");
    }
    for (int i = 0; i < LOGP_COLL_COUNT * LOGP_STATE_SLOTS; i++) {
        const logp_decision_t *d = st->decisions[i / LOGP_STATE_SLOTS][i % LOGP_STATE_SLOTS];
        if (d == NULL || d->stat.calls == 0)
            continue;
        double mean = d->stat.time / (double)d->stat.calls, pred = d->stat.predicted / (double)d->stat.calls;
        size_t lo = (size_t)1 << d->sclass, hi = ((size_t)2 << d->sclass) - 1;
        const logp_stat_t *x = &d->stat;
        if (csv) {
            logp_text_printf(&t, "%s,%d,%d,%s,%zu,%zu,%s,%lu,%.0f,%.3f,%.3f,%.3f,%.4f,", name, st->size,
                             st->topo.nnodes, logp_coll_name(d->coll), lo, hi, logp_algo_name(d->algo), x->calls,
                             x->bytes, x->time * 1e6, mean * 1e6, pred * 1e6, pred > 0 ? mean / pred : 0.0);
            if (x->gathered)
                logp_text_printf(&t, "%.3f,%d,%.3f,", x->max_time * 1e6, x->max_rank, x->min_time * 1e6);
            else
                logp_text_printf(&t, ",,,");
            const logp_trial_t *tr = &d->trial;
            if (tr->phase == LOGP_TRIAL_DONE && !tr->disagreed && tr->plan.n >= 2) {
                for (int c = 0; c < tr->plan.n; c++)
                    logp_text_printf(&t, "%s%s=%.3f", c ? ";" : "", logp_algo_name(tr->plan.algo[c]),
                                     tr->verdict.time[c] * 1e6);
                logp_text_printf(&t, ",%s,%.3f\n", logp_algo_name(tr->plan.algo[tr->verdict.winner]),
                                 tr->verdict.overhead * 1e6);
            } else {
                logp_text_printf(&t, ",,\n");
            }
        } else {
            logp_text_printf(&t,
                             "  %-8s %9zu-%-9zu %-15s calls %7lu  bytes %12.0f  total %10.1f us  mean %9.2f us  "
                             "predicted %9.2f us  measured/predicted %6.2f",
                             logp_coll_name(d->coll), lo, hi, logp_algo_name(d->algo), x->calls, x->bytes,
                             x->time * 1e6, mean * 1e6, pred * 1e6, pred > 0 ? mean / pred : 0.0);
            if (x->gathered)
                logp_text_printf(&t, "  slowest rank %d total %.1f us, fastest %.1f us", x->max_rank,
                                 x->max_time * 1e6, x->min_time * 1e6);
            /* the entry points other than the blocking int one that reached this class */
            const char *sep = "  (";
            for (int e = LOGP_ENTRY_BLOCKING + 1; e < LOGP_ENTRY_COUNT; e++)
                if (x->by_entry[e] > 0) {
                    logp_text_printf(&t, "%s%lu by %s", sep, x->by_entry[e],
                                     logp_next_entry_name(d->coll, (logp_entry_t)e));
                    sep = ", ";
                }
            if (sep[0] == ',')
                logp_text_printf(&t, ")");
            char trial[512];
            logp_trial_describe(&d->trial, st->warmup, trial, sizeof trial);
            /* the trial on a line of its own that does not start like a row */
            logp_text_printf(&t, "%s%s\n", trial[0] ? "\n^ " : "", trial);
        }
    }
    logp_report_add(&t);
    logp_text_free(&t);
}

/* Whether st takes part in the end-of-run gather: the same answer on every
 * rank (all_timed, end_times and the private communicator were agreed). */
static int logp_report_gathers(const logp_comm_state_t *st)
{
    return st->all_timed && st->end_times != NULL && st->pcomm != MPI_COMM_NULL && !st->no_private && st->size > 1;
}

/* rank 0's own totals, then every other rank's in[] (< 0: no such decision). */
static void logp_report_gather_add(logp_comm_state_t *st, const double *in, int from)
{
    for (int k = 0; k < LOGP_STATE_ALL_SLOTS; k++) {
        logp_decision_t *d = st->decisions[k / LOGP_STATE_SLOTS][k % LOGP_STATE_SLOTS];
        if (d == NULL || d->stat.calls == 0 || in[k] < 0.0)
            continue;
        logp_stat_t *x = &d->stat;
        if (!x->gathered || in[k] > x->max_time) {
            x->max_time = in[k];
            x->max_rank = from;
        }
        if (!x->gathered || in[k] < x->min_time)
            x->min_time = in[k];
        x->gathered = 1;
    }
}

/* Every rank's own total time per decision, sent to rank 0 of each
 * communicator whose ranks all time their calls, for the report's slowest
 * and fastest rank.  At the end of the run every rank is here (MPI_Finalize
 * or the session's end); each first posts its sends for every
 * communicator and only then receives, so no order of communicators
 * between ranks can make two ranks wait for each other.  Point to point on
 * the private communicator with the communicator's tag, which no
 * collective uses any more; one receive buffer on the stack.  A failed
 * receive leaves that communicator's rows with rank 0's times. */
void logp_report_gather(logp_comm_state_t *const *all, int n)
{
    for (int i = 0; i < n; i++) {
        logp_comm_state_t *st = all[i];
        st->end_req = MPI_REQUEST_NULL;
        if (!logp_report_gathers(st))
            continue;
        for (int k = 0; k < LOGP_STATE_ALL_SLOTS; k++) {
            const logp_decision_t *d = st->decisions[k / LOGP_STATE_SLOTS][k % LOGP_STATE_SLOTS];
            st->end_times[k] = d != NULL && d->stat.calls > 0 ? d->stat.time : -1.0;
        }
        if (st->rank != 0 && PMPI_Isend(st->end_times, LOGP_STATE_ALL_SLOTS, MPI_DOUBLE, 0, st->tag, st->pcomm,
                                        &st->end_req) != MPI_SUCCESS)
            st->end_req = MPI_REQUEST_NULL;
    }
    for (int i = 0; i < n; i++) {
        logp_comm_state_t *st = all[i];
        if (!logp_report_gathers(st) || st->rank != 0)
            continue;
        double in[LOGP_STATE_ALL_SLOTS];
        int ok = 1;
        logp_report_gather_add(st, st->end_times, 0);
        for (int r = 1; r < st->size; r++) { /* all of them, even after a failure: no sender is left waiting */
            MPI_Status status;
            if (PMPI_Recv(in, LOGP_STATE_ALL_SLOTS, MPI_DOUBLE, MPI_ANY_SOURCE, st->tag, st->pcomm, &status) ==
                    MPI_SUCCESS && ok)
                logp_report_gather_add(st, in, status.MPI_SOURCE);
            else
                ok = 0;
        }
        for (int k = 0; !ok && k < LOGP_STATE_ALL_SLOTS; k++) {
            logp_decision_t *d = st->decisions[k / LOGP_STATE_SLOTS][k % LOGP_STATE_SLOTS];
            if (d)
                d->stat.gathered = 0;
        }
    }
    for (int i = 0; i < n; i++)
        if (all[i]->end_req != MPI_REQUEST_NULL)
            PMPI_Wait(&all[i]->end_req, MPI_STATUS_IGNORE);
}
