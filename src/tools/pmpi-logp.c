/* pmpi-logp: the model from the command line (no MPI needed).  Its
 * commands and their options: logp_cli_cmds and the help texts below
 * (and man/pmpi-logp.1). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <limits.h>

#include "../config/config.h"
#include "../config/units.h"
#include "../model/algo.h"
#include "../model/alltoall_pattern.h"
#include "../model/params.h"
#include "../model/plan.h"
#include "../model/sched.h"
#include "../model/sched_chain.h"
#include "../model/topo.h"
#include "../model/tree_chain.h"
#include "../model/tree_logp.h"
#include "../select/confirm.h"
#include "../select/select.h"

#include "cli.h"
#include "cli_tree.h"

/* "1,0.5,2" -> c->speeds; LOGP_ERR_PARSE if malformed or not > 0. */
static logp_status_t parse_speeds(const char *v, logp_cli_t *c)
{
    c->nspeeds = 0;
    for (const char *s = v; *s;) {
        char *end;
        double x = strtod(s, &end);
        if (end == s || !(x > 0.0) || c->nspeeds == LOGP_CLI_MAX_SPEEDS || (*end != ',' && *end != '\0'))
            return LOGP_ERR_PARSE;
        c->speeds[c->nspeeds++] = x;
        s = *end ? end + 1 : end;
    }
    return c->nspeeds > 0 ? LOGP_OK : LOGP_ERR_PARSE;
}

/* Builds c->topo from --nodes/--rpn/--speeds/--intra-*: node k holds ranks
 * k R .. k R + R - 1 (the last node may be short when --P is given). */
static int make_layout(logp_cli_t *c, int P_given)
{
    if (c->nodes == 0 && c->rpn == 0 && c->nspeeds == 0 && c->intra_set == 0)
        return 0;
    logp_params_t given = c->intra; /* unset intra parameters are the plain ones */
    c->intra = c->p;
    if (c->intra_set & 1)
        c->intra.L = given.L;
    if (c->intra_set & 2)
        c->intra.o = given.o;
    if (c->intra_set & 4)
        c->intra.g = given.g;
    if (c->intra_set & 8)
        c->intra.G = given.G;
    if (c->nodes > 0 && c->rpn > 0) {
        if (P_given && c->P != c->nodes * c->rpn) {
            fprintf(stderr, "pmpi-logp: --P %d disagrees with --nodes %d x --rpn %d\n", c->P, c->nodes, c->rpn);
            return -1;
        }
        c->P = c->nodes * c->rpn;
    } else if (c->nodes > 0) {
        c->rpn = (c->P + c->nodes - 1) / c->nodes;
    } else if (c->rpn == 0) {
        c->rpn = c->P; /* one node: only speeds or intra parameters given */
    }
    c->nodes = (c->P + c->rpn - 1) / c->rpn;
    if (c->nspeeds != 0 && c->nspeeds != 1 && c->nspeeds != c->nodes) {
        fprintf(stderr, "pmpi-logp: --speeds has %d values for %d nodes (give 1 or %d)\n", c->nspeeds, c->nodes,
                c->nodes);
        return -1;
    }
    double *speed = malloc(sizeof(double) * (size_t)c->P);
    if (speed == NULL)
        return -1;
    for (int r = 0; r < c->P; r++)
        speed[r] = c->nspeeds == 0 ? 1.0 : c->speeds[c->nspeeds == 1 ? 0 : r / c->rpn];
    logp_status_t rc = logp_topo_blocks(&c->topo, c->P, c->rpn, speed, &c->intra, &c->p);
    free(speed);
    if (rc != LOGP_OK)
        fprintf(stderr, "pmpi-logp: invalid layout\n");
    return rc == LOGP_OK ? 0 : -1;
}

enum {
    OPT_P = 1, OPT_N, OPT_ROOT, OPT_RANK, OPT_CHAIN_K, OPT_BYTES, OPT_L, OPT_O, OPT_G_GAP, OPT_G_BYTE, OPT_GAMMA,
    OPT_NODES, OPT_RPN, OPT_SPEEDS, OPT_INTRA_L, OPT_INTRA_O, OPT_INTRA_G, OPT_INTRA_GB, OPT_BCAST, OPT_REDUCE,
    OPT_ALLTOALL, OPT_ALLREDUCE, OPT_ALLTOALLV, OPT_DOT, OPT_NAME, OPT_INTRA_NODE, OPT_NATIVE, OPT_NETWORK, OPT_COPY,
    OPT_FRESH, OPT_HELP
};
_Static_assert(OPT_HELP < 32 && OPT_ALLTOALLV - OPT_BCAST == LOGP_COLL_ALLTOALLV, "options: bits; collectives in order");
#define OPT(o) (1u << (o))
#define OPTS_COLL (OPT(OPT_BCAST) | OPT(OPT_REDUCE) | OPT(OPT_ALLTOALL) | OPT(OPT_ALLREDUCE) | OPT(OPT_ALLTOALLV))
#define LOGP_CLI_COLL_SYNOPSIS "[--bcast ALGO | --reduce ALGO | --alltoall ALGO | --allreduce ALGO | --alltoallv ALGO]"
#define OPTS_PARAMS (OPT(OPT_L) | OPT(OPT_O) | OPT(OPT_G_GAP) | OPT(OPT_G_BYTE) | OPT(OPT_GAMMA) | OPT(OPT_ROOT) | \
                     OPT(OPT_CHAIN_K) | OPT(OPT_NATIVE) | OPT(OPT_COPY) | OPT(OPT_FRESH))
