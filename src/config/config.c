/* Tuning-file parser and resolution (format: tuning/template.conf). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "units.h"

/* Writes "path:line: message" to err; returns LOGP_ERR_PARSE, what every
 * rejected line is. */
static logp_status_t logp_config_fail(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (err && errlen)
        snprintf(err, errlen, "%s:%d: %s", path, line, msg);
    return LOGP_ERR_PARSE;
}

/* As logp_config_fail for an allocation that failed: the file is not to
 * blame, so the status says so. */
static logp_status_t logp_config_nomem(char *err, size_t errlen, const char *path, int line)
{
    logp_config_fail(err, errlen, path, line, "out of memory");
    return LOGP_ERR_NOMEM;
}

/* One message line into diag, if it fits. */
static void logp_diag_add(logp_config_diag_t *diag, const char *msg)
{
    size_t used = strlen(diag->text);
    if (used + strlen(msg) + 2 > sizeof diag->text) {
        diag->dropped++;
        return;
    }
    snprintf(diag->text + used, sizeof diag->text - used, "%s\n", msg);
}

static void logp_diag_warn(logp_config_diag_t *diag, const char *path, int line, const char *fmt, ...)
{
    char msg[512], full[640];
    va_list ap;
    if (diag == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "%s:%d: warning: %s", path, line, msg);
    diag->warnings++;
    logp_diag_add(diag, full);
}

void logp_config_free(logp_config_t *cfg)
{
    for (int i = 0; i < cfg->nsections; i++) {
        free(cfg->sections[i].rules);
        free(cfg->sections[i].learn);
    }
    free(cfg->sections);
    cfg->sections = NULL;
    cfg->nsections = 0;
}

static char *logp_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        *--e = '\0';
    return s;
}

static logp_status_t logp_parse_int(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno || v < 0 || v > 1 << 30)
        return LOGP_ERR_PARSE;
    *out = (int)v;
    return LOGP_OK;
}

/* "[...]" without the brackets -> a new section; LOGP_OK, or
 * LOGP_ERR_PARSE / LOGP_ERR_NOMEM with err set. */
static logp_status_t logp_parse_header(logp_config_t *cfg, int *cap, char *h, const char *path, int line, char *err,
                                       size_t errlen)
{
    logp_section_t sec;
    memset(&sec, 0, sizeof sec);
    sec.line = line;
    h = logp_trim(h);
    if (strcmp(h, "default") == 0) {
        sec.kind = LOGP_SECTION_DEFAULT;
    } else if (strcmp(h, "intra-node") == 0) {
        sec.kind = LOGP_SECTION_INTRA_NODE;
    } else if (strcmp(h, "inter-node") == 0) {
        sec.kind = LOGP_SECTION_INTER_NODE;
    } else if (strncmp(h, "size", 4) == 0 && (h[4] == ' ' || h[4] == '\t')) {
        char *r = logp_trim(h + 5), *dash = strchr(r, '-');
        sec.kind = LOGP_SECTION_SIZE;
        if (dash) {
            *dash = '\0';
            if (logp_parse_int(logp_trim(r), &sec.lo) || logp_parse_int(logp_trim(dash + 1), &sec.hi))
                return logp_config_fail(err, errlen, path, line, "bad size range (expected [size A-B], 1 <= A <= B)");
        } else if (logp_parse_int(r, &sec.lo) == LOGP_OK) {
            sec.hi = sec.lo;
        } else {
            return logp_config_fail(err, errlen, path, line, "bad size range (expected [size A-B], 1 <= A <= B)");
        }
        if (sec.lo < 1 || sec.hi < sec.lo)
            return logp_config_fail(err, errlen, path, line, "size range %d-%d is empty or reversed (expected 1 <= A <= B)",
                                    sec.lo, sec.hi);
    } else if (strncmp(h, "name", 4) == 0 && (h[4] == ' ' || h[4] == '\t')) {
        char *n = logp_trim(h + 5);
        sec.kind = LOGP_SECTION_NAME;
        if (*n == '\0' || strlen(n) >= sizeof sec.name)
            return logp_config_fail(err, errlen, path, line, "[name NAME] needs a name of 1..127 characters");
        strcpy(sec.name, n);
    } else if (strncmp(h, "host", 4) == 0 && (h[4] == ' ' || h[4] == '\t')) {
        char *n = logp_trim(h + 5);
        sec.kind = LOGP_SECTION_HOST;
        if (*n == '\0' || strlen(n) >= sizeof sec.name)
            return logp_config_fail(err, errlen, path, line, "[host PATTERN] needs a pattern of 1..127 characters");
        strcpy(sec.name, n);
    } else {
        return logp_config_fail(err, errlen, path, line,
                                "unknown section [%.60s] (expected default, intra-node, inter-node, size A-B, name NAME, "
                                "host PATTERN)", h);
    }
    if (cfg->nsections >= LOGP_CONFIG_MAX_SECTIONS)
        return logp_config_fail(err, errlen, path, line, "more than %d sections (a tuning file has a few dozen)",
                                LOGP_CONFIG_MAX_SECTIONS);
    if (cfg->nsections == *cap) { /* doubling: n sections cost O(n) copies */
        int ncap = *cap ? 2 * *cap : 16;
        logp_section_t *s = realloc(cfg->sections, sizeof(*s) * (size_t)ncap);
        if (s == NULL)
            return logp_config_nomem(err, errlen, path, line);
        cfg->sections = s;
        *cap = ncap;
    }
    cfg->sections[cfg->nsections++] = sec;
    return LOGP_OK;
}

