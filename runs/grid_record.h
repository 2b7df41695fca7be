/* A session's grid, recorded in a run file's /grid: the exact top-K, the
 * evaluator, the points evaluated, the seconds, and the heatmap of the
 * configured pair (report.heatmap). The heatmap comes out of the grid pass
 * on backends that can fold it (the CPU's grid_batch_heat /
 * grid_dominance_heat); elsewhere a CPU pass computes it when the lattice has
 * at most GRID_HEAT_FALLBACK_MAX points, and otherwise it is left out. */
#ifndef EVOLVE_GRID_RECORD_H
#define EVOLVE_GRID_RECORD_H

#include <stdio.h>

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/topk.h"
#include "ga/grid.h"
#include "runs/grid_resume.h"
#include "runs/modes.h"
#include "runs/session.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRID_HEAT_FALLBACK_MAX UINT64_C(10000000)

/* The grid's options from the command line and the config, with heat
 * allocated for the configured heatmap: 1 when there is one (then
 * grid_heat_free it), else 0 and go->heat NULL. rep: its progress stream
 * and notes, or NULL (none). */
int grid_record_opts(session_t *s, const run_args_t *a, grid_opts_t *go, grid_heat_t *heat, const run_reporter_t *rep);

/* The grid's candidates grouped into strategies (ga/grid_pool.h): ranked[n]
 * best first, pick[n_pick] the first genomes of the K best strategies. */
typedef struct {
    ranked_genome_t *ranked;
    uint32_t n;
    uint32_t *pick;
    uint32_t n_pick;
} grid_cands_t;

void grid_cands_free(grid_cands_t *c);

/* Runs the grid (over every rank of an MPI job: dist/dist.h) into pool
 * (grid_pool_size of the config's top, or the top for a strategy config),
 * grows it until it holds the K best strategies (a trade log's: *c, to
 * grid_cands_free; zeroed for a strategy), copies its head into top
 * (initialised to the config's top) and records top, grouped, in rf;
 * progress and notes to a->report. The pass keeps its progress in gr
 * (runs/grid_resume.h; NULL: none), and continues a resumed one. */
ev_status grid_record_run(session_t *s, const run_args_t *a, run_file_t *rf, topk_t *pool, topk_t *top, grid_cands_t *c,
                          grid_stats_t *gs, grid_resume_t *gr, ev_error *err);

/* The name of the evaluator a grid ran ("backtest" for a strategy's), for
 * the run file, the log and the JSON. */
const char *grid_record_evaluator(const session_t *s, const grid_stats_t *gs);

#ifdef __cplusplus
}
#endif
#endif
