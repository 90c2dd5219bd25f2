/* What the shim knows of its process (see process.h). */
#include "process.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../coll/warm.h"
#include "dispatch.h"

#ifndef LOGP_TUNING_DEFAULT
#define LOGP_TUNING_DEFAULT "/usr/local/share/pmpi-logp/default.conf"
#endif
#ifndef LOGP_TUNING_SITE
#define LOGP_TUNING_SITE "/usr/local/etc/pmpi-logp.conf"
#endif

static logp_env_t logp_env;
static int logp_world_rank = -1; /* -1: no MPI_COMM_WORLD (MPI-4 Sessions) */
static int logp_world_size;
static logp_config_t logp_cfg;     /* the tuning file, empty if none or invalid */
static logp_config_t logp_learned; /* PMPI_LOGP_LEARN's file as read at the start, empty if none */
static char logp_cfg_path[1024];
static char logp_learn_path[1024]; /* the tuning file's `learn = FILE` */
static char logp_problems[2048];   /* this rank's configuration errors, "" if none */
static unsigned long long logp_problems_hash;
static int logp_problems_told;      /* printed by this rank */
static logp_scratch_t logp_scratch; /* the executors' staging memory, one per process */
static unsigned logp_test_nomem;    /* LOGP_TEST_NOMEM_* kinds this process fails (a test hook) */

