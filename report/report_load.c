/* Reading a run file for the report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_heat.h"
#include "report/report.h"

static ev_status read_strs(report_run_t *r, ev_error *err)
{
    struct {
        const char *object, *name;
        char **out;
        int optional;
    } s[] = {{"/", "mode", &r->mode, 0},
             {"/", "status", &r->status, 0},
             {"provenance", "config_path", &r->config_path, 0},
             {"provenance", "backend", &r->backend, 0},
             {"provenance", "device", &r->device, 0},
             {"provenance", "tool_version", &r->tool_version, 0},
             {"provenance", "created_utc", &r->created, 0},
             {"provenance/dataset", "path", &r->dataset_path, 0},
             {"provenance/dataset", "path_from_run", &r->dataset_from_run, 1},
             {"ga", "stop_reason", &r->stop_reason, 1},
             {"grid", "evaluator", &r->evaluator, 1},
             {"provenance", "strategy", &r->strategy, 1}};
    ev_status st = EV_OK;
    for (size_t i = 0; i < sizeof s / sizeof s[0] && st == EV_OK; i++)
        st = run_file_read_str(&r->rf, s[i].object, s[i].name, s[i].optional, s[i].out, err);
    return st;
}

/* One double per generation from a /ga column. */
static ev_status read_series(report_run_t *r, run_column_id c, double **out, ev_error *err)
{
    *out = (double *)malloc((r->generations ? r->generations : 1) * sizeof **out);
    if (!*out)
        return ev_fail(err, EV_ENOMEM, "out of memory reading %s", r->rf.path);
    return run_file_read_column(&r->rf, c, 0, r->generations, *out, err);
}

/* Mean gene entropy as a share of its maximum (log2 of the value count),
 * over genes that can vary: 1 = the population spread evenly, 0 = converged. */
static ev_status read_entropy(report_run_t *r, ev_error *err)
{
    uint32_t ng = r->rf.dims.n_genes;
    double *h = (double *)malloc((size_t)(r->generations ? r->generations : 1) * ng * sizeof *h);
    ev_status st;
    r->entropy = (double *)malloc((r->generations ? r->generations : 1) * sizeof *r->entropy);
    if (!h || !r->entropy) {
        free(h);
        return ev_fail(err, EV_ENOMEM, "out of memory reading %s", r->rf.path);
    }
    st = run_file_read_column(&r->rf, COL_GENE_ENTROPY, 0, r->generations, h, err);
    for (uint32_t g = 0; st == EV_OK && g < r->generations; g++) {
        double sum = 0;
        int n = 0;
        for (uint32_t k = 0; k < ng && k < (uint32_t)r->lat.n_params; k++)
            if (r->lat.params[k].n_values > 1) {
                sum += h[(size_t)g * ng + k] / log2((double)r->lat.params[k].n_values);
                n++;
            }
        r->entropy[g] = n ? sum / n : 0.0;
    }
    free(h);
    return st;
}

/* A genome read from the file is on the lattice: a damaged or edited file
 * would otherwise index past the value lists and the heatmap's cells. */
static ev_status check_genome(const report_run_t *r, const char *table, uint32_t row, const uint16_t *g, ev_error *err)
{
    int32_t k = lattice_gene_outside(&r->lat, g);
    if (k < 0)
        return EV_OK;
    return ev_fail(err, EV_EDATA,
                   "%s: %s, row %u: gene %u of parameter '%s' is outside its %u values (a damaged or edited run "
                   "file)",
                   r->rf.path, table, row, g[k], r->lat.params[k].name, r->lat.params[k].n_values);
}

static ev_status check_ranked(const report_run_t *r, const char *table, const ranked_genome_t *e, uint32_t n,
                              ev_error *err)
{
    ev_status st = EV_OK;
    for (uint32_t i = 0; i < n && st == EV_OK; i++)
        st = check_genome(r, table, i, e[i].genes, err);
    return st;
}

/* The strategies' equal ranges and genomes and the basins' peaks of a list
 * (archive/run_groups.h) are on the lattice. */
