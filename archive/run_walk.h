/* A walk-forward's outcome (fitness/walk_forward.h) in a run file:
 * /walk_forward (results/README.md). */
#ifndef EVOLVE_RUN_WALK_H
#define EVOLVE_RUN_WALK_H

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/walk_forward.h"

#ifdef __cplusplus
extern "C" {
#endif

/* search: "grid" or "ga". */
ev_status run_file_write_walk_forward(run_file_t *rf, const wf_result_t *r, const char *search, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
