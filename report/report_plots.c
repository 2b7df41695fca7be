/* The report's SVG charts: fitness and diversity per generation (GA), and
 * the heatmap of the best fitness over two parameters (from the grid's
 * record, else from every genome the GA archived). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_heat.h"
#include "common/platform.h"
#include "fitness/objective_prep.h"
#include "io/output_guard.h"
#include "report/chart.h"
#include "report/report.h"

static void list_params(const lattice_t *lat, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int32_t k = 0; k < lat->n_params && used < n; k++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", k ? ", " : "", lat->params[k].name);
}

ev_status report_heat_pair(const report_run_t *r, const char *spec, int32_t *px, int32_t *py, ev_error *err)
{
    char names[1024], x[256];
    const char *comma = spec ? strchr(spec, ',') : NULL, *pair[2], *bad = NULL;
    *px = r->heat_x;
    *py = r->heat_y;
    if (!spec)
        return EV_OK;
    list_params(&r->lat, names, sizeof names);
    if (!comma || (size_t)(comma - spec) >= sizeof x || strchr(comma + 1, ','))
        return ev_fail(err, EV_EUSAGE,
                       "--heatmap: expected two parameter names X,Y, got '%s' (the run's "
                       "parameters: %s)",
                       spec, names);
    memcpy(x, spec, (size_t)(comma - spec));
    x[comma - spec] = '\0';
    pair[0] = x;
    pair[1] = comma + 1;
    if (run_heat_pair(&r->lat, pair, px, py, &bad) != 1)
        return ev_fail(err, EV_EUSAGE,
                       bad ? "--heatmap: unknown parameter '%s'; the run's parameters are: %s"
                           : "--heatmap: '%s' twice; the heatmap needs two parameters of: %s",
                       bad ? bad : x, names);
    return EV_OK;
}

static ev_status plot_ga(const report_run_t *r, const char *dir, FILE *log, ev_error *err)
{
    char title[256], sub[512];
    const char *obj = objective_name((objective_kind)r->obj.kind);
    chart_series_t fit[3] = {{"best of the generation", r->best, "#1f77b4", 0},
                             {"mean of the feasible", r->mean, "#ff7f0e", 0},
                             {"best so far (hall of fame)", r->hof_best, "#2ca02c", 1}};
    chart_series_t div[2] = {{"unique genomes / population", r->diversity, "#9467bd", 0},
                             {"mean gene entropy / maximum", r->entropy, "#17becf", 0}};
    line_chart_t c;
    ev_status st;
    snprintf(title, sizeof title, "%s per generation", obj);
    snprintf(sub, sizeof sub, "%.200s, seed %llu, population %llu, %u generations%s%.60s", r->config_path,
             (unsigned long long)r->seed, (unsigned long long)r->population, r->generations,
             r->stop_reason ? ", stopped: " : " (in progress)", r->stop_reason ? r->stop_reason : "");
    memset(&c, 0, sizeof c);
    c.title = title;
    c.subtitle = sub;
    c.x_label = "generation";
    c.y_label = obj;
    c.x = r->gen;
    c.n = r->generations;
    c.series = fit;
    c.n_series = 3;
    if ((st = chart_write(dir, "fitness.svg", 0, &c, log, err)) != EV_OK)
        return st;
    c.title = "Diversity per generation";
    c.y_label = "share (0 = converged, 1 = spread out)";
    c.series = div;
    c.n_series = 2;
    c.fixed_y = 1;
    c.y_min = 0;
    c.y_max = 1;
    return chart_write(dir, "diversity.svg", 0, &c, log, err);
}

/* Best displayed fitness per cell over every genome the GA archived
 * (NaN where no feasible genome was evaluated). */