#define OPTS_LAYOUT (OPT(OPT_NODES) | OPT(OPT_RPN) | OPT(OPT_SPEEDS) | OPT(OPT_INTRA_L) | OPT(OPT_INTRA_O) | \
                     OPT(OPT_INTRA_G) | OPT(OPT_INTRA_GB) | OPT(OPT_NETWORK))

static const struct option logp_cli_options[] = {
    {"P", required_argument, NULL, OPT_P},           {"N", required_argument, NULL, OPT_N},
    {"root", required_argument, NULL, OPT_ROOT},     {"rank", required_argument, NULL, OPT_RANK},
    {"chain-k", required_argument, NULL, OPT_CHAIN_K}, {"bytes", required_argument, NULL, OPT_BYTES},
    {"L", required_argument, NULL, OPT_L},           {"o", required_argument, NULL, OPT_O},
    {"g", required_argument, NULL, OPT_G_GAP},       {"G", required_argument, NULL, OPT_G_BYTE},
    {"gamma", required_argument, NULL, OPT_GAMMA},   {"nodes", required_argument, NULL, OPT_NODES},
    {"rpn", required_argument, NULL, OPT_RPN},       {"speeds", required_argument, NULL, OPT_SPEEDS},
    {"intra-L", required_argument, NULL, OPT_INTRA_L}, {"intra-o", required_argument, NULL, OPT_INTRA_O},
    {"intra-g", required_argument, NULL, OPT_INTRA_G}, {"intra-G", required_argument, NULL, OPT_INTRA_GB},
    {"bcast", required_argument, NULL, OPT_BCAST},   {"reduce", required_argument, NULL, OPT_REDUCE},
    {"alltoall", required_argument, NULL, OPT_ALLTOALL}, {"allreduce", required_argument, NULL, OPT_ALLREDUCE},
    {"alltoallv", required_argument, NULL, OPT_ALLTOALLV}, {"help", no_argument, NULL, OPT_HELP},
    {"dot", no_argument, NULL, OPT_DOT},             {"name", required_argument, NULL, OPT_NAME},
    {"intra-node", no_argument, NULL, OPT_INTRA_NODE}, {"native", required_argument, NULL, OPT_NATIVE},
    {"network", required_argument, NULL, OPT_NETWORK}, {"copy", required_argument, NULL, OPT_COPY},
    {"fresh", required_argument, NULL, OPT_FRESH},
    {NULL, 0, NULL, 0}};

static const char logp_cli_params_help[] =
    "params:  --L T --o T --g T   LogP times (T: number with ns, us (default), ms or s)\n"
    "         --G X --gamma X     per byte (ns/B (default), us/B, s/B) or a bandwidth (B/s KB/s MB/s GB/s)\n"
    "         --copy X            per byte of a local memory copy (packing all-to-alls pay it; default 0.05ns/B)\n"
    "         --fresh X           per byte of memory first touched (page faults; MPICH's large reduce\n"
    "                             pays it for buffers it allocates at every call; default 0.25ns/B)\n"
    "         --root R --chain-k K\n"
    "         --native LIB        whose defaults \"native\" models: mpich, openmpi or smpi (default: the build's)\n";
static const char logp_cli_layout_help[] =
    "layout:  --nodes N --rpn R   nodes and ranks per node (P = N R; either one with --P)\n"
    "         --speeds S0,S1,..   relative speed per node (or one for all)\n"
    "         --intra-L T --intra-o T --intra-g T --intra-G X   same-node pairs (the plain\n"
    "                             parameters are then the inter-node ones)\n"
    "         --network loggp|shared   one message at a time through an interface (LogGP), or\n"
    "                             transfers in flight sharing it max-min fairly (as NICs and\n"
    "                             SimGrid's links do; simulated, no closed forms); default:\n"
    "                             shared for several nodes (--nodes N > 1, as the shim between\n"
    "                             nodes), else loggp (--P alone: the seeds' LogP machine)\n"
    "sizes:   --bytes M           digits with B, K/KiB, M/MiB, G/GiB (64K = 65536)\n"
    "options take --opt VALUE or --opt=VALUE\n";

typedef struct logp_cli_cmd {
    const char *name;
    unsigned allowed; /* OPT() bits */
    int positional;   /* operands after the options; -1: none or one */
    const char *synopsis;
    const char *what;
} logp_cli_cmd_t;

