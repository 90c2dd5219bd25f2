/* Trials of auto's decisions: candidates, turns, verdict (see confirm.h). */
#include "confirm.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

int logp_confirm_twins(double t, double t_ref)
{
    return fabs(t - t_ref) <= LOGP_CONFIRM_DISTINCT * t_ref;
}

int logp_confirm_within_error(double t_pick, double band_pick, double t_other, double band_other)
{
    double bp = band_pick > 0.9 ? 0.9 : band_pick > 0.0 ? band_pick : 0.0;
    double bo = band_other > 0.9 ? 0.9 : band_other > 0.0 ? band_other : 0.0;
    return t_other / (1.0 + bo) <= t_pick / (1.0 - bp);
}

/* Adds candidate a (priced t[a], its band from band[] or none) to plan. */
static void logp_confirm_plan_add(logp_trial_plan_t *plan, const double *t, const double *band, int a)
{
    plan->algo[plan->n] = (logp_algo_t)a;
    plan->band[plan->n] = band ? band[a] : -1.0;
    plan->predicted[plan->n++] = t[a];
}

/* An empty plan, then `first` as its candidate 0; 0 if first is not priced. */
static int logp_confirm_plan_begin(logp_trial_plan_t *plan, const double *t, const double *band, logp_algo_t first)
{
    memset(plan, 0, sizeof(*plan));
    if ((int)first < 0 || first >= LOGP_ALGO_COUNT || !(t[first] >= 0.0))
        return 0;
    for (int c = 0; c < LOGP_CONFIRM_MAX; c++)
        plan->band[c] = -1.0;
    logp_confirm_plan_add(plan, t, band, first);
    return 1;
}

int logp_confirm_plan(const double *t, const double *raw, const double *band, logp_algo_t best,
                      logp_trial_plan_t *plan)
{
    if (!logp_confirm_plan_begin(plan, t, band, best))
        return 0;
    if (best != LOGP_ALGO_NATIVE && t[LOGP_ALGO_NATIVE] >= 0.0 && t[LOGP_ALGO_NATIVE] <= LOGP_CONFIRM_SPAN * t[best])
        logp_confirm_plan_add(plan, t, band, LOGP_ALGO_NATIVE);
    /* against native, our best within SPAN (the model is least sure about
     * the library it does not run); else up to two runners-up within NEAR
     * or within the model's error */
    double span = best == LOGP_ALGO_NATIVE ? LOGP_CONFIRM_SPAN : LOGP_CONFIRM_NEAR;
    for (int round = 0; round < 2; round++) {
        int runner = -1;
        for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
            if (a == LOGP_ALGO_NATIVE || a == LOGP_ALGO_AUTO || !(t[a] >= 0.0) ||
                (t[a] > span * t[best] && !(band && logp_confirm_within_error(t[best], band[best], t[a], band[a]))) ||
                (runner >= 0 && t[a] >= t[runner]))
                continue;
            int fresh = 1; /* priced apart from our candidates: not the same schedule again (native's
                              code is another, whatever its model says) */
            for (int c = 0; c < plan->n && fresh; c++) {
                double rc = raw[plan->algo[c]];
                fresh = plan->algo[c] == LOGP_ALGO_NATIVE || !logp_confirm_twins(raw[a], rc);
            }
            if (fresh)
                runner = a;
        }
        if (runner < 0)
            break;
        logp_confirm_plan_add(plan, t, band, runner);
    }
    return plan->n;
}

