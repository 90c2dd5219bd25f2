/* LogGP parameters and the per-message cost convention (see params.h). */
#include "params.h"

#include <math.h>

logp_params_t logp_params_default(void)
{
    logp_params_t p = {1.6e-6, 0.4e-6, 0.6e-6, 0.1e-9, 0.3e-9, 0.05e-9, 0.25e-9};
#ifdef LOGP_BUILD_SMPI
    p.copy = 0.0; /* the SMPI scripts' runs (smpi/simulate-computation:no) charge no time for local work */
    p.fresh = 0.0;
#endif
    return p;
}

logp_status_t logp_params_check(const logp_params_t *p)
{
    const double v[7] = {p->L, p->o, p->g, p->G, p->gamma, p->copy, p->fresh};
    for (int i = 0; i < 7; i++)
        if (!isfinite(v[i]) || v[i] < 0.0)
            return LOGP_ERR_ARG;
    return LOGP_OK;
}

double logp_params_inj(const logp_params_t *p, size_t bytes)
{
    return bytes > 0 ? (double)(bytes - 1) * p->G : 0.0;
}

double logp_params_gap(const logp_params_t *p, size_t bytes)
{
    double busy = p->o + logp_params_inj(p, bytes);
    return p->g > busy ? p->g : busy;
}

double logp_params_send_gap(const logp_params_t *p, size_t bytes)
{
    double gap = logp_params_gap(p, bytes), wait = p->o + logp_params_inj(p, bytes) + p->L;
    return bytes > LOGP_PARAMS_SERIAL_BYTES && wait > gap ? wait : gap;
}

double logp_params_p2p(const logp_params_t *p, size_t bytes)
{
    return 2.0 * p->o + p->L + logp_params_inj(p, bytes);
}

double logp_params_take(const logp_params_t *p, size_t bytes, int combine, double arrive, logp_recv_state_t *st)
{
    double start = st->cpu > st->next ? st->cpu : st->next;
    if (arrive > start)
        start = arrive;
    st->cpu = start + p->o + (combine ? (double)bytes * p->gamma : 0.0);
    st->next = start + logp_params_gap(p, bytes);
    return start;
}

double logp_params_post(const logp_params_t *p, size_t bytes, double *cpu, double *next_send)
{
    double start = *cpu > *next_send ? *cpu : *next_send, inj = logp_params_inj(p, bytes);
    *cpu = start + p->o;
    *next_send = start + logp_params_gap(p, bytes);
    return start + p->o + inj + p->L;
}

void logp_params_take_equal(const logp_params_t *p, size_t bytes, int first_combine, int combine, double arrive,
                            long n, logp_recv_state_t *st)
{
    if (n < 1)
        return;
    double start = logp_params_take(p, bytes, first_combine, arrive, st);
    if (n == 1)
        return;
    /* every later message has arrived: spacing is the busier of CPU and gap */
    double busy = p->o + (combine ? (double)bytes * p->gamma : 0.0), gap = logp_params_gap(p, bytes);
    double first = st->cpu > st->next ? st->cpu : st->next; /* the second start */
    double step = busy > gap ? busy : gap;
    start = first + (double)(n - 2) * step;
    st->cpu = start + busy;
    st->next = start + gap;
}
