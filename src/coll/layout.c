/* Layout discovery: one allgather of (node key, speed) per rank; a node
 * is a processor name (no communicator is created for it). */
#include "layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../model/status.h"
#include "library.h"

/* FNV-1a of a processor name: a node's key. */
static unsigned long long logp_layout_hash(const char *s)
{
    unsigned long long h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int logp_layout_cmp(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return (x > y) - (x < y);
}

int logp_layout_discover(MPI_Comm comm, int global_rank, int ranks_per_node, logp_layout_speed_fn_t speed_of,
                         void *ctx, const logp_params_t *intra, const logp_params_t *inter, logp_topo_t *topo)
{
    int P, rank, len = 0, rc = MPI_SUCCESS;
    PMPI_Comm_size(comm, &P);
    PMPI_Comm_rank(comm, &rank);
    char host[MPI_MAX_PROCESSOR_NAME + 16] = "";
    unsigned long long mine[2]; /* node key, speed (the bits of a double) */
    if (ranks_per_node > 0) {
        mine[0] = (unsigned long long)(global_rank / ranks_per_node);
        snprintf(host, sizeof host, "node%d", global_rank / ranks_per_node);
    } else {
        PMPI_Get_processor_name(host, &len);
        mine[0] = logp_layout_hash(host);
    }
    double speed = speed_of ? speed_of(host, ctx) : 1.0;
    memcpy(&mine[1], &speed, sizeof speed);
    unsigned long long *all = malloc(sizeof(*all) * 2 * (size_t)P), *keys = malloc(sizeof(*keys) * (size_t)P);
    double *speeds = malloc(sizeof(double) * (size_t)P);
    int *node_of = malloc(sizeof(int) * (size_t)P);
    /* all ranks gather or none: a rank out of memory must not leave the
     * others in the allgather */
    int have = all && keys && speeds && node_of, all_have = 0;
    rc = logp_coll_library_allreduce(&have, &all_have, 1, MPI_INT, MPI_MIN, comm);
    if (rc == MPI_SUCCESS && all_have)
        rc = PMPI_Allgather(mine, 2, MPI_UNSIGNED_LONG_LONG, all, 2, MPI_UNSIGNED_LONG_LONG, comm);
    int uniform_speed = 1, ok = rc == MPI_SUCCESS && all_have, n = 0;
    for (int r = 0; ok && r < P; r++) {
        keys[r] = all[2 * r];
        memcpy(&speeds[r], &all[2 * r + 1], sizeof(double));
        uniform_speed &= speeds[r] == 1.0;
    }
    if (ok) { /* nodes numbered by their keys, as logp_topo_init wants ints */
        qsort(keys, (size_t)P, sizeof(*keys), logp_layout_cmp);
        for (int i = 0; i < P; i++)
            if (i == 0 || keys[i] != keys[n - 1])
                keys[n++] = keys[i];
        for (int r = 0; r < P; r++)
            node_of[r] = (int)((unsigned long long *)bsearch(&all[2 * r], keys, (size_t)n, sizeof(*keys),
                                                              logp_layout_cmp) - keys);
    }
    if (!ok || logp_topo_init(topo, P, node_of, uniform_speed ? NULL : speeds, intra, inter) != LOGP_OK) {
        *topo = logp_topo_uniform(P, inter);
        if (rc == MPI_SUCCESS)
            rc = MPI_ERR_NO_MEM;
    }
    free(all);
    free(keys);
    free(speeds);
    free(node_of);
    return rc;
}

int logp_layout_oversubscribed(int local)
{
#ifdef SMPI_H
    (void)local;
    return 0;
#else
    const char *v = getenv("MPI_LOCALNRANKS");
    if (v == NULL || *v == '\0')
        v = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    /* the processors online, read once: sysconf reads a file (6 us here,
     * 34 the first time), which every communicator's set-up paid */
    static long online;
    long cpus = __atomic_load_n(&online, __ATOMIC_RELAXED);
    if (cpus == 0) {
        cpus = sysconf(_SC_NPROCESSORS_ONLN);
        __atomic_store_n(&online, cpus > 0 ? cpus : -1, __ATOMIC_RELAXED);
    }
    long n = v ? strtol(v, NULL, 10) : 0;
    if (n <= 0)
        n = local;
    return cpus > 0 && n > cpus;
#endif
}
