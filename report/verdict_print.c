#include "report/verdict_print.h"

#include <string.h>

#include "report/svg.h"

/* One side's value with '*' when infeasible, as every table marks it. */
static void side_text(char *buf, size_t n, const verdict_side_t *s)
{
    size_t l;
    verdict_num(buf, n - 1, s->value, 0);
    l = strlen(buf);
    if (!s->feasible) {
        buf[l] = '*';
        buf[l + 1] = '\0';
    }
}

static int any_infeasible(const verdict_t *v)
{
    for (uint32_t p = 0; p < v->n_parts; p++) {
        if (!v->best[p].feasible)
            return 1;
        for (uint32_t j = 0; j < v->n_base; j++)
            if (!v->base[(size_t)j * v->n_parts + p].feasible)
                return 1;
    }
    return 0;
}

/* The table's rows, on the terminal (html 0) or as the page's <tr>s: they
 * differ only in their formats; the page colours a difference by its sign. */
static void rows(FILE *out, const verdict_t *v, int html)
{
    char buf[64];
    for (uint32_t p = 0; p < v->n_parts; p++) {
        verdict_part_name(buf, sizeof buf, &v->part[p]);
        fprintf(out, html ? "<tr><th>%s</th>" : "  %-10s", buf);
        side_text(buf, sizeof buf, &v->best[p]);
        fprintf(out, html ? "<td>%s</td><td>%lld</td>" : "  %10s  %6lld", buf, (long long)v->best[p].trades);
        for (uint32_t j = 0; j < v->n_base; j++) {
            const verdict_side_t *b = &v->base[(size_t)j * v->n_parts + p];
            const double d = verdict_diff(v, j, p);
            side_text(buf, sizeof buf, b);
            fprintf(out, html ? "<td>%s</td><td>%lld</td>" : "  |  %10s  %6lld", buf, (long long)b->trades);
            verdict_num(buf, sizeof buf, d, 1);
            fprintf(out, html ? "<td class=\"%s\">%s</td>" : "%.0s  %14s", d > 0 ? "pos" : d < 0 ? "neg" : "", buf);
        }
        fputs(html ? "</tr>\n" : "\n", out);
    }
}

void verdict_print_text(FILE *out, const verdict_t *v)
{
    char buf[64];
    fprintf(out, "verdict: %s\n", v->headline);
    if (v->n_parts && v->n_base) {
        fprintf(out, "  %-10s  %10s  %6s", "part", "rank 1", "trades");
        for (uint32_t j = 0; j < v->n_base; j++) {
            snprintf(buf, sizeof buf, "rank1-%s", baseline_name(v->kind[j]));
            fprintf(out, "  |  %10s  %6s  %14s", baseline_name(v->kind[j]), "trades", buf);
        }
        fputc('\n', out);
        rows(out, v, 0);
        if (any_infeasible(v))
            fprintf(out, "  * infeasible there: fewer kept trades than min_trades, or beyond max_drawdown_pct\n");
    }
    fprintf(out, "  %s\n  %s\n  (the words: %s)\n", v->dsr_text, v->pbo_text, VERDICT_GLOSSARY);
}

static void esc_p(FILE *out, const char *cls, const char *text)
{
    fprintf(out, "<p class=\"%s\">", cls);
    svg_escape(out, text);
    fputs("</p>\n", out);
}

void verdict_print_html(FILE *out, const verdict_t *v)
{
    fputs("<section id=\"verdict\"><h2>Verdict</h2>\n", out);
    esc_p(out, "headline", v->headline);
    if (v->n_parts && v->n_base) {
        fputs("<table class=\"verdict\"><thead><tr><th>part</th><th>rank 1</th><th>trades</th>", out);
        for (uint32_t j = 0; j < v->n_base; j++)
            fprintf(out, "<th>%s</th><th>trades</th><th>rank 1 &minus; %s</th>", baseline_name(v->kind[j]),
                    baseline_name(v->kind[j]));
        fputs("</tr></thead><tbody>\n", out);
        rows(out, v, 1);
        fputs("</tbody></table>\n", out);
        if (any_infeasible(v))
            esc_p(out, "note", "* infeasible there: fewer kept trades than min_trades, or beyond max_drawdown_pct");
    }
    esc_p(out, "reading", v->dsr_text);
    esc_p(out, "reading", v->pbo_text);
    fputs("<p class=\"note\">The words (hits, basin, plateau, DSR, PBO/CSCV, strategy): " VERDICT_GLOSSARY
          ".</p>\n</section>\n",
          out);
}