const char *logp_config_learn_path(const logp_config_t *cfg)
{
    const char *path = NULL;
    for (int i = 0; cfg && i < cfg->nsections; i++)
        if (cfg->sections[i].learn)
            path = cfg->sections[i].learn;
    return path;
}

void logp_config_rules_init(logp_rules_t *r)
{
    memset(r, 0, sizeof(*r));
    memset(r->algo, LOGP_ALGO_COUNT, sizeof r->algo);
}

/* The next whitespace-separated word of *s (NUL-terminated in place), or
 * NULL if none is left. */
static char *logp_word(char **s)
{
    char *w = *s;
    while (*w == ' ' || *w == '\t')
        w++;
    if (*w == '\0')
        return NULL;
    char *e = w;
    while (*e && *e != ' ' && *e != '\t')
        e++;
    if (*e)
        *e++ = '\0';
    *s = e;
    return w;
}

/* rule = COLL LO-HI [commutative|non-commutative] ALGO
 * explore = COLL LO-HI [commutative|non-commutative] ALGO[,ALGO...]
 * correction = COLL ALGO BYTES FACTOR   (config.h) */
static logp_status_t logp_parse_rule(logp_section_t *sec, const char *key, char *val, const char *path, int line,
                                     char *err, size_t errlen)
{
    int is_rule = strcmp(key, "rule") == 0, is_explore = strcmp(key, "explore") == 0, ranged = is_rule || is_explore;
    const char *form = is_rule      ? "rule = COLL LO-HI [commutative|non-commutative] ALGO (e.g. rule = bcast 1-4K logp-tree)"
                       : is_explore ? "explore = COLL LO-HI [commutative|non-commutative] ALGO[,ALGO...] [after N] (e.g. "
                                      "explore = bcast 8-15 binomial,pipeline after 200; after the classes' rule)"
                                    : "correction = COLL ALGO BYTES FACTOR (e.g. correction = reduce native 1M 2.5)";
    if (sec->kind == LOGP_SECTION_HOST)
        return logp_config_fail(err, errlen, path, line, "%s: a [host] section sets only speed", key);
    char *w[7] = {0};
    int n = 0;
    for (char *s = val, *x; n < 7 && (x = logp_word(&s)) != NULL;)
        w[n++] = x;
    long after = 0; /* explore's "after N" */
    if (is_explore && n >= 2 && strcmp(w[n - 2], "after") == 0) {
        n -= 2;
        if (logp_units_count(w[n + 1], 0, 1000000000L, &after) != LOGP_OK)
            return logp_config_fail(err, errlen, path, line, "explore: after %.40s: expected 0..1000000000 calls",
                                    w[n + 1]);
    }
    logp_coll_t coll = logp_coll_lookup(w[0]);
    if (coll == LOGP_COLL_COUNT)
        return logp_config_fail(err, errlen, path, line, "%s = %.40s: unknown collective (expected %s)", key,
                                w[0] ? w[0] : "", form);
    int qual = ranged && n == 4;
    if (n != (ranged ? 3 + qual : 4))
        return logp_config_fail(err, errlen, path, line, "%s: expected %s", key, form);
    const char *aname = ranged ? w[2 + qual] : w[1];
    logp_algo_t algo = LOGP_ALGO_COUNT;
    uint32_t untried = 0;
    const char *bad = is_explore ? logp_algo_mask(coll, w[2 + qual], &untried) : NULL;
    if (is_explore && (bad || untried >> LOGP_ALGO_NATIVE & 1)) /* native: the earlier trial's first block */
        return logp_config_fail(err, errlen, path, line, "explore: %.40s is not an algorithm of %s to try (pmpi-logp "
                                "list; native is measured first by every trial)", bad ? bad : "native", logp_coll_name(coll));
    if (!is_explore && (algo = logp_algo_lookup(coll, aname)) == LOGP_ALGO_COUNT)
        return logp_config_fail(err, errlen, path, line, "%s: %.40s is not an algorithm of %s (pmpi-logp list)", key,
                                aname, logp_coll_name(coll));
    if (is_rule && algo == LOGP_ALGO_NATIVE && logp_coll_local_sizes(coll))
        return logp_config_fail(err, errlen, path, line, "rule: %s cannot name native by size: its ranks pass sizes "
                                "of their own, and the library's algorithm mixes with none of ours (set %s = native "
                                "for every size)", logp_coll_name(coll), logp_coll_name(coll));
    if (sec->rules == NULL) {
        if ((sec->rules = malloc(sizeof(*sec->rules))) == NULL)
            return logp_config_nomem(err, errlen, path, line);
        logp_config_rules_init(sec->rules);
    }
    if (!ranged) {
        size_t bytes;
        char *end;
        double f = logp_units_number(w[3], &end);
        if (logp_units_bytes(w[2], &bytes) || bytes == 0 || bytes > 0x7fffffff)
            return logp_config_fail(err, errlen, path, line, "correction: %.40s: expected a byte count 1..2G (64K)",
                                    w[2]);
        if (*end != '\0' || logp_learn_set(&sec->rules->learn, coll, algo, logp_learn_class(bytes), f) != LOGP_OK ||
            f == 0.0)
            return logp_config_fail(err, errlen, path, line, "correction: %.40s: expected a factor 0.001..1000 "
                                    "(measured / predicted)", w[3]);
        sec->set |= LOGP_KEY_CORRECTION;
        return LOGP_OK;
    }
    int kinds = 3; /* bit 0: non-commutative, bit 1: commutative */
    if (qual) {
        if (!logp_coll_combines(coll) || (strcmp(w[2], "commutative") && strcmp(w[2], "non-commutative")))
            return logp_config_fail(err, errlen, path, line, "%s: %.40s: expected commutative or non-commutative "
                                    "(reduce and allreduce only) before the algorithm", key, w[2]);
        kinds = strcmp(w[2], "commutative") == 0 ? 2 : 1;
    }
    char *dash = strchr(w[1], '-');
    size_t lo, hi;
    if (dash == NULL)
        return logp_config_fail(err, errlen, path, line, "%s: %.40s: expected a byte range LO-HI", key, w[1]);
    *dash = '\0';
    if (logp_units_bytes(w[1], &lo) || logp_units_bytes(dash + 1, &hi) || lo > hi)
        return logp_config_fail(err, errlen, path, line, "%s: %.40s-%.40s: expected a byte range LO-HI, LO <= HI "
                                "(units as 64K)", key, w[1], dash + 1);
    int covered = 0;
    for (int c = 0; c < LOGP_LEARN_CLASSES; c++) {
        size_t mid = logp_learn_class_mid(c);
        if (mid < lo || mid > hi)
            continue;
        covered++;
        for (int k = 0; k < 2; k++) {
            if (!(kinds & (1 << k)))
                continue;
            /* an explore mark belongs to a rule: without one the next run has nothing to start from */
            if (is_explore && (sec->rules->algo[coll][c][k] == LOGP_ALGO_COUNT ||
                               sec->rules->algo[coll][c][k] == LOGP_ALGO_AUTO))
                return logp_config_fail(err, errlen, path, line, "explore: %s %zu-%zu has no rule before it in "
                                        "this section (explore marks a rule's untried candidates)",
                                        logp_coll_name(coll), (size_t)1 << c, ((size_t)2 << c) - 1);
            if (is_explore)
                sec->rules->explore[coll][c][k] = untried & ~((uint32_t)1 << sec->rules->algo[coll][c][k]);
            else
                sec->rules->algo[coll][c][k] = (unsigned char)algo, sec->rules->explore[coll][c][k] = 0;
            sec->rules->after[coll][c][k] = (uint32_t)after;
        }
    }
    if (!covered)
        return logp_config_fail(err, errlen, path, line, "%s: %zu-%zu covers no size class (classes are powers of "
                                "two, decided at about 1.4 x 2^k bytes: widen the range)", key, lo, hi);
    sec->set |= is_rule ? LOGP_KEY_RULE : LOGP_KEY_EXPLORE;
    return LOGP_OK;
}

