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

int logp_learned_replaces(const char *line, const int *sizes, int nsizes)
{
    int lo, hi, end = 0;
    while (*line == ' ' || *line == '\t')
        line++;
    if (sscanf(line, "[size %d-%d]%n", &lo, &hi, &end) != 2 || end == 0 || lo != hi)
        return 0;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] == lo)
            return 1;
    return 0;
}

/* The old file's text without the replaced sections (malloc'ed; "" if
 * there is no file).  A replaced section runs from its header to the
 * next header. */
static char *logp_learned_keep(FILE *old, const int *sizes, int nsizes)
{
    size_t cap = 4096, len = 0;
    char *out = malloc(cap), line[4200];
    int skipping = 0;
    if (out == NULL)
        return NULL;
    out[0] = '\0';
    while (old && fgets(line, sizeof line, old)) {
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '[')
            skipping = logp_learned_replaces(s, sizes, nsizes);
        if (skipping)
            continue;
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

int logp_learned_write(const char *path, const char *sections, const int *sizes, int nsizes, char *err,
                       size_t errlen)
{
    /* a symbolic link names the file to update: write next to its target
     * (rename would replace the link itself) */
    char *real = realpath(path, NULL);
    const char *target = real ? real : path;
    size_t plen = strlen(target);
    char *lock = malloc(plen + 8), *tmp = malloc(plen + 16);
    int rc = -1, lfd = -1, tfd = -1;
    FILE *out = NULL;
    if (lock == NULL || tmp == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
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
    FILE *old = fopen(target, "r");
    char *kept = logp_learned_keep(old, sizes, nsizes);
    if (old)
        fclose(old);
    if (kept == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
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
    int bad = fputs(kept, out) < 0 || fputs(sections, out) < 0 || fflush(out) != 0 || fsync(fileno(out)) != 0;
    free(kept);
    bad |= fclose(out) != 0;
    out = NULL;
    if (bad || rename(tmp, target) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", bad ? tmp : path, strerror(errno));
        unlink(tmp);
        goto done;
    }
    rc = 0;
done:
    if (lfd >= 0)
        close(lfd); /* releases the lock */
    free(lock);
    free(tmp);
    free(real);
    return rc;
}
