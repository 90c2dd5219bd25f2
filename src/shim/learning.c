/* What auto learned, for the next run (see learning.h). */
#include "learning.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/learned.h"
#include "../config/units.h"
#include "process.h"
#include "text.h"

/* The learned file's sections, kept on the writing process (world rank
 * 0) per communicator size until the end of the run. */
#define LOGP_CONFIRM_KEPT 64
static struct {
    int size;
    char *text;
} logp_learning_kept[LOGP_CONFIRM_KEPT];
static int logp_learning_nkept;
static pthread_mutex_t logp_learning_kept_lock = PTHREAD_MUTEX_INITIALIZER;

/* The candidates of t the exploration budget left untried (bit per
 * algorithm): those with a block at or after where it stopped the trial,
 * but native (its first block was measured) and `rule`. */
static uint32_t logp_learning_untried(const logp_trial_t *t, logp_algo_t rule)
{
    uint32_t m = 0;
    for (int c = 0; t->pending && c < t->plan.n; c++)
        if (logp_confirm_waits(&t->plan, t->pending, c) && t->plan.algo[c] != LOGP_ALGO_NATIVE &&
            t->plan.algo[c] != rule)
            m |= (uint32_t)1 << t->plan.algo[c];
    return m;
}

/* The class's settled algorithm for the learned file, LOGP_ALGO_COUNT if
 * none: a decision taken by a rule, without a trial (the model's margin),
 * or by an agreed trial (*which: it); else the rule the learned file gave
 * the class (*which NULL), so that a run that never calls a class, or
 * whose resumed trial of a rule has no verdict yet, keeps what earlier
 * runs learnt of it.  A class in trial again at the end (its budget's
 * resumed blocks, or re-opened after drift) keeps the verdict it had;
 * one that never had a verdict is left for the next run.  *untried: the
 * candidates the class's trial has not tried yet (the budget cut it),
 * 0 if it is settled, and *after the class's calls still to pay for them
 * (config.h: explore). */
static logp_algo_t logp_learning_settled(const logp_comm_state_t *st, logp_coll_t coll, int sc, int commutative,
                                        const logp_decision_t **which, uint32_t *untried, uint32_t *after)
{
    int called = 0;
    const logp_decision_t *kept = NULL; /* a rule not settled whose trial has no verdict yet */
    *which = NULL;
    *untried = 0;
    *after = 0;
    for (int unsafe = 0; unsafe <= 1; unsafe++) { /* the safe call's decision first */
        const logp_decision_t *d = st->decisions[coll][logp_state_slot_of(sc, commutative, unsafe)];
        called |= d != NULL;
        if (d == NULL || d->trial.disagreed)
            continue;
        int settled = d->trial.phase == LOGP_TRIAL_NONE || d->trial.phase == LOGP_TRIAL_DONE;
        if (!settled && d->trial.verdicts == 0) {
            kept = d->ruled ? d : kept; /* a rule whose trial goes on: the learned file's mark stays */
            continue;
        }
        *which = d;
        logp_algo_t a = settled ? d->algo : d->trial.agreed; /* in trial again (resumed or re-opened): its last verdict */
        if ((*untried = logp_learning_untried(&d->trial, a)) != 0 && d->trial.phase == LOGP_TRIAL_DONE &&
            d->trial.seen < d->trial.resume_at) /* still waiting for the budget */
            *after = (uint32_t)(d->trial.resume_at - d->trial.seen);
        return a;
    }
    if (called && !kept)
        return LOGP_ALGO_COUNT;
    *untried = st->learned_explore[coll][sc][commutative];
    /* less the calls this run paid (a rule's trial waits with its warm-up count below 0) */
    *after = kept ? (kept->trial.warm < 0 ? (uint32_t)-kept->trial.warm : 0) : st->learned_after[coll][sc][commutative];
    return (logp_algo_t)st->learned_rule[coll][sc][commutative];
}

