/* What every search mode does with its outputs: describe where the run came
 * from, move the finished run file into place (or throw it away), and fill
 * the --json summary's shared fields. */
#ifndef EVOLVE_RUN_OUTPUT_H
#define EVOLVE_RUN_OUTPUT_H

#include <stdio.h>

#include "archive/run_file.h"
#include "common/status.h"
#include "ga/ga_run.h"
#include "ga/grid.h"
#include "runs/session.h"
#include "io/json_summary.h"

#ifdef __cplusplus
extern "C" {
#endif

/* /provenance's description of this process (session: "started", ...). */
void run_output_origin(run_origin_t *o, const session_t *s, const char *mode, const char *session);

/* A run file written when its mode is done (grid, validate): created under
 * <final>.tmp.<pid>, with the final's directory made when missing; session:
 * this process's line in /provenance/sessions (NULL: "started"). */
ev_status run_output_create_temp(run_file_t *rf, const session_t *s, const char *mode, const char *final,
                                 const char *session, ev_error *err);

/* Closes the finished file and renames it to final; on failure removes it. */
ev_status run_output_commit(run_file_t *rf, const char *final, uint32_t generations, ev_error *err);

/* Closes and removes an unfinished file. */
void run_output_discard(run_file_t *rf);

/* The summary of a run in `mode` of session s from what it ran: the GA's
 * result and the grid's statistics, either or both NULL where the mode has none (the
 * points evaluated are the grid's when there is one); seconds_total counts
 * from t0 (plat_now). extra is left NULL for the mode to add. */
void run_output_summary(run_summary_t *sum, const session_t *s, const char *mode, const ga_result_t *ga,
                        const grid_stats_t *grid, double t0);

#ifdef __cplusplus
}
#endif
#endif
