/* The command line of pmpi-logp (the CLI's options, parsed) and what its
 * commands share: the machine it describes and the line that prints it. */
#ifndef LOGP_TOOLS_CLI_H
#define LOGP_TOOLS_CLI_H

#include <stddef.h>

#include "../model/algo.h"
#include "../model/params.h"
#include "../model/topo.h"
#include "../select/native.h"

#define LOGP_CLI_MAX_SPEEDS 4096

typedef struct {
    logp_params_t p, intra;
    int P, root, k, dot, nodes, rpn, intra_set, nspeeds, rank, P_given, intra_node;
    int shared; /* --network shared: hosts' interfaces share bandwidth (model/net.h); by default
                   (-1 while parsing) 1 for a layout of several nodes, as the shim's default */
    long N, iL, io, ig;   /* sum-plan: integer time steps */
    const char *file;     /* check FILE */
    const char *name;     /* check --name */
    size_t bytes;
    logp_coll_t coll;
    logp_algo_t algo;
    int coll_given;       /* --bcast/--reduce/--alltoall/--allreduce: predict and decide show that one */
    double speeds[LOGP_CLI_MAX_SPEEDS]; /* per node */
    logp_topo_t topo;                   /* topo.P == 0: no layout given */
    logp_native_lib_t native;           /* whose defaults "native" models */
} logp_cli_t;

/* The machine of the command line: the layout if one was given, else one
 * uniform node; --network sets its kind. */
logp_topo_t logp_cli_topo(const logp_cli_t *c);

/* The parameters and layout in one line (stdout). */
void logp_cli_print_model(const logp_cli_t *c);

#endif