static logp_status_t logp_parse_key(logp_section_t *sec, char *key, char *val, const char *path, int line, char *err,
                                    size_t errlen, logp_config_diag_t *diag)
{
    static const struct {
        const char *key;
        unsigned bit;
        int time; /* 1: time, 2: per byte, 3: algorithm, 4: chain_k, 5: speed, 6: ranks_per_node */
        size_t off;
        logp_coll_t coll;
    } keys[] = {
        {"L", LOGP_KEY_L, 1, offsetof(logp_params_t, L), 0},
        {"o", LOGP_KEY_O, 1, offsetof(logp_params_t, o), 0},
        {"g", LOGP_KEY_G_GAP, 1, offsetof(logp_params_t, g), 0},
        {"G", LOGP_KEY_G_BYTE, 2, offsetof(logp_params_t, G), 0},
        {"gamma", LOGP_KEY_GAMMA, 2, offsetof(logp_params_t, gamma), 0},
        {"copy", LOGP_KEY_COPY, 2, offsetof(logp_params_t, copy), 0},
        {"fresh", LOGP_KEY_FRESH, 2, offsetof(logp_params_t, fresh), 0},
        {"bcast", LOGP_KEY_BCAST, 3, 0, LOGP_COLL_BCAST},
        {"reduce", LOGP_KEY_REDUCE, 3, 0, LOGP_COLL_REDUCE},
        {"alltoall", LOGP_KEY_ALLTOALL, 3, 0, LOGP_COLL_ALLTOALL},
        {"allreduce", LOGP_KEY_ALLREDUCE, 3, 0, LOGP_COLL_ALLREDUCE},
        {"alltoallv", LOGP_KEY_ALLTOALLV, 3, 0, LOGP_COLL_ALLTOALLV},
        {"chain_k", LOGP_KEY_CHAIN_K, 4, 0, 0},
        {"speed", LOGP_KEY_SPEED, 5, 0, 0},
        {"ranks_per_node", LOGP_KEY_RANKS_PER_NODE, 6, 0, 0},
    };
    if (strcmp(key, "rule") == 0 || strcmp(key, "correction") == 0 || strcmp(key, "explore") == 0)
        return logp_parse_rule(sec, key, val, path, line, err, errlen);
    if (strcmp(key, "network") == 0) {
        if (sec->kind == LOGP_SECTION_HOST)
            return logp_config_fail(err, errlen, path, line, "network: a [host] section sets only speed");
        if (strcmp(val, "shared") != 0 && strcmp(val, "loggp") != 0)
            return logp_config_fail(err, errlen, path, line,
                                    "network = %.40s: expected loggp (one message at a time through an interface) or "
                                    "shared (transfers in flight share it)", val);
        if (sec->set & LOGP_KEY_NETWORK)
            logp_diag_warn(diag, path, line, "network is set twice in this section: the later value wins");
        sec->shared = strcmp(val, "shared") == 0;
        sec->set |= LOGP_KEY_NETWORK;
        return LOGP_OK;
    }
    if (strcmp(key, "basis") == 0) { /* 16 hex digits, as the learned file writes them */
        char *end = NULL;
        int hex = strlen(val) == 16 && strspn(val, "0123456789abcdefABCDEF") == 16;
        unsigned long long b = hex ? strtoull(val, &end, 16) : 0;
        if (end == NULL || *end != '\0' || b == 0 || sec->kind == LOGP_SECTION_HOST)
            return logp_config_fail(err, errlen, path, line, "basis = %.40s: expected 16 hex digits, not all 0, "
                                    "outside [host] (the learned file writes it)", val);
        sec->basis = (uint64_t)b;
        sec->set |= LOGP_KEY_BASIS;
        return LOGP_OK;
    }
    if (strcmp(key, "learn") == 0) {
        if (sec->kind != LOGP_SECTION_DEFAULT || *val == '\0')
            return logp_config_fail(err, errlen, path, line, "learn = FILE: in [default] only, with a file name");
        free(sec->learn);
        if ((sec->learn = strdup(val)) == NULL)
            return logp_config_nomem(err, errlen, path, line);
        sec->set |= LOGP_KEY_LEARN;
        return LOGP_OK;
    }
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (strcmp(key, keys[i].key) != 0)
            continue;
        if (*val == '\0')
            return logp_config_fail(err, errlen, path, line, "%s has no value", key);
        if (sec->set & keys[i].bit)
            logp_diag_warn(diag, path, line, "%s is set twice in this section (line %d's section): the later value wins",
                           key, sec->line);
        if (keys[i].time == 6 && (sec->kind == LOGP_SECTION_INTRA_NODE || sec->kind == LOGP_SECTION_INTER_NODE))
            return logp_config_fail(err, errlen, path, line,
                                    "ranks_per_node: not in [intra-node] or [inter-node] (the layout decides which of "
                                    "those applies; set it in [default], [size] or [name])");
        if ((sec->kind == LOGP_SECTION_HOST) != (keys[i].time == 5))
            return logp_config_fail(err, errlen, path, line,
                                    sec->kind == LOGP_SECTION_HOST ? "%s: a [host] section sets only speed"
                                                                   : "%s: only a [host PATTERN] section sets it", key);
        double *field = (double *)((char *)&sec->params + keys[i].off);
        switch (keys[i].time) {
        case 1:
            if (logp_units_time(val, field))
                return logp_config_fail(err, errlen, path, line,
                                        "%s = %.40s: expected a non-negative time with unit ns, us, ms or s", key, val);
            if (*field > LOGP_CONFIG_MAX_TIME)
                return logp_config_fail(err, errlen, path, line,
                                        "%s = %.40s: above 1 s (LogP times of networks are ns to ms)", key, val);
            if (*field == 0.0)
                logp_diag_warn(diag, path, line, "%s = 0: implausible (a probe clamps L at 0 when o is overestimated; "
                                                 "no network has o or g of 0)", key);
            break;
        case 2:
            if (logp_units_per_byte(val, field))
                return logp_config_fail(err, errlen, path, line,
                                        "%s = %.40s: expected a non-negative cost per byte (ns/B, us/B, s/B) or a "
                                        "bandwidth (B/s, KB/s, MB/s, GB/s)", key, val);
            if (*field == 0.0 && keys[i].bit == LOGP_KEY_G_BYTE)
                logp_diag_warn(diag, path, line, "G = 0: infinite bandwidth is implausible");
            if (*field > LOGP_CONFIG_MAX_PER_BYTE)
                return logp_config_fail(err, errlen, path, line,
                                        "%s = %.40s: above 1 ms/B (slower than 1 KB/s: not a network or a CPU)", key,
                                        val);
            break;
        case 3: {
            logp_algo_t a = logp_algo_lookup(keys[i].coll, val);
            if (a == LOGP_ALGO_COUNT) {
                char known[256] = "";
                for (int k = 0; k < LOGP_ALGO_COUNT; k++)
                    if (logp_algo_supports((logp_algo_t)k, keys[i].coll)) {
                        strncat(known, " ", sizeof known - strlen(known) - 1);
                        strncat(known, logp_algo_name((logp_algo_t)k), sizeof known - strlen(known) - 1);
                    }
                return logp_config_fail(err, errlen, path, line, "%s = %.40s: unknown algorithm (known:%s)", key, val,
                                        known);
            }
            sec->algo[keys[i].coll] = a;
            break;
        }
        case 4:
            if (logp_parse_int(val, &sec->chain_k) || sec->chain_k < 1 || sec->chain_k > LOGP_CONFIG_MAX_COUNT)
                return logp_config_fail(err, errlen, path, line, "chain_k = %.40s: expected an integer 1..%d", val,
                                        LOGP_CONFIG_MAX_COUNT);
            break;
        case 5: {
            char *end;
            sec->speed = logp_units_number(val, &end);
            if (*end != '\0' || !(sec->speed >= LOGP_CONFIG_MIN_SPEED) || !(sec->speed <= 1.0 / LOGP_CONFIG_MIN_SPEED))
                return logp_config_fail(err, errlen, path, line,
                                        "speed = %.40s: expected a relative speed > 0, from 0.001 to 1000 (1 = "
                                        "nominal, 0.5 = half)", val);
            break;
        }
        default:
            if (logp_parse_int(val, &sec->ranks_per_node) || sec->ranks_per_node < 1 ||
                sec->ranks_per_node > LOGP_CONFIG_MAX_COUNT)
                return logp_config_fail(err, errlen, path, line, "ranks_per_node = %.40s: expected an integer 1..%d",
                                        val, LOGP_CONFIG_MAX_COUNT);
        }
        sec->set |= keys[i].bit;
        return LOGP_OK;
    }
    return logp_config_fail(err, errlen, path, line,
                            "unknown key '%.40s' (expected L, o, g, G, gamma, copy, fresh, bcast, reduce, alltoall, chain_k, "
                            "ranks_per_node, network, rule, explore, correction, basis, learn; speed in [host])", key);
}

