/* Trials of auto's decisions: candidates, turns, verdict (see confirm.h). */
#include "confirm.h"

#include <math.h>
#include <string.h>

int logp_confirm_plan(const double *t, logp_algo_t best, logp_trial_plan_t *plan)
{
    memset(plan, 0, sizeof(*plan));
    if ((int)best < 0 || best >= LOGP_ALGO_COUNT || !(t[best] >= 0.0))
        return 0;
    plan->algo[0] = best;
    plan->predicted[0] = t[best];
    plan->n = 1;
    if (best != LOGP_ALGO_NATIVE && t[LOGP_ALGO_NATIVE] >= 0.0 && t[LOGP_ALGO_NATIVE] <= LOGP_CONFIRM_SPAN * t[best]) {
        plan->algo[plan->n] = LOGP_ALGO_NATIVE;
        plan->predicted[plan->n++] = t[LOGP_ALGO_NATIVE];
    }
    /* against native, our best within SPAN (the model is least sure about
     * the library it does not run); else a runner-up within NEAR */
    double span = best == LOGP_ALGO_NATIVE ? LOGP_CONFIRM_SPAN : LOGP_CONFIRM_NEAR;
    int runner = -1;
    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
        if (a != (int)best && a != LOGP_ALGO_NATIVE && a != LOGP_ALGO_AUTO && t[a] >= 0.0 && t[a] <= span * t[best] &&
            (runner < 0 || t[a] < t[runner]))
            runner = a;
    if (runner >= 0) {
        plan->algo[plan->n] = (logp_algo_t)runner;
        plan->predicted[plan->n++] = t[runner];
    }
    return plan->n;
}

int logp_confirm_turn_of(const logp_trial_plan_t *plan, int call)
{
    return plan->n > 0 ? call % plan->n : 0;
}

int logp_confirm_calls(const logp_trial_plan_t *plan)
{
    return plan->n * LOGP_CONFIRM_ROUNDS;
}

double logp_confirm_median(const double *v, int n)
{
    double s[16];
    if (n <= 0)
        return 0.0;
    if (n > 16)
        n = 16;
    memcpy(s, v, sizeof(double) * (size_t)n);
    for (int i = 1; i < n; i++) /* insertion sort: n is tiny */
        for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
            double x = s[j];
            s[j] = s[j - 1];
            s[j - 1] = x;
        }
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

void logp_confirm_verdict(const logp_trial_plan_t *plan, const double *times, logp_trial_verdict_t *v)
{
    memset(v, 0, sizeof(*v));
    int calls = logp_confirm_calls(plan);
    for (int c = 0; c < plan->n; c++) {
        double mine[LOGP_CONFIRM_ROUNDS];
        int m = 0;
        for (int i = 0; i < calls; i++)
            if (logp_confirm_turn_of(plan, i) == c && times[i] > 0.0)
                mine[m++] = times[i];
        v->median[c] = m == LOGP_CONFIRM_ROUNDS ? logp_confirm_median(mine, m) : 0.0;
    }
    v->winner = 0;
    if (v->median[0] > 0.0)
        for (int c = 1; c < plan->n; c++)
            if (v->median[c] > 0.0 && v->median[c] < (1.0 - LOGP_CONFIRM_MARGIN) * v->median[0] &&
                v->median[c] < v->median[v->winner])
                v->winner = c;
    v->overhead = 0.0;
    for (int c = 0; c < plan->n; c++)
        if (v->median[c] > v->median[v->winner])
            v->overhead += LOGP_CONFIRM_ROUNDS * (v->median[c] - v->median[v->winner]);
}

int logp_confirm_drifted(double ref, const double *samples, int n)
{
    if (!(ref > 0.0) || n < 1)
        return 0;
    double m = logp_confirm_median(samples, n);
    return m > LOGP_CONFIRM_DRIFT * ref || m * LOGP_CONFIRM_DRIFT < ref;
}

void logp_confirm_agree_init(double *vec)
{
    for (int i = 0; i < LOGP_AGREE_LEN; i++)
        vec[i] = 0.0;
}

