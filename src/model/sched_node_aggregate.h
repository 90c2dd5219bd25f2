/* node-aggregate (sched_node_aggregate.c): the all-to-all that combines
 * the blocks of a node pair into one message between the nodes' leaders. */
#ifndef LOGP_MODEL_SCHED_NODE_AGGREGATE_H
#define LOGP_MODEL_SCHED_NODE_AGGREGATE_H

#include "sched.h"

/* The rank that exchanges for node a (the fastest of the node, the
 * lowest on ties). */
int logp_sched_aggregate_leader(const logp_sched_t *s, int a);

#endif