int logp_confirm_plan_extend(logp_trial_plan_t *plan, const double *t, const double *raw, const double *band)
{
    if (plan->n < 1 || plan->n >= LOGP_CONFIRM_MAX)
        return -1;
    int next = -1;
    for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
        if (a == LOGP_ALGO_NATIVE || a == LOGP_ALGO_AUTO || !(t[a] >= 0.0) || (next >= 0 && t[a] >= t[next]))
            continue;
        int fresh = 1; /* in the plan, or the same schedule under another name */
        for (int c = 0; c < plan->n && fresh; c++)
            fresh = plan->algo[c] != (logp_algo_t)a &&
                    (plan->algo[c] == LOGP_ALGO_NATIVE || !logp_confirm_twins(raw[a], raw[plan->algo[c]]));
        if (fresh)
            next = a;
    }
    if (next < 0)
        return -1;
    int ref = logp_confirm_block_of(plan, 0);
    double then = plan->predicted[ref], now = t[plan->algo[ref]];
    logp_confirm_plan_add(plan, t, band, next);
    /* on the footing of the plan's prices (block 0's, taken before this
     * trial's corrections): the block estimate scales it by what block 0
     * measured against its price, which t[] already holds */
    if (then > 0.0 && now > 0.0)
        plan->predicted[plan->n - 1] *= then / now;
    return plan->n - 1;
}

int logp_confirm_plan_untried(const double *t, const double *band, logp_algo_t rule, uint32_t untried,
                              logp_trial_plan_t *plan)
{
    if (!logp_confirm_plan_begin(plan, t, band, rule))
        return 0;
    untried &= ~((uint32_t)1 << rule);
    while (plan->n < LOGP_CONFIRM_MAX) { /* the cheapest left, one at a time */
        int next = -1;
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            if (untried >> a & 1 && a != LOGP_ALGO_AUTO && t[a] >= 0.0 && (next < 0 || t[a] < t[next]))
                next = a;
        if (next < 0)
            break;
        untried &= ~((uint32_t)1 << next);
        logp_confirm_plan_add(plan, t, band, next);
    }
    return plan->n;
}

int logp_confirm_blocks(const logp_trial_plan_t *plan)
{
    return plan->n + (plan->n >= 2 && logp_confirm_native_index(plan) >= 0);
}

int logp_confirm_block_of(const logp_trial_plan_t *plan, int b)
{
    int nat = logp_confirm_native_index(plan);
    if (nat < 0)
        return b;
    return b == 0 || b >= plan->n ? nat : b <= nat ? b - 1 : b;
}

int logp_confirm_turn_of(const logp_trial_plan_t *plan, int call)
{
    return plan->n > 0 && call >= 0 ? logp_confirm_block_of(plan, call / LOGP_CONFIRM_ROUNDS) : 0;
}

int logp_confirm_calls(const logp_trial_plan_t *plan)
{
    return logp_confirm_blocks(plan) * LOGP_CONFIRM_ROUNDS;
}

int logp_confirm_step_of(const logp_trial_plan_t *plan, int step, int *cand)
{
    *cand = logp_confirm_block_of(plan, step / LOGP_CONFIRM_BLOCK);
    return step % LOGP_CONFIRM_BLOCK >= LOGP_CONFIRM_BLOCK_WARM;
}

int logp_confirm_steps(const logp_trial_plan_t *plan)
{
    return logp_confirm_blocks(plan) * LOGP_CONFIRM_BLOCK;
}

int logp_confirm_native_index(const logp_trial_plan_t *plan)
{
    for (int c = 0; c < plan->n; c++)
        if (plan->algo[c] == LOGP_ALGO_NATIVE)
            return c;
    return -1;
}

