/* PMPI_LOGP_* environment variables (see README). */
#include "env.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../coll/engine.h"
#include "../select/confirm.h"

/* Eager messages warmed per process before its first trial: UCX's
 * shared-memory FIFO has 64 elements (UCX_MM_FIFO_SIZE), each cold at its
 * first use (coll/warm.h).  None under SMPI: a simulation has no cold
 * memory, and the messages would shift every simulated first call. */
#ifdef LOGP_BUILD_SMPI
#define LOGP_ENV_WARM 0
#else
#define LOGP_ENV_WARM 64
#endif

static void logp_env_algos(logp_coll_t coll, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        if (logp_algo_supports((logp_algo_t)a, coll)) {
            strncat(buf, " ", n - strlen(buf) - 1);
            strncat(buf, logp_algo_name((logp_algo_t)a), n - strlen(buf) - 1);
        }
}

/* Appends one line to msgs. */
static void logp_env_say(char *msgs, size_t n, const char *fmt, const char *var, const char *v, const char *what)
{
    size_t len = strlen(msgs);
    if (len + 1 < n) {
        snprintf(msgs + len, n - len, fmt, var, v, what);
        len = strlen(msgs);
        if (len + 1 < n) {
            msgs[len] = '\n';
            msgs[len + 1] = '\0';
        }
    }
}

static int logp_env_level(const char *var, const char *v, int max, logp_env_t *env, char *msgs, size_t n)
{
    if (v == NULL || *v == '\0')
        return 0;
    char *end, range[32];
    long x = strtol(v, &end, 10);
    if (*end != '\0' || x < 0 || x > max) {
        snprintf(range, sizeof range, "0..%d", max);
        logp_env_say(msgs, n, "%s=%s: expected an integer %s; ignored", var, v, range);
        env->errors++;
        return 0;
    }
    return (int)x;
}

/* logp_env_level for a variable whose default is not 0: `fallback` when
 * it is unset, empty or invalid (reported as such). */
static int logp_env_level_or(const char *var, int max, int fallback, logp_env_t *env, char *msgs, size_t n)
{
    const char *v = getenv(var);
    int before = env->errors, x = logp_env_level(var, v, max, env, msgs, n);
    return v == NULL || *v == '\0' || env->errors != before ? fallback : x; /* ("00" is 0) */
}

