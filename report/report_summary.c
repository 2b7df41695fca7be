/* The report's terminal summary. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_stats.h"
#include "archive/run_walk.h"
#include "report/baseline_table.h"
#include "report/top_table.h"
#include "report/validate.h"
#include "report/verdict_print.h"
#include "operators/ga_settings.h"
#include "report/report.h"
#include "report/report_verdict.h"

/* The top-K printer takes a config: a view of the run file's lattice and
 * objective is all it reads. list: as the run reported it (validation
 * columns and baselines included where the file has them). */
static void print_list(FILE *out, const report_run_t *r, const reported_t *list)
{
    config_t view;
    memset(&view, 0, sizeof view);
    view.lattice = r->lat;
    view.objective = r->obj;
    top_table_print(out, &view, list, 0);
}

static void print_table(FILE *out, const report_run_t *r, const ranked_genome_t *e, double *value, uint32_t n)
{
    reported_t list;
    memset(&list, 0, sizeof list);
    list.e = e;
    list.value = value;
    list.n = n;
    print_list(out, r, &list);
}

/* The trader statistics of a list (fitness/trade_stats.h), a row per rank;
 * strat (NULL: every rank): a row per strategy, its best genome's rank (its
 * other genomes keep the same trades, so the same statistics). */
static void print_stats(FILE *out, const char *title, const trade_stats_t *st, uint32_t n, const strat_entry_t *strat)
{
    if (!st || !n)
        return;
    fprintf(out, "%s (%sper trade, not annualised; docs/config.md):\n", title,
            strat ? "a row per strategy of the list, by its best genome's rank; " : "");
    fprintf(out,
            "rank  trades   total %%   win %%  profit f.  expectancy  max drawdown   sharpe  sortino   avg hold s  "
            "target  stop  logged%s\n",
            st[0].more_exits ? "  breakeven  trail  time" : "");
    for (uint32_t i = 0; i < n; i++) {
        const trade_stats_t *s = &st[i];
        if (strat && !strat[i].first)
            continue;
        fprintf(out, "%4u  %6lld  %9.4f  %6.2f  %9.4g  %10.6f  %12.6f  %7.4f  %7.4g  %11.1f  %6lld  %4lld  %6lld",
                i + 1, (long long)s->trades, s->total_return, 100.0 * s->win_rate, s->profit_factor, s->expectancy,
                s->max_drawdown, s->sharpe, s->sortino, s->avg_hold_s, (long long)s->exits[EXIT_TARGET],
                (long long)s->exits[EXIT_STOP], (long long)s->exits[EXIT_LOGGED]);
        if (s->more_exits) /* SPEC sec. 4.1's exits, where the lattice has them */
            fprintf(out, "  %9lld  %5lld  %4lld", (long long)s->exits[EXIT_BREAKEVEN], (long long)s->exits[EXIT_TRAIL],
                    (long long)s->exits[EXIT_TIME]);
        fputc('\n', out);
    }
}

/* A list's trader statistics, then on the holdout days where it has one. */
static void print_list_stats(FILE *out, const reported_t *l)
{
    trade_stats_t *oos;
    print_stats(out, "trader statistics", l->stats, l->n, l->strat);
    if (!l->val || !l->split || !l->split->n_holdout || !(oos = (trade_stats_t *)malloc((l->n + 1) * sizeof *oos)))
        return;
    for (uint32_t i = 0; i < l->n; i++)
        oos[i] = l->val->row[i].oos_stats;
    print_stats(out, "trader statistics on the holdout days", oos, l->n, l->strat);
    free(oos);
}

