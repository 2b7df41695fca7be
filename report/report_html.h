/* `evolve report`'s page: DIR/index.html, one self-contained file (its CSS,
 * a few lines of plain JavaScript that sort a table by a clicked column, and
 * every chart inline as SVG; no reference to the network or another file):
 * the run's identity, each reported list with its baselines, trader
 * statistics and validation, the validate figures, the walk-forward windows,
 * the GA's convergence, the charts and the per-day table. Prints on A4. */
#ifndef EVOLVE_REPORT_HTML_H
#define EVOLVE_REPORT_HTML_H

#include <stdio.h>

#include "common/status.h"
#include "report/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The first bytes of every page: how evolve knows one it may replace. */
#define REPORT_HTML_MARK "<!DOCTYPE html>\n<!-- written by evolve report -->\n"

typedef struct {
    report_run_t *r;
    const char *dir;  /* where the charts were drawn, and the page goes */
    const char *days; /* the per-day table as printed, or NULL */
} report_html_t;

/* EV_OK when DIR/index.html is absent or a page evolve wrote. */
ev_status report_html_check(const char *dir, ev_error *err);

/* Writes DIR/index.html (after the charts: it inlines them), under a
 * temporary name renamed into place; prints its path to log. */
ev_status report_html_write(const report_html_t *h, FILE *log, ev_error *err);

/* What was written to the temporary file t (tmpfile), as a new string
 * (free it); NULL when out of memory. */
char *report_html_slurp(FILE *t);

#ifdef __cplusplus
}
#endif
#endif
