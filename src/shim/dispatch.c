/* Timing of the shim's own work per call (see dispatch.h). */
#include "dispatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef clock_gettime /* SMPI's helper header makes it the simulated clock: the host's is wanted */
#undef clock_gettime
#endif

/* Samples kept per collective (later calls are counted, not kept). */
#define LOGP_DISPATCH_SAMPLES 65536

typedef struct {
    double *sample;  /* the call's work, as it ran */
    double *warm;    /* the same lookups again at once (see dispatch.h) */
    long n;          /* calls recorded (samples: the first LOGP_DISPATCH_SAMPLES) */
    int P;           /* largest communicator seen */
    double decision; /* slowest decision, s */
} logp_dispatch_stat_t;

static logp_dispatch_stat_t logp_dispatch[LOGP_COLL_COUNT];
static int logp_dispatch_enabled;
/* Per thread.  Under SMPI every simulated rank runs in one OS thread, so
 * thread-local data would be shared by all of them (and a rank could find
 * another's entry), while static data is privatized per rank: there it is
 * a plain static. */
#ifdef SMPI_H
#define LOGP_PER_THREAD
#else
#define LOGP_PER_THREAD _Thread_local
#endif
static LOGP_PER_THREAD int logp_dispatch_deciding; /* this thread's call made a decision */

void logp_dispatch_enable(void)
{
    if (logp_dispatch_enabled)
        return;
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        if ((logp_dispatch[c].sample = malloc(sizeof(double) * LOGP_DISPATCH_SAMPLES)) == NULL ||
            (logp_dispatch[c].warm = malloc(sizeof(double) * LOGP_DISPATCH_SAMPLES)) == NULL)
            return; /* no memory: no timing, nothing else changes */
    logp_dispatch_enabled = 1;
}

int logp_dispatch_on(void)
{
    return logp_dispatch_enabled;
}

double logp_dispatch_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void logp_dispatch_decided(logp_coll_t coll, double seconds)
{
    logp_dispatch_stat_t *d = &logp_dispatch[coll];
    logp_dispatch_deciding = 1;
    if (seconds > d->decision)
        d->decision = seconds;
}

void logp_dispatch_call(logp_coll_t coll, int P, double seconds, double warm)
{
    logp_dispatch_stat_t *d = &logp_dispatch[coll];
    if (logp_dispatch_deciding) {
        logp_dispatch_deciding = 0;
        return;
    }
    long i = __atomic_fetch_add(&d->n, 1, __ATOMIC_RELAXED);
    if (i < LOGP_DISPATCH_SAMPLES) {
        d->sample[i] = seconds;
        d->warm[i] = warm;
    }
    if (P > d->P)
        d->P = P;
}

static int logp_dispatch_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void logp_dispatch_print(void)
{
    for (int c = 0; logp_dispatch_enabled && c < LOGP_COLL_COUNT; c++) {
        logp_dispatch_stat_t *d = &logp_dispatch[c];
        long n = d->n < LOGP_DISPATCH_SAMPLES ? d->n : LOGP_DISPATCH_SAMPLES;
        if (n == 0 && d->decision == 0.0)
            continue;
        qsort(d->sample, (size_t)n, sizeof(double), logp_dispatch_cmp);
        qsort(d->warm, (size_t)n, sizeof(double), logp_dispatch_cmp);
        double median = n ? d->sample[n / 2] : 0.0, p99 = n ? d->sample[(long)(0.99 * (double)(n - 1))] : 0.0;
        double warm = n ? d->warm[n / 2] : 0.0;
        printf("dispatch coll=%s P=%d calls=%ld median_us=%.3f p99_us=%.3f first_ms=%.3f warm_median_us=%.3f\n",
               logp_coll_name((logp_coll_t)c), d->P, d->n, median * 1e6, p99 * 1e6, d->decision * 1e3, warm * 1e6);
    }
    fflush(stdout);
}