static void print_ga(FILE *out, const report_run_t *r)
{
    if (r->generations_max == GA_GENERATIONS_UNCAPPED)
        fprintf(out, "GA:         %u generations archived (no cap: a budget ends the run)", r->generations);
    else
        fprintf(out, "GA:         %u of %" PRIu64 " generations archived", r->generations, r->generations_max);
    fprintf(out, ", population %" PRIu64 ", %s%s\n", r->population, r->stop_reason ? "stopped: " : "",
            r->stop_reason ? r->stop_reason : "no stop reason yet (the run is in progress or was interrupted)");
    fprintf(out, "            %" PRIu64 " unique evaluations", r->evaluations);
    if (r->lattice_size)
        fprintf(out, " (%.4g%% of the lattice)", 100.0 * (double)r->evaluations / (double)r->lattice_size);
    fprintf(out, ", cache hit rate %.1f%%\n", 100.0 * r->hit_rate);
    if (r->searches_best != UINT64_MAX) /* how sure (docs/ga.md "Restarts") */
        fprintf(out, "            %" PRIu64 " searches (%" PRIu64 " restarts), %" PRIu64 " of them ended in the best\n",
                r->restarts + 1, r->restarts, r->searches_best);
    if (r->generations) {
        uint32_t first = 0, last = r->generations - 1;
        while (first < last && !(r->hof_best[first] == r->hof_best[last]))
            first++;
        fprintf(out, "            best %.6g, first reached in generation %u\n", r->hof_best[last], first);
    }
    fprintf(out, "hall of fame (the best unique genomes the GA evaluated):\n");
    print_list(out, r, &r->hof.list);
    print_list_stats(out, &r->hof.list);
}

static void print_grid(FILE *out, const report_run_t *r)
{
    fprintf(out, "grid:       %" PRIu64 " points with the %s evaluator in %.3f s%s\n", r->points,
            r->evaluator ? r->evaluator : "?", r->grid_seconds, r->has_heat ? "" : " (no heatmap recorded)");
    fprintf(out, "grid top-%u (exact):\n", r->top.list.n);
    print_list(out, r, &r->top.list);
    print_list_stats(out, &r->top.list);
}

/* /validate's figures, printed as --validate printed them. */
void report_print_validate(FILE *out, report_run_t *r)
{
    validate_figures_t v;
    uint64_t u = 0;
    char *method = NULL;
    memset(&v, 0, sizeof v);
    if (run_file_read_u64(&r->rf, "validate", "ga_feasible", &u, NULL) != EV_OK)
        return;
    v.ga_feasible = (int)u;
    if (v.ga_feasible) {
        run_file_read_u64(&r->rf, "validate", "grid_rank_of_ga_best", &v.rank, NULL);
        run_file_read_u64(&r->rf, "validate", "better_points", &v.better, NULL);
        run_file_read_str(&r->rf, "validate", "rank_method", 1, &method, NULL);
        v.rank_method = method;
    }
    run_file_read_u64(&r->rf, "validate", "top_k", &u, NULL);
    v.top_k = (uint32_t)u;
    run_file_read_u64(&r->rf, "validate", "overlap_genomes", &u, NULL);
    v.overlap_genomes = (uint32_t)u;
    run_file_read_u64(&r->rf, "validate", "overlap_fitness", &u, NULL);
    v.overlap_fitness = (uint32_t)u;
    run_file_read_f64(&r->rf, "validate", "grid_best", &v.grid_best, NULL);
    run_file_read_f64(&r->rf, "validate", "ga_best", &v.ga_best, NULL);
    run_file_read_f64(&r->rf, "validate", "fitness_gap", &v.gap, NULL);
    run_file_read_u64(&r->rf, "validate", "ga_evaluations", &v.ga_evaluations, NULL);
    run_file_read_u64(&r->rf, "validate", "lattice_size", &v.lattice_size, NULL);
    run_file_read_f64(&r->rf, "validate", "ga_share_evaluated", &v.ga_share, NULL);
    v.n_grid = r->top.list.n;
    v.n_ga = r->hof.list.n;
    validate_print(out, &v);
    free(method);
}

/* The trader statistics of each window's winner on its test days, and of the
 * chained result (files written before they were stored have none). */
static void print_walk_stats(FILE *out, report_run_t *r, uint32_t windows)
{
    trade_stats_t *test = NULL, *chained = NULL;
    if (run_file_read_stats(&r->rf, "walk_forward/test/trader_stats", windows, &test, NULL) == EV_OK)
        print_stats(out, "the winners' trader statistics on their test days (rank = window)", test, test ? windows : 0,
                    NULL);
    if (run_file_read_stats(&r->rf, "walk_forward/chained_trader_stats", 1, &chained, NULL) == EV_OK)
        print_stats(out, "trader statistics of the chained test windows", chained, chained ? 1 : 0, NULL);
    free(test);
    free(chained);
}