static const logp_cli_cmd_t logp_cli_cmds[] = {
    {"tree", OPT(OPT_P) | OPT(OPT_RANK) | OPTS_COLL | OPT(OPT_BYTES) | OPT(OPT_DOT) | OPTS_PARAMS | OPTS_LAYOUT, 0,
     "tree " LOGP_CLI_COLL_SYNOPSIS " --P N [--rank R] [--bytes M] [params] [layout] [--dot]",
     "a schedule as a tree with receive times; --rank R: that rank's parent and children only (any P); "
     "a schedule that is not a tree (parts, all-to-all, allreduce's ring or recursive doubling): its operations"},
    {"predict", OPT(OPT_P) | OPT(OPT_BYTES) | OPTS_COLL | OPTS_PARAMS | OPTS_LAYOUT, 0,
     "predict " LOGP_CLI_COLL_SYNOPSIS " --P N --bytes M [params] [layout]",
     "predicted time of every algorithm, per collective (a collective option: that algorithm's only)"},
    {"decide", OPT(OPT_P) | OPT(OPT_BYTES) | OPTS_COLL | OPTS_PARAMS | OPTS_LAYOUT, 0,
     "decide " LOGP_CLI_COLL_SYNOPSIS " --P N --bytes M [params] [layout]",
     "auto's choice per collective and the time the decision takes (a collective option: ALGO configured)"},
    {"sum-plan", OPT(OPT_P) | OPT(OPT_N) | OPT(OPT_L) | OPT(OPT_O) | OPT(OPT_G_GAP), 0,
     "sum-plan --P N --N OPERANDS --L l --o o --g g", "seed 000's summation plan (integer time steps)"},
    {"check", OPT(OPT_P) | OPT(OPT_NAME) | OPT(OPT_INTRA_NODE) | OPT(OPT_NATIVE), 1, "check FILE [--P N] [--name NAME] [--intra-node] [--native LIB]",
     "validate a tuning file and show what a communicator gets from it and what auto picks"},
    {"algorithms", 0, -1, "algorithms [COLL]",
     "the algorithms: name, collectives, what they are; with COLL (bcast, reduce, ...) the names of its "
     "algorithms the shim runs (not native or auto), one a line, for scripts"},
    {"show-learned", 0, 1, "show-learned FILE",
     "the rules and corrections of a learned file (PMPI_LOGP_LEARN) or tuning file, as tables per section"},
};
#define LOGP_CLI_NCMDS (int)(sizeof logp_cli_cmds / sizeof logp_cli_cmds[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: pmpi-logp COMMAND [options]   (the LogP model from the command line; no MPI)\n");
    for (int i = 0; i < LOGP_CLI_NCMDS; i++)
        fprintf(f, "       pmpi-logp %s\n", logp_cli_cmds[i].synopsis);
    fprintf(f, "       pmpi-logp --version | --help | COMMAND --help\n%s%s", logp_cli_params_help, logp_cli_layout_help);
}

static void usage_cmd(FILE *f, const logp_cli_cmd_t *cmd)
{
    fprintf(f, "usage: pmpi-logp %s\n  %s\n", cmd->synopsis, cmd->what);
    if (cmd->allowed & OPTS_PARAMS & ~(OPT(OPT_L) | OPT(OPT_O) | OPT(OPT_G_GAP)))
        fprintf(f, "%s%s", logp_cli_params_help, logp_cli_layout_help);
}

/* An int option of at least lo into *out; LOGP_OK, or LOGP_ERR_PARSE when
 * the value is bad. */
static logp_status_t parse_int(const char *v, long lo, int *out)
{
    long n = 0;
    if (logp_units_count(v, lo, INT_MAX, &n) != LOGP_OK)
        return LOGP_ERR_PARSE;
    *out = (int)n;
    return LOGP_OK;
}

/* One option's value into c; LOGP_OK, or LOGP_ERR_PARSE when the value is
 * bad. */
static logp_status_t parse_value(logp_cli_t *c, const logp_cli_cmd_t *cmd, int opt, const char *v)
{
    int integer_times = strcmp(cmd->name, "sum-plan") == 0;
    switch (opt) {
    case OPT_P:
        c->P_given = 1;
        return parse_int(v, 1, &c->P);
    case OPT_N:
        return logp_units_count(v, 0, LONG_MAX, &c->N);
    case OPT_ROOT:
        return parse_int(v, 0, &c->root);
    case OPT_RANK:
        return parse_int(v, 0, &c->rank);
    case OPT_CHAIN_K:
        return parse_int(v, 1, &c->k);
    case OPT_NODES:
        return parse_int(v, 1, &c->nodes);
    case OPT_RPN:
        return parse_int(v, 1, &c->rpn);
    case OPT_BYTES:
        return logp_units_bytes(v, &c->bytes);
    case OPT_L:
        return integer_times ? logp_units_count(v, 0, 1L << 40, &c->iL) : logp_units_time(v, &c->p.L);
    case OPT_O:
        return integer_times ? logp_units_count(v, 0, 1L << 40, &c->io) : logp_units_time(v, &c->p.o);
    case OPT_G_GAP:
        return integer_times ? logp_units_count(v, 1, 1L << 40, &c->ig) : logp_units_time(v, &c->p.g);
    case OPT_G_BYTE:
        return logp_units_per_byte(v, &c->p.G);
    case OPT_GAMMA:
        return logp_units_per_byte(v, &c->p.gamma);
    case OPT_COPY:
        return logp_units_per_byte(v, &c->p.copy);
    case OPT_FRESH:
        return logp_units_per_byte(v, &c->p.fresh);
    case OPT_SPEEDS:
        return parse_speeds(v, c);
    case OPT_INTRA_L:
        c->intra_set |= 1;
        return logp_units_time(v, &c->intra.L);
    case OPT_INTRA_O:
        c->intra_set |= 2;
        return logp_units_time(v, &c->intra.o);
    case OPT_INTRA_G:
        c->intra_set |= 4;
        return logp_units_time(v, &c->intra.g);
    case OPT_INTRA_GB:
        c->intra_set |= 8;
        return logp_units_per_byte(v, &c->intra.G);
    case OPT_BCAST:
    case OPT_REDUCE:
    case OPT_ALLTOALL:
    case OPT_ALLREDUCE:
    case OPT_ALLTOALLV: /* the options in the order of logp_coll_t */
        c->coll = (logp_coll_t)(opt - OPT_BCAST);
        c->coll_given = 1;
        c->algo = logp_algo_lookup(c->coll, v); /* tree: native, auto have no schedule; predict: auto no price */
        if (c->algo == LOGP_ALGO_COUNT || (c->algo == LOGP_ALGO_NATIVE && strcmp(cmd->name, "tree") == 0) ||
            (c->algo == LOGP_ALGO_AUTO && strcmp(cmd->name, "decide") != 0))
            return LOGP_ERR_PARSE;
        return LOGP_OK;
    case OPT_NAME:
        c->name = v;
        return LOGP_OK;
    case OPT_NATIVE:
        c->native = logp_native_lib_lookup(v);
        return c->native == LOGP_NATIVE_LIB_COUNT ? LOGP_ERR_PARSE : LOGP_OK;
    case OPT_NETWORK:
        c->shared = strcmp(v, "shared") == 0;
        return c->shared || strcmp(v, "loggp") == 0 ? LOGP_OK : LOGP_ERR_PARSE;
    }
    return LOGP_ERR_PARSE;
}

