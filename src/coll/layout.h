/* Where the ranks of a communicator are: the layout of the heterogeneous
 * model (src/model/topo.h), found through MPI (PMPI only). */
#ifndef LOGP_COLL_LAYOUT_H
#define LOGP_COLL_LAYOUT_H

#include <mpi.h>

#include "../model/topo.h"

/* Relative speed of the node called `host` (a tuning-file lookup). */
typedef double (*logp_layout_speed_fn_t)(const char *host, void *ctx);

/* Collective over `comm` (an allreduce and an allgather, no new
 * communicator): every rank gets the same layout.  A rank's node is
 * global_rank / ranks_per_node when ranks_per_node > 0 (the override that
 * makes one machine look like several nodes, named "nodeK"; global_rank:
 * its MPI_COMM_WORLD rank), else its processor name (MPI_Get_processor_name:
 * the ranks of one host share it).  `speed_of` (NULL: all 1) gives each
 * node's speed from that name.  On failure (out of memory, an MPI error)
 * *topo is the uniform layout with `inter` and the MPI error code is
 * returned (the same on every rank). */
int logp_layout_discover(MPI_Comm comm, int global_rank, int ranks_per_node, logp_layout_speed_fn_t speed_of,
                         void *ctx, const logp_params_t *intra, const logp_params_t *inter, logp_topo_t *topo);

/* Nonzero if this process's node runs more MPI processes than it has
 * processors online (sysconf, read at the first call): the launcher's count of the job's
 * processes on the node (MPICH's hydra: MPI_LOCALNRANKS; Open MPI:
 * OMPI_COMM_WORLD_LOCAL_SIZE), else `local` (the communicator's ranks on
 * this node).  MPI libraries poll while they wait, so on such a node every
 * message hand-off can cost a scheduler time slice (4 ms here), which the
 * LogGP model does not describe.  Local (no communication); never under
 * SMPI, whose hosts have the cores the platform gives them. */
int logp_layout_oversubscribed(int local);

#endif
