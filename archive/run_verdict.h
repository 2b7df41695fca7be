/* The verdict (fitness/verdict.h) in a run file: GROUP/verdict
 * (results/README.md), for whoever reads the file without evolve
 * (h5py, Python's Result.verdict). evolve report computes it again from
 * the list and its baselines, with the same function. */
#ifndef EVOLVE_RUN_VERDICT_H
#define EVOLVE_RUN_VERDICT_H

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/verdict.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes (or replaces) group/verdict. */
ev_status run_file_write_verdict(run_file_t *rf, const char *group, const verdict_t *v, ev_error *err);
/* The verdict of a reported list (verdict_of_list), written as above. */
ev_status run_file_write_list_verdict(run_file_t *rf, const char *group, const reported_t *r, double trials,
                                      ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
