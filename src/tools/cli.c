/* What pmpi-logp's commands share (see cli.h). */
#include "cli.h"

#include <stdio.h>

void logp_cli_print_model(const logp_cli_t *c)
{
    printf("L=%gus o=%gus g=%gus G=%gns/B gamma=%gns/B", c->p.L * 1e6, c->p.o * 1e6, c->p.g * 1e6, c->p.G * 1e9,
           c->p.gamma * 1e9);
    if (c->p.copy != logp_params_default().copy)
        printf(" copy=%gns/B", c->p.copy * 1e9);
    if (c->p.fresh != logp_params_default().fresh)
        printf(" fresh=%gns/B", c->p.fresh * 1e9);
    if (c->topo.P > 0) {
        printf("%s; %d nodes x %d ranks, intra-node L=%gus o=%gus g=%gus G=%gns/B", c->nodes > 1 ? " between nodes" : "",
               c->nodes, c->rpn, c->intra.L * 1e6, c->intra.o * 1e6, c->intra.g * 1e6, c->intra.G * 1e9);
        if (c->nspeeds > 0) {
            printf("; node speeds");
            for (int i = 0; i < c->nspeeds; i++)
                printf("%s%g", i ? "," : " ", c->speeds[i]);
        }
    }
    printf("\n");
}

logp_topo_t logp_cli_topo(const logp_cli_t *c)
{
    logp_topo_t t = c->topo.P > 0 ? c->topo : logp_topo_uniform(c->P, &c->p);
    t.shared = c->shared;
    return t;
}