static ev_status heat_from_ga(report_run_t *r, int32_t px, int32_t py, double *v, ev_error *err)
{
    uint32_t pop = (uint32_t)r->population, ng = r->rf.dims.n_genes, ny = r->lat.params[py].n_values;
    uint16_t *genes = (uint16_t *)malloc((size_t)pop * ng * sizeof *genes);
    double *fit = (double *)malloc(pop * sizeof *fit);
    uint8_t *ok = (uint8_t *)malloc(pop);
    ev_status st = EV_OK;
    if (!genes || !fit || !ok)
        st = ev_fail(err, EV_ENOMEM, "out of memory for the heatmap");
    for (uint32_t g = 0; st == EV_OK && g < r->generations; g++) {
        if ((st = report_read_genes(r, g, genes, err)) != EV_OK ||
            (st = run_file_read_column(&r->rf, COL_FITNESS, g, 1, fit, err)) != EV_OK ||
            (st = run_file_read_column(&r->rf, COL_FEASIBLE, g, 1, ok, err)) != EV_OK)
            break;
        for (uint32_t i = 0; i < pop; i++) {
            double *cell = &v[(size_t)genes[(size_t)i * ng + px] * ny + genes[(size_t)i * ng + py]];
            if (ok[i] && !isnan(fit[i]) && (isnan(*cell) || fit[i] > *cell))
                *cell = fit[i];
        }
    }
    free(genes);
    free(fit);
    free(ok);
    return st;
}

/* Cells drawn along an axis at most; more values are merged into bins of
 * adjacent values (the best of the bin), labelled by their first value. */
#define HEAT_MAX_AXIS 120

/* Merges v [nx][ny] into bins of bx x by values in place; returns the
 * binned sizes and the tick labels (the first value text of each bin). */
static void heat_bin(double *v, uint32_t nx, uint32_t ny, uint32_t bx, uint32_t by, uint32_t *mx, uint32_t *my)
{
    *mx = (nx + bx - 1) / bx;
    *my = (ny + by - 1) / by;
    for (uint32_t i = 0; i < *mx; i++)
        for (uint32_t j = 0; j < *my; j++) {
            double best = NAN;
            for (uint32_t x = i * bx; x < nx && x < (i + 1) * bx; x++)
                for (uint32_t y = j * by; y < ny && y < (j + 1) * by; y++) {
                    double c = v[(size_t)x * ny + y];
                    if (!isnan(c) && (isnan(best) || c > best))
                        best = c;
                }
            v[(size_t)i * *my + j] = best; /* bins precede the cells they cover: safe in place */
        }
}

