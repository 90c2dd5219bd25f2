/* Heterogeneous layouts (see topo.h). */
#include "topo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

logp_topo_t logp_topo_uniform(int P, const logp_params_t *p)
{
    logp_topo_t t = {P, 1, NULL, NULL, NULL, NULL, NULL, *p, *p, 0, LOGP_TOPO_ENVELOPE};
    return t;
}

static int logp_topo_cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

logp_status_t logp_topo_init(logp_topo_t *t, int P, const int *node_of, const double *speed,
                             const logp_params_t *intra, const logp_params_t *inter)
{
    memset(t, 0, sizeof(*t));
    if (P < 1 || node_of == NULL || logp_params_check(intra) != 0 || logp_params_check(inter) != 0)
        return LOGP_ERR_ARG;
    int ones = 1;
    for (int r = 0; speed && r < P; r++) {
        if (!(speed[r] > 0.0) || !isfinite(speed[r]))
            return LOGP_ERR_ARG;
        ones &= speed[r] == 1.0;
    }
    if (ones) /* every speed 1 is the uniform model's: no array */
        speed = NULL;
    t->P = P;
    t->envelope = LOGP_TOPO_ENVELOPE;
    t->intra = *intra;
    t->inter = *inter;
    t->node = malloc(sizeof(int) * (size_t)P);
    t->speed = speed ? malloc(sizeof(double) * (size_t)P) : NULL;
    if (t->node == NULL || (speed && t->speed == NULL)) {
        logp_topo_free(t);
        return LOGP_ERR_NOMEM;
    }
    if (speed)
        memcpy(t->speed, speed, sizeof(double) * (size_t)P);
    /* node ids 0.. in increasing order of the caller's names: sort, then
     * look every rank up (O(P log P) for communicators of any size) */
    int *names = malloc(sizeof(int) * (size_t)P);
    if (names == NULL) {
        logp_topo_free(t);
        return LOGP_ERR_NOMEM;
    }
    memcpy(names, node_of, sizeof(int) * (size_t)P);
    qsort(names, (size_t)P, sizeof(int), logp_topo_cmp_int);
    int n = 0;
    for (int i = 0; i < P; i++)
        if (i == 0 || names[i] != names[n - 1])
            names[n++] = names[i];
    t->nnodes = n;
    for (int r = 0; r < P; r++)
        t->node[r] = (int)((const int *)bsearch(&node_of[r], names, (size_t)n, sizeof(int), logp_topo_cmp_int) - names);
    free(names);
    t->start = malloc(sizeof(int) * ((size_t)n + 1));
    t->members = malloc(sizeof(int) * (size_t)P);
    t->index = malloc(sizeof(int) * (size_t)P);
    if (t->start == NULL || t->members == NULL || t->index == NULL) {
        logp_topo_free(t);
        return LOGP_ERR_NOMEM;
    }
    logp_topo_members(t, t->start, t->members);
    for (int a = 0; a < n; a++)
        for (int i = t->start[a]; i < t->start[a + 1]; i++)
            t->index[t->members[i]] = i - t->start[a];
    return LOGP_OK;
}

logp_status_t logp_topo_blocks(logp_topo_t *t, int P, int ranks_per_node, const double *speed,
                               const logp_params_t *intra, const logp_params_t *inter)
{
    memset(t, 0, sizeof(*t));
    if (P < 1 || ranks_per_node < 1)
        return LOGP_ERR_ARG;
    int *node_of = malloc(sizeof(int) * (size_t)P);
    if (node_of == NULL)
        return LOGP_ERR_NOMEM;
    for (int r = 0; r < P; r++)
        node_of[r] = r / ranks_per_node;
    int rc = logp_topo_init(t, P, node_of, speed, intra, inter);
    free(node_of);
    return rc;
}

void logp_topo_free(logp_topo_t *t)
{
    if (t == NULL)
        return;
    free(t->node);
    free(t->speed);
    free(t->start);
    free(t->members);
    free(t->index);
    t->node = NULL;
    t->speed = NULL;
    t->start = t->members = t->index = NULL;
}

int logp_topo_is_uniform(const logp_topo_t *t)
{
    for (int r = 0; t->speed && r < t->P; r++)
        if (t->speed[r] != 1.0)
            return 0;
    return t->nnodes <= 1 || memcmp(&t->intra, &t->inter, sizeof(t->intra)) == 0;
}

void logp_topo_members(const logp_topo_t *t, int *start, int *members)
{
    for (int a = 0; a <= t->nnodes; a++)
        start[a] = 0;
    for (int r = 0; r < t->P; r++)
        start[logp_topo_node(t, r) + 1]++;
    for (int a = 0; a < t->nnodes; a++)
        start[a + 1] += start[a];
    for (int r = 0; r < t->P; r++) /* start[a] runs ahead, then is restored */
        members[start[logp_topo_node(t, r)]++] = r;
    for (int a = t->nnodes; a > 0; a--)
        start[a] = start[a - 1];
    start[0] = 0;
}

int logp_topo_alike(const logp_topo_t *t, int a, int b)
{
    if (logp_topo_size(t, a) != logp_topo_size(t, b))
        return 0;
    double speed = logp_topo_speed(t, logp_topo_member(t, a, 0));
    for (int i = 0; i < logp_topo_size(t, a); i++)
        if (logp_topo_speed(t, logp_topo_member(t, a, i)) != speed ||
            logp_topo_speed(t, logp_topo_member(t, b, i)) != speed)
            return 0;
    return 1;
}

int logp_topo_leader(const logp_topo_t *t, const int *start, const int *members, int a, int root)
{
    int best = members[start[a]];
    for (int i = start[a]; i < start[a + 1]; i++) {
        int r = members[i];
        if (r == root)
            return r;
        if (logp_topo_speed(t, r) > logp_topo_speed(t, best))
            best = r;
    }
    return best;
}
