/* The report as one self-contained HTML page (report/report_html.h). */
#include "report/report_html.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/objective_prep.h"

#include "common/platform.h"
#include "report/baseline_table.h"
#include "report/html_cells.h"
#include "report/html_style.h"
#include "report/report_html_walk.h"
#include "report/report_verdict.h"
#include "report/out_file.h"
#include "report/svg.h"
#include "report/verdict_print.h"

static const char *const html_marks[] = {REPORT_HTML_MARK, NULL};

static void kv(FILE *f, const char *k, const char *v)
{
    fputs("<tr><th>", f);
    html_esc(f, k);
    fputs("</th><td>", f);
    html_esc(f, v ? v : "-");
    fputs("</td></tr>\n", f);
}

char *report_html_slurp(FILE *t)
{
    long n = t ? ftell(t) : -1;
    char *s = n >= 0 ? (char *)malloc((size_t)n + 1) : NULL;
    if (s) {
        rewind(t);
        s[fread(s, 1, (size_t)n, t)] = '\0';
    }
    return s;
}

/* What fn prints, as a new string (NULL: out of memory). */
static char *capture(void (*fn)(FILE *, report_run_t *), report_run_t *r)
{
    FILE *t = tmpfile();
    char *s;
    if (!t)
        return NULL;
    fn(t, r);
    s = report_html_slurp(t);
    fclose(t);
    return s;
}

static void pre(FILE *f, const char *title, const char *text)
{
    if (!text || !*text)
        return;
    fputs("<section><h2>", f);
    html_esc(f, title);
    fputs("</h2><pre>", f);
    html_esc(f, text);
    fputs("</pre></section>\n", f);
}

/* The build and libraries that wrote the run, where the file records them. */
static void provenance(FILE *f, report_run_t *r)
{
    static const char *const attrs[][2] = {{"git_revision", "git revision"}, {"compiler", "compiler"},
                                           {"build_type", "build type"},     {"cuda_archs", "CUDA architectures"},
                                           {"hdf5_version", "HDF5"},         {"backend_probe", "GPU probe"}};
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        char *v = NULL;
        if (run_file_read_str(&r->rf, "provenance", attrs[i][0], 1, &v, NULL) == EV_OK && v && *v)
            kv(f, attrs[i][1], v);
        free(v);
    }
}

static void identity(FILE *f, report_run_t *r)
{
    char buf[160], *config = NULL;
    fputs("<section><h2>Run</h2><table class=\"kv\">\n", f);
    kv(f, "run file", r->rf.path);
    snprintf(buf, sizeof buf, "%s (%s)", r->mode, r->status);
    kv(f, "mode", buf);
    kv(f, "config", r->config_path);
    snprintf(buf, sizeof buf, "%" PRIu64, r->seed);
    kv(f, "seed", buf);
    if (r->strategy) {
        kv(f, "strategy", r->strategy);
        snprintf(buf, sizeof buf, "%016" PRIx64 " (the bars' fingerprint)", r->dataset_hash);
    } else {
        kv(f, "dataset", r->dataset_path);
        snprintf(buf, sizeof buf, "%016" PRIx64, r->dataset_hash);
    }
    kv(f, "content hash", buf);
    kv(f, "backend", r->backend);
    kv(f, "device", r->device);
    kv(f, "written by", r->tool_version);
    provenance(f, r);
    kv(f, "created (UTC)", r->created);
    if (r->lattice_size)
        snprintf(buf, sizeof buf, "%d parameters, %" PRIu64 " points", r->lat.n_params, r->lattice_size);
    else
        snprintf(buf, sizeof buf, "%d parameters, >= 2^63 points", r->lat.n_params);
    kv(f, "lattice", buf);
    snprintf(buf, sizeof buf, "%s, min_trades %" PRId64, objective_name((objective_kind)r->obj.kind),
             r->obj.min_trades);
    kv(f, "objective", buf);
    for (size_t i = 0; i < r->n_sessions; i++)
        kv(f, i ? "" : "sessions", r->sessions[i]);
    fputs("</table>\n", f);
    if (run_file_read_str(&r->rf, "provenance", "config_text", 1, &config, NULL) == EV_OK && config) {
        fputs("<h3>The config as run</h3><pre>", f);
        html_esc(f, config);
        fputs("</pre>\n", f);
    }
    free(config);
    fputs("</section>\n", f);
}

static void param_heads(FILE *f, const lattice_t *lat)
{
    for (int32_t k = 0; k < lat->n_params; k++)
        html_th(f, lat->params[k].name);
}

/* The top-K: parameters, fitness, trades, win rate, drawdown and, with a
 * validation: block, every out-of-sample column; each genome less the
 * verdict's baseline (baseline_versus) in sample and on the holdout. */
