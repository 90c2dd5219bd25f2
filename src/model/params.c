/* LogGP parameters and the per-message cost convention (see params.h). */
#include "params.h"

#include <math.h>

logp_params_t logp_params_default(void)
{
    logp_params_t p = {1.6e-6, 0.4e-6, 0.6e-6, 0.1e-9, 0.3e-9};
    return p;
}

int logp_params_check(const logp_params_t *p)
{
    const double v[5] = {p->L, p->o, p->g, p->G, p->gamma};
    for (int i = 0; i < 5; i++)
        if (!isfinite(v[i]) || v[i] < 0.0)
            return -1;
    return 0;
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

double logp_params_p2p(const logp_params_t *p, size_t bytes)
{
    return 2.0 * p->o + p->L + logp_params_inj(p, bytes);
}
