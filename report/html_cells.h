/* The report page's cells, shared by its sections (report_html.c and
 * report_html_walk.c): text escaped, numbers as the terminal prints them. */
#ifndef EVOLVE_HTML_CELLS_H
#define EVOLVE_HTML_CELLS_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

void html_esc(FILE *f, const char *s);
/* %.6f, +-inf, - for NaN (a number as the terminal shows it). */
void html_num(FILE *f, double v);
/* <td> of html_num, '*' after it when marked (infeasible). */
void html_td_num(FILE *f, double v, int marked);
/* <td> of a DSR, never an underflow as 0.000 (fitness/verdict.h). */
void html_td_dsr(FILE *f, double v);
void html_td_count(FILE *f, int64_t v);
void html_th(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif
#endif
