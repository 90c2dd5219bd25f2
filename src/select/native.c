/* Models of the MPI libraries' default collective algorithms (see
 * native.h).  A decision picks an algorithm kind; a kind is priced by one
 * of our schedules of the same shape or by a closed form in the cost
 * convention of params.h (one m-byte message end to end: p2p(m) = 2o + L +
 * inj(m); consecutive sends: gap(m)).  A log-step algorithm of total
 * volume V costs ceil(log2 P) (2o + L) + V G. */
#include "native.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../model/alltoall_pattern.h"
#include "../model/sched.h"
#include "../model/plan.h"

#define LOGP_NATIVE_KINDS(X)                                                                                           \
    X(NONE, "none")                                                                                                    \
    X(BINOMIAL, "binomial")                                                                                            \
    X(LINEAR, "linear")                                                                                                \
    X(BINARY, "binary-tree")                                                                                           \
    X(SPLIT_BINARY, "split-binary-tree")                                                                               \
    X(IN_ORDER_BINARY, "in-order-binary-tree")                                                                         \
    X(KNOMIAL, "knomial")                                                                                              \
    X(CHAIN, "chain")                                                                                                  \
    X(PIPELINE, "pipeline")                                                                                            \
    X(SCATTER_RD, "scatter-allgather")                                                                                 \
    X(SCATTER_RING, "scatter-allgather-ring")                                                                          \
    X(RSAG, "reduce-scatter-gather")                                                                                   \
    X(RSAG_ALL, "reduce-scatter-allgather")                                                                            \
    X(BRUCK, "bruck")                                                                                                  \
    X(ALL_AT_ONCE, "linear")                                                                                           \
    X(LINEAR_SYNC, "linear-sync")                                                                                      \
    X(SCATTER_DEST, "scatter-dest")                                                                                    \
    X(SCATTERED, "scattered")                                                                                          \
    X(PAIRWISE, "pairwise")                                                                                            \
    X(TWO_PROC, "two-proc")                                                                                            \
    X(RECURSIVE_DOUBLING, "recursive-doubling")                                                                        \
    X(RING, "ring")                                                                                                    \
    X(REDUCE_BCAST, "reduce-bcast")

typedef enum logp_native_kind {
#define LOGP_NATIVE_KIND_ENUM(id, name) LOGP_NK_##id,
    LOGP_NATIVE_KINDS(LOGP_NATIVE_KIND_ENUM)
#undef LOGP_NATIVE_KIND_ENUM
} logp_native_kind_t;

static const char *const logp_native_kind_names[] = {
#define LOGP_NATIVE_KIND_NAME(id, name) name,
    LOGP_NATIVE_KINDS(LOGP_NATIVE_KIND_NAME)
#undef LOGP_NATIVE_KIND_NAME
};

/* Open MPI's k-nomial broadcast radix and chain fan-out when the fixed
 * decision passes 0 for them (coll_tuned defaults). */
#define LOGP_OMPI_KNOMIAL_RADIX 4
#define LOGP_OMPI_CHAIN_FANOUT 4

logp_native_lib_t logp_native_lib_default(void)
{
#if defined(LOGP_BUILD_OPENMPI)
    return LOGP_NATIVE_OPENMPI;
#elif defined(LOGP_BUILD_SMPI)
    return LOGP_NATIVE_SMPI;
#else
    return LOGP_NATIVE_MPICH;
#endif
}

const char *logp_native_lib_name(logp_native_lib_t lib)
{
    return lib == LOGP_NATIVE_OPENMPI ? "openmpi" : lib == LOGP_NATIVE_SMPI ? "smpi" : "mpich";
}

logp_native_lib_t logp_native_lib_lookup(const char *name)
{
    if (name == NULL)
        return LOGP_NATIVE_LIB_COUNT;
    if (strcmp(name, "mpich") == 0)
        return LOGP_NATIVE_MPICH;
    if (strcmp(name, "openmpi") == 0 || strcmp(name, "open-mpi") == 0 || strcmp(name, "ompi") == 0)
        return LOGP_NATIVE_OPENMPI;
    if (strcmp(name, "smpi") == 0)
        return LOGP_NATIVE_SMPI;
    return LOGP_NATIVE_LIB_COUNT;
}

static int logp_is_pow2(int P)
{
    return P > 0 && (P & (P - 1)) == 0;
}