static int logp_size_cmp(const void *a, const void *b)
{
    const logp_section_t *x = *(const logp_section_t *const *)a, *y = *(const logp_section_t *const *)b;
    return x->lo != y->lo ? (x->lo > y->lo) - (x->lo < y->lo) : (x->line > y->line) - (x->line < y->line);
}

/* Whether any two of the first m ranges of v (file order) overlap: sorted
 * by lower bound, a range overlaps another exactly when it starts at or
 * below the largest upper bound before it.  O(m log m). */
static int logp_sizes_overlap(const logp_section_t **v, int m, const logp_section_t **tmp)
{
    memcpy(tmp, v, sizeof(*v) * (size_t)m);
    qsort(tmp, (size_t)m, sizeof(*tmp), logp_size_cmp);
    int top = tmp[0]->hi;
    for (int i = 1; i < m; i++) {
        if (tmp[i]->lo <= top)
            return 1;
        if (tmp[i]->hi > top)
            top = tmp[i]->hi;
    }
    return 0;
}

/* [size] ranges must not overlap; the error names the first one in file
 * order that overlaps an earlier one.  Not every pair (80,000 sections took
 * 22 s that way): one sort when all is well, a binary search over prefixes
 * (overlap is monotone in the prefix) when not: O(n log^2 n). */