/* Rules (runs of classes with one algorithm as one range) and corrections
 * of st as a [size P-P] section; the trials' times as comments. */
static void logp_learning_format(const logp_comm_state_t *st, logp_text_t *t)
{
    char name[sizeof st->name];
    size_t i = 0;
    for (; st->name[i] && i + 1 < sizeof name; i++) /* one comment line whatever the name holds */
        name[i] = (unsigned char)st->name[i] < ' ' || st->name[i] == 127 ? ' ' : st->name[i];
    name[i] = '\0';
    logp_text_printf(t, "\n# communicator %s (P=%d), MPI library %s: auto's decisions and the model's corrections\n",
                     name, st->size, logp_native_lib_name(logp_process_env()->native));
    logp_text_printf(t, "[size %d-%d]\n", st->size, st->size);
    const logp_params_t *rep = logp_topo_rep(&st->topo);
    /* as a comment: a [size] section would give them to communicators of
     * this size across nodes too, whose pairs these trials never saw */
    if (st->refits && st->topo.nnodes == 1)
        logp_text_printf(t, "# auto's trials moved L to %.6gus and G to %.6gns/B on one node (the tuning file said "
                            "otherwise; copy them into an [intra-node] section to keep them)\n",
                         rep->L * 1e6, rep->G * 1e9);
    for (int c = 0; c < LOGP_COLL_COUNT; c++) {
        if (st->configured[c] != LOGP_ALGO_AUTO)
            continue;
        for (int k = logp_coll_combines((logp_coll_t)c) ? 0 : 1; k <= 1; k++) {
            const char *qual = !logp_coll_combines((logp_coll_t)c) ? "" : k ? " commutative" : " non-commutative";
            /* each class once: its algorithm, the decision behind it, what it has not tried */
            logp_algo_t algo[LOGP_LEARN_CLASSES];
            const logp_decision_t *which[LOGP_LEARN_CLASSES];
            uint32_t untried[LOGP_LEARN_CLASSES], after[LOGP_LEARN_CLASSES];
            for (int sc = 0; sc < LOGP_LEARN_CLASSES; sc++)
                algo[sc] = logp_learning_settled(st, (logp_coll_t)c, sc, k, &which[sc], &untried[sc], &after[sc]);
            for (int sc = 0; sc < LOGP_LEARN_CLASSES;) {
                logp_algo_t a = algo[sc];
                if (a == LOGP_ALGO_COUNT) {
                    sc++;
                    continue;
                }
                int end = sc;
                while (end + 1 < LOGP_LEARN_CLASSES && algo[end + 1] == a)
                    end++;
                for (int x = sc; x <= end; x++) {
                    const logp_decision_t *e = which[x];
                    char what[512] = "";
                    if (e)
                        logp_trial_describe(&e->trial, st->warmup, what, sizeof what);
                    int again = e && (e->trial.phase == LOGP_TRIAL_RUNNING || e->trial.phase == LOGP_TRIAL_WAITING);
                    if (what[0])
                        logp_text_printf(t, "# %s %zu-%zu B%s: %s%s\n", logp_coll_name((logp_coll_t)c), (size_t)1 << x,
                                         ((size_t)2 << x) - 1, qual, what, again ? "; the rule is its last verdict" : "");
                }
                logp_text_printf(t, "rule = %s %zu-%zu%s %s\n", logp_coll_name((logp_coll_t)c), (size_t)1 << sc,
                                 ((size_t)2 << end) - 1, qual, logp_algo_name(a));
                for (int x = sc; x <= end; x++) { /* the classes not settled: what the next run tries */
                    if (!untried[x])
                        continue;
                    char names[LOGP_ALGO_COUNT * 32] = "";
                    for (int b = 0; b < LOGP_ALGO_COUNT; b++)
                        if (untried[x] >> b & 1)
                            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", names[0] ? "," : "",
                                     logp_algo_name((logp_algo_t)b));
                    char wait[32] = "";
                    if (after[x] > 0)
                        snprintf(wait, sizeof wait, " after %lu", (unsigned long)after[x]);
                    logp_text_printf(t, "explore = %s %zu-%zu%s %s%s\n", logp_coll_name((logp_coll_t)c), (size_t)1 << x,
                                     ((size_t)2 << x) - 1, qual, names, wait);
                }
                sc = end + 1;
            }
        }
    }
    if (logp_learn_any(&st->learn))
        logp_text_printf(t, "# the prices the corrections were measured against (model revision %d, these "
                            "parameters and layout): another basis drops them\nbasis = %016llx\n",
                         LOGP_MODEL_REVISION,
                         (unsigned long long)logp_confirm_basis(&st->topo, logp_process_env()->native));
    for (int c = 0; c < LOGP_COLL_COUNT; c++)
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            for (int sc = 0; sc < LOGP_LEARN_CLASSES; sc++)
                if (st->learn.ratio[c][a][sc] > 0.0f)
                    logp_text_printf(t, "correction = %s %s %zu %.4g\n", logp_coll_name((logp_coll_t)c),
                                     logp_algo_name((logp_algo_t)a), (size_t)1 << sc, st->learn.ratio[c][a][sc]);
}