static ev_status check_groups(const report_run_t *r, const char *table, const reported_t *l, ev_error *err)
{
    const reported_t *more = l->more;
    ev_status st = EV_OK;
    uint32_t n_more = more ? more->n : 0;
    if (more)
        st = check_ranked(r, table, more->e, more->n, err);
    if (st == EV_OK && l->peaks)
        st = check_ranked(r, table, l->peaks->e, l->peaks->n, err);
    for (uint32_t i = 0; st == EV_OK && l->strat && i < l->n + n_more; i++) {
        const strat_entry_t *s = i < l->n ? &l->strat[i] : &more->strat[i - l->n];
        for (int32_t k = 0; k < r->lat.n_params && st == EV_OK; k++)
            if (s->lo[k] > s->hi[k] || s->hi[k] >= r->lat.params[k].n_values)
                st =
                    ev_fail(err, EV_EDATA,
                            "%s: %s, strategy of row %u: range %u..%u of parameter '%s' is outside its %u values "
                            "(a damaged or edited run file)",
                            r->rf.path, table, i, s->lo[k], s->hi[k], r->lat.params[k].name, r->lat.params[k].n_values);
    }
    return st;
}

ev_status report_read_genes(report_run_t *r, uint32_t generation, uint16_t *genes, ev_error *err)
{
    char table[64];
    ev_status st = run_file_read_column(&r->rf, COL_GENES, generation, 1, genes, err);
    snprintf(table, sizeof table, "/ga/genes of generation %u", generation);
    for (uint32_t i = 0; i < (uint32_t)r->population && st == EV_OK; i++)
        st = check_genome(r, table, i, genes + (size_t)i * r->rf.dims.n_genes, err);
    return st;
}