static logp_native_kind_t logp_native_mpich(logp_coll_t coll, int P, size_t bytes, int commutative)
{
    switch (coll) {
    case LOGP_COLL_BCAST:
        if (bytes < 12288 || P < 8)
            return LOGP_NK_BINOMIAL;
        return bytes < 524288 && logp_is_pow2(P) ? LOGP_NK_SCATTER_RD : LOGP_NK_SCATTER_RING;
    case LOGP_COLL_REDUCE:
        return bytes < 2048 || !commutative ? LOGP_NK_BINOMIAL : LOGP_NK_RSAG;
    case LOGP_COLL_ALLTOALL:
        if (bytes < 256 && P >= 8)
            return LOGP_NK_BRUCK;
        return bytes < 32768 ? LOGP_NK_ALL_AT_ONCE : LOGP_NK_PAIRWISE;
    case LOGP_COLL_ALLREDUCE: /* MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE 2048; Rabenseifner's needs a commuting operator */
        return bytes <= 2048 || !commutative ? LOGP_NK_RECURSIVE_DOUBLING : LOGP_NK_RSAG_ALL;
    case LOGP_COLL_ALLTOALLV: /* "scattered" at every size (MPIR_CVAR_ALLTOALL_THROTTLE 32 destinations) */
        return LOGP_NK_SCATTERED;
    default:
        return LOGP_NK_NONE;
    }
}

/* One row of an Open MPI decision table: the first row with P < pmax and
 * bytes < smax decides.  Rows of one communicator-size band share pmax
 * and end with smax = SIZE_MAX. */
typedef struct logp_ompi_rule {
    int pmax;
    size_t smax;
    logp_native_kind_t kind;
} logp_ompi_rule_t;

#define LOGP_ANY SIZE_MAX
#define LOGP_ALL INT_MAX

/* coll/tuned bcast: 1 linear, 2 chain, 3 pipeline, 4 split binary,
 * 5 binary, 6 binomial, 7 knomial, 8 scatter + allgather. */
static const logp_ompi_rule_t logp_ompi_bcast[] = {
    {4, 32, LOGP_NK_PIPELINE},         {4, 256, LOGP_NK_BINARY},       {4, 512, LOGP_NK_PIPELINE},
    {4, 1024, LOGP_NK_KNOMIAL},        {4, 32768, LOGP_NK_LINEAR},     {4, 131072, LOGP_NK_BINARY},
    {4, 262144, LOGP_NK_CHAIN},        {4, 524288, LOGP_NK_LINEAR},    {4, 1048576, LOGP_NK_BINOMIAL},
    {4, LOGP_ANY, LOGP_NK_BINARY},     {8, 64, LOGP_NK_BINARY},        {8, 128, LOGP_NK_BINOMIAL},
    {8, 2048, LOGP_NK_BINARY},         {8, 8192, LOGP_NK_BINOMIAL},    {8, 1048576, LOGP_NK_LINEAR},
    {8, LOGP_ANY, LOGP_NK_CHAIN},      {16, 8, LOGP_NK_KNOMIAL},       {16, 64, LOGP_NK_BINARY},
    {16, 4096, LOGP_NK_KNOMIAL},       {16, 16384, LOGP_NK_BINARY},    {16, 32768, LOGP_NK_BINOMIAL},
    {16, LOGP_ANY, LOGP_NK_LINEAR},    {32, 4096, LOGP_NK_KNOMIAL},    {32, 1048576, LOGP_NK_BINOMIAL},
    {32, LOGP_ANY, LOGP_NK_SCATTER_RD}, {64, 2048, LOGP_NK_BINOMIAL},  {64, LOGP_ANY, LOGP_NK_KNOMIAL},
    {128, LOGP_ANY, LOGP_NK_KNOMIAL},  {256, 2, LOGP_NK_BINOMIAL},     {256, 16384, LOGP_NK_BINARY},
    {256, 32768, LOGP_NK_LINEAR},      {256, 65536, LOGP_NK_BINARY},   {256, LOGP_ANY, LOGP_NK_KNOMIAL},
    {1024, 16384, LOGP_NK_KNOMIAL},    {1024, 32768, LOGP_NK_SPLIT_BINARY}, {1024, LOGP_ANY, LOGP_NK_KNOMIAL},
    {2048, 524288, LOGP_NK_KNOMIAL},   {2048, LOGP_ANY, LOGP_NK_SCATTER_RD}, {4096, 262144, LOGP_NK_KNOMIAL},
    {4096, LOGP_ANY, LOGP_NK_SCATTER_RD}, {LOGP_ALL, 8192, LOGP_NK_KNOMIAL}, {LOGP_ALL, 16384, LOGP_NK_BINARY},
    {LOGP_ALL, 262144, LOGP_NK_KNOMIAL}, {LOGP_ALL, LOGP_ANY, LOGP_NK_SCATTER_RD},
};

