/* The files of a run: the final run file, the GA run in progress under
 * <final>.partial, and its checkpoint <final>.partial.ckpt. A run file
 * appears under its final name only when the run is complete, so an
 * interrupted run is never mistaken for a finished one. */
#ifndef EVOLVE_RUN_PATHS_H
#define EVOLVE_RUN_PATHS_H

#include <stdio.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RUN_PARTIAL_SUFFIX ".partial"
#define RUN_CKPT_SUFFIX ".ckpt"

typedef struct {
    char *final_path;   /* <output> */
    char *partial_path; /* <output>.partial */
    char *ckpt_path;    /* <output>.partial.ckpt */
    char *lock_path;    /* <output>.lock: held by the process writing any of them */
} run_paths_t;

/* The paths of a run whose output is `output`. */
ev_status run_paths_make(run_paths_t *p, const char *output, ev_error *err);

/* The paths of the run `given` to --resume names: its final name, its
 * .partial or its .partial.ckpt. Errors (EV_EIO) when there is no run in
 * progress there, saying whether a finished run is. */
ev_status run_paths_for_resume(run_paths_t *p, const char *given, ev_error *err);

void run_paths_free(run_paths_t *p);

/* Whether a process is writing the run `given` names (its final name, .partial
 * or .partial.ckpt) now: 1 when one holds its lock (*holder: its process id,
 * 0 when unreadable), 0 when none does (a .partial with status "running" is
 * then a run whose process died: killed or crashed), -1 when the lock cannot
 * be checked (an unwritable directory). */
int run_paths_live(const char *given, long *holder);

/* Removes the temporary files killed processes of this run left behind
 * (<output>.tmp.<pid>, <partial>.tmp.<pid>, <partial>.ckpt.tmp.<pid>), with
 * a note on log for each. Only for the holder of lock_path. */
void run_paths_remove_temps(const run_paths_t *p, FILE *log);

/* Creates the directory of the final path when it is missing. */
ev_status run_paths_make_dir(const run_paths_t *p, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