void logp_learning_keep(const logp_comm_state_t *st)
{
    if (!st->confirm && !logp_learn_any(&st->learn))
        return;
    logp_text_t t = {0};
    logp_units_locale_t c = logp_units_c_begin(); /* numbers the next run's parser reads: '.' */
    logp_learning_format(st, &t);
    logp_units_c_end(c);
    if (t.buf == NULL)
        return;
    if (strstr(t.buf, "\nrule = ") == NULL && strstr(t.buf, "\ncorrection = ") == NULL) {
        logp_text_free(&t);
        return;
    }
    pthread_mutex_lock(&logp_learning_kept_lock);
    int i = 0;
    while (i < logp_learning_nkept && logp_learning_kept[i].size != st->size)
        i++;
    if (i == logp_learning_nkept && logp_learning_nkept < LOGP_CONFIRM_KEPT)
        logp_learning_kept[logp_learning_nkept].size = st->size, logp_learning_kept[logp_learning_nkept++].text = NULL;
    /* one section per size: the communicator that decided most */
    if (i < logp_learning_nkept && (logp_learning_kept[i].text == NULL || strlen(logp_learning_kept[i].text) < strlen(t.buf))) {
        free(logp_learning_kept[i].text);
        logp_learning_kept[i].text = t.buf;
        t.buf = NULL;
    }
    pthread_mutex_unlock(&logp_learning_kept_lock);
    logp_text_free(&t);
}

void logp_learning_write(const char *path)
{
    pthread_mutex_lock(&logp_learning_kept_lock);
    char *texts[LOGP_CONFIRM_KEPT];
    int sizes[LOGP_CONFIRM_KEPT], n = 0;
    for (int i = 0; i < logp_learning_nkept; i++) {
        if (logp_learning_kept[i].text == NULL)
            continue;
        sizes[n] = logp_learning_kept[i].size;
        texts[n++] = logp_learning_kept[i].text; /* ours now */
        logp_learning_kept[i].text = NULL;
    }
    logp_learning_nkept = 0;
    pthread_mutex_unlock(&logp_learning_kept_lock);
    char err[1200];
    if (n > 0 && logp_learned_write(path, (const char *const *)texts, sizes, n, err, sizeof err) != 0)
        fprintf(stderr, "pmpi-logp: PMPI_LOGP_LEARN: %s (nothing learned was written)\n", err);
    else if (n > 0 && err[0])
        fprintf(stderr, "pmpi-logp: PMPI_LOGP_LEARN: %s\n", err);
    else if (n > 0 && logp_process_env()->verbose >= 1)
        fprintf(stderr, "pmpi-logp: learned decisions and corrections of %d communicator size%s written to %s\n", n,
                n == 1 ? "" : "s", path);
    for (int i = 0; i < n; i++)
        free(texts[i]);
}