/* coll/tuned reduce, commutative: 1 linear, 2 chain, 3 pipeline, 4 binary,
 * 5 binomial, 6 in-order binary, 7 Rabenseifner. */
static const logp_ompi_rule_t logp_ompi_reduce[] = {
    {4, 8, LOGP_NK_RSAG},              {4, 16, LOGP_NK_BINARY},        {4, 32, LOGP_NK_PIPELINE},
    {4, 262144, LOGP_NK_LINEAR},       {4, 524288, LOGP_NK_PIPELINE},  {4, 1048576, LOGP_NK_CHAIN},
    {4, LOGP_ANY, LOGP_NK_PIPELINE},   {8, 4096, LOGP_NK_BINARY},      {8, 65536, LOGP_NK_CHAIN},
    {8, 262144, LOGP_NK_BINOMIAL},     {8, 524288, LOGP_NK_LINEAR},    {8, 1048576, LOGP_NK_BINOMIAL},
    {8, LOGP_ANY, LOGP_NK_LINEAR},     {16, 8192, LOGP_NK_BINARY},     {16, LOGP_ANY, LOGP_NK_BINOMIAL},
    {32, 4096, LOGP_NK_BINARY},        {32, LOGP_ANY, LOGP_NK_BINOMIAL}, {256, LOGP_ANY, LOGP_NK_BINOMIAL},
    {512, 8192, LOGP_NK_BINOMIAL},     {512, 16384, LOGP_NK_IN_ORDER_BINARY}, {512, LOGP_ANY, LOGP_NK_BINOMIAL},
    {2048, LOGP_ANY, LOGP_NK_BINOMIAL}, {4096, 512, LOGP_NK_BINOMIAL}, {4096, 1024, LOGP_NK_IN_ORDER_BINARY},
    {4096, 8192, LOGP_NK_BINOMIAL},    {4096, 16384, LOGP_NK_IN_ORDER_BINARY}, {4096, LOGP_ANY, LOGP_NK_BINOMIAL},
    {LOGP_ALL, 16, LOGP_NK_BINOMIAL},  {LOGP_ALL, 32, LOGP_NK_IN_ORDER_BINARY}, {LOGP_ALL, 1024, LOGP_NK_BINOMIAL},
    {LOGP_ALL, 2048, LOGP_NK_IN_ORDER_BINARY}, {LOGP_ALL, 8192, LOGP_NK_BINOMIAL},
    {LOGP_ALL, 16384, LOGP_NK_IN_ORDER_BINARY}, {LOGP_ALL, LOGP_ANY, LOGP_NK_BINOMIAL},
};

/* coll/tuned reduce, non-commutative: only linear and in-order binary. */
static const logp_ompi_rule_t logp_ompi_reduce_noncomm[] = {
    {4, 8, LOGP_NK_IN_ORDER_BINARY},   {4, LOGP_ANY, LOGP_NK_LINEAR},  {8, LOGP_ANY, LOGP_NK_LINEAR},
    {16, 1024, LOGP_NK_IN_ORDER_BINARY}, {16, 8192, LOGP_NK_LINEAR},   {16, 16384, LOGP_NK_IN_ORDER_BINARY},
    {16, 262144, LOGP_NK_LINEAR},      {16, LOGP_ANY, LOGP_NK_IN_ORDER_BINARY},
    {128, LOGP_ANY, LOGP_NK_IN_ORDER_BINARY}, {256, 512, LOGP_NK_IN_ORDER_BINARY}, {256, 1024, LOGP_NK_LINEAR},
    {256, LOGP_ANY, LOGP_NK_IN_ORDER_BINARY}, {LOGP_ALL, LOGP_ANY, LOGP_NK_IN_ORDER_BINARY},
};

/* coll/tuned alltoall (bytes of one block): 1 linear (all at once),
 * 2 pairwise, 3 modified Bruck, 4 linear with a request window, 5 two
 * processes.  The first band is P = 2 exactly. */
