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

static pthread_mutex_t logp_report_lock = PTHREAD_MUTEX_INITIALIZER;
static logp_text_t logp_report; /* every block of this process, under the lock */
static int logp_report_done;

void logp_text_printf(logp_text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *b = realloc(t->buf, cap);
        if (b == NULL) {
            t->lost++;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

void logp_text_free(logp_text_t *t)
{
    free(t->buf);
    memset(t, 0, sizeof(*t));
}

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
