/* A reported list's baselines (fitness/baseline.h) in a run file, beside its
 * ranked table: GROUP/baselines/NAME (results/README.md). */
#ifndef EVOLVE_RUN_BASELINE_H
#define EVOLVE_RUN_BASELINE_H

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/reported.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes group/baselines from r->base once (they do not change while a GA's
 * hall of fame does); nothing when r has none. Each baseline is a list of
 * one: its ranked row, its point (`set`, `value` per parameter), its trader
 * statistics and, with a validation: block, its validation. */
ev_status run_file_write_baselines(run_file_t *rf, const char *group, const reported_t *r, ev_error *err);

/* group/baselines back into r->base (a new reported_base_t; reported_free
 * frees it), each row's split pointing at sp (the list's own split, which
 * must outlive r); r->base stays NULL when the file has none. */
ev_status run_file_read_baselines(run_file_t *rf, const char *group, reported_t *r, const val_split_t *sp,
                                  ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
