/* Test harness only, not part of the library: a waiting rank gives its core
 * away.  MPICH's ch4:ucx device (Debian's MPICH) waits by polling in a busy
 * loop, so with more ranks than cores (the tests run up to 8 ranks on 2) a
 * waiting rank holds its core until the kernel preempts it and each message
 * costs a scheduler time slice.  Every poll of that loop calls UCX's
 * ucp_worker_progress through the dynamic linker; this definition, linked
 * into the test programs (or preloaded before a third-party one), calls the
 * real one and yields when it found nothing to do.  test_coll's matrix at
 * 8 ranks runs about 4x faster.  Where UCX is not loaded (Open MPI's shared
 * memory, SMPI) nothing calls it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>

typedef unsigned (*logp_test_progress_fn_t)(void *worker);

unsigned ucp_worker_progress(void *worker);

unsigned ucp_worker_progress(void *worker)
{
    /* resolved once; a race only stores the same pointer twice */
    static logp_test_progress_fn_t real;
    logp_test_progress_fn_t f = __atomic_load_n(&real, __ATOMIC_RELAXED);
    if (f == NULL) {
        f = (logp_test_progress_fn_t)dlsym(RTLD_NEXT, "ucp_worker_progress");
        if (f == NULL)
            return 0;
        __atomic_store_n(&real, f, __ATOMIC_RELAXED);
    }
    unsigned events = f(worker);
    if (events == 0)
        sched_yield();
    return events;
}