static const logp_ompi_rule_t logp_ompi_alltoall[] = {
    {3, 2, LOGP_NK_PAIRWISE},          {3, 4, LOGP_NK_TWO_PROC},       {3, 16, LOGP_NK_PAIRWISE},
    {3, 64, LOGP_NK_TWO_PROC},         {3, 256, LOGP_NK_PAIRWISE},     {3, 4096, LOGP_NK_TWO_PROC},
    {3, 32768, LOGP_NK_PAIRWISE},      {3, 262144, LOGP_NK_LINEAR_SYNC}, {3, 1048576, LOGP_NK_TWO_PROC},
    {3, LOGP_ANY, LOGP_NK_PAIRWISE},   {8, 8192, LOGP_NK_LINEAR_SYNC}, {8, 16384, LOGP_NK_ALL_AT_ONCE},
    {8, 65536, LOGP_NK_LINEAR_SYNC},   {8, 524288, LOGP_NK_ALL_AT_ONCE}, {8, 1048576, LOGP_NK_PAIRWISE},
    {8, LOGP_ANY, LOGP_NK_ALL_AT_ONCE}, {16, 262144, LOGP_NK_LINEAR_SYNC}, {16, LOGP_ANY, LOGP_NK_ALL_AT_ONCE},
    {32, 4, LOGP_NK_LINEAR_SYNC},      {32, 512, LOGP_NK_BRUCK},       {32, 8192, LOGP_NK_LINEAR_SYNC},
    {32, 32768, LOGP_NK_ALL_AT_ONCE},  {32, 262144, LOGP_NK_LINEAR_SYNC}, {32, 524288, LOGP_NK_ALL_AT_ONCE},
    {32, LOGP_ANY, LOGP_NK_LINEAR_SYNC}, {64, 512, LOGP_NK_BRUCK},     {64, 524288, LOGP_NK_ALL_AT_ONCE},
    {64, LOGP_ANY, LOGP_NK_LINEAR_SYNC}, {128, 1024, LOGP_NK_BRUCK},   {128, 2048, LOGP_NK_ALL_AT_ONCE},
    {128, 4096, LOGP_NK_LINEAR_SYNC},  {128, 262144, LOGP_NK_ALL_AT_ONCE}, {128, LOGP_ANY, LOGP_NK_PAIRWISE},
    {256, 1024, LOGP_NK_BRUCK},        {256, 2048, LOGP_NK_LINEAR_SYNC}, {256, 262144, LOGP_NK_ALL_AT_ONCE},
    {256, LOGP_ANY, LOGP_NK_PAIRWISE}, {512, 1024, LOGP_NK_BRUCK},     {512, 8192, LOGP_NK_LINEAR_SYNC},
    {512, 32768, LOGP_NK_ALL_AT_ONCE}, {512, LOGP_ANY, LOGP_NK_PAIRWISE}, {1024, 512, LOGP_NK_BRUCK},
    {1024, 8192, LOGP_NK_LINEAR_SYNC}, {1024, 16384, LOGP_NK_ALL_AT_ONCE}, {1024, 131072, LOGP_NK_LINEAR_SYNC},
    {1024, 262144, LOGP_NK_ALL_AT_ONCE}, {1024, LOGP_ANY, LOGP_NK_PAIRWISE}, {2048, 512, LOGP_NK_BRUCK},
    {2048, 1024, LOGP_NK_LINEAR_SYNC}, {2048, 2048, LOGP_NK_ALL_AT_ONCE}, {2048, 16384, LOGP_NK_LINEAR_SYNC},
    {2048, 262144, LOGP_NK_ALL_AT_ONCE}, {2048, LOGP_ANY, LOGP_NK_LINEAR_SYNC}, {4096, 1024, LOGP_NK_BRUCK},
    {4096, 4096, LOGP_NK_LINEAR_SYNC}, {4096, 8192, LOGP_NK_ALL_AT_ONCE}, {4096, 131072, LOGP_NK_LINEAR_SYNC},
    {4096, LOGP_ANY, LOGP_NK_ALL_AT_ONCE}, {LOGP_ALL, 2048, LOGP_NK_BRUCK}, {LOGP_ALL, 8192, LOGP_NK_LINEAR_SYNC},
    {LOGP_ALL, 16384, LOGP_NK_ALL_AT_ONCE}, {LOGP_ALL, 32768, LOGP_NK_LINEAR_SYNC},
    {LOGP_ALL, 65536, LOGP_NK_ALL_AT_ONCE}, {LOGP_ALL, LOGP_ANY, LOGP_NK_LINEAR_SYNC},
};