static ev_status plot_heat(report_run_t *r, const char *dir, int32_t px, int32_t py, FILE *log, ev_error *err)
{
    const param_t *x = &r->lat.params[px], *y = &r->lat.params[py];
    uint64_t cells = (uint64_t)x->n_values * y->n_values;
    int from_grid = r->has_heat && ((r->heat.px == px && r->heat.py == py) || (r->heat.px == py && r->heat.py == px));
    double *v = (double *)malloc((size_t)(cells ? cells : 1) * sizeof *v);
    char title[256], sub[512];
    const char **xt = NULL, **yt = NULL;
    uint32_t bx, by, mx, my;
    heatmap_chart_t c;
    ev_status st = EV_OK;
    if (!v)
        return ev_fail(err, EV_ENOMEM, "out of memory for the heatmap");
    for (uint64_t i = 0; i < cells; i++)
        v[i] = NAN;
    if (from_grid) {
        for (uint32_t i = 0; i < x->n_values; i++)
            for (uint32_t j = 0; j < y->n_values; j++) {
                uint64_t k = r->heat.px == px ? r->heat.key[(size_t)i * r->heat.ny + j]
                                              : r->heat.key[(size_t)j * r->heat.ny + i];
                v[(size_t)i * y->n_values + j] = k ? objective_display(&r->obj, rank_key_fitness(k)) : NAN;
            }
        snprintf(sub, sizeof sub, "best over every value of the other parameters: the grid's %llu points",
                 (unsigned long long)r->points);
    } else if (r->rf.has_ga && r->generations) {
        st = heat_from_ga(r, px, py, v, err);
        snprintf(sub, sizeof sub, "best of the %llu genomes the GA evaluated (%.3g%% of the lattice)",
                 (unsigned long long)r->evaluations,
                 r->lattice_size ? 100.0 * (double)r->evaluations / (double)r->lattice_size : 0.0);
    } else {
        if (log)
            fprintf(log,
                    "report: no heatmap of %s x %s: the grid recorded %s x %s (set report.heatmap: [%s, %s] "
                    "in the config and run the grid again)\n",
                    x->name, y->name, r->has_heat ? r->lat.params[r->heat.px].name : "no pair",
                    r->has_heat ? r->lat.params[r->heat.py].name : "", x->name, y->name);
        free(v);
        return EV_OK;
    }
    snprintf(title, sizeof title, "Best %s by %s and %s", objective_name((objective_kind)r->obj.kind), x->name,
             y->name);
    bx = (x->n_values + HEAT_MAX_AXIS - 1) / HEAT_MAX_AXIS;
    by = (y->n_values + HEAT_MAX_AXIS - 1) / HEAT_MAX_AXIS;
    heat_bin(v, x->n_values, y->n_values, bx, by, &mx, &my);
    xt = (const char **)malloc(mx * sizeof *xt);
    yt = (const char **)malloc(my * sizeof *yt);
    if (!xt || !yt)
        st = ev_fail(err, EV_ENOMEM, "out of memory for the heatmap");
    for (uint32_t i = 0; xt && i < mx; i++)
        xt[i] = x->value_text[i * bx];
    for (uint32_t j = 0; yt && j < my; j++)
        yt[j] = y->value_text[j * by];
    if (bx > 1 || by > 1)
        snprintf(sub + strlen(sub), sizeof sub - strlen(sub), "; cells merge %u x %u values", bx, by);
    memset(&c, 0, sizeof c);
    c.title = title;
    c.subtitle = sub;
    c.x_label = x->name;
    c.y_label = y->name;
    c.value_label = objective_name((objective_kind)r->obj.kind);
    c.nx = mx;
    c.ny = my;
    c.x_ticks = xt;
    c.y_ticks = yt;
    c.v = v;
    c.note = from_grid ? "grey: no feasible genome in the cell" : "grey: no feasible genome of the cell was evaluated";
    if (st == EV_OK)
        st = chart_write(dir, "heatmap.svg", 1, &c, log, err);
    free(xt);
    free(yt);
    free(v);
    return st;
}

ev_status report_check_out(const report_run_t *r, const char *dir, const char *dataset, ev_error *err)
{
    static const char *const charts[] = {"fitness.svg", "diversity.svg", "heatmap.svg",
                                         "equity.svg",  "daily.svg",     "versus.svg"};
    plat_stat_t ps;
    ev_status st = EV_OK;
    if (plat_stat(dir, &ps) != 0)
        return EV_OK;
    if (!ps.is_dir)
        return ev_fail(err, EV_EIO, "%s: not a directory (--out names the folder for the charts)", dir);
    for (size_t i = 0; st == EV_OK && i < sizeof charts / sizeof charts[0]; i++) {
        char *path = plat_path_join(dir, charts[i]);
        if (!path)
            return ev_fail(err, EV_ENOMEM, "out of memory");
        if ((st = output_check_distinct(path, "--out chart", r->rf.path, "run file", err)) == EV_OK &&
            (st = output_check_distinct(path, "--out chart", dataset ? dataset : r->dataset_path, "run's dataset",
                                        err)) == EV_OK)
            st = chart_check(dir, charts[i], err);
        free(path);
    }
    return st;
}

ev_status report_plots(report_run_t *r, const char *dir, int32_t px, int32_t py, FILE *log, ev_error *err)
{
    plat_stat_t ps;
    ev_status st = EV_OK;
    if (plat_stat(dir, &ps) != 0)
        st = plat_mkdirs(dir, err);
    else if (!ps.is_dir)
        st = ev_fail(err, EV_EIO, "%s: not a directory (--out names the folder for the charts)", dir);
    if (st == EV_OK && r->rf.has_ga && r->generations)
        st = plot_ga(r, dir, log, err);
    if (st == EV_OK && px >= 0 && (r->has_grid || r->rf.has_ga)) /* a walk-forward run has neither */
        st = plot_heat(r, dir, px, py, log, err);
    return st;
}