static logp_status_t logp_config_check_sizes(const logp_config_t *cfg, const char *path, char *err, size_t errlen)
{
    int n = 0;
    for (int i = 0; i < cfg->nsections; i++)
        n += cfg->sections[i].kind == LOGP_SECTION_SIZE;
    if (n < 2)
        return LOGP_OK;
    const logp_section_t **v = malloc(sizeof(*v) * 2 * (size_t)n), **tmp = v + n;
    if (v == NULL)
        return logp_config_nomem(err, errlen, path, 0);
    n = 0;
    for (int i = 0; i < cfg->nsections; i++)
        if (cfg->sections[i].kind == LOGP_SECTION_SIZE)
            v[n++] = &cfg->sections[i];
    logp_status_t rc = LOGP_OK;
    if (logp_sizes_overlap(v, n, tmp)) {
        int lo = 2, hi = n; /* the shortest overlapping prefix is in [lo, hi] */
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (logp_sizes_overlap(v, mid, tmp))
                hi = mid;
            else
                lo = mid + 1;
        }
        const logp_section_t *late = v[lo - 1], *early = NULL;
        for (int i = 0; i < lo - 1 && early == NULL; i++)
            if (v[i]->lo <= late->hi && late->lo <= v[i]->hi)
                early = v[i];
        rc = logp_config_fail(err, errlen, path, late->line, "size range %d-%d overlaps [size %d-%d] of line %d",
                              late->lo, late->hi, early->lo, early->hi, early->line);
    }
    free(v);
    return rc;
}