/* The baselines on each test window (files written before they were stored,
 * and strategies', have none). */
static void print_walk_baselines(FILE *out, report_run_t *r)
{
    run_walk_base_t b;
    if (run_file_read_walk_baselines(&r->rf, &b, NULL) != EV_OK)
        return;
    baseline_window_table_print(out, (const char *const *)b.names, b.n_base, b.n_windows, b.fitness, b.r);
    run_walk_base_free(&b);
}

/* /walk_forward: each window's winner on its train days, then on its test
 * days, and the chained result. */
void report_print_walk(FILE *out, report_run_t *r)
{
    ranked_genome_t *e[2] = {NULL, NULL};
    double *v[2] = {NULL, NULL}, chained = 0;
    uint32_t n[2] = {0, 0};
    uint64_t trades = 0, windows = 0;
    char *search = NULL;
    run_file_read_str(&r->rf, "walk_forward", "search", 1, &search, NULL);
    run_file_read_u64(&r->rf, "walk_forward", "windows", &windows, NULL);
    run_file_read_f64(&r->rf, "walk_forward", "chained_fitness", &chained, NULL);
    run_file_read_u64(&r->rf, "walk_forward", "chained_trades", &trades, NULL);
    fprintf(out, "walk-forward (%s): %" PRIu64 " windows; chained out-of-sample %.6g over %" PRIu64 " trades\n",
            search ? search : "?", windows, chained, trades);
    if (run_file_read_ranked(&r->rf, "walk_forward/winners", &e[0], &v[0], &n[0], NULL) == EV_OK &&
        run_file_read_ranked(&r->rf, "walk_forward/test", &e[1], &v[1], &n[1], NULL) == EV_OK) {
        fprintf(out, "each window's winner on its train days (rank = window):\n");
        print_table(out, r, e[0], v[0], n[0]);
        fprintf(out, "the same winners on their test days:\n");
        print_table(out, r, e[1], v[1], n[1]);
        print_walk_stats(out, r, n[1]);
    }
    print_walk_baselines(out, r);
    for (int i = 0; i < 2; i++) {
        free(e[i]);
        free(v[i]);
    }
    free(search);
}

void report_print(FILE *out, report_run_t *r)
{
    verdict_t v;
    fprintf(out, "run:        %s (%s, %s)\n", r->rf.path, r->mode, r->status);
    fprintf(out, "config:     %s, seed %" PRIu64 "\n", r->config_path, r->seed);
    if (r->strategy)
        fprintf(out, "strategy:   %s on bars (fingerprint %016" PRIx64 ")\n", r->strategy, r->dataset_hash);
    else
        fprintf(out, "dataset:    %s (content hash %016" PRIx64 ")\n", r->dataset_path, r->dataset_hash);
    fprintf(out, "written by: %s on %s (%s backend), %s\n", r->tool_version, r->device, r->backend, r->created);
    fprintf(out, "lattice:    %d parameters, ", r->lat.n_params);
    if (r->lattice_size)
        fprintf(out, "%" PRIu64 " points", r->lattice_size);
    else
        fprintf(out, ">= 2^63 points");
    fprintf(out, "; objective %s", objective_name((objective_kind)r->obj.kind));
    if (r->obj.min_trades)
        fprintf(out, ", min_trades %" PRId64, r->obj.min_trades);
    fprintf(out, "\n");
    if (report_verdict(r, &v, NULL) == EV_OK) { /* the answer first, the evidence below */
        verdict_print_text(out, &v);
        verdict_free(&v);
    }
    if (r->rf.has_ga)
        print_ga(out, r);
    if (r->has_grid)
        print_grid(out, r);
    if (run_file_has(&r->rf, "validate"))
        report_print_validate(out, r);
    if (run_file_has(&r->rf, "walk_forward"))
        report_print_walk(out, r);
    for (size_t i = 0; i < r->n_sessions; i++)
        fprintf(out, "%s %s\n", i ? "           " : "sessions:  ", r->sessions[i]);
}
