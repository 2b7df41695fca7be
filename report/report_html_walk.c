/* The page's walk-forward section: the windows as a table (each window's
 * days, winner, its train and test results and the baselines on its test
 * days), then the chained result. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_walk.h"
#include "io/timeparse.h"
#include "report/html_cells.h"
#include "report/report_html_walk.h"

/* A span of days as one cell: 2024-01-02..01-04 (the year once). */
static void td_span(FILE *f, int64_t first, int64_t last)
{
    int64_t y[2];
    int m[2], d[2];
    time_civil_from_days(first, &y[0], &m[0], &d[0]);
    time_civil_from_days(last, &y[1], &m[1], &d[1]);
    if (first == last)
        fprintf(f, "<td>%04lld-%02d-%02d</td>", (long long)y[0], m[0], d[0]);
    else if (y[0] == y[1])
        fprintf(f, "<td>%04lld-%02d-%02d..%02d-%02d</td>", (long long)y[0], m[0], d[0], m[1], d[1]);
    else
        fprintf(f, "<td>%04lld-%02d-%02d..%04lld-%02d-%02d</td>", (long long)y[0], m[0], d[0], (long long)y[1], m[1],
                d[1]);
}

/* "5.571100 (40)", '*' after the value when infeasible. */
static void td_with_trades(FILE *f, double v, const eval_result_t *r)
{
    fputs("<td>", f);
    html_num(f, v);
    fprintf(f, "%s (%lld)</td>", r->feasible ? "" : "*", (long long)r->trades);
}

static void head(FILE *f, const report_run_t *r, const run_walk_base_t *b)
{
    fputs(
        "<div class=\"wide\"><table class=\"sortable\"><thead><tr><th>window</th><th>train days</th>"
        "<th>test days</th>",
        f);
    for (int32_t k = 0; k < r->lat.n_params; k++)
        html_th(f, r->lat.params[k].name);
    /* value (trades) in one cell each: the table fits a laptop's width */
    fputs("<th>train (trades)</th><th>test (trades)</th>", f);
    for (size_t j = 0; j < b->n_base; j++) {
        char t[80];
        snprintf(t, sizeof t, "%s (trades)", b->names[j]);
        html_th(f, t);
    }
    fputs("</tr></thead><tbody>\n", f);
}

static void windows(FILE *f, const report_run_t *r, const ranked_genome_t *const e[2], const double *const v[2],
                    uint32_t n, int64_t *const day[4], const run_walk_base_t *b)
{
    head(f, r, b);
    for (uint32_t w = 0; w < n; w++) {
        fprintf(f, "<tr><td>%u</td>", w + 1);
        td_span(f, day[0][w], day[1][w]);
        td_span(f, day[2][w], day[3][w]);
        for (int32_t k = 0; k < r->lat.n_params; k++) {
            fputs("<td>", f);
            html_esc(f, r->lat.params[k].value_text[e[0][w].genes[k]]);
            fputs("</td>", f);
        }
        for (int s = 0; s < 2; s++)
            td_with_trades(f, v[s][w], &e[s][w].r);
        for (size_t j = 0; b->n_windows == n && j < b->n_base; j++)
            td_with_trades(f, b->fitness[w * b->n_base + j], &b->r[w * b->n_base + j]);
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table></div>\n", f);
}

void report_html_walk(FILE *f, report_run_t *r)
{
    ranked_genome_t *e[2] = {NULL, NULL};
    double *v[2] = {NULL, NULL}, chained = 0;
    uint32_t n[2] = {0, 0};
    uint64_t trades = 0;
    int64_t *day[4] = {NULL, NULL, NULL, NULL};
    size_t n_days = 0;
    run_walk_base_t b;
    char *search = NULL;
    memset(&b, 0, sizeof b);
    run_file_read_str(&r->rf, "walk_forward", "search", 1, &search, NULL);
    run_file_read_f64(&r->rf, "walk_forward", "chained_fitness", &chained, NULL);
    run_file_read_u64(&r->rf, "walk_forward", "chained_trades", &trades, NULL);
    fputs("<section><h2>Walk-forward windows</h2>\n<p>", f);
    html_esc(f, search ? search : "?");
    fprintf(f,
            " search on each window's train days; the winner scored on the test days after them. Chained out of "
            "sample: <b>");
    html_num(f, chained);
    fprintf(f, "</b> over %" PRIu64 " trades.</p>\n", trades);
    if (run_file_read_ranked(&r->rf, "walk_forward/winners", &e[0], &v[0], &n[0], NULL) == EV_OK &&
        run_file_read_ranked(&r->rf, "walk_forward/test", &e[1], &v[1], &n[1], NULL) == EV_OK && n[0] == n[1] &&
        run_file_read_walk_days(&r->rf, day, &n_days, NULL) == EV_OK && n_days == n[0] &&
        run_file_read_walk_baselines(&r->rf, &b, NULL) == EV_OK)
        windows(f, r, (const ranked_genome_t *const *)e, (const double *const *)v, n[0], day, &b);
    else
        fputs("<p class=\"note\">The windows could not be read (a damaged run file?).</p>\n", f);
    fputs("</section>\n", f);
    run_walk_base_free(&b);
    for (int i = 0; i < 4; i++)
        free(day[i]);
    for (int i = 0; i < 2; i++) {
        free(e[i]);
        free(v[i]);
    }
    free(search);
}