#define LOGP_RULES(t) (t), sizeof(t) / sizeof((t)[0])

static logp_native_kind_t logp_ompi_lookup(const logp_ompi_rule_t *rules, size_t n, int P, size_t bytes)
{
    for (size_t i = 0; i < n; i++)
        if (P < rules[i].pmax && bytes < rules[i].smax)
            return rules[i].kind;
    return LOGP_NK_NONE; /* unreachable: every table ends with (INT_MAX, SIZE_MAX) */
}

static logp_native_kind_t logp_native_openmpi(logp_coll_t coll, int P, size_t bytes, int commutative)
{
    switch (coll) {
    case LOGP_COLL_BCAST:
        return logp_ompi_lookup(LOGP_RULES(logp_ompi_bcast), P, bytes);
    case LOGP_COLL_REDUCE:
        return commutative ? logp_ompi_lookup(LOGP_RULES(logp_ompi_reduce), P, bytes)
                           : logp_ompi_lookup(LOGP_RULES(logp_ompi_reduce_noncomm), P, bytes);
    case LOGP_COLL_ALLTOALL:
        return logp_ompi_lookup(LOGP_RULES(logp_ompi_alltoall), P, bytes);
    case LOGP_COLL_ALLREDUCE: /* coll/tuned's fixed rules, in outline: recursive doubling for small
                                 messages, the ring for large commutative ones, else reduce + bcast */
        if (bytes < 10000)
            return LOGP_NK_RECURSIVE_DOUBLING;
        return commutative ? LOGP_NK_RING : LOGP_NK_REDUCE_BCAST;
    case LOGP_COLL_ALLTOALLV: /* basic linear: every request posted at once */
        return LOGP_NK_ALL_AT_ONCE;
    default:
        return LOGP_NK_NONE;
    }
}

static logp_native_kind_t logp_native_kind(logp_native_lib_t lib, logp_coll_t coll, int P, size_t bytes,
                                           int commutative)
{
    if (P <= 1)
        return LOGP_NK_NONE;
    if (lib == LOGP_NATIVE_OPENMPI)
        return logp_native_openmpi(coll, P, bytes, commutative);
    if (lib == LOGP_NATIVE_SMPI && coll == LOGP_COLL_BCAST)
        return LOGP_NK_BINOMIAL; /* SMPI 3.32's mpich selector, measured (docs/results/smpi/results.csv) */
    if (lib == LOGP_NATIVE_SMPI && coll == LOGP_COLL_ALLREDUCE)
        return LOGP_NK_RECURSIVE_DOUBLING; /* the same, with a user operator: rdb at 64 KiB and 1 MiB too
                                              (P = 16: 114.46 and 1687.33 us, our recursive doubling's) */
    if (lib == LOGP_NATIVE_SMPI && coll == LOGP_COLL_ALLTOALLV)
        return LOGP_NK_SCATTER_DEST; /* its mpich selector's alltoallv ("bruck"): windows of 4, a waitall each */
    logp_native_kind_t kind = logp_native_mpich(coll, P, bytes, commutative);
    /* SMPI 3.32's mpich selector runs MVAPICH2's scatter-dest for medium
     * blocks: 4 destinations at a time (the rank itself in the first
     * four), a waitall after each (docs/results/measurements-in-code.md,
     * "SMPI scatter-dest") */
    return lib == LOGP_NATIVE_SMPI && kind == LOGP_NK_ALL_AT_ONCE ? LOGP_NK_SCATTER_DEST : kind;
}

const char *logp_native_algo(logp_native_lib_t lib, logp_coll_t coll, int P, size_t bytes, int commutative)
{
    return logp_native_kind_names[logp_native_kind(lib, coll, P, bytes, commutative)];
}

/* Destinations per window of SMPI's scatter-dest all-to-all. */
#define LOGP_SMPI_SCATTER_DEST_WINDOW 4
/* and of MPICH's scattered alltoallv (MPIR_CVAR_ALLTOALL_THROTTLE) */
#define LOGP_MPICH_SCATTERED_WINDOW 32

/* One of our schedules that has the native algorithm's shape (window: a
 * linear all-to-all's, <= 0 for the model's), sent as the library sends
 * (sends: LOGP_LIB_SENDS_* bits, sched.h). */
