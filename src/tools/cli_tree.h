/* pmpi-logp tree: a schedule drawn (its tree from the root, one rank's
 * place, or a rank's operations where the schedule is not a tree). */
#ifndef LOGP_TOOLS_CLI_TREE_H
#define LOGP_TOOLS_CLI_TREE_H

#include "cli.h"

/* Builds c's algorithm for c's collective, size and machine and prints
 * it: the tree with when each rank holds the data (or is done), as
 * Graphviz with c->dot; with c->rank one rank's parent and children or
 * operations; the completion time.  0, or 1 if it cannot be built. */
int logp_cli_tree(const logp_cli_t *c);

#endif