int logp_confirm_pick_first(const logp_trial_plan_t *plan, const double *raw)
{
    int nat = logp_confirm_native_index(plan);
    if (nat <= 0 || !(plan->predicted[0] > 0.0))
        return 0;
    double margin = LOGP_CONFIRM_SAFE_MARGIN * (1.0 + (plan->band[0] > 0.0 ? plan->band[0] : 0.0));
    return plan->predicted[nat] >= margin * plan->predicted[0] &&
           (raw == NULL || (raw[plan->algo[0]] > 0.0 && raw[LOGP_ALGO_NATIVE] >= margin * raw[plan->algo[0]]));
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

/* Candidate c's time: the fastest of its timed calls among the first
 * `calls`, 0 unless it has all of one block's (native: of either of its
 * blocks, whose calls are counted together). */
static double logp_confirm_time_of(const logp_trial_plan_t *plan, int c, const double *times, int calls)
{
    double fastest = 0.0;
    int m = 0;
    for (int i = 0; i < calls; i++)
        if (logp_confirm_turn_of(plan, i) == c && times[i] > 0.0) {
            fastest = m == 0 || times[i] < fastest ? times[i] : fastest;
            m++;
        }
    return m >= LOGP_CONFIRM_ROUNDS ? fastest : 0.0;
}

/* The base of the first `blocks` blocks' times (see logp_trial_verdict_t):
 * native's time if it has one, else the fastest candidate's; 0 if none. */
static double logp_confirm_base(const logp_trial_plan_t *plan, const double *times, int blocks)
{
    int calls = blocks * LOGP_CONFIRM_ROUNDS, nat = logp_confirm_native_index(plan);
    double base = nat >= 0 ? logp_confirm_time_of(plan, nat, times, calls) : 0.0;
    if (base > 0.0)
        return base;
    for (int c = 0; c < plan->n; c++) {
        double t = logp_confirm_time_of(plan, c, times, calls);
        base = t > 0.0 && (base == 0.0 || t < base) ? t : base;
    }
    return base;
}

/* The per-call base of the blocks' costs: native's block's cost per call
 * if it ran, else the cheapest block's.  From the blocks, not from the
 * fastest timed call: a block's untimed calls start without a barrier and
 * carry the application's skew between ranks, and so does native's block,
 * which makes the two comparable.  0 if no block ran. */
static double logp_confirm_block_base(const logp_trial_plan_t *plan, const double *cost, int blocks)
{
    double base = 0.0;
    for (int b = 0; b < blocks && b < logp_confirm_blocks(plan); b++) {
        double per = cost[b] / LOGP_CONFIRM_BLOCK;
        if (!(per > 0.0))
            continue;
        if (plan->algo[logp_confirm_block_of(plan, b)] == LOGP_ALGO_NATIVE)
            return per;
        base = base == 0.0 || per < base ? per : base;
    }
    return base;
}

/* What the trial's own barriers and agreements cost in blocks 0 ..
 * blocks-1, with its first call's check (own: NULL for none). */
static double logp_confirm_own_total(const logp_trial_plan_t *plan, const logp_trial_own_t *own, int blocks)
{
    double spent = own && own->check > 0.0 ? own->check : 0.0;
    for (int b = 0; own && b < blocks && b < logp_confirm_blocks(plan); b++)
        if (own->block[b] > 0.0)
            spent += own->block[b];
    return spent;
}

/* What blocks 0 .. blocks-1 of candidates other than native cost beyond
 * as many calls of base. */
static double logp_confirm_spent(const logp_trial_plan_t *plan, const double *cost, int blocks, double base)
{
    double spent = 0.0;
    for (int b = 0; b < blocks && b < logp_confirm_blocks(plan); b++)
        if (plan->algo[logp_confirm_block_of(plan, b)] != LOGP_ALGO_NATIVE && cost[b] > LOGP_CONFIRM_BLOCK * base)
            spent += cost[b] - LOGP_CONFIRM_BLOCK * base;
    return spent;
}

/* What block `block` is expected to cost beyond as many calls of base:
 * its candidate's price scaled by what the base's candidate measured
 * against its own price (the model's error on this machine, as far as
 * the trial saw it), 0 if either is unpriced (a refit's previous
 * decision).  Cold calls are not in it: the estimate keeps a candidate
 * the model itself prices far above the others (node-aggregate at 4 MiB
 * on one node: 89 native calls in one block) from spending the budget at
 * once, not the cold one it cannot see. */
static double logp_confirm_block_estimate(const logp_trial_plan_t *plan, int block, double base)
{
    int c = logp_confirm_block_of(plan, block), ref = logp_confirm_block_of(plan, 0);
    if (!(plan->predicted[c] > 0.0) || !(plan->predicted[ref] > 0.0))
        return 0.0;
    double t = plan->predicted[c] * base / plan->predicted[ref];
    return t > base ? LOGP_CONFIRM_BLOCK * (t - base) : 0.0;
}

/* Native calls of exploration spent before block `block`, and expected of
 * it, beyond the budget earned by `waited` calls (< 0: the block is
 * affordable). */
static double logp_confirm_over(const logp_trial_plan_t *plan, int block, const double *cost,
                                const logp_trial_own_t *own, unsigned long waited)
{
    double base = logp_confirm_block_base(plan, cost, block);
    if (!(base > 0.0))
        return -1.0;
    /* the next block's own barriers: about the last block's */
    double next_own = own && block > 0 && own->block[block - 1] > 0.0 ? own->block[block - 1] : 0.0;
    return (logp_confirm_spent(plan, cost, block, base) + logp_confirm_own_total(plan, own, block) +
            logp_confirm_block_estimate(plan, block, base) + next_own) / base -
           LOGP_CONFIRM_BUDGET - (double)waited / LOGP_CONFIRM_EARN;
}

int logp_confirm_affordable(const logp_trial_plan_t *plan, int block, const double *cost,
                            const logp_trial_own_t *own, unsigned long waited)
{
    if (block <= 0)
        return plan->n > 0;
    if (block >= logp_confirm_blocks(plan))
        return 0;
    return plan->algo[logp_confirm_block_of(plan, block)] == LOGP_ALGO_NATIVE ||
           logp_confirm_over(plan, block, cost, own, waited) < 0.0;
}

unsigned long logp_confirm_resume_after(const logp_trial_plan_t *plan, int block, const double *cost,
                                        const logp_trial_own_t *own, unsigned long waited)
{
    double over = logp_confirm_over(plan, block, cost, own, waited);
    if (!(over >= 0.0))
        return 1;
    double calls = floor(over * LOGP_CONFIRM_EARN) + 1.0; /* then over < 0 */
    return calls > 1e9 ? 1000000000UL : (unsigned long)calls;
}

int logp_confirm_waits(const logp_trial_plan_t *plan, int pending, int c)
{
    for (int b = pending > 0 ? pending : logp_confirm_blocks(plan); b < logp_confirm_blocks(plan); b++)
        if (logp_confirm_block_of(plan, b) == c)
            return 1;
    return 0;
}

/* s in units of `unit` s for the barrier: capped at 2e9 units, >= 1 if > 0. */
static int logp_confirm_units(double s, double unit)
{
    double x = s / unit;
    return x >= 2e9 ? 2000000000 : x <= 0.0 ? 0 : x < 1.0 ? 1 : (int)(x + 0.5); /* rounded: sent again unchanged */
}

void logp_confirm_block_pack(int *v, int key, const double *times, int calls, const double *cost,
                             const logp_trial_own_t *own, int blocks)
{
    int *vt = v + 3, *vc = vt + LOGP_CONFIRM_CALLS, *vo = vc + LOGP_CONFIRM_BLOCKS_MAX;
    for (int i = 0; i < LOGP_CONFIRM_BLOCK_INTS; i++)
        v[i] = 0;
    v[0] = key;
    v[1] = -key;
    v[2] = -logp_confirm_units(own->check, 1e-8);
    for (int i = 0; i < calls && i < LOGP_CONFIRM_CALLS; i++)
        vt[i] = logp_confirm_units(times[i], 1e-9);
    for (int b = 0; b < blocks && b < LOGP_CONFIRM_BLOCKS_MAX; b++) {
        vc[b] = logp_confirm_units(cost[b], 1e-8);
        vo[b] = -logp_confirm_units(own->block[b], 1e-8);
    }
}

int logp_confirm_block_unpack(const int *v, int key, double *times, int calls, double *cost, logp_trial_own_t *own,
                              int blocks)
{
    const int *vt = v + 3, *vc = vt + LOGP_CONFIRM_CALLS, *vo = vc + LOGP_CONFIRM_BLOCKS_MAX;
    own->check = -v[2] * 1e-8;
    for (int i = 0; i < calls && i < LOGP_CONFIRM_CALLS; i++)
        times[i] = vt[i] * 1e-9;
    for (int b = 0; b < blocks && b < LOGP_CONFIRM_BLOCKS_MAX; b++) {
        cost[b] = vc[b] * 1e-8;
        own->block[b] = -vo[b] * 1e-8;
    }
    return v[0] == key && -v[1] == key;
}

void logp_confirm_verdict(const logp_trial_plan_t *plan, const double *times, const double *cost,
                          const logp_trial_own_t *own, logp_trial_verdict_t *v)
{
    memset(v, 0, sizeof(*v));
    int calls = logp_confirm_calls(plan);
    for (int c = 0; c < plan->n; c++) {
        v->time[c] = logp_confirm_time_of(plan, c, times, calls);
        v->tried += v->time[c] > 0.0;
    }
    v->winner = 0;
    for (int c = 1; c < plan->n; c++) { /* against the pick's time by the margin; else the fastest measured */
        double bar = v->time[0] > 0.0 ? (1.0 - LOGP_CONFIRM_MARGIN) * v->time[0] : INFINITY;
        if (v->time[c] > 0.0 && v->time[c] < bar && (v->winner == 0 || v->time[c] < v->time[v->winner]))
            v->winner = c;
    }
    v->barriers = -1.0;
    if (cost && (v->base = logp_confirm_block_base(plan, cost, logp_confirm_blocks(plan))) > 0.0) {
        double barriers = logp_confirm_own_total(plan, own, logp_confirm_blocks(plan));
        v->overhead = logp_confirm_spent(plan, cost, logp_confirm_blocks(plan), v->base) + barriers;
        if (own) /* what of it the trial's own barriers were */
            v->barriers = barriers;
        return;
    }
    v->base = logp_confirm_base(plan, times, logp_confirm_blocks(plan));
    for (int c = 0; c < plan->n; c++)
        if (v->time[c] > v->base)
            v->overhead += LOGP_CONFIRM_BLOCK * (v->time[c] - v->base);
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
    if (j + 1 > vec[LOGP_AGREE_BODY])
        vec[LOGP_AGREE_BODY] = j + 1;
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

int logp_confirm_agree_waiting(const double *vec)
{
    return vec[LOGP_AGREE_BODY] > 0.0;
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

unsigned long logp_confirm_agree_first(int warmup)
{
    return (unsigned long)(warmup > 0 ? warmup : 0) + 2 * LOGP_CONFIRM_BLOCK;
}

unsigned long logp_confirm_agree_next(unsigned long n, int busy)
{
    unsigned long gap = n / 4;
    gap = gap < LOGP_AGREE_BUSY_GAP ? LOGP_AGREE_BUSY_GAP : gap > LOGP_AGREE_IDLE_MAX ? LOGP_AGREE_IDLE_MAX : gap;
    return n + (busy ? LOGP_AGREE_BUSY_GAP : gap);
}

/* The prediction of algo for q with L times fL and G times fG. */
static double logp_confirm_scaled(const logp_select_query_t *q, logp_algo_t algo, double fL, double fG)
{
    logp_topo_t topo = *q->topo;
    logp_params_t *p[2] = {&topo.intra, &topo.inter};
    for (int k = 0; k < 2; k++) {
        p[k]->L *= fL;
        p[k]->G *= fG;
    }
    logp_select_query_t q2 = *q;
    q2.topo = &topo;
    q2.learn = NULL;
    return logp_select_predict(algo, &q2);
}

/* The rms log error of the samples at factors exp(x[0]), exp(x[1]); the
 * samples that cannot be priced are left out (*used: how many were not;
 * none: infinite).
 * Plus a small pull towards (1, 1), so that a parameter the samples do
 * not constrain (G, from 8-byte trials alone) stays where it was: 0.01 in
 * log error per factor e of its own. */
#define LOGP_FIT_PULL 0.01
static double logp_confirm_fit_error(const logp_fit_sample_t *s, int n, const double *x, int *used)
{
    double sum = 0.0;
    int m = 0;
    for (int i = 0; i < n; i++) {
        double t = logp_confirm_scaled(&s[i].q, s[i].algo, exp(x[0]), exp(x[1]));
        if (t > 0.0 && s[i].measured > 0.0) {
            double e = log(t / s[i].measured);
            sum += e * e;
            m++;
        }
    }
    if (used)
        *used = m;
    double pull = LOGP_FIT_PULL * LOGP_FIT_PULL * (x[0] * x[0] + x[1] * x[1]);
    return m ? sqrt(sum / m + pull) : INFINITY; /* nothing priced: never a better fit */
}

double logp_confirm_fit_joint(const logp_fit_sample_t *s, int n, double *fL, double *fG, double *before)
{
    double x[2] = {0.0, 0.0}, lim = log(64.0), phi = 0.5 * (sqrt(5.0) - 1.0);
    int used = 0;
    *fL = *fG = 1.0;
    double fx = *before = logp_confirm_fit_error(s, n, x, &used); /* the error at x */
    if (used == 0)
        return -1.0;
    for (int round = 0; round < 3; round++)
        for (int k = 0; k < 2; k++) { /* golden section over x[k] in [-lim, lim] */
            double a = -lim, b = lim, y[2] = {x[0], x[1]};
            double c = b - phi * (b - a), d = a + phi * (b - a), fc, fd;
            y[k] = c;
            fc = logp_confirm_fit_error(s, n, y, NULL);
            y[k] = d;
            fd = logp_confirm_fit_error(s, n, y, NULL);
            for (int i = 0; i < 18; i++) {
                if (fc < fd) {
                    b = d;
                    d = c;
                    fd = fc;
                    c = b - phi * (b - a);
                    y[k] = c;
                    fc = logp_confirm_fit_error(s, n, y, NULL);
                } else {
                    a = c;
                    c = d;
                    fc = fd;
                    d = a + phi * (b - a);
                    y[k] = d;
                    fd = logp_confirm_fit_error(s, n, y, NULL);
                }
            }
            y[k] = 0.5 * (a + b);
            double fy = logp_confirm_fit_error(s, n, y, NULL);
            if (fy < fx) {
                x[k] = y[k];
                fx = fy;
            }
        }
    *fL = exp(x[0]);
    *fG = exp(x[1]);
    return fx;
}

int logp_confirm_fittable(logp_algo_t algo)
{
    return algo != LOGP_ALGO_NATIVE && algo != LOGP_ALGO_AUTO && algo < LOGP_ALGO_COUNT &&
           !(logp_sched_family(algo)->flags & LOGP_FAMILY_ESTIMATED);
}

/* FNV-1a over n bytes, from h. */
static uint64_t logp_confirm_fnv(const void *data, size_t n, uint64_t h)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

uint64_t logp_confirm_basis(const logp_topo_t *topo, logp_native_lib_t lib)
{
    long revision = LOGP_MODEL_REVISION, nnodes = topo->nnodes > 1 ? topo->nnodes : 1, shared = topo->shared != 0,
         native = (long)lib;
    uint64_t h = logp_confirm_fnv(&revision, sizeof revision, 14695981039346656037ull);
    h = logp_confirm_fnv(&topo->intra, sizeof topo->intra, h);
    h = logp_confirm_fnv(&topo->inter, sizeof topo->inter, h);
    h = logp_confirm_fnv(&nnodes, sizeof nnodes, h);
    h = logp_confirm_fnv(&shared, sizeof shared, h);
    h = logp_confirm_fnv(&native, sizeof native, h);
    return h ? h : 1;
}
