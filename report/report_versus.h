/* versus.svg (docs/report.md): rank 1 and each baseline (fitness/baseline.h)
 * on one axis, their cumulative result (the sum of their kept trades'
 * outcomes) at the end of each trading day of the dataset, the holdout days
 * shaded: where rank 1 pulls ahead of the trade log, and where it falls
 * back. The baselines are replayed as the run evaluated them: each a
 * lattice of one point (baseline_lattice). */
#ifndef EVOLVE_REPORT_VERSUS_H
#define EVOLVE_REPORT_VERSUS_H

#include <stdio.h>

#include "common/status.h"
#include "report/replay.h"

#ifdef __cplusplus
extern "C" {
#endif

/* rp: rank 1 replayed (report/replay.h); nothing drawn when its list has
 * no baselines. */
ev_status report_versus(const replay_t *rp, report_run_t *r, const char *dir, FILE *log, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
