/* A reported list's validation (fitness/validation.h) in a run file, beside
 * its ranked table: GROUP/validation (results/README.md). */
#ifndef EVOLVE_RUN_VALIDATION_H
#define EVOLVE_RUN_VALIDATION_H

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/reported.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes (or replaces) group/validation from r->val and r->split; nothing
 * when r has no validation. trials: the genomes the search evaluated (the
 * deflated Sharpe ratio's N). */
ev_status run_file_write_validation(run_file_t *rf, const char *group, const reported_t *r, uint64_t trials,
                                    ev_error *err);

/* The split of a run's days from group/validation: *days[n] ascending and
 * *part[n] (VAL_HOLDOUT or a fold), new arrays (free them); *n = 0 and NULLs
 * when the run has no validation. */
ev_status run_file_read_day_parts(run_file_t *rf, const char *group, int64_t **days, int32_t **part, int32_t *n,
                                  ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
