/* evolve report's equity curve: the top-1's kept trades replayed on the
 * run's dataset (report/replay.h), as a cumulative result over trades
 * (equity.svg) and a result per trading day (daily.svg, and a table on the
 * terminal), the holdout shaded apart from the in-sample days. */
#ifndef EVOLVE_REPORT_EQUITY_H
#define EVOLVE_REPORT_EQUITY_H

#include <stdio.h>

#include "common/status.h"
#include "report/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dataset: --dataset, or NULL for the run's own (provenance/dataset); when
 * that cannot be read or is not the run's, a note goes to log and nothing
 * is drawn (a report needs only the run file), but a --dataset that fails is
 * an error. out: the per-day table; dir: where the charts go. */
ev_status report_equity(report_run_t *r, const char *dataset, const char *dir, FILE *out, FILE *log, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