static double logp_native_sched(logp_coll_t coll, logp_algo_t algo, size_t bytes, int commutative,
                                const logp_topo_t *topo, int exact, int window, unsigned sends)
{
    logp_sched_t s;
    logp_sched_opts_t opts = {0, 0, window, 0, 0, 0};
    if (logp_plan_build(&s, coll, algo, bytes, topo, &opts) != LOGP_OK)
        return -1.0;
    s.lib_sends = sends;
    double t = logp_plan_price(&s, 0, commutative, exact);
    logp_sched_free(&s);
    return t;
}

/* Levels of a tree in which every rank forwards to up to k children per
 * level of k-nomial growth (k = 2: binomial depth, ceil(log2 P)). */
static double logp_native_levels(int P, int k)
{
    int levels = 0;
    for (long reach = 1; reach < P; reach *= k)
        levels++;
    return (double)levels;
}

/* MPICH's reduce (reduce-scatter-gather) allocates its buffers at every
 * call: a non-root rank mallocs a copy of its send buffer (m, copied in)
 * and a receive buffer (frac m of it received into by the recursive
 * halving), and frees both.  Above glibc's mmap threshold (128 KiB) the
 * two freed buffers pass the trim threshold (twice the largest freed
 * mapping) and go back to the kernel, so every call faults them in again:
 * MPICH 4.0.2, n = 2, 256 KiB - 16 MiB ran 2.9 - 3.1x the closed form
 * below, and 0.6 - 1.3x of it with MALLOC_TRIM_THRESHOLD_ and
 * MALLOC_MMAP_THRESHOLD_ raised, 1.5 - 5x faster than with glibc's
 * defaults (docs/results/cliffs, "MPICH's reduce").  At 128 KiB itself
 * nothing is given back (measured alike).  Local memory: the node's
 * (intra) copy and fresh, as the simulator's copies. */
#define LOGP_NATIVE_FRESH_BYTES ((size_t)131072)

static double logp_native_fresh(logp_native_lib_t lib, logp_coll_t coll, size_t bytes, double frac,
                                const logp_params_t *p)
{
    if (lib != LOGP_NATIVE_MPICH || coll != LOGP_COLL_REDUCE || bytes <= LOGP_NATIVE_FRESH_BYTES)
        return 0.0;
    double m = (double)bytes;
    return m * (p->copy + p->fresh) + frac * m * p->fresh;
}

