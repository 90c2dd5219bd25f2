/* Writing the learned file: merge, temporary file, rename, under a lock. */
#define _DEFAULT_SOURCE /* flock(2) */
#include "learned.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The range of a [size A-B] or [size A] header line (as the parser reads
 * it: blanks anywhere; a byte order mark is the caller's to skip), 1; 0
 * for any other line. */
static int logp_learned_range(const char *line, long *lo, long *hi)
{
    char *end;
    while (*line == ' ' || *line == '\t')
        line++;
    if (*line++ != '[')
        return 0;
    while (*line == ' ' || *line == '\t')
        line++;
    if (strncmp(line, "size", 4) != 0 || (line[4] != ' ' && line[4] != '\t'))
        return 0;
    const char *p = line + 4;
    *lo = *hi = strtol(p, &end, 10);
    if (end == p)
        return 0;
    for (p = end; *p == ' ' || *p == '\t'; p++)
        ;
    if (*p == '-') {
        *hi = strtol(++p, &end, 10);
        if (end == p)
            return 0;
        for (p = end; *p == ' ' || *p == '\t'; p++)
            ;
    }
    return *p == ']';
}

int logp_learned_replaces(const char *line, const int *sizes, int nsizes)
{
    long lo, hi;
    if (!logp_learned_range(line, &lo, &hi) || lo != hi)
        return 0;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] == lo)
            return 1;
    return 0;
}

/* The old file's text without the replaced sections (malloc'ed; "" if
 * there is no file).  A replaced section runs from its header to the
 * next header.  covered[i] is set where a section kept spans sizes[i]
 * (a hand-written [size 2-64], or the tuning file's own when the learned
 * file is the tuning file): a [size P-P] added beside it would overlap. */
static char *logp_learned_keep(FILE *old, const int *sizes, int nsizes, int *covered)
{
    size_t cap = 4096, len = 0;
    char *out = malloc(cap), line[4200];
    int skipping = 0;
    if (out == NULL)
        return NULL;
    out[0] = '\0';
    while (old && fgets(line, sizeof line, old)) {
        const char *s = line;
        long lo, hi;
        if (len == 0 && strncmp(s, "\xEF\xBB\xBF", 3) == 0)
            s += 3;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '[')
            skipping = logp_learned_replaces(s, sizes, nsizes);
        if (skipping)
            continue;
        if (*s == '[' && logp_learned_range(s, &lo, &hi))
            for (int i = 0; i < nsizes; i++)
                covered[i] |= lo <= sizes[i] && sizes[i] <= hi;
        size_t n = strlen(line);
        if (len + n + 2 > cap) {
            char *bigger = realloc(out, cap = 2 * (len + n + 2));
            if (bigger == NULL) {
                free(out);
                return NULL;
            }
            out = bigger;
        }
        memcpy(out + len, line, n + 1);
        len += n;
    }
    if (len > 0 && out[len - 1] != '\n') { /* a last line without its newline */
        out[len++] = '\n';
        out[len] = '\0';
    }
    return out;
}

/* The file to merge with into *old: LOGP_OK with NULL if there is none;
 * LOGP_ERR_IO (err set) if there is one we cannot read or that is not a
 * regular file (a FIFO would block, a device never end; nothing is
 * written then, so that nothing in it is lost). */
static logp_status_t logp_learned_open_old(const char *target, const char *path, char *err, size_t errlen, FILE **old)
{
    struct stat st;
    int fd = open(target, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    *old = NULL;
    if (fd < 0 && errno == ENOENT)
        return LOGP_OK;
    const char *why = fd < 0 || fstat(fd, &st) != 0 ? strerror(errno) : !S_ISREG(st.st_mode) ? "not a regular file" : NULL;
    FILE *f = why ? NULL : fdopen(fd, "r");
    if (f == NULL) {
        snprintf(err, errlen, "%s: %s", path, why ? why : strerror(errno));
        if (fd >= 0)
            close(fd);
        return LOGP_ERR_IO;
    }
    *old = f;
    return LOGP_OK;
}

logp_status_t logp_learned_write(const char *path, const char *const *sections, const int *sizes, int nsizes,
                                 char *err, size_t errlen)
{
    err[0] = '\0';
    /* a symbolic link names the file to update: write next to its target
     * (rename would replace the link itself) */
    char *real = realpath(path, NULL);
    const char *target = real ? real : path;
    size_t plen = strlen(target);
    char *lock = malloc(plen + 8), *tmp = malloc(plen + 16);
    logp_status_t rc = LOGP_ERR_IO; /* what most steps below fail with */
    int lfd = -1, tfd = -1;
    FILE *out = NULL, *old = NULL;
    if (lock == NULL || tmp == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = LOGP_ERR_NOMEM;
        goto done;
    }
    snprintf(lock, plen + 8, "%s.lock", target);
    snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", target);
    /* O_NOFOLLOW: a link planted at the lock's name is refused, not followed */
    lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (lfd < 0) {
        snprintf(err, errlen, "%s: cannot lock: %s", lock, strerror(errno));
        goto done;
    }
    /* file systems without flock(2) (Lustre without the mount option):
     * write unlocked, still whole by the rename */
    if (flock(lfd, LOCK_EX) != 0 && errno != ENOSYS && errno != ENOLCK && errno != EOPNOTSUPP) {
        snprintf(err, errlen, "%s: cannot lock: %s", lock, strerror(errno));
        goto done;
    }
    struct stat st;
    mode_t mode = stat(target, &st) == 0 ? st.st_mode & 07777 : 0644; /* the file keeps its permissions */
    int *covered = calloc((size_t)(nsizes > 0 ? nsizes : 1), sizeof(int));
    if (logp_learned_open_old(target, path, err, errlen, &old) != LOGP_OK) {
        free(covered);
        goto done;
    }
    char *kept = covered ? logp_learned_keep(old, sizes, nsizes, covered) : NULL;
    if (old)
        fclose(old);
    if (kept == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(covered);
        rc = LOGP_ERR_NOMEM;
        goto done;
    }
    /* a fresh name (O_EXCL): nothing planted at a guessable one is written through */
    tfd = mkstemp(tmp);
    if (tfd < 0 || fchmod(tfd, mode) != 0 || (out = fdopen(tfd, "w")) == NULL) {
        snprintf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
        free(kept);
        if (tfd >= 0) {
            close(tfd);
            unlink(tmp);
        }
        goto done;
    }
    int bad = fputs(kept, out) < 0;
    size_t at = 0;
    for (int i = 0; i < nsizes; i++) {
        if (!covered[i]) {
            bad |= fputs(sections[i], out) < 0;
            continue;
        }
        if (at == 0)
            at = (size_t)snprintf(err, errlen, "%s: not written for P =", path);
        if (at < errlen)
            at += (size_t)snprintf(err + at, errlen - at, " %d", sizes[i]);
    }
    if (at > 0 && at < errlen)
        snprintf(err + at, errlen - at, " (a [size] range of the file spans it)");
    bad |= fflush(out) != 0 || fsync(fileno(out)) != 0;
    free(kept);
    free(covered);
    bad |= fclose(out) != 0;
    out = NULL;
    if (bad || rename(tmp, target) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", bad ? tmp : path, strerror(errno));
        unlink(tmp);
        goto done;
    }
    rc = LOGP_OK;
done:
    if (lfd >= 0)
        close(lfd); /* releases the lock */
    free(lock);
    free(tmp);
    free(real);
    return rc;
}
