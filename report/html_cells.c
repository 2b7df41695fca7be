/* The page's cells (report/html_cells.h). */
#include "report/html_cells.h"

#include <math.h>

#include "fitness/verdict.h"
#include "report/svg.h"

void html_esc(FILE *f, const char *s)
{
    svg_escape(f, s);
}

/* A number as the terminal shows it: %.6f, ±inf, - for NaN. */
void html_num(FILE *f, double v)
{
    if (v != v)
        fputs("-", f);
    else if (isinf(v))
        fputs(v > 0 ? "inf" : "-inf", f);
    else if (fabs(v) >= 1e9)
        fprintf(f, "%.9e", v);
    else
        fprintf(f, "%.6f", v);
}

void html_td_num(FILE *f, double v, int marked)
{
    fputs("<td>", f);
    html_num(f, v);
    if (marked)
        fputs("*", f);
    fputs("</td>", f);
}

/* Never an underflow as 0.000 (fitness/verdict.h). */
void html_td_dsr(FILE *f, double v)
{
    char buf[32];
    verdict_dsr_cell(buf, sizeof buf, v);
    fputs("<td>", f);
    html_esc(f, buf);
    fputs("</td>", f);
}

void html_td_count(FILE *f, int64_t v)
{
    fprintf(f, "<td>%lld</td>", (long long)v);
}

void html_th(FILE *f, const char *s)
{
    fputs("<th>", f);
    html_esc(f, s);
    fputs("</th>", f);
}