/* Options of `cmd` (argv[0] is the command).  0 to run, 1 after --help
 * (exit 0), -1 on a usage error (message printed; exit 2). */
static int parse_args(int argc, char **argv, const logp_cli_cmd_t *cmd, logp_cli_t *c)
{
    c->p = logp_params_default();
    c->P = 8;
    c->k = 4;
    c->bytes = 8;
    c->coll = LOGP_COLL_BCAST;
    c->algo = LOGP_ALGO_LOGP_TREE;
    c->rank = -1;
    c->native = logp_native_lib_default();
    c->iL = c->io = c->ig = -1;
    c->shared = -1;
    opterr = 0; /* our messages name the command */
    optind = 1;
    int opt, idx;
    while ((opt = getopt_long(argc, argv, ":", logp_cli_options, &idx)) != -1) {
        const char *arg = argv[optind - 1];
        if (opt == ':') {
            fprintf(stderr, "pmpi-logp %s: %s needs a value (see pmpi-logp %s --help)\n", cmd->name, arg, cmd->name);
            return -1;
        }
        if (opt == '?') {
            fprintf(stderr, "pmpi-logp %s: unknown or ambiguous option %s (see pmpi-logp %s --help)\n", cmd->name, arg,
                    cmd->name);
            return -1;
        }
        if (opt == OPT_HELP) {
            usage_cmd(stdout, cmd);
            return 1;
        }
        if (!(cmd->allowed & OPT(opt))) {
            fprintf(stderr, "pmpi-logp %s: --%s does not apply here (see pmpi-logp %s --help)\n", cmd->name,
                    logp_cli_options[idx].name, cmd->name);
            return -1;
        }
        if (opt == OPT_DOT)
            c->dot = 1;
        else if (opt == OPT_INTRA_NODE)
            c->intra_node = 1;
        else if (parse_value(c, cmd, opt, optarg) != LOGP_OK) {
            fprintf(stderr, "pmpi-logp %s: bad value for --%s: '%s'\n", cmd->name, logp_cli_options[idx].name, optarg);
            return -1;
        }
    }
    if (cmd->positional >= 0 ? argc - optind != cmd->positional : argc - optind > 1) {
        if (cmd->positional > 0)
            fprintf(stderr, "pmpi-logp %s: expected %s\n", cmd->name, cmd->synopsis);
        else
            fprintf(stderr, "pmpi-logp %s: unexpected argument '%s'\n", cmd->name, argv[optind]);
        return -1;
    }
    if (optind < argc)
        c->file = argv[optind];
    if (make_layout(c, c->P_given) != 0)
        return -1;
    /* a cluster of several nodes as the shim's default (config.h): shared
     * between nodes; --P alone is the seeds' LogP machine, and one node LogGP */
    if (c->shared < 0)
        c->shared = c->topo.P > 0 && c->nodes > 1;
    if (c->root < 0 || c->root >= c->P || c->rank >= c->P) {
        fprintf(stderr, "pmpi-logp %s: --root and --rank must be in 0..P-1\n", cmd->name);
        return -1;
    }
    if (c->coll == LOGP_COLL_ALLREDUCE && c->root != 0) { /* sched.c runs it from rank 0, whatever the root */
        fprintf(stderr, "pmpi-logp %s: --root does not apply to an allreduce (every rank gets the result)\n", cmd->name);
        return -1;
    }
    return 0;
}

typedef struct {
    logp_algo_t algo;
    double t;
    logp_algo_t runs; /* what the shim runs for it here (logp_select_resolve): algo, or another */
} logp_cli_pred_t;

static int cmp_pred(const void *a, const void *b)
{
    double x = ((const logp_cli_pred_t *)a)->t, y = ((const logp_cli_pred_t *)b)->t;
    return (x > y) - (x < y);
}

