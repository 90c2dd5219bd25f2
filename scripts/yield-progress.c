/* yield-progress.so: a measurement aid for ranks beyond the cores.
 *
 * MPICH (ch4:ucx, Debian 12) polls while it waits and never gives the
 * core away, so with more ranks than cores a hand-off between two ranks
 * on one core waits for the scheduler's tick (4 ms here) and every time
 * is a multiple of it.  Preloaded after the shim, this wraps UCX's
 * progress call and yields the core when a poll found nothing to do, so
 * that the rank a message waits for gets to run at once: times become
 * microseconds again (a 64 KiB reduce at n = 4 on 2 cores: 33 - 66 us per
 * algorithm instead of 8 - 16 ms).  It changes the machine (every wait
 * costs a context switch), so its results are a proxy for n = 3 and 4,
 * not what an application on four cores would see.  Used by
 * scripts/confirm-bench.sh for n > cores; not part of the library.
 *   cc -O2 -shared -fPIC -o yield-progress.so scripts/yield-progress.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>

typedef unsigned (*logp_ucp_progress_t)(void *);

unsigned ucp_worker_progress(void *worker);

unsigned ucp_worker_progress(void *worker)
{
    static logp_ucp_progress_t next;
    if (next == NULL)
        next = (logp_ucp_progress_t)dlsym(RTLD_NEXT, "ucp_worker_progress");
    unsigned events = next ? next(worker) : 0;
    if (events == 0)
        sched_yield();
    return events;
}
