/* Where ranks are and how fast they are: the heterogeneous LogGP model of
 * seed 003 (heterogeneous BSP: per-processor effective speed, a linear
 * message cost t0 + tB n per pair class).
 *
 * A message from s to r of m bytes is priced with the parameters of its pair
 * class (`intra` when s and r share a node, `inter` otherwise), and each
 * CPU term is divided by the speed of the rank that pays it:
 *   sender    o / speed[s], sends spaced max(g / speed[s], o / speed[s] + inj);
 *   network   inj = (m - 1) G, then L (pair class, not scaled);
 *   receiver  o / speed[r], receives spaced max(g / speed[r], o / speed[r] + inj).
 * Combining m bytes is CPU work wherever the operand came from: it costs
 * m intra.gamma / speed[r]; so is a local copy of m bytes (a packing
 * schedule's, sched_bruck.c): m intra.copy / speed[r].
 * With one node (or intra == inter) and every speed 1 this is exactly the
 * uniform convention of params.h: x / 1.0 == x in IEEE arithmetic. */
#ifndef LOGP_MODEL_TOPO_H
#define LOGP_MODEL_TOPO_H

#include <stddef.h>

#include "params.h"

typedef struct logp_topo {
    int P;
    int nnodes;          /* distinct nodes, numbered 0 .. nnodes-1 */
    int *node;           /* node[r]; NULL: every rank on node 0 */
    double *speed;       /* relative speed of rank r (> 0); NULL: all 1 (always when all are 1) */
    int *start;          /* node a's ranks, increasing: members[start[a] .. start[a+1]) */
    int *members;        /* (NULL with node == NULL) */
    int *index;          /* index[r]: r's place among its node's ranks */
    logp_params_t intra; /* pairs on one node */
    logp_params_t inter; /* pairs on different nodes */
    int shared;          /* 1: transfers between hosts share the hosts' interfaces (net.h: each rank
                            its own host on one node, a node one host in a layout), as SimGrid
                            and real links do; 0 (LogGP): one message at a time */
    double envelope;     /* bytes every message carries through a shared network's interfaces
                            besides its payload (a header): LOGP_TOPO_ENVELOPE by default */
} logp_topo_t;

/* The default envelope: SimGrid SMPI sends 16 bytes with every message
 * (its ping-pong takes 2o + L + (m + 16) G), which a host receiving many
 * small messages at once pays on its link, 16 G each (a gather of P - 1
 * empty blocks: docs/results/smpi-fidelity, "the envelope"); elsewhere 0,
 * a real network's header being part of its measured L and g. */
#ifdef LOGP_BUILD_SMPI
#define LOGP_TOPO_ENVELOPE 16.0
#else
#define LOGP_TOPO_ENVELOPE 0.0
#endif

/* The uniform model: P ranks on one node, speed 1, parameters `p` for every
 * pair (intra = inter = p).  Allocates nothing. */
logp_topo_t logp_topo_uniform(int P, const logp_params_t *p);

/* A layout: node_of[r] is any integer naming rank r's node (renumbered
 * 0.. in increasing order of those integers), speed[r] > 0 (NULL: all 1).  Copies
 * both.  Returns LOGP_OK, LOGP_ERR_ARG (P < 1, bad speed or parameters) or
 * LOGP_ERR_NOMEM; free with logp_topo_free. */
logp_status_t logp_topo_init(logp_topo_t *t, int P, const int *node_of, const double *speed,
                             const logp_params_t *intra, const logp_params_t *inter);

/* Nonzero if nodes a and b are interchangeable: as many ranks, all of
 * one speed. */
int logp_topo_alike(const logp_topo_t *t, int a, int b);

/* `nodes` blocks of consecutive ranks, the last one possibly short:
 * rank r on node r / ranks_per_node.  speed, and what it returns, as
 * logp_topo_init (LOGP_ERR_ARG also for ranks_per_node < 1). */
logp_status_t logp_topo_blocks(logp_topo_t *t, int P, int ranks_per_node, const double *speed,
                               const logp_params_t *intra, const logp_params_t *inter);

/* Releases what logp_topo_init allocated; safe on a uniform or zeroed topo. */
void logp_topo_free(logp_topo_t *t);

/* Node of rank r. */
static inline int logp_topo_node(const logp_topo_t *t, int r)
{
    return t->node ? t->node[r] : 0;
}

/* Speed of rank r. */
static inline double logp_topo_speed(const logp_topo_t *t, int r)
{
    return t->speed ? t->speed[r] : 1.0;
}

/* Ranks on node a. */
static inline int logp_topo_size(const logp_topo_t *t, int a)
{
    return t->start ? t->start[a + 1] - t->start[a] : t->P;
}

/* The i-th rank (in increasing order) of node a. */
static inline int logp_topo_member(const logp_topo_t *t, int a, int i)
{
    return t->members ? t->members[t->start[a] + i] : i;
}

/* r's place among the ranks of its node. */
static inline int logp_topo_index(const logp_topo_t *t, int r)
{
    return t->index ? t->index[r] : r;
}

/* Parameters of the pair class of (s, r). */
static inline const logp_params_t *logp_topo_pair(const logp_topo_t *t, int s, int r)
{
    return logp_topo_node(t, s) == logp_topo_node(t, r) ? &t->intra : &t->inter;
}

/* The parameters that stand for the whole communicator in the uniform
 * algorithms and the model of the MPI library: inter-node when it spans
 * nodes, intra-node otherwise. */
static inline const logp_params_t *logp_topo_rep(const logp_topo_t *t)
{
    return t->nnodes > 1 ? &t->inter : &t->intra;
}

/* Ranks of each node: members[start[a] .. start[a+1]) in increasing rank
 * order (start has nnodes + 1 entries, members P). */
void logp_topo_members(const logp_topo_t *t, int *start, int *members);

/* Leader of node a (its ranks members[start[a] .. start[a+1])): `root` if
 * it is on a, else the fastest rank, the lowest on ties. */
int logp_topo_leader(const logp_topo_t *t, const int *start, const int *members, int a, int root);

/* Nonzero if every rank has speed 1 and every pair the same parameters. */
int logp_topo_is_uniform(const logp_topo_t *t);

#endif