/* One non-empty line without its comment: a section header or a key. */
static logp_status_t logp_parse_line(logp_config_t *cfg, int *cap, char *s, const char *path, int line, char *err,
                                     size_t errlen, logp_config_diag_t *diag)
{
    if (*s == '[') {
        char *close = strchr(s, ']');
        if (close == NULL || logp_trim(close + 1)[0] != '\0')
            return logp_config_fail(err, errlen, path, line, "unterminated section header (expected [name])");
        *close = '\0';
        return logp_parse_header(cfg, cap, s + 1, path, line, err, errlen);
    }
    char *eq = strchr(s, '=');
    if (eq == NULL)
        return logp_config_fail(err, errlen, path, line, "expected key = value or [section]");
    if (cfg->nsections == 0)
        return logp_config_fail(err, errlen, path, line, "key before any section (start with [default])");
    *eq = '\0';
    return logp_parse_key(&cfg->sections[cfg->nsections - 1], logp_trim(s), logp_trim(eq + 1), path, line, err, errlen,
                          diag);
}

/* The parser.  With diag: reads on after an error (the line is skipped),
 * collects every error and warning there, fails at the end if any error
 * (with the first error's status). */
static logp_status_t logp_config_parse_diag(logp_config_t *cfg, const char *text, size_t len, const char *path,
                                            char *err, size_t errlen, logp_config_diag_t *diag)
{
    char buf[LOGP_CONFIG_MAX_LINE + 2];
    memset(cfg, 0, sizeof(*cfg));
    size_t pos = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* a UTF-8 byte order mark (editors) */
    int cap = 0;
    logp_status_t first = LOGP_OK; /* diag: the first error's */
    for (int line = 1; pos < len; line++) {
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        size_t n = end - pos;
        logp_status_t rc = LOGP_OK;
        if (n > LOGP_CONFIG_MAX_LINE) {
            rc = logp_config_fail(err, errlen, path, line, "line longer than %d characters", LOGP_CONFIG_MAX_LINE);
            n = 0;
        }
        memcpy(buf, text + pos, n);
        buf[n] = '\0';
        pos = end + 1;
        for (size_t i = 0; i < n && rc == 0; i++) {
            unsigned char c = (unsigned char)buf[i];
            if (c == '\0' || (c < 32 && c != '\t' && c != '\r') || c == 127) {
                rc = logp_config_fail(err, errlen, path, line, "binary data (byte 0x%02x) in a text file", c);
                buf[0] = '\0';
            }
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *s = logp_trim(buf);
        if (rc == 0 && *s != '\0')
            rc = logp_parse_line(cfg, &cap, s, path, line, err, errlen, diag);
        if (rc && diag == NULL) {
            logp_config_free(cfg);
            return rc;
        }
        if (rc) {
            first = first ? first : rc;
            diag->errors++;
            logp_diag_add(diag, err);
            if (diag->errors >= 1000) /* a binary or foreign file: enough said */
                break;
        }
    }
    logp_status_t rc = logp_config_check_sizes(cfg, path, err, errlen);
    if (rc) {
        if (diag == NULL) {
            logp_config_free(cfg);
            return rc;
        }
        first = first ? first : rc;
        diag->errors++;
        logp_diag_add(diag, err);
    }
    if (diag && diag->errors) {
        logp_config_free(cfg);
        return first;
    }
    return LOGP_OK;
}

logp_status_t logp_config_parse(logp_config_t *cfg, const char *text, size_t len, const char *path, char *err,
                                size_t errlen)
{
    return logp_config_parse_diag(cfg, text, len, path, err, errlen, NULL);
}

/* The file's text into *text_out (malloc'ed, *len_out bytes): LOGP_OK, or
 * with err set LOGP_ERR_IO (cannot read it, not a regular file),
 * LOGP_ERR_NOMEM or LOGP_ERR_PARSE (too large for a tuning file). */
static logp_status_t logp_config_read(const char *path, char **text_out, size_t *len_out, char *err, size_t errlen)
{
    /* a FIFO or terminal would block the application's start: regular
     * files only, opened without waiting for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat sb;
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return LOGP_ERR_IO;
    }
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        snprintf(err, errlen, "%s: not a regular file", path);
        return LOGP_ERR_IO;
    }
    FILE *f = fdopen(fd, "rb");
    if (f == NULL) {
        close(fd);
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return LOGP_ERR_IO;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    for (;;) {
        if (text == NULL) {
            fclose(f);
            snprintf(err, errlen, "%s: out of memory", path);
            return LOGP_ERR_NOMEM;
        }
        len += fread(text + len, 1, cap - len, f);
        if (len < cap)
            break;
        if (cap >= (size_t)64 << 20) { /* a tuning file is a few KiB */
            free(text);
            fclose(f);
            snprintf(err, errlen, "%s: larger than 64 MiB: not a tuning file", path);
            return LOGP_ERR_PARSE;
        }
        char *t = realloc(text, cap * 2);
        if (t == NULL)
            free(text);
        text = t;
        cap *= 2;
    }
    int rd_err = ferror(f);
    fclose(f);
    if (rd_err) {
        free(text);
        snprintf(err, errlen, "%s: cannot read", path);
        return LOGP_ERR_IO;
    }
    *text_out = text;
    *len_out = len;
    return LOGP_OK;
}