static double logp_native_price(logp_native_lib_t lib, logp_native_kind_t kind, logp_coll_t coll, size_t bytes,
                                int commutative, const logp_topo_t *topo, int exact, unsigned sends)
{
    int P = topo->P;
    const logp_params_t *p = logp_topo_rep(topo);
    double steps = (double)logp_butterfly_steps(P), m = (double)bytes, frac = (double)(P - 1) / (double)P;
    double hop = 2.0 * p->o + p->L, p2p = logp_params_p2p(p, bytes), gap = logp_params_gap(p, bytes);
    /* what a receiver adds per combined message (reduce only) */
    double red = logp_coll_combines(coll) ? m * p->gamma : 0.0;
    double binary_depth = floor(log2((double)P)); /* heap-shaped binary tree */
    double chain_len = ceil((double)(P - 1) / LOGP_OMPI_CHAIN_FANOUT);
    switch (kind) {
    case LOGP_NK_NONE:
        return 0.0;
    case LOGP_NK_BINOMIAL:
        return logp_native_sched(coll, LOGP_ALGO_BINOMIAL, bytes, commutative, topo, exact, 0, sends);
    case LOGP_NK_LINEAR:
        return logp_native_sched(coll, LOGP_ALGO_FLAT, bytes, commutative, topo, exact, 0, sends);
    case LOGP_NK_BRUCK:
        return logp_native_sched(coll, LOGP_ALGO_BUTTERFLY, bytes, 1, topo, exact, 0, sends);
    case LOGP_NK_PAIRWISE:
        return logp_native_sched(coll, LOGP_ALGO_RING, bytes, 1, topo, exact, 0, sends);
    case LOGP_NK_BINARY:
    case LOGP_NK_IN_ORDER_BINARY: /* two children per level, the second a gap later */
        return binary_depth * (gap + p2p + 2.0 * red);
    case LOGP_NK_SPLIT_BINARY: { /* halves down two binary trees, then one exchange */
        size_t half = bytes - bytes / 2;
        return binary_depth * (logp_params_gap(p, half) + logp_params_p2p(p, half)) + logp_params_p2p(p, half);
    }
    case LOGP_NK_KNOMIAL: /* radix - 1 sends per level */
        return logp_native_levels(P, LOGP_OMPI_KNOMIAL_RADIX) * ((LOGP_OMPI_KNOMIAL_RADIX - 2) * gap + p2p + red);
    case LOGP_NK_CHAIN: /* fan-out chains, unsegmented */
        return (LOGP_OMPI_CHAIN_FANOUT - 1) * gap + chain_len * (p2p + red);
    case LOGP_NK_PIPELINE: /* one chain, unsegmented */
        return (double)(P - 1) * (p2p + red);
    case LOGP_NK_SCATTER_RD: /* binomial scatter + recursive-doubling allgather */
        return 2.0 * steps * hop + 2.0 * frac * m * p->G;
    case LOGP_NK_SCATTER_RING: /* binomial scatter + ring allgather of P - 1 chunks */
        return steps * hop + frac * m * p->G + (double)(P - 1) * (hop + (m / P) * p->G);
    case LOGP_NK_RSAG_ALL: /* Rabenseifner's allreduce: our schedule of its shape */
        return logp_native_sched(coll, LOGP_ALGO_REDUCE_SCATTER_ALLGATHER, bytes, 1, topo, exact, 0, sends);
    case LOGP_NK_RSAG: /* recursive-halving reduce-scatter, then binomial gather (and MPICH's fresh buffers) */
        return 2.0 * steps * hop + 2.0 * frac * m * p->G + frac * m * p->gamma +
               logp_native_fresh(lib, coll, bytes, frac, &topo->intra);
    case LOGP_NK_ALL_AT_ONCE: /* every send posted at once: the NIC is the limit */
    case LOGP_NK_LINEAR_SYNC: /* the same with a window of requests */
        return (double)(P - 1) * gap + p2p;
    case LOGP_NK_SCATTER_DEST: /* windows of 4, a waitall after each: our linear in windows of 4 */
        return logp_native_sched(coll, LOGP_ALGO_LINEAR, bytes, 1, topo, exact, LOGP_SMPI_SCATTER_DEST_WINDOW, sends);
    case LOGP_NK_SCATTERED: /* windows of 32, a waitall after each */
        return logp_native_sched(coll, LOGP_ALGO_LINEAR, bytes, 1, topo, exact, LOGP_MPICH_SCATTERED_WINDOW, sends);
    case LOGP_NK_TWO_PROC: /* one exchange */
        return p2p;
    case LOGP_NK_RECURSIVE_DOUBLING:
        return logp_native_sched(coll, LOGP_ALGO_RECURSIVE_DOUBLING, bytes, commutative, topo, exact, 0, sends);
    case LOGP_NK_RING:
        return logp_native_sched(coll, LOGP_ALGO_RING, bytes, 1, topo, exact, 0, sends);
    case LOGP_NK_REDUCE_BCAST:
        return logp_native_sched(coll, LOGP_ALGO_BINOMIAL, bytes, commutative, topo, exact, 0, sends);
    }
    return -1.0;
}

int logp_native_unsafe(logp_native_lib_t lib, logp_coll_t coll, int P, int root, size_t bytes, int commutative)
{
    if (lib == LOGP_NATIVE_OPENMPI)
        return 0;
    if (coll == LOGP_COLL_REDUCE)
        return commutative && root != 0 && bytes > 2048;
    return (coll == LOGP_COLL_ALLTOALL || coll == LOGP_COLL_ALLTOALLV) && P == 1;
}

double logp_native_predict(logp_native_lib_t lib, logp_coll_t coll, size_t bytes, int commutative,
                           const logp_topo_t *topo, int exact)
{
    if ((int)coll < 0 || (int)coll >= LOGP_COLL_COUNT || topo == NULL)
        return -1.0;
    logp_native_kind_t kind = logp_native_kind(lib, coll, topo->P, bytes, commutative);
    /* SMPI's collectives (measured: sched.h); MPICH's and Open MPI's sends as ours */
    unsigned sends = lib == LOGP_NATIVE_SMPI ? LOGP_LIB_SENDS_STANDARD | LOGP_LIB_SENDS_TOGETHER : 0;
    return logp_native_price(lib, kind, coll, bytes, commutative, topo, exact, sends);
}
