/* Grid mode (SPEC sec. 6): every lattice point, in batches that never
 * overflow 32-bit launch or allocation limits, with the exact top-K. */
#ifndef EVOLVE_GRID_H
#define EVOLVE_GRID_H

#include <stdint.h>
#include <stdio.h>

#include "common/status.h"
#include "fitness/problem.h"
#include "fitness/topk.h"
#include "ga/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { EVAL_AUTO = 0, EVAL_REFERENCE, EVAL_TABLES, EVAL_DOMINANCE } evaluator_kind;

const char *evaluator_name(evaluator_kind e);
int evaluator_from_name(const char *name); /* -1 when unknown */

typedef struct {
    evaluator_kind evaluator;  /* auto: dominance sums where the objective allows, else tables */
    uint64_t batch;            /* genomes per batch (0: the backend's maximum) */
    uint64_t dominance_budget; /* bytes for dominance cells (0: default) */
    FILE *progress;            /* progress line, or NULL */
    grid_heat_t *heat;         /* or NULL: also fold every point into this heatmap, where the backend can */
    /* or NULL: where the pass starts (top and heat already hold the points
     * before it) and whom it tells after each block; one process only
     * (dist_grid_run refuses a start under mpirun) */
    const grid_progress_hook_t *hook;
} grid_opts_t;

typedef struct {
    evaluator_kind evaluator; /* the one that ran */
    uint64_t evaluated;       /* lattice points evaluated */
    double seconds;
    int heat_filled; /* 1: opts->heat holds the heatmap (0: the backend has no heat op for the evaluator) */
} grid_stats_t;

/* The evaluator a grid runs: asked, or for auto dominance sums where the
 * objective and the backend allow and their sums fit dominance_budget
 * (one set per fold for a fold statistic), else tables; an error when the
 * lattice cannot be enumerated or the asked one cannot run. */
ev_status grid_pick_evaluator(const backend_ops_t *ops, const fit_problem_t *p, evaluator_kind asked,
                              uint64_t dominance_budget, evaluator_kind *ev, ev_error *err);

/* opts->heat when evaluator ev's pass on this backend can fill it, else NULL. */
grid_heat_t *grid_heat_for(const backend_ops_t *ops, const grid_opts_t *opts, evaluator_kind ev);

/* Lattice points per batch of evaluator ev (tables or reference). */
uint64_t grid_batch_points(const backend_ops_t *ops, backend_t *b, const grid_opts_t *opts, evaluator_kind ev);

/* The lattice points [first, first + count) by evaluator ev (tables or
 * reference), count <= grid_batch_points: offered to top and folded into
 * heat (NULL: none; else as grid_heat_for allows). */
ev_status grid_eval_batch(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, evaluator_kind ev,
                          uint64_t first, uint64_t count, topk_t *top, grid_heat_t *heat, ev_error *err);

/* One backend's pass over lattice points [first, first + count) into a sink. */
typedef ev_status (*grid_pass_fn)(backend_t *b, uint64_t first, uint64_t count, grid_sink_t *sink, ev_error *err);

/* A backend's grid_count_better by passes of `batch` points over the whole
 * lattice; Ctrl-C is answered between passes. */
ev_status grid_count_better_passes(backend_t *b, const lattice_t *lat, uint64_t batch, grid_pass_fn pass, uint64_t key,
                                   uint64_t *count, ev_error *err);

ev_status grid_run(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, const grid_opts_t *opts, topk_t *top,
                   grid_stats_t *stats, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
