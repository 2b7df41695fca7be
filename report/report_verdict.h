/* The verdict of a run file as evolve report and its page show it. */
#ifndef EVOLVE_REPORT_VERDICT_H
#define EVOLVE_REPORT_VERDICT_H

#include "common/status.h"
#include "fitness/verdict.h"
#include "report/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The run's verdict (fitness/verdict.h): of the grid's top-K where the run
 * has one (grid, --validate), else of the hall of fame, or of a
 * walk-forward's windows; verdict_free it. */
ev_status report_verdict(report_run_t *r, verdict_t *v, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
