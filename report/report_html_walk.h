/* The page's walk-forward section (report/report_html.h). */
#ifndef EVOLVE_REPORT_HTML_WALK_H
#define EVOLVE_REPORT_HTML_WALK_H

#include <stdio.h>

#include "report/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The windows as a table (each window's days, winner, its train and test
 * results and the baselines on its test days) and the chained result. */
void report_html_walk(FILE *f, report_run_t *r);

#ifdef __cplusplus
}
#endif
#endif