/* FNV-1a over a problem's text, chained. */
static unsigned long long logp_process_hash(const char *what, unsigned long long h)
{
    for (const char *c = what; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return h;
}

void logp_process_tell(int rank)
{
    if (logp_problems[0] == '\0' || logp_problems_told)
        return;
    logp_problems_told = 1;
    char host[MPI_MAX_PROCESSOR_NAME] = "?";
    int len = 0;
    if (rank != 0)
        PMPI_Get_processor_name(host, &len);
    for (char *line = logp_problems, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        if (rank == 0)
            fprintf(stderr, "pmpi-logp: %.*s\n", (int)(end - line), line);
        else
            fprintf(stderr, "pmpi-logp: rank %d (%s): %.*s\n", rank, host, (int)(end - line), line);
    }
}

void logp_process_abort(MPI_Comm comm, int rank)
{
    logp_process_tell(rank);
    if (rank == 0)
        fprintf(stderr, "pmpi-logp: PMPI_LOGP_STRICT=1: aborting on the configuration errors above\n");
    /* rank 0 gives the launcher a moment to forward its message; the
     * others wait longer (seen: the message lost in about one run of six) */
    struct timespec wait = {rank == 0 ? 0 : 1, rank == 0 ? 200000000L : 0};
    nanosleep(&wait, NULL);
    PMPI_Abort(comm, 1);
}

/* Appends one line to this rank's configuration errors. */
static void logp_process_problem(const char *what)
{
    size_t n = strlen(logp_problems);
    snprintf(logp_problems + n, sizeof logp_problems - n, "%s\n", what);
    logp_problems_hash = logp_process_hash(what, logp_problems_hash ? logp_problems_hash : 1469598103934665603ull);
}

static int logp_process_readable(const char *path)
{
    return path && access(path, R_OK) == 0;
}

/* PMPI_LOGP_TUNING, else the site's file (never overwritten by make
 * install), else the installed default, else nothing (built-in
 * defaults).  A bad file is ignored as a whole. */
static void logp_process_load_tuning(void)
{
    const char *path = logp_env.tuning;
    if (path == NULL)
        path = logp_process_readable(LOGP_TUNING_SITE)      ? LOGP_TUNING_SITE
               : logp_process_readable(LOGP_TUNING_DEFAULT) ? LOGP_TUNING_DEFAULT
                                                            : NULL;
    if (path == NULL)
        return;
    char err[640], line[800];
    if (logp_config_load(&logp_cfg, path, err, sizeof err) != LOGP_OK) {
        snprintf(line, sizeof line, "%s\n%s", err,
                 logp_env.strict ? "PMPI_LOGP_STRICT=1: aborting" : "ignoring this tuning file: built-in defaults");
        logp_process_problem(line);
        return;
    }
    snprintf(logp_cfg_path, sizeof logp_cfg_path, "%s", path);
}

/* PMPI_LOGP_LEARN's file, if it exists: what earlier runs learned (read
 * after the tuning file, so its rules and corrections win).  A bad file
 * is ignored as a whole, like a bad tuning file. */
static void logp_process_load_learned(void)
{
    if (logp_env.learn == NULL && !logp_env.reproducible &&
        logp_config_learn_path(&logp_cfg)) { /* the tuning file's learn = FILE */
        snprintf(logp_learn_path, sizeof logp_learn_path, "%s", logp_config_learn_path(&logp_cfg));
        logp_env.learn = logp_learn_path;
    }
    if (logp_env.learn == NULL || access(logp_env.learn, F_OK) != 0)
        return;
    char err[640], line[800];
    if (logp_config_load(&logp_learned, logp_env.learn, err, sizeof err) != LOGP_OK) {
        snprintf(line, sizeof line, "%s\n%s", err,
                 logp_env.strict ? "PMPI_LOGP_STRICT=1: aborting"
                                 : "ignoring this learned file (the sizes this run learns are replaced in it at the "
                                   "end, the rest is kept: mend it by hand)");
        logp_process_problem(line);
    }
}

void logp_process_setup(void)
{
    int initialized = 0, finalized = 0;
    PMPI_Initialized(&initialized);
    PMPI_Finalized(&finalized);
    if (initialized && !finalized) { /* MPI_Init was called: there is a world */
        PMPI_Comm_rank(MPI_COMM_WORLD, &logp_world_rank);
        PMPI_Comm_size(MPI_COMM_WORLD, &logp_world_size);
    }
    char msgs[1024] = "";
    logp_env_read(&logp_env, msgs, sizeof msgs);
    for (char *line = msgs, *end; *line && (end = strchr(line, '\n')); line = end + 1) {
        *end = '\0';
        logp_process_problem(line);
    }
    if (logp_env.test_nomem >= 0 && logp_env.test_nomem == logp_world_rank)
        logp_test_nomem = logp_env.test_nomem_kinds;
    logp_scratch.fail = (logp_test_nomem & LOGP_TEST_NOMEM_STAGING) != 0;
    if (logp_env.warm > 0) /* before any collective: native alike in and after trials (coll/warm.h) */
        logp_coll_warm_allocator(LOGP_WARM_ALLOCATOR);
    logp_process_load_tuning();
    logp_process_load_learned();
    if (logp_env.dispatch)
        logp_dispatch_enable();
    /* rank 0 tells at once; the others when the ranks turn out to differ
     * (at a communicator's set-up), or before a strict abort */
    if (logp_world_rank == 0)
        logp_process_tell(0);
    if (logp_problems[0] && logp_env.strict && logp_world_rank >= 0)
        logp_process_abort(MPI_COMM_WORLD, logp_world_rank);
}

const logp_env_t *logp_process_env(void)
{
    return &logp_env;
}

const logp_config_t *logp_process_tuning(void)
{
    return &logp_cfg;
}

const char *logp_process_tuning_path(void)
{
    return logp_cfg_path;
}

const logp_config_t *logp_process_learned(void)
{
    return &logp_learned;
}

int logp_process_world_rank(void)
{
    return logp_world_rank;
}

int logp_process_world_size(void)
{
    return logp_world_size;
}

unsigned long long logp_process_problems_hash(void)
{
    return logp_problems_hash;
}

int logp_process_has_problems(void)
{
    return logp_problems[0] != '\0';
}

unsigned logp_process_test_nomem(void)
{
    return logp_test_nomem;
}

logp_scratch_t *logp_process_scratch(void)
{
    return &logp_scratch;
}

double logp_process_host_speed(const char *host, void *ctx)
{
    (void)ctx;
    return logp_config_host_speed(&logp_cfg, host);
}
