/* The --json summary's walk-forward part (io/json_summary.h's run_summary_t.extra). */
#ifndef EVOLVE_JSON_WALK_H
#define EVOLVE_JSON_WALK_H

#include "fitness/walk_forward.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {"walk_forward": {"search", "train_days", "test_days", "step_days",
 * "evaluated", "windows": [...], "chained": {...}}} for run_summary_t.extra
 * (a cJSON object; NULL when out of memory). search: "grid" or "ga". */
void *json_walk_forward(const config_t *cfg, const wf_result_t *r, const char *search);

#ifdef __cplusplus
}
#endif
#endif
