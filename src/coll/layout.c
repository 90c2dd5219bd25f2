/* Layout discovery: one allgather of (node name, speed) per rank. */
#include "layout.h"

#include <stdio.h>
#include <stdlib.h>

#include "../model/status.h"

int logp_layout_discover(MPI_Comm comm, int ranks_per_node, logp_layout_speed_fn_t speed_of, void *ctx,
                         const logp_params_t *intra, const logp_params_t *inter, logp_topo_t *topo)
{
    int P, rank, wrank = 0, len = 0, rc = MPI_SUCCESS;
    PMPI_Comm_size(comm, &P);
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    char host[MPI_MAX_PROCESSOR_NAME + 16] = "";
    double mine[2] = {rank, 1.0}; /* node name (a rank), speed */
    if (ranks_per_node > 0) {
        mine[0] = wrank / ranks_per_node;
        snprintf(host, sizeof host, "node%d", wrank / ranks_per_node);
    } else {
        MPI_Comm node;
        int lead = rank; /* a node is named by its lowest rank in comm */
        rc = PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        if (rc == MPI_SUCCESS) {
            rc = PMPI_Allreduce(&rank, &lead, 1, MPI_INT, MPI_MIN, node);
            PMPI_Comm_free(&node);
        }
        mine[0] = lead;
        PMPI_Get_processor_name(host, &len);
    }
    if (speed_of)
        mine[1] = speed_of(host, ctx);
    double *all = malloc(sizeof(double) * 2 * (size_t)P), *speed = malloc(sizeof(double) * (size_t)P);
    int *node_of = malloc(sizeof(int) * (size_t)P);
    /* all ranks gather or none: a rank out of memory must not leave the
     * others in the allgather */
    int have = all && speed && node_of, all_have = 0;
    int grc = PMPI_Allreduce(&have, &all_have, 1, MPI_INT, MPI_MIN, comm);
    if (grc == MPI_SUCCESS && all_have)
        grc = PMPI_Allgather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, comm);
    rc = rc == MPI_SUCCESS ? grc : rc;
    int uniform_speed = 1, ok = rc == MPI_SUCCESS && all_have;
    for (int r = 0; ok && r < P; r++) {
        node_of[r] = (int)all[2 * r];
        speed[r] = all[2 * r + 1];
        uniform_speed &= speed[r] == 1.0;
    }
    if (!ok || logp_topo_init(topo, P, node_of, uniform_speed ? NULL : speed, intra, inter) != LOGP_OK) {
        *topo = logp_topo_uniform(P, inter);
        if (rc == MPI_SUCCESS)
            rc = MPI_ERR_NO_MEM;
    }
    free(all);
    free(speed);
    free(node_of);
    return rc;
}
