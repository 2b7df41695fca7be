/* Dominance sums: the whole grid at once, for additive objectives.
 *
 * Filters are monotone: a trade kept at threshold g is kept at every looser
 * threshold. So, per (target, stop) pair, bin every trade's sums into its
 * lattice cell and take suffix sums along each filter axis: cell x then holds
 * the sums of exactly the trades that genome x keeps. Cost per pair:
 * O(trades + cells x filters) instead of O(cells x trades).
 *
 * Needs only sums, so not for calmar or a max_drawdown_pct constraint (they
 * depend on the order of the kept trades). When the filter cells do not fit the
 * memory budget, the leading filters are fixed block by block. */
#ifndef EVOLVE_DOMINANCE_H
#define EVOLVE_DOMINANCE_H

#include <stdint.h>
#include <stdio.h>

#include "common/status.h"
#include "fitness/dominance_cell.h"
#include "fitness/grid_sink.h"
#include "fitness/problem.h"
#include "fitness/tables.h"
#include "fitness/topk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t memory_budget; /* bytes for the cell sums (0: 512 MiB) */
    FILE *progress;         /* progress line, or NULL */
} dominance_opts_t;

/* 1 when the objective is additive (everything but calmar / max drawdown). */
int dominance_applicable(const fit_problem_t *p);

/* Every lattice point, merged into top (which keeps the exact top-K). */
ev_status dominance_grid(const fit_problem_t *p, const fit_tables_t *t, const dominance_opts_t *opts, topk_t *top,
                         ev_error *err);

/* Every lattice point, offered to a sink (top-K, heatmap, count). */
ev_status dominance_grid_sink(const fit_problem_t *p, const fit_tables_t *t, const dominance_opts_t *opts,
                              grid_sink_t *sink, ev_error *err);

/* Fixes as few leading filters as needed for one block's cells, at
 * bytes_per_cell each, to fit in budget bytes (at least one cell per block);
 * the CPU evaluator and kernels/dominance.cu block the lattice alike. */
void dominance_plan(dom_plan_t *b, const fit_tables_t *t, uint64_t budget, uint64_t bytes_per_cell);

#ifdef __cplusplus
}
#endif
#endif