logp_status_t logp_config_load(logp_config_t *cfg, const char *path, char *err, size_t errlen)
{
    size_t len = 0;
    char *text = NULL;
    memset(cfg, 0, sizeof(*cfg));
    logp_status_t rc = logp_config_read(path, &text, &len, err, errlen);
    if (rc != LOGP_OK)
        return rc;
    rc = logp_config_parse(cfg, text, len, path, err, errlen);
    free(text);
    return rc;
}

logp_status_t logp_config_lint(logp_config_t *cfg, const char *path, logp_config_diag_t *diag)
{
    char err[640], *text = NULL;
    size_t len = 0;
    memset(cfg, 0, sizeof(*cfg));
    memset(diag, 0, sizeof(*diag));
    logp_status_t rc = logp_config_read(path, &text, &len, err, sizeof err);
    if (rc != LOGP_OK) {
        diag->errors = 1;
        logp_diag_add(diag, err);
        return rc;
    }
    rc = logp_config_parse_diag(cfg, text, len, path, err, sizeof err, diag);
    free(text);
    return rc;
}

static int logp_section_matches(const logp_section_t *s, const logp_comm_facts_t *f)
{
    switch (s->kind) {
    case LOGP_SECTION_DEFAULT:
        return 1;
    case LOGP_SECTION_INTRA_NODE:
        return f->intra_node;
    case LOGP_SECTION_INTER_NODE:
        return !f->intra_node;
    case LOGP_SECTION_SIZE:
        return f->size >= s->lo && f->size <= s->hi;
    case LOGP_SECTION_NAME:
        return f->name && strcmp(f->name, s->name) == 0;
    case LOGP_SECTION_HOST:
        return 0;
    }
    return 0;
}

