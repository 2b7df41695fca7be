/* `evolve report RUN.h5`: what a run file says, on the terminal and as SVG
 * charts. Reads only the run file (not the config or the data), so a report
 * can be made anywhere the file is; the top-1's equity curve alone also
 * reads the run's dataset where it is found (report/report_equity.h). */
#ifndef EVOLVE_REPORT_H
#define EVOLVE_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "archive/run_file.h"
#include "archive/run_list.h"
#include "common/status.h"
#include "fitness/grid_sink.h"
#include "fitness/trade_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    run_file_t rf;
    lattice_t lat;
    objective_cfg_t obj;
    char *mode, *status, *config_path, *backend, *device, *tool_version, *created, *dataset_path;
    char *dataset_from_run; /* provenance/dataset path_from_run: the dataset seen from the run file's folder, or NULL */
    char *strategy;         /* a strategy run's strategy.type (dataset_hash: its bars' fingerprint), else NULL */
    uint64_t seed, dataset_hash, lattice_size;
    char **sessions;
    size_t n_sessions;
    /* the heatmap pair recorded at run time (report.heatmap or the default), -1 when none */
    int32_t heat_x, heat_y;
    /* /ga */
    uint32_t generations; /* archived */
    uint64_t population, generations_max, evaluations;
    uint64_t restarts, searches_best; /* searches_best UINT64_MAX: not recorded (restart_stall off) */
    char *stop_reason;                /* NULL while running */
    double hit_rate;
    double *gen, *best, *mean, *hof_best, *diversity, *entropy; /* [generations]; entropy: mean share of max */
    run_list_t hof; /* the hall of fame as the run reported it: values, statistics, validation, baselines */
    /* /grid */
    int has_grid, has_heat;
    run_list_t top; /* the grid's top-K as the run reported it */
    char *evaluator;
    uint64_t points;
    double grid_seconds;
    grid_heat_t heat;
} report_run_t;

/* Opens and reads a run file (finished or .partial). */
ev_status report_load(report_run_t *r, const char *path, ev_error *err);
void report_free(report_run_t *r);

/* The genes of one archived GA generation ([population][n_genes]), each
 * genome checked to lie on the lattice (EV_EDATA naming the row if not). */
ev_status report_read_genes(report_run_t *r, uint32_t generation, uint16_t *genes, ev_error *err);

/* The terminal summary: mode, config, dataset, generations, stop reason,
 * hall of fame / top-K tables, validate figures. */
void report_print(FILE *out, report_run_t *r);

/* Its parts the HTML page shows as they are: --validate's figures (nothing
 * without /validate) and the walk-forward windows (only with /walk_forward). */
void report_print_validate(FILE *out, report_run_t *r);
void report_print_walk(FILE *out, report_run_t *r);

/* The heatmap's parameters: "X,Y" names, or NULL for the run's own pair.
 * EV_EUSAGE, naming the parameter and listing the run's, when unknown. */
ev_status report_heat_pair(const report_run_t *r, const char *spec, int32_t *px, int32_t *py, ev_error *err);

/* What `evolve report` checks before it prints or writes anything: dir is
 * absent or a directory, and each chart it may draw there is absent or one
 * evolve drew, and is neither the run file nor its dataset (the recorded one,
 * or `dataset` when not NULL). EV_EIO naming the path otherwise. */
ev_status report_check_out(const report_run_t *r, const char *dir, const char *dataset, ev_error *err);

/* fitness.svg, diversity.svg (GA) and heatmap.svg into dir (created when
 * missing), each written under a temporary name and renamed; the paths
 * written are printed to log. px < 0: no heatmap. */
ev_status report_plots(report_run_t *r, const char *dir, int32_t px, int32_t py, FILE *log, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
