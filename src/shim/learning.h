/* What auto learned on a run, written to PMPI_LOGP_LEARN at its end: per
 * communicator size, the settled decisions as rules of the tuning-file
 * format and the model's corrections, with the trials' times as comments
 * (config/learned.h merges them into the file). */
#ifndef LOGP_SHIM_LEARNING_H
#define LOGP_SHIM_LEARNING_H

#include "state.h"

/* Keeps what st learned (rules of its decided classes, corrections) for
 * the learned file: called when a communicator goes or the run ends, on
 * the process that writes the file (world rank 0).  One section per
 * communicator size: the communicator that decided most. */
void logp_learning_keep(const logp_comm_state_t *st);

/* Writes the kept sections to `path` (logp_learned_write): at the end of
 * the run, on world rank 0. */
void logp_learning_write(const char *path);

#endif