void logp_confirm_agree_put(double *vec, int j, int key, const double *ends, const double *starts, int n)
{
    if (j < 0 || j >= LOGP_AGREE_SLOTS || key <= 0)
        return;
    double *s = vec + j * LOGP_AGREE_SLOT_LEN;
    s[0] = key;
    s[1] = -key;
    for (int i = 0; i < LOGP_CONFIRM_CALLS; i++) {
        s[2 + i] = i < n ? ends[i] : 0.0;
        s[2 + LOGP_CONFIRM_CALLS + i] = i < n && starts ? starts[i] : 0.0;
    }
}

void logp_confirm_agree_put_drift(double *vec, int key)
{
    if (key > vec[LOGP_AGREE_LEN - 2])
        vec[LOGP_AGREE_LEN - 2] = key;
}

void logp_confirm_agree_put_busy(double *vec)
{
    vec[LOGP_AGREE_LEN - 1] = 1.0;
}

int logp_confirm_agree_busy(const double *vec)
{
    return vec[LOGP_AGREE_LEN - 1] > 0.0;
}

int logp_confirm_agree_key(const double *vec, int j, double *times)
{
    if (j < 0 || j >= LOGP_AGREE_SLOTS)
        return -1;
    const double *s = vec + j * LOGP_AGREE_SLOT_LEN;
    for (int i = 0; times && i < LOGP_CONFIRM_CALLS; i++)
        times[i] = s[2 + i] > 0.0 ? s[2 + i] - s[2 + LOGP_CONFIRM_CALLS + i] : 0.0;
    if (s[0] != -s[1]) /* the largest key differs from the smallest */
        return -1;
    return (int)s[0];
}

int logp_confirm_agree_drift(const double *vec)
{
    return (int)vec[LOGP_AGREE_LEN - 2];
}

unsigned long logp_confirm_agree_next(unsigned long n, int busy)
{
    unsigned long gap = n / 4;
    gap = gap < LOGP_AGREE_BUSY_GAP ? LOGP_AGREE_BUSY_GAP : gap > LOGP_AGREE_IDLE_MAX ? LOGP_AGREE_IDLE_MAX : gap;
    return n + (busy ? LOGP_AGREE_BUSY_GAP : gap);
}

/* The prediction of algo for q with L (or G and gamma) of every pair class
 * times s; raw: no learned factors. */
static double logp_confirm_scaled(const logp_select_query_t *q, logp_algo_t algo, logp_fit_param_t which, double s,
                                  int per_byte_off)
{
    logp_topo_t topo = *q->topo; /* the layout arrays are shared, read only */
    logp_params_t *p[2] = {&topo.intra, &topo.inter};
    for (int k = 0; k < 2; k++) {
        if (which == LOGP_FIT_L)
            p[k]->L *= s;
        else
            p[k]->G *= s;
        if (per_byte_off)
            p[k]->G = p[k]->gamma = 0.0;
    }
    logp_select_query_t q2 = *q;
    q2.topo = &topo;
    q2.learn = NULL;
    return logp_select_predict(algo, &q2);
}

logp_fit_param_t logp_confirm_dominant(const logp_select_query_t *q, logp_algo_t algo)
{
    double all = logp_confirm_scaled(q, algo, LOGP_FIT_L, 1.0, 0);
    double fixed = logp_confirm_scaled(q, algo, LOGP_FIT_L, 1.0, 1);
    return all > 0.0 && fixed >= 0.0 && fixed < 0.5 * all ? LOGP_FIT_G : LOGP_FIT_L;
}

double logp_confirm_fit(const logp_select_query_t *q, logp_algo_t algo, logp_fit_param_t which, double measured)
{
    double lo = log(1.0 / 64.0), hi = log(64.0);
    double tlo = logp_confirm_scaled(q, algo, which, exp(lo), 0), thi = logp_confirm_scaled(q, algo, which, exp(hi), 0);
    if (!(measured > 0.0) || !(tlo > 0.0) || !(thi > 0.0) || measured <= tlo || measured >= thi)
        return 0.0;
    for (int i = 0; i < 16; i++) { /* to 1e-4 of s: 20 predictions per fit */
        double mid = 0.5 * (lo + hi);
        if (logp_confirm_scaled(q, algo, which, exp(mid), 0) < measured)
            lo = mid;
        else
            hi = mid;
    }
    return exp(0.5 * (lo + hi));
}