void logp_env_read(logp_env_t *env, char *msgs, size_t n)
{
    static const char *const vars[LOGP_COLL_COUNT] = {"PMPI_LOGP_BCAST", "PMPI_LOGP_REDUCE", "PMPI_LOGP_ALLTOALL",
                                                      "PMPI_LOGP_ALLREDUCE", "PMPI_LOGP_ALLTOALLV"};
    memset(env, 0, sizeof(*env));
    msgs[0] = '\0';
    for (int c = 0; c < LOGP_COLL_COUNT; c++) {
        const char *v = getenv(vars[c]);
        env->forced[c] = LOGP_ALGO_COUNT;
        if (v == NULL || *v == '\0')
            continue;
        env->forced[c] = logp_algo_lookup((logp_coll_t)c, v);
        if (env->forced[c] == LOGP_ALGO_COUNT) {
            char known[256], what[320];
            logp_env_algos((logp_coll_t)c, known, sizeof(known));
            snprintf(what, sizeof what, "not a %s algorithm (known:%s)", logp_coll_name((logp_coll_t)c), known);
            logp_env_say(msgs, n, "%s=%s: %s; ignored", vars[c], v, what);
            env->errors++;
        }
    }
    env->verbose = logp_env_level("PMPI_LOGP_VERBOSE", getenv("PMPI_LOGP_VERBOSE"), 2, env, msgs, n);
    env->strict = logp_env_level("PMPI_LOGP_STRICT", getenv("PMPI_LOGP_STRICT"), 1, env, msgs, n);
    env->ranks_per_node = logp_env_level("PMPI_LOGP_RANKS_PER_NODE", getenv("PMPI_LOGP_RANKS_PER_NODE"), 1 << 20,
                                         env, msgs, n);
    env->dispatch = logp_env_level("PMPI_LOGP_DISPATCH", getenv("PMPI_LOGP_DISPATCH"), 1, env, msgs, n);
    env->confirm = logp_env_level_or("PMPI_LOGP_CONFIRM", 2, 1, env, msgs, n);
    env->confirm_warmup = logp_env_level_or("PMPI_LOGP_CONFIRM_WARMUP", 1000, LOGP_CONFIRM_WARMUP, env, msgs, n);
    env->warm = logp_env_level_or("PMPI_LOGP_WARM", 4096, LOGP_ENV_WARM, env, msgs, n);
    env->native = logp_native_lib_default();
    const char *native = getenv("PMPI_LOGP_NATIVE");
    if (native != NULL && *native != '\0') {
        logp_native_lib_t lib = logp_native_lib_lookup(native);
        if (lib == LOGP_NATIVE_LIB_COUNT) {
            logp_env_say(msgs, n, "%s=%s: %s; ignored", "PMPI_LOGP_NATIVE", native, "expected mpich, openmpi or smpi");
            env->errors++;
        } else {
            env->native = lib;
        }
    }
    const char *over = getenv("PMPI_LOGP_OVERSUBSCRIBED");
    if (over != NULL && *over != '\0') {
        env->oversubscribed_model = strcmp(over, "model") == 0;
        if (!env->oversubscribed_model && strcmp(over, "native") != 0) {
            logp_env_say(msgs, n, "%s=%s: %s; ignored", "PMPI_LOGP_OVERSUBSCRIBED", over, "expected native or model");
            env->errors++;
        }
    }
    const char *wait = getenv("PMPI_LOGP_WAIT");
    env->wait_yield = logp_engine_wait_setting(wait);
    if (env->wait_yield == -2) {
        logp_env_say(msgs, n, "%s=%s: %s; ignored", "PMPI_LOGP_WAIT", wait, "expected auto, yield or poll");
        env->errors++;
        env->wait_yield = -1;
    }
    /* a test hook: makes one algorithm measurably slow, so that tests can
     * check that auto's trials catch a model that picks it */
    const char *slow = getenv("PMPI_LOGP_TEST_SLOW");
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        env->test_slow_ns[a] = 0;
    for (const char *item = slow; item && *item;) { /* ALGO[:US], comma-separated */
        size_t len = strcspn(item, ","), nlen = strcspn(item, ":,");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(nlen < sizeof name ? nlen : sizeof name - 1), item);
        long us = nlen < len ? atol(item + nlen + 1) : 0;
        for (int c = 0; c < LOGP_COLL_COUNT; c++) {
            logp_algo_t a = logp_algo_lookup((logp_coll_t)c, name);
            if (a < LOGP_ALGO_COUNT)
                env->test_slow_ns[a] = us > 0 ? us * 1000L : 20000000L;
        }
        item += len + (item[len] == ',');
    }
    /* a test hook: one rank out of memory for staging, so that tests can
     * check that its peers do not wait for it */
    const char *nomem = getenv("PMPI_LOGP_TEST_NOMEM"), *kind = nomem ? strchr(nomem, ':') : NULL;
    char *rank_end = NULL;
    long nomem_rank = nomem && *nomem ? strtol(nomem, &rank_end, 10) : -1;
    env->test_nomem = rank_end != nomem && (rank_end == NULL || *rank_end == '\0' || *rank_end == ':') &&
                              nomem_rank >= 0 && nomem_rank <= INT_MAX ? (int)nomem_rank : -1; /* a rank, or none */
    env->test_nomem_kinds = !kind                            ? LOGP_TEST_NOMEM_STAGING
                            : strcmp(kind, ":decision") == 0 ? LOGP_TEST_NOMEM_DECISION
                            : strcmp(kind, ":schedule") == 0 ? LOGP_TEST_NOMEM_SCHEDULE
                            : strcmp(kind, ":trial") == 0    ? LOGP_TEST_NOMEM_TRIAL
                                                             : LOGP_TEST_NOMEM_STAGING;
    env->tuning = getenv("PMPI_LOGP_TUNING");
    env->report = getenv("PMPI_LOGP_REPORT");
    env->learn = getenv("PMPI_LOGP_LEARN");
    if (env->learn && *env->learn == '\0')
        env->learn = NULL;
    if (env->tuning && *env->tuning == '\0')
        env->tuning = NULL;
    if (env->report && *env->report == '\0')
        env->report = NULL;
    /* Reproducible results: what runs may not depend on timings (trials,
     * learned files) nor a reduce's combining order on arrival order. */
    env->nonblocking = logp_env_level("PMPI_LOGP_NONBLOCKING", getenv("PMPI_LOGP_NONBLOCKING"), 1, env, msgs, n);
    env->reproducible = logp_env_level("PMPI_LOGP_REPRODUCIBLE", getenv("PMPI_LOGP_REPRODUCIBLE"), 1, env, msgs, n);
    if (env->reproducible) {
        env->confirm = 0;
        env->learn = NULL;
    }
}