static void top_table(FILE *f, const report_run_t *r, const reported_t *l)
{
    const val_rows_t *v = l->val;
    int folds = v && l->split && l->split->has_folds, marked = 0;
    const int holdout = v && l->split && l->split->n_holdout > 0;
    const int32_t jb = l->base ? baseline_versus(l->base->kind, l->base->n) : -1;
    const reported_t *x = jb >= 0 ? &l->base->rep[jb] : NULL;
    const val_cell_t *xo = x && holdout && x->val ? &x->val->row[0].out_of_sample : NULL;
    fputs("<div class=\"wide\"><table class=\"sortable top\"><thead><tr><th>rank</th>", f);
    param_heads(f, &r->lat);
    html_th(f, objective_name((objective_kind)r->obj.kind));
    /* win rate, drawdown and the holdout's total are in the statistics below: one number, one column */
    fputs("<th>trades</th>", f);
    if (x)
        fprintf(f, "<th>&minus; %s</th>", baseline_name(l->base->kind[jb]));
    if (holdout)
        fputs("<th>holdout</th><th>holdout trades</th>", f);
    if (xo)
        fprintf(f, "<th>holdout &minus; %s</th>", baseline_name(l->base->kind[jb]));
    if (v)
        fputs("<th>plateau</th><th>DSR</th>", f);
    if (folds)
        fputs("<th>worst fold</th><th>folds+</th>", f);
    if (l->strat) /* docs/ga.md "Strategies" and "Basins": numbered as the text report's */
        fputs("<th>strategy</th>", f);
    if (l->basin)
        fputs("<th>basin</th>", f);
    fputs("</tr></thead><tbody>\n", f);
    for (uint32_t i = 0; i < l->n; i++) {
        fprintf(f, "<tr><td>%u</td>", i + 1);
        for (int32_t k = 0; k < r->lat.n_params; k++) {
            fputs("<td>", f);
            html_esc(f, r->lat.params[k].value_text[l->e[i].genes[k]]);
            fputs("</td>", f);
        }
        html_td_num(f, l->value[i], !l->e[i].r.feasible);
        html_td_count(f, l->e[i].r.trades);
        if (x)
            html_td_num(f, l->value[i] - x->value[0], 0);
        if (v) {
            const val_row_t *w = &v->row[i];
            if (holdout) {
                marked |= !w->out_of_sample.r.feasible;
                html_td_num(f, w->out_of_sample.value, !w->out_of_sample.r.feasible);
                html_td_count(f, w->out_of_sample.r.trades);
            }
            if (xo)
                html_td_num(f, w->out_of_sample.value - xo->value, 0);
            html_td_num(f, w->plateau.mean, 0);
            html_td_dsr(f, v->trials >= 1 ? deflated_sharpe(&w->moments, v->trials, v->var_sr) : NAN);
        }
        if (folds) {
            int ok = 1;
            for (int32_t k = 0; k < v->n_folds; k++)
                ok &= v->row[i].fold[k].r.feasible != 0;
            html_td_num(f, v->row[i].worst_fold, !ok); /* as the terminal prints it */
            fprintf(f, "<td>%.0f%%</td>", 100.0 * v->row[i].fold_profitable);
        }
        if (l->strat)
            fprintf(f, "<td>#%u</td>", l->strat[i].cls + 1);
        if (l->basin)
            fprintf(f, "<td>#%u</td>", l->basin[i] + 1);
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table></div>\n", f);
    if (marked) {
        const objective_cfg_t part_obj = val_part_objective(&r->obj, v); /* the holdout and folds' rule */
        char rules[160];
        objective_infeasible_rules(rules, sizeof rules, &part_obj);
        fprintf(f, "<p class=\"note\">* infeasible on that part (%s): its value is shown, it does not count.</p>\n",
                rules);
    }
    if (v && v->pbo == v->pbo)
        fprintf(f,
                "<p>PBO (probability of backtest overfitting, CSCV): <b>%.4f</b> over %" PRIu64
                " combinations of %u genomes in %u day blocks.</p>\n",
                v->pbo, v->pbo_combos, v->pbo_genomes, v->pbo_blocks);
}

static void baselines(FILE *f, const report_run_t *r, const reported_t *l)
{
    const reported_base_t *b = l->base;
    if (!b || !b->n)
        return;
    fputs(
        "<h3>Baselines, and rank 1's difference to each</h3>\n<div class=\"wide\"><table class=\"baselines\">"
        "<thead><tr><th>baseline</th>",
        f);
    param_heads(f, &r->lat);
    fputs("<th>fitness</th><th>trades</th>", f);
    if (l->val && l->split && l->split->n_holdout > 0)
        fputs("<th>holdout</th><th>holdout trades</th>", f);
    if (l->n)
        fputs("<th>rank 1 &minus; fitness</th><th>&minus; trades</th><th>&minus; win rate</th>", f);
    fputs("</tr></thead><tbody>\n", f);
    for (uint32_t i = 0; i < b->n; i++) {
        const reported_t *x = &b->rep[i];
        fputs("<tr><td>", f);
        html_esc(f, baseline_name(b->kind[i]));
        fputs("</td>", f);
        for (int32_t k = 0; k < r->lat.n_params; k++) {
            char text[256];
            baseline_param_text(text, sizeof text, &r->lat, &b->point[i], k);
            fputs("<td>", f);
            html_esc(f, text);
            fputs("</td>", f);
        }
        html_td_num(f, x->value[0], !x->e[0].r.feasible);
        html_td_count(f, x->e[0].r.trades);
        if (l->val && l->split && l->split->n_holdout > 0) {
            const val_cell_t *o = x->val ? &x->val->row[0].out_of_sample : NULL;
            html_td_num(f, o ? o->value : NAN, o && !o->r.feasible);
            html_td_count(f, o ? o->r.trades : 0);
        }
        if (l->n && l->stats && x->stats) {
            double df, dt, dw, dd;
            reported_base_diff(l, i, &df, &dt, &dw, &dd);
            (void)dd; /* the drawdowns are in the statistics: the table fits a laptop's width */
            fprintf(f, "<td>%+.6f</td><td>%+.0f</td><td>%+.4f</td>", df, dt, dw);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table></div>\n", f);
}

/* stats[i] for i < n, or row i's holdout statistics when holdout is set. */
static void stats_table(FILE *f, const char *title, const reported_t *l, int holdout)
{
    const trade_stats_t *s0;
    if (!l->n || (holdout ? !l->val : !l->stats))
        return;
    s0 = holdout ? &l->val->row[0].oos_stats : l->stats;
    fprintf(f, "<h3>%s</h3>\n<div class=\"wide\"><table class=\"sortable\"><thead><tr><th>rank</th>", title);
    for (int k = 0; k < TRADE_STAT_FIELDS; k++)
        if (trade_stat_shown(s0, k))
            html_th(f, trade_stat_fields[k].name);
    fputs("</tr></thead><tbody>\n", f);
    for (uint32_t i = 0; i < l->n; i++) {
        const trade_stats_t *s = holdout ? &l->val->row[i].oos_stats : &l->stats[i];
        fprintf(f, "<tr><td>%u</td>", i + 1);
        for (int k = 0; k < TRADE_STAT_FIELDS; k++)
            if (trade_stat_shown(s0, k)) {
                if (trade_stat_fields[k].is_count)
                    html_td_count(f, (int64_t)trade_stat_get(s, k));
                else
                    html_td_num(f, trade_stat_get(s, k), 0);
            }
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table></div>\n", f);
}

static void folds_table(FILE *f, const reported_t *l)
{
    const val_rows_t *v = l->val;
    if (!v || !l->split || !l->split->has_folds || !l->n)
        return;
    fputs(
        "<h3>Validation by fold (in-sample folds: fitness, trades)</h3>\n<div class=\"wide\"><table "
        "class=\"sortable\"><thead><tr><th>rank</th>",
        f);
    for (int32_t k = 0; k < v->n_folds; k++)
        fprintf(f, "<th>fold %d</th><th>trades</th>", k + 1);
    fputs("</tr></thead><tbody>\n", f);
    for (uint32_t i = 0; i < l->n; i++) {
        fprintf(f, "<tr><td>%u</td>", i + 1);
        for (int32_t k = 0; k < v->n_folds; k++) {
            html_td_num(f, v->row[i].fold[k].value, !v->row[i].fold[k].r.feasible);
            html_td_count(f, v->row[i].fold[k].r.trades);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table></div>\n", f);
}

static void list_section(FILE *f, const report_run_t *r, const char *title, const reported_t *l)
{
    fputs("<section><h2>", f);
    html_esc(f, title);
    fputs("</h2>\n", f);
    if (!l->n)
        fputs("<p>No feasible genome: every evaluated genome breaks min_trades or max_drawdown_pct.</p>\n", f);
    else
        top_table(f, r, l);
    baselines(f, r, l);
    /* the details per genome, folded: the tables above fit a laptop's width */
    if (l->n)
        fputs("<details><summary>Details per genome: trader statistics, holdout statistics, folds</summary>\n", f);
    stats_table(f, "Trader statistics (per trade, not annualised)", l, 0);
    if (l->val && l->split && l->split->n_holdout)
        stats_table(f, "Trader statistics on the holdout days", l, 1);
    folds_table(f, l);
    if (l->n)
        fputs("</details>\n", f);
    fputs("</section>\n", f);
}

/* Up to 40 generations, evenly spaced, the last always. */
static void convergence(FILE *f, const report_run_t *r)
{
    uint32_t step = r->generations > 40 ? (r->generations + 39) / 40 : 1;
    if (!r->rf.has_ga || !r->generations)
        return;
    fprintf(f,
            "<section><h2>GA convergence</h2><p>%u generations archived, population %" PRIu64 ", %" PRIu64
            " unique evaluations; stop: ",
            r->generations, r->population, r->evaluations);
    html_esc(f, r->stop_reason ? r->stop_reason : "none yet");
    fputs(
        ".</p>\n<div class=\"wide\"><table class=\"sortable\"><thead><tr><th>generation</th><th>best</th>"
        "<th>mean</th><th>best so far</th><th>diversity</th><th>gene entropy</th></tr></thead><tbody>\n",
        f);
    for (uint32_t g = 0; g < r->generations; g += step) {
        if (g + step >= r->generations)
            g = r->generations - 1;
        fprintf(f, "<tr><td>%u</td>", g);
        html_td_num(f, r->best[g], 0);
        html_td_num(f, r->mean[g], 0);
        html_td_num(f, r->hof_best[g], 0);
        html_td_num(f, r->diversity[g], 0);
        html_td_num(f, r->entropy[g], 0);
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table></div></section>\n", f);
}

/* dir/name inline, without its XML prolog; nothing when it was not drawn. */
static void inline_svg(FILE *f, const char *dir, const char *name)
{
    char *path = plat_path_join(dir, name), *s = NULL;
    FILE *in = path ? fopen(path, "rb") : NULL;
    long n = -1;
    if (in && fseek(in, 0, SEEK_END) == 0 && (n = ftell(in)) > 0 && fseek(in, 0, SEEK_SET) == 0 &&
        (s = (char *)malloc((size_t)n + 1)) != NULL) {
        const char *body;
        s[fread(s, 1, (size_t)n, in)] = '\0';
        body = strncmp(s, SVG_MARK, strlen(SVG_MARK)) == 0 ? s + strlen(SVG_MARK) : s;
        fputs("<figure>", f);
        fputs(body, f);
        fputs("</figure>\n", f);
    }
    if (in)
        fclose(in);
    free(s);
    free(path);
}

/* Part 0: the top-1's equity and days, under the verdict; part 1: the
 * search's own charts. A part with no chart drawn is left out whole. */
static void charts(FILE *f, const report_html_t *h, int part)
{
    static const char *const names[2][3] = {{"versus.svg", "equity.svg", "daily.svg"},
                                            {"fitness.svg", "diversity.svg", "heatmap.svg"}};
    static const char *const titles[2] = {"Rank 1 against the baselines, and its equity", "The search"};
    int any = 0;
    for (size_t i = 0; i < 3 && names[part][i]; i++) {
        char *path = plat_path_join(h->dir, names[part][i]);
        FILE *in = path ? fopen(path, "rb") : NULL;
        any |= in != NULL;
        if (in)
            fclose(in);
        free(path);
    }
    if (!any)
        return;
    fprintf(f, "<section><h2>%s</h2>\n", titles[part]);
    for (size_t i = 0; i < 3 && names[part][i]; i++)
        inline_svg(f, h->dir, names[part][i]);
    fputs("</section>\n", f);
}

static void page(FILE *f, const void *ctx)
{
    const report_html_t *h = (const report_html_t *)ctx;
    report_run_t *r = h->r;
    char *text;
    verdict_t v;
    fputs(REPORT_HTML_MARK, f);
    fputs(
        "<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>evolve report: ",
        f);
    html_esc(f, r->rf.path);
    fprintf(f, "</title>\n<style>%s</style>\n</head><body><main>\n<h1>evolve report: ", html_style);
    html_esc(f, r->rf.path);
    fputs("</h1>\n", f);
    /* the answer first (docs/report.md "The page"), the run's identity last */
    if (report_verdict(r, &v, NULL) == EV_OK) {
        verdict_print_html(f, &v);
        verdict_free(&v);
    }
    charts(f, h, 0);
    if (r->has_grid)
        list_section(f, r, "Grid top-K (exact)", &r->top.list);
    if (r->rf.has_ga)
        list_section(f, r, "GA hall of fame", &r->hof.list);
    text = capture(report_print_validate, r);
    pre(f, "Validate: the GA against the grid", text);
    free(text);
    if (run_file_has(&r->rf, "walk_forward"))
        report_html_walk(f, r);
    convergence(f, r);
    charts(f, h, 1);
    pre(f, "Per trading day (the top-1)", h->days);
    identity(f, r);
    fprintf(f, "</main>\n<script>%s</script>\n</body></html>\n", html_script);
}

ev_status report_html_check(const char *dir, ev_error *err)
{
    return out_file_check(dir, "index.html", "--out page", html_marks, err);
}

ev_status report_html_write(const report_html_t *h, FILE *log, ev_error *err)
{
    return out_file_write(h->dir, "index.html", "--out page", html_marks, page, h, log, err);
}
