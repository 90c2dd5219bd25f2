/* The shim's run in a process (see run.h). */
#include "run.h"

#include <pthread.h>
#include <stdlib.h>

#include "../coll/engine.h"
#include "../coll/library.h"
#include "../config/units.h"
#include "dispatch.h"
#include "learning.h"
#include "persist.h"
#include "process.h"
#include "report.h"
#include "state.h"

static pthread_once_t logp_run_once = PTHREAD_ONCE_INIT;
static int logp_run_self_key = MPI_KEYVAL_INVALID;

/* A communicator goes: its report block and what it learned (unless the
 * run has ended: then both were taken already), then its memory. */
static int logp_run_comm_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm;
    (void)key;
    (void)extra;
    logp_comm_state_t *st = value;
    while (st->nb_outstanding > 0) /* a nonblocking collective freed with its communicator still runs on */
        logp_engine_progress();
    logp_persist_orphan(st); /* its persistent collectives' later starts: the library's */
    int ended = logp_state_detach(st);
    if (ended < 0)
        return MPI_SUCCESS;
    const logp_env_t *env = logp_process_env();
    if (!ended) /* freed by the application before the end */
        logp_report_comm(st);
    if (env->learn && logp_process_world_rank() == 0 && !ended) /* after the end the file is written */
        logp_learning_keep(st);
    logp_state_release(st);
    return MPI_SUCCESS;
}

void logp_run_end(void)
{
    logp_comm_state_t **all = NULL;
    int n = logp_state_end_all(&all);
    if (n < 0) /* ended already */
        return;
    const logp_env_t *env = logp_process_env();
    int rank0 = logp_process_world_rank() == 0;
    if (all)
        logp_report_gather(all, n);
    logp_units_locale_t c = logp_units_c_begin(); /* the report's numbers (a CSV) with '.' whatever the locale */
    for (int i = 0; i < n; i++) {
        logp_report_comm(all[i]);
        if (env->learn && rank0)
            logp_learning_keep(all[i]);
    }
    free(all);
    if (env->learn && rank0)
        logp_learning_write(env->learn);
    logp_state_free_privates();
    const char *tuning = logp_process_tuning_path();
    logp_report_write(env->report, logp_process_world_rank() <= 0, logp_process_world_size(), tuning[0] ? tuning : NULL);
    logp_units_c_end(c);
    if (rank0)
        logp_dispatch_print();
    logp_scratch_free(logp_process_scratch());
}

/* Start of MPI_Finalize. */
static int logp_run_self_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm;
    (void)key;
    (void)value;
    (void)extra;
    logp_run_end();
    return MPI_SUCCESS;
}

static void logp_run_init(void)
{
    int key = MPI_KEYVAL_INVALID;
    logp_process_setup();
    logp_coll_library_set_engine(logp_process_env()->nonblocking); /* SMPI: the agreements' allreduce */
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, logp_run_comm_delete, &key, NULL);
    logp_state_init(key);
    if (logp_process_world_rank() >= 0) {
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, logp_run_self_delete, &logp_run_self_key, NULL);
        PMPI_Comm_set_attr(MPI_COMM_SELF, logp_run_self_key, NULL);
    }
}

void logp_run_setup(void)
{
    pthread_once(&logp_run_once, logp_run_init);
}
