/* The learned file (pure C): what auto's trials found, written at the end
 * of a run as tuning-file sections ([size P-P] with rule and correction
 * keys, config.h) and read back by the next run (PMPI_LOGP_LEARN). */
#ifndef LOGP_CONFIG_LEARNED_H
#define LOGP_CONFIG_LEARNED_H

#include <stddef.h>

#include "../model/status.h"

/* Replaces, in the file at `path`, the sections [size P-P] for every P of
 * sizes[0 .. nsizes-1] by sections[0 .. nsizes-1] (tuning-file text, one
 * [size P-P] each), keeping every other line the file holds (other
 * communicator sizes, other jobs' work, hand edits).  A P that a kept
 * section's range spans ([size 2-64], written by hand, or the tuning
 * file's own when PMPI_LOGP_LEARN names it) is not written, so that the
 * file stays valid (err then says which, and LOGP_OK is returned).  A
 * file that cannot be read or is not a regular file is left alone
 * (LOGP_ERR_IO).
 * Crash- and race-safe: the new text goes to a fresh temporary file
 * (mkstemp) in the same directory, with the old file's
 * permissions, then rename(2) replaces the old one, so a reader (or a job
 * killed mid-write) sees the old or the new file, never a mix; writers of
 * one file take turns under flock(2) on "path.lock" (opened without
 * following links; unlocked where the file system has no flock), so that
 * jobs ending together keep each other's sizes.  A symbolic link at path
 * is followed: its target is the file replaced.  Returns LOGP_OK, or
 * LOGP_ERR_IO (cannot lock, read or write) or LOGP_ERR_NOMEM with the
 * reason in err. */
logp_status_t logp_learned_write(const char *path, const char *const *sections, const int *sizes, int nsizes,
                                 char *err, size_t errlen);

/* Nonzero if `line` (one line of a tuning file) is the header of a
 * [size P-P] (or [size P]) section with P in sizes[0 .. nsizes-1]. */
int logp_learned_replaces(const char *line, const int *sizes, int nsizes);

#endif
