/* A reported list's validation read back from a run file's GROUP/validation
 * (archive/run_validation.h writes it). */
#ifndef EVOLVE_RUN_VALIDATION_READ_H
#define EVOLVE_RUN_VALIDATION_READ_H

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/validation.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The validation of a list of n genomes back from group/validation
 * (archive/run_validation_read.c): *v a new val_rows_t (val_rows_free, then
 * free) with each row's parts, plateau, trade moments (the deflated Sharpe
 * ratio's inputs: trials and sharpe_variance with them) and holdout trader
 * statistics, and *sp the split of the days (val_split_free). *v NULL when
 * the list has no validation. */
ev_status run_file_read_validation(run_file_t *rf, const char *group, uint32_t n, val_rows_t **v, val_split_t *sp,
                                   ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