static ev_status load_ga(report_run_t *r, ev_error *err)
{
    ev_status st;
    r->generations = r->rf.generations;
    if ((st = run_file_read_u64(&r->rf, "ga", "population", &r->population, err)) != EV_OK ||
        (st = run_file_read_u64(&r->rf, "ga", "generations_max", &r->generations_max, err)) != EV_OK)
        return st;
    if (run_file_read_u64(&r->rf, "ga", "evaluations", &r->evaluations, NULL) != EV_OK && r->generations)
        run_file_read_column(&r->rf, COL_EVALUATIONS, r->generations - 1, 1, &r->evaluations, NULL);
    if (run_file_read_u64(&r->rf, "ga", "restarts", &r->restarts, NULL) != EV_OK ||
        run_file_read_u64(&r->rf, "ga", "searches_best", &r->searches_best, NULL) != EV_OK)
        r->searches_best = UINT64_MAX;
    if (run_file_read_f64(&r->rf, "ga", "hit_rate", &r->hit_rate, NULL) != EV_OK && r->generations)
        run_file_read_column(&r->rf, COL_HIT_RATE, r->generations - 1, 1, &r->hit_rate, NULL);
    /* row g holds generation g */
    if (!(r->gen = (double *)malloc((r->generations ? r->generations : 1) * sizeof *r->gen)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < r->generations; i++)
        r->gen[i] = i;
    if (r->rf.dims.n_genes != (uint32_t)r->lat.n_params)
        return ev_fail(err, EV_EDATA,
                       "%s: /ga holds %u genes per genome, the lattice %d parameters (a damaged or "
                       "edited run file)",
                       r->rf.path, r->rf.dims.n_genes, (int)r->lat.n_params);
    if (st == EV_OK && (st = read_series(r, COL_BEST_DISPLAY, &r->best, err)) == EV_OK &&
        (st = read_series(r, COL_MEAN_DISPLAY, &r->mean, err)) == EV_OK &&
        (st = read_series(r, COL_HOF_BEST, &r->hof_best, err)) == EV_OK &&
        (st = read_series(r, COL_DIVERSITY, &r->diversity, err)) == EV_OK && (st = read_entropy(r, err)) == EV_OK &&
        (st = run_list_read(&r->rf, "ga", "ga/hall_of_fame", &r->hof, err)) == EV_OK &&
        (st = check_ranked(r, "/ga/hall_of_fame", r->hof.e, r->hof.list.n, err)) == EV_OK)
        st = check_groups(r, "/ga/strategies", &r->hof.list, err);
    return st;
}

static ev_status load_grid(report_run_t *r, ev_error *err)
{
    ev_status st;
    r->has_grid = 1;
    if ((st = run_list_read(&r->rf, "grid", "grid/top", &r->top, err)) != EV_OK ||
        (st = check_ranked(r, "/grid/top", r->top.e, r->top.list.n, err)) != EV_OK ||
        (st = check_groups(r, "/grid/strategies", &r->top.list, err)) != EV_OK ||
        (st = run_file_read_u64(&r->rf, "grid", "points_evaluated", &r->points, err)) != EV_OK ||
        (st = run_file_read_f64(&r->rf, "grid", "seconds", &r->grid_seconds, err)) != EV_OK)
        return st;
    if (run_file_has(&r->rf, "grid/heatmap")) {
        if ((st = run_file_read_heat(&r->rf, &r->heat, err)) != EV_OK)
            return st;
        r->has_heat = 1;
        if (r->heat.nx != r->lat.params[r->heat.px].n_values || r->heat.ny != r->lat.params[r->heat.py].n_values)
            return ev_fail(err, EV_EDATA,
                           "%s: /grid/heatmap is %u x %u cells, its parameters have %u x %u values (a "
                           "damaged or edited run file)",
                           r->rf.path, r->heat.nx, r->heat.ny, r->lat.params[r->heat.px].n_values,
                           r->lat.params[r->heat.py].n_values);
    }
    return EV_OK;
}

ev_status report_load(report_run_t *r, const char *path, ev_error *err)
{
    const char *bad;
    ev_status st;
    memset(r, 0, sizeof *r);
    r->heat_x = r->heat_y = -1;
    if ((st = run_file_open(&r->rf, path, err)) != EV_OK)
        return st;
    if ((st = run_file_read_lattice(&r->rf, &r->lat, &r->obj, err)) != EV_OK || (st = read_strs(r, err)) != EV_OK ||
        (st = run_file_read_u64(&r->rf, "provenance", "seed", &r->seed, err)) != EV_OK ||
        (st = run_file_read_u64(&r->rf, "provenance/dataset", "content_hash", &r->dataset_hash, err)) != EV_OK ||
        (st = run_file_read_u64(&r->rf, "lattice", "size", &r->lattice_size, err)) != EV_OK ||
        (st = run_file_read_sessions(&r->rf, &r->sessions, &r->n_sessions, err)) != EV_OK)
        return st;
    {
        char *names[2] = {NULL, NULL};
        run_file_read_str(&r->rf, "lattice", "heatmap_x", 1, &names[0], NULL);
        run_file_read_str(&r->rf, "lattice", "heatmap_y", 1, &names[1], NULL);
        if (run_heat_pair(&r->lat, (const char *const *)names, &r->heat_x, &r->heat_y, &bad) != 1)
            r->heat_x = r->heat_y = -1;
        free(names[0]);
        free(names[1]);
    }
    if (r->rf.has_ga && (st = load_ga(r, err)) != EV_OK)
        return st;
    if (run_file_has(&r->rf, "grid/top") && (st = load_grid(r, err)) != EV_OK)
        return st;
    return EV_OK;
}

void report_free(report_run_t *r)
{
    char **strs[] = {&r->mode,    &r->status,       &r->config_path, &r->backend,   &r->device,   &r->tool_version,
                     &r->created, &r->dataset_path, &r->stop_reason, &r->evaluator, &r->strategy, &r->dataset_from_run};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        free(*strs[i]);
    run_file_free_strings(r->sessions, r->n_sessions);
    free(r->gen);
    free(r->best);
    free(r->mean);
    free(r->hof_best);
    free(r->diversity);
    free(r->entropy);
    run_list_free(&r->hof);
    run_list_free(&r->top);
    if (r->has_heat)
        grid_heat_free(&r->heat);
    lattice_free(&r->lat);
    run_file_close(&r->rf, NULL);
    memset(r, 0, sizeof *r);
}