/* predict: every price, as auto sees them; a collective option keeps its line (the table's price) */
/* Nonzero if `other`, priced t_other, may be as fast as the pick, priced
 * t_pick (logp_confirm_within_error with the registry's bands); not for a
 * twin (priced as the pick: the same schedule under another name, as the
 * trials skip it, confirm.h) unless it is native. */
static int cli_within_error(const logp_cli_t *c, logp_algo_t pick, double t_pick, logp_algo_t other, double t_other)
{
    if (other != LOGP_ALGO_NATIVE && pick != LOGP_ALGO_NATIVE && logp_confirm_twins(t_other, t_pick))
        return 0;
    return logp_confirm_within_error(t_pick, logp_algo_error_band(pick, c->shared), t_other,
                                     logp_algo_error_band(other, c->shared));
}

static int cmd_predict(const logp_cli_t *c)
{
    printf("P=%d, %zu B, ", c->P, c->bytes);
    logp_cli_print_model(c);
    printf("(+-N%%: how far the model's price may be off on a network = %s: the 90th percentile of its error over "
           "the fidelity suite's drawn SMPI platforms, docs/results/smpi-fidelity; a real machine may differ)\n",
           c->shared ? "shared" : "loggp");
    for (int coll = 0; coll < LOGP_COLL_COUNT; coll++) {
        if (c->coll_given && (logp_coll_t)coll != c->coll)
            continue;
        logp_cli_pred_t pred[LOGP_ALGO_COUNT];
        double t[LOGP_ALGO_COUNT];
        int n = 0;
        logp_topo_t topo = logp_cli_topo(c);
        logp_select_query_t q = {(logp_coll_t)coll, c->bytes, 1, 0, c->k, &topo, c->native, NULL, 0, 1};
        int exact = logp_select_prices(&q, t);
        for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
            logp_algo_t runs = a == LOGP_ALGO_AUTO || a == LOGP_ALGO_NATIVE ? (logp_algo_t)a
                                                                            : logp_select_resolve((logp_algo_t)a, &q);
            if (t[a] < 0.0 && logp_algo_supports((logp_algo_t)a, (logp_coll_t)coll) &&
                (logp_sched_family((logp_algo_t)a)->flags & LOGP_FAMILY_FORCED_ONLY))
                t[a] = logp_select_predict((logp_algo_t)a, &q); /* not auto's: shown, marked */
            if (t[a] < 0.0 && logp_algo_supports((logp_algo_t)a, (logp_coll_t)coll) && runs != (logp_algo_t)a)
                t[a] = logp_select_predict(runs, &q); /* forced, it runs another here: that one's price, marked */
            if (t[a] >= 0.0 && (!c->coll_given || (logp_algo_t)a == c->algo))
                pred[n++] = (logp_cli_pred_t){(logp_algo_t)a, t[a], runs};
        }
        if (!exact)
            printf("(%s: estimates, as auto makes them: simulating every candidate here costs more than %ld "
                   "operations%s)\n", logp_coll_name((logp_coll_t)coll), LOGP_PLAN_BUDGET,
                   c->shared ? ", a shared network's counted twice" : "");
        qsort(pred, (size_t)n, sizeof pred[0], cmp_pred);
        printf("%s%s:\n", logp_coll_name((logp_coll_t)coll), logp_coll_exchanges((logp_coll_t)coll) ? " (bytes per block)" : "");
        int best = -1; /* auto's pick among these: the cheapest candidate (native first on a tie) */
        for (int i = 0; i < n && best < 0; i++)
            if (!(logp_sched_family(pred[i].algo)->flags & LOGP_FAMILY_FORCED_ONLY) && pred[i].runs == pred[i].algo)
                best = i;
        for (int i = 0; i < n; i++) {
            double band = logp_algo_error_band(pred[i].algo, c->shared);
            printf("  %-21s %12.4f us", logp_algo_name(pred[i].algo), pred[i].t * 1e6);
            if (band >= 0.0)
                printf(" +-%.1f%%", band * 100.0);

            if (pred[i].algo == LOGP_ALGO_NATIVE)
                printf("   (model of %s's default: %s)",
                       c->native == LOGP_NATIVE_OPENMPI ? "Open MPI 4.1" : c->native == LOGP_NATIVE_SMPI ? "SMPI 3.32 (mpich)" : "MPICH 4.0.2",
                       logp_native_algo(c->native, (logp_coll_t)coll, c->P, c->bytes, 1));
            if (logp_sched_family(pred[i].algo)->flags & LOGP_FAMILY_FORCED_ONLY)
                printf("   (not a candidate of auto: its model does not hold yet)");
            if (pred[i].runs != pred[i].algo)
                printf("   (runs %s here%s)", logp_algo_name(pred[i].runs),
                       pred[i].algo == LOGP_ALGO_NODE_AGGREGATE ? ": one node, nothing to aggregate" : "");
            if (pred[i].algo == LOGP_ALGO_CHAIN)
                printf("   (k=%d)", c->k);
            if (pred[i].algo == LOGP_ALGO_CHAIN_OPT)
                printf("   (k=%d; seed sqrt(a(P-1)/b)=%.2f)", logp_chain_best_k(&c->p, c->bytes, c->P),
                       logp_chain_k_continuous(&c->p, c->bytes, c->P));
            if (best >= 0 && i != best && !(logp_sched_family(pred[i].algo)->flags & LOGP_FAMILY_FORCED_ONLY) &&
                pred[i].runs == pred[i].algo &&
                cli_within_error(c, pred[best].algo, pred[best].t, pred[i].algo, pred[i].t))
                printf("   (within the model's error of %s)", logp_algo_name(pred[best].algo));
            printf("\n");
        }
    }
    if (c->coll_given)
        return 0; /* the seeds' closed forms: with the full table only */
    double exact = logp_chain_time_adaptive_exact(&c->p, c->bytes, c->P);
    char ex[32] = "n/a (P too large)";
    if (exact >= 0.0)
        snprintf(ex, sizeof ex, "%.4f us", exact * 1e6);
    printf("reduce closed forms (seed 001): chain k=%d %.4f us, optimal k %.4f us, adaptive %.4f us "
           "(the seed's a + k b; exact k a = %s: each longer chain arrives a, not b, later)\n", c->k,
           logp_chain_time_short_first(&c->p, c->bytes, c->P, c->k < c->P ? c->k : (c->P > 1 ? c->P - 1 : 1)) * 1e6,
           logp_chain_time_opt(&c->p, c->bytes, c->P) * 1e6, logp_chain_time_adaptive(&c->p, c->bytes, c->P) * 1e6, ex);
    printf("alltoall closed forms (seed 004, one-word blocks): ring (n-1) n [max(2o,g) + L - g] %.4f us, "
           "butterfly 2 log2(n) [max(2o,g) + L - g] %.4f us (as printed; the rows above run each rank's phases)\n",
           logp_alltoall_seed_ring(&c->p, c->P) * 1e6, logp_alltoall_seed_butterfly(&c->p, c->P) * 1e6);
    return 0;
}

