/* What every search mode does with its run file: describe where the run
 * came from, and move the finished file into place (or throw it away). */
#ifndef EVOLVE_RUN_OUTPUT_H
#define EVOLVE_RUN_OUTPUT_H

#include <stdio.h>

#include "archive/run_file.h"
#include "common/status.h"
#include "ga/session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* /provenance's description of this process (session: "started", ...). */
void run_output_origin(run_origin_t *o, const session_t *s, const char *mode, const char *session);

/* A run file for a mode that is not resumable (grid, validate): created
 * under <final>.tmp.<pid>, with the final's directory made when missing. */
ev_status run_output_create_temp(run_file_t *rf, const session_t *s, const char *mode, const char *final,
                                 ev_error *err);

/* Closes the finished file and renames it to final; on failure removes it. */
ev_status run_output_commit(run_file_t *rf, const char *final, uint32_t generations, ev_error *err);

/* Closes and removes an unfinished file. */
void run_output_discard(run_file_t *rf);

#ifdef __cplusplus
}
#endif
#endif