void logp_config_resolve(const logp_config_t *cfg, const logp_comm_facts_t *facts, logp_resolved_t *out)
{
    memset(out, 0, sizeof(*out));
    out->params = logp_params_default();
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        out->algo[c] = LOGP_ALGO_AUTO;
    out->chain_k = 4;
    /* Between nodes transfers in flight share a NIC, as SMPI's links do
     * (with `shared` every algorithm's median error on drawn platforms is
     * under 1%, with LogGP's one message at a time medians reach 9% and
     * 90th percentiles 80%: docs/results/smpi-fidelity); within one node a
     * transfer is a copy by the cores, not a flow through an interface, and
     * on this kind of machine LogGP's picks are the faster
     * (docs/results/smpi-probe/README.md, "The default network"). */
    out->shared = !facts->intra_node;
    logp_config_rules_init(&out->rules);
    strcpy(out->matched, "built-in");
    logp_config_resolve_more(cfg, facts, out);
}

/* Overrides the rules of *to with every entry `from` sets. */
static void logp_rules_merge(logp_rules_t *to, const logp_rules_t *from)
{
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        for (int k = 0; k < LOGP_LEARN_CLASSES; k++)
            for (int m = 0; m < 2; m++)
                if (from->algo[c][k][m] != LOGP_ALGO_COUNT) {
                    to->algo[c][k][m] = from->algo[c][k][m];
                    to->explore[c][k][m] = from->explore[c][k][m];
                    to->after[c][k][m] = from->after[c][k][m];
                }
    logp_learn_merge(&to->learn, &from->learn);
}

void logp_config_resolve_more(const logp_config_t *cfg, const logp_comm_facts_t *facts, logp_resolved_t *out)
{
    for (int i = 0; cfg && i < cfg->nsections; i++) {
        const logp_section_t *s = &cfg->sections[i];
        if (!logp_section_matches(s, facts))
            continue;
        if (s->set & LOGP_KEY_L)
            out->params.L = s->params.L;
        if (s->set & LOGP_KEY_O)
            out->params.o = s->params.o;
        if (s->set & LOGP_KEY_G_GAP)
            out->params.g = s->params.g;
        if (s->set & LOGP_KEY_G_BYTE)
            out->params.G = s->params.G;
        if (s->set & LOGP_KEY_GAMMA)
            out->params.gamma = s->params.gamma;
        if (s->set & LOGP_KEY_COPY)
            out->params.copy = s->params.copy;
        if (s->set & LOGP_KEY_FRESH)
            out->params.fresh = s->params.fresh;
        for (int c = 0; c < LOGP_COLL_COUNT; c++)
            if (s->set & (LOGP_KEY_BCAST << c))
                out->algo[c] = s->algo[c];
        if (s->set & LOGP_KEY_CHAIN_K)
            out->chain_k = s->chain_k;
        if (s->set & LOGP_KEY_RANKS_PER_NODE)
            out->ranks_per_node = s->ranks_per_node;
        if (s->set & LOGP_KEY_NETWORK)
            out->shared = s->shared;
        if (s->rules)
            logp_rules_merge(&out->rules, s->rules);
        if (s->set & LOGP_KEY_BASIS)
            out->basis = s->basis;
        char what[160];
        switch (s->kind) {
        case LOGP_SECTION_SIZE:
            snprintf(what, sizeof what, ", [size %d-%d]", s->lo, s->hi);
            break;
        case LOGP_SECTION_NAME:
            snprintf(what, sizeof what, ", [name %s]", s->name);
            break;
        default:
            snprintf(what, sizeof what, ", [%s]", s->kind == LOGP_SECTION_DEFAULT ? "default"
                                                  : s->kind == LOGP_SECTION_INTRA_NODE ? "intra-node" : "inter-node");
        }
        strncat(out->matched, what, sizeof out->matched - strlen(out->matched) - 1);
    }
}

double logp_config_host_speed(const logp_config_t *cfg, const char *host)
{
    double speed = 1.0;
    for (int i = 0; cfg && i < cfg->nsections; i++) {
        const logp_section_t *s = &cfg->sections[i];
        if (s->kind == LOGP_SECTION_HOST && (s->set & LOGP_KEY_SPEED) && fnmatch(s->name, host, 0) == 0)
            speed = s->speed;
    }
    return speed;
}
