/* The --json summary of a run (grid, GA or validate), written with cJSON:
 * {"mode", "backend", "lattice_size", "evaluated", "trades_kept", "drops",
 *  "top": [{"rank", "index", "values": {name: value}, "fitness", "trades",
 *  "stats": {trader statistics, fitness/trade_stats.h}}],
 *  "seconds": {...}, ...}. Non-finite fitness values are written as the
 * strings "inf" / "-inf" (JSON has no infinity). */
#ifndef EVOLVE_JSON_SUMMARY_H
#define EVOLVE_JSON_SUMMARY_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/dataset.h"
#include "fitness/reported.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *mode;      /* "grid", "ga", "validate" */
    const char *backend;   /* "cpu", "cuda" */
    const char *device;    /* backend description */
    const char *evaluator; /* grid: the evaluator that ran, else NULL */
    uint64_t evaluated;    /* lattice points (grid) or unique evaluations (GA) */
    int has_ga;
    uint64_t unique_evaluations;
    uint64_t ls_evaluations;    /* GA: local search sweeps, in evaluations (they count in max_evaluations) */
    uint32_t restarts;          /* GA: restarts on stall */
    uint32_t searches_best;     /* GA with restart_stall: searches (restarts + 1) that ended in the best */
    const uint32_t *basin_best; /* GA with report.diverse: each basin's best genome, its position in the top list; */
    uint32_t n_basins;          /* NULL: not grouped (fitness/basin.h) */
    uint32_t generations;
    const char *termination; /* GA: why it stopped */
    double seconds_load, seconds_tables, seconds_search, seconds_total;
    void *extra; /* a cJSON object merged into the root (validate), or NULL */
} run_summary_t;

/* A top-K list as the "top" array holds it (a cJSON array, or NULL when
 * out of memory), for a mode's extra object (validate: the GA's top-K). */
void *json_summary_top(const config_t *cfg, const reported_t *top);

/* Writes atomically (temporary name, then rename). */
ev_status json_summary_write(const char *path, const run_summary_t *s, const config_t *cfg, const dataset_t *ds,
                             const reported_t *top, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