/* decide: what auto picks for every collective, and how long the decision
 * takes on this machine (the shim's first call of a size class does the
 * same work: price the candidates, build the winner's schedule); a
 * collective option: that one, ALGO configured as a tuning file sets it. */
static int cmd_decide(const logp_cli_t *c)
{
    logp_topo_t topo = logp_cli_topo(c);
    for (int coll = 0; coll < LOGP_COLL_COUNT; coll++) {
        if (c->coll_given && (logp_coll_t)coll != c->coll)
            continue;
        logp_select_query_t q = {(logp_coll_t)coll, c->bytes, 1, 0, c->k, &topo, c->native, NULL, 0, 1};
        logp_algo_t a;
        logp_sched_t s;
        double t, ms;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        double price[LOGP_ALGO_COUNT]; /* auto's prices (q has no corrections) */
        int priced = 0;
        logp_status_t rc =
            logp_select_decide_priced(c->coll_given ? c->algo : LOGP_ALGO_AUTO, &q, &a, &s, &t, price, &priced);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
        if (rc != LOGP_OK) {
            fprintf(stderr, "pmpi-logp: cannot decide %s\n", logp_coll_name((logp_coll_t)coll));
            return 1;
        }
        /* the candidates the model cannot tell from the pick (their prices
         * within the error bands: algo.def); auto's trials measure them */
        char close[256] = "";
        size_t len = 0;
        for (int x = 0; x < LOGP_ALGO_COUNT && priced && len < sizeof close; x++)
            if (x != (int)a && price[x] >= 0.0 && t >= 0.0 && cli_within_error(c, a, t, (logp_algo_t)x, price[x]))
                len += (size_t)snprintf(close + len, sizeof close - len, "%s%s", len ? "," : " within_error=",
                                        logp_algo_name((logp_algo_t)x));
        /* alltoallv: the decision is the agreed class's; whether the shim's
         * ranks vote at all is the gate's answer, settled once per
         * communicator (shim/decide.c), and what that costs here */
        char vote[96] = "";
        if (coll == LOGP_COLL_ALLTOALLV && c->P > 1) {
            clock_gettime(CLOCK_MONOTONIC, &t0);
            double price_vote = logp_native_predict(c->native, LOGP_COLL_ALLREDUCE, 2 * sizeof(unsigned long long), 1,
                                                    &topo, 0);
            logp_select_query_t smallest = q;
            smallest.bytes = logp_learn_class_mid(0); /* the shim's gate asks at the smallest class */
            int pays = price_vote >= 0.0 && logp_select_agreement_pays(&smallest, price_vote);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            snprintf(vote, sizeof vote, " vote=%s vote_us=%.4f vote_gate_ms=%.3f", pays ? "pays" : "no", price_vote * 1e6,
                     (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6);
        }
        printf("decide coll=%s P=%d bytes=%zu -> %s predicted_us=%.4f%s decision_ms=%.3f%s\n",
               logp_coll_name((logp_coll_t)coll), c->P, c->bytes, logp_algo_name(a), t * 1e6, close, ms, vote);
        logp_sched_free(&s);
    }
    return 0;
}

static int cmd_sum_plan(const logp_cli_t *c)
{
    long L = c->iL, o = c->io, g = c->ig;
    if (L < 0 || o < 0 || g < 1) {
        fprintf(stderr, "pmpi-logp sum-plan: --L, --o, --g are needed, integers (time steps; one addition = 1; g >= 1)\n");
        return 2;
    }
    logp_sum_node_t *nodes = malloc(sizeof(*nodes) * (size_t)c->P);
    long tb, ns;
    double time;
    if (nodes == NULL || logp_tree_sum_plan(c->P, c->N, L, o, g, nodes, &tb, &ns, &time) != LOGP_OK) {
        free(nodes);
        return 1;
    }
    printf("S*(%d; %ld, %ld, %ld) = T*(%d; %ld, %ld, %ld), %ld operands\n", c->P, L, o, g, c->P, L + 1, o, g, c->N);
    printf("%4s %6s %4s %6s %6s %6s\n", "node", "T_i", "K_i", "A_i", "B_i", "N_i");
    for (int v = 0; v < c->P; v++)
        printf("%4d %6ld %4d %6ld %6ld %6ld\n", v, nodes[v].T, nodes[v].K, nodes[v].A, nodes[v].B,
               nodes[v].A + nodes[v].B);
    printf("T_B = %ld, N_S = sum A_i = %ld (theorem 5), completion T_B + (N - N_S)/P = %g (theorem 6)\n", tb, ns,
           time);
    free(nodes);
    return 0;
}

/* pmpi-logp check FILE [--P N] [--name NAME] [--intra-node] */
static int cmd_check(const logp_cli_t *c)
{
    logp_comm_facts_t facts = {c->P_given ? c->P : 64, c->name ? c->name : "", c->intra_node};
    logp_config_t cfg;
    static logp_config_diag_t diag; /* 8 KiB of messages: not on the stack */
    logp_status_t rc = logp_config_lint(&cfg, c->file, &diag);
    fputs(diag.text, stderr); /* every error and warning, each with file:line */
    if (diag.dropped)
        fprintf(stderr, "%s: %d more messages not shown\n", c->file, diag.dropped);
    if (rc != LOGP_OK) {
        fprintf(stderr, "%s: %d error%s, %d warning%s: the shim would ignore this file\n", c->file, diag.errors,
                diag.errors == 1 ? "" : "s", diag.warnings, diag.warnings == 1 ? "" : "s");
        return 1;
    }
    logp_resolved_t r;
    logp_config_resolve(&cfg, &facts, &r);
    printf("%s: valid, %d sections, %d warning%s\n", c->file, cfg.nsections, diag.warnings,
           diag.warnings == 1 ? "" : "s");
    printf("communicator: P=%d name '%s' %s\nmatched: %s\n", facts.size, facts.name,
           facts.intra_node ? "intra-node" : "inter-node", r.matched);
    printf("L=%gus o=%gus g=%gus G=%gns/B gamma=%gns/B copy=%gns/B fresh=%gns/B chain_k=%d network=%s\n",
           r.params.L * 1e6, r.params.o * 1e6, r.params.g * 1e6, r.params.G * 1e9, r.params.gamma * 1e9,
           r.params.copy * 1e9, r.params.fresh * 1e9, r.chain_k,
           r.shared ? "shared" : "loggp");
    printf("%10s  %-30s %-30s %-30s %-30s %s\n", "bytes", "bcast", "reduce (commutative)", "alltoall (per block)",
           "allreduce (commutative)", "alltoallv (mean block)");
    for (size_t m = 8; m <= (size_t)1 << 20; m *= 8) {
        printf("%10zu ", m);
        for (int k = 0; k < LOGP_COLL_COUNT; k++) {
            logp_topo_t topo = logp_topo_uniform(facts.size, &r.params);
            topo.shared = r.shared;
            logp_select_query_t q = {(logp_coll_t)k, m, 1, 0, r.chain_k, &topo, c->native, &r.rules.learn, 0, 0};
            double t;
            logp_algo_t a, conf = r.algo[k], rule = (logp_algo_t)r.rules.algo[k][logp_learn_class(m)][1];
            int ruled = conf == LOGP_ALGO_AUTO && rule != LOGP_ALGO_COUNT && rule != LOGP_ALGO_AUTO;
            logp_select_decide(ruled ? rule : conf, &q, &a, NULL, &t);
            char cell[64];
            snprintf(cell, sizeof cell, "%s (%.3gus)%s", logp_algo_name(a), t * 1e6, ruled ? " rule" : "");
            printf(k + 1 < LOGP_COLL_COUNT ? " %-30s" : " %s", cell);
        }
        printf("\n");
    }
    logp_config_free(&cfg);
    return 0;
}

/* pmpi-logp algorithms: the registry, one line each. */
static int cmd_algorithms(const logp_cli_t *c)
{
    if (c->file) { /* one collective's, names only */
        logp_coll_t coll = logp_coll_lookup(c->file);
        if (coll == LOGP_COLL_COUNT) {
            fprintf(stderr, "pmpi-logp algorithms: %s: not a collective (bcast, reduce, alltoall, allreduce, "
                            "alltoallv)\n", c->file);
            return 1;
        }
        for (int a = 0; a < LOGP_ALGO_COUNT; a++)
            if (a != LOGP_ALGO_NATIVE && a != LOGP_ALGO_AUTO && logp_algo_supports((logp_algo_t)a, coll))
                printf("%s\n", logp_algo_name((logp_algo_t)a));
        return 0;
    }
    printf("%-22s %-31s %s\n", "algorithm", "collectives", "what it is"); /* 31: a row of all four */
    for (int a = 0; a < LOGP_ALGO_COUNT; a++) {
        char colls[64] = "";
        for (int k = 0; k < LOGP_COLL_COUNT; k++)
            if (logp_algo_supports((logp_algo_t)a, (logp_coll_t)k)) {
                if (colls[0])
                    strcat(colls, ",");
                strcat(colls, logp_coll_name((logp_coll_t)k));
            }
        printf("%-22s %-31s %s\n", logp_algo_name((logp_algo_t)a), colls, logp_algo_describe((logp_algo_t)a));
    }
    return 0;
}

/* pmpi-logp show-learned FILE: every section's rules (size classes per
 * collective), the candidates a rule not settled still has to try
 * (explore), and corrections, as the shim reads them. */
static int cmd_show_learned(const logp_cli_t *c)
{
    logp_config_t cfg;
    char err[640];
    if (logp_config_load(&cfg, c->file, err, sizeof err) != LOGP_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int shown = 0;
    for (int i = 0; i < cfg.nsections; i++) {
        const logp_section_t *s = &cfg.sections[i];
        if (s->rules == NULL)
            continue;
        char head[160];
        if (s->kind == LOGP_SECTION_SIZE)
            snprintf(head, sizeof head, "[size %d-%d]", s->lo, s->hi);
        else if (s->kind == LOGP_SECTION_NAME)
            snprintf(head, sizeof head, "[name %s]", s->name);
        else
            snprintf(head, sizeof head, "[%s]", s->kind == LOGP_SECTION_DEFAULT ? "default"
                                                : s->kind == LOGP_SECTION_INTRA_NODE ? "intra-node" : "inter-node");
        if (s->set & LOGP_KEY_BASIS) /* the prices its corrections were measured against */
            snprintf(head + strlen(head), sizeof head - strlen(head), " basis %016llx", (unsigned long long)s->basis);
        printf("%s (line %d)\n  %-10s %-23s %-22s %-22s %s\n", head, s->line, "coll", "bytes", "rule",
               "rule (non-commutative)", "corrections (measured / predicted)");
        for (int k = 0; k < LOGP_COLL_COUNT; k++)
            for (int sc = 0; sc < LOGP_LEARN_CLASSES; sc++) {
                logp_algo_t a1 = (logp_algo_t)s->rules->algo[k][sc][1], a0 = (logp_algo_t)s->rules->algo[k][sc][0];
                char corr[512] = "";
                for (int a = 0; a < LOGP_ALGO_COUNT; a++)
                    if (s->rules->learn.ratio[k][a][sc] > 0.0f)
                        snprintf(corr + strlen(corr), sizeof corr - strlen(corr), "%s%s %.3g", corr[0] ? ", " : "",
                                 logp_algo_name((logp_algo_t)a), s->rules->learn.ratio[k][a][sc]);
                for (int m = 1; m >= 0; m--) { /* a rule not settled: what the next run tries against it */
                    for (int a = 0; a < LOGP_ALGO_COUNT; a++)
                        if (s->rules->explore[k][sc][m] >> a & 1)
                            snprintf(corr + strlen(corr), sizeof corr - strlen(corr), "%s%s%s", corr[0] ? ", " : "",
                                     logp_coll_combines((logp_coll_t)k) && !m ? "non-commutative: to try " : "to try ",
                                     logp_algo_name((logp_algo_t)a));
                    if (s->rules->explore[k][sc][m] && s->rules->after[k][sc][m])
                        snprintf(corr + strlen(corr), sizeof corr - strlen(corr), " (after %lu calls)",
                                 (unsigned long)s->rules->after[k][sc][m]);
                }
                if (a1 == LOGP_ALGO_COUNT && a0 == LOGP_ALGO_COUNT && !corr[0])
                    continue;
                char bytes[48];
                snprintf(bytes, sizeof bytes, "%zu-%zu", (size_t)1 << sc, ((size_t)2 << sc) - 1);
                printf("  %-10s %-23s %-22s %-22s %s\n", logp_coll_name((logp_coll_t)k), bytes,
                       a1 == LOGP_ALGO_COUNT ? "-" : logp_algo_name(a1),
                       !logp_coll_combines((logp_coll_t)k) ? "" : a0 == LOGP_ALGO_COUNT ? "-" : logp_algo_name(a0),
                       corr);
            }
        shown++;
    }
    if (!shown)
        printf("%s: no rule or correction\n", c->file);
    logp_config_free(&cfg);
    return 0;
}

int main(int argc, char **argv)
{
    static logp_cli_t c; /* large (speeds): not on the stack */
    static int (*const run[])(const logp_cli_t *) = {logp_cli_tree,  cmd_predict,    cmd_decide,      cmd_sum_plan,
                                                     cmd_check, cmd_algorithms, cmd_show_learned};
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("pmpi-logp (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
        return 0;
    }
    for (int i = 0; i < LOGP_CLI_NCMDS; i++) {
        if (strcmp(argv[1], logp_cli_cmds[i].name) != 0)
            continue;
        int rc = parse_args(argc - 1, argv + 1, &logp_cli_cmds[i], &c);
        return rc < 0 ? 2 : rc > 0 ? 0 : run[i](&c);
    }
    fprintf(stderr, "pmpi-logp: unknown command '%s' (commands: tree predict decide sum-plan check algorithms "
                    "show-learned; "
                    "see pmpi-logp --help)\n", argv[1]);
    return 2;
}
