/* Dominance sums: the whole grid at once, for additive objectives.
 *
 * Filters are monotone: a trade kept at threshold g is kept at every looser
 * threshold. So, per (target, stop) pair, bin every trade's sums into its
 * lattice cell and take suffix sums along each filter axis: cell x then holds
 * the sums of exactly the trades that genome x keeps. Cost per pair:
 * O(trades + cells x filters) instead of O(cells x trades).
 *
 * Needs only sums, so not for calmar or a max_drawdown_pct constraint (they
 * depend on the order of the kept trades). When the search ranks by a fold
 * statistic (objective.aggregate), every cell holds one set of sums per day
 * fold (each trade binned into its fold's set), so memory grows by the fold
 * count. When the filter cells do not fit the memory budget, the leading
 * filters are fixed block by block. */
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

/* The cell sums' memory when none is configured (grid.dominance_budget). */
#define DOMINANCE_DEFAULT_BUDGET ((uint64_t)512 << 20)
/* The fewest cells per block (or the whole filter lattice, when smaller) at
 * which the grid's `auto` still picks dominance sums: smaller blocks bin every
 * trade once per handful of genomes, no faster than the tables evaluator. */
#define DOMINANCE_MIN_BLOCK ((uint64_t)4096)

typedef struct {
    uint64_t memory_budget; /* bytes for the cell sums (0: DOMINANCE_DEFAULT_BUDGET) */
    FILE *progress;         /* progress line, or NULL */
    /* where the pass starts and whom it tells after each block, or NULL; its
     * points run by exit combination, then block (dominance_first_block) */
    const grid_progress_hook_t *hook;
    /* 1: one exit combination at a time, its block's cells split among the
     * threads, even where whole combinations per thread apply
     * (fitness/dominance_many.h; the tests compare the two) */
    int by_block;
    /* the largest slice of a block the whole-combination pass sweeps in
     * cache (0: DOM_TILE_BYTES of fitness/dominance_suffix.h; the tests make it
     * small to cut their small blocks) */
    uint64_t tile_bytes;
} dominance_opts_t;

/* 1 when the objective is additive (everything but calmar / max drawdown). */
int dominance_applicable(const fit_problem_t *p);

/* 1 when a block of the sums (all fold sets of a fold statistic) within
 * budget bytes (0: the default) holds DOMINANCE_MIN_BLOCK cells, or the whole
 * filter lattice when it is smaller. */
int dominance_fits(const fit_problem_t *p, uint64_t budget);

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

/* The block a pass resumes at after `start` points of its order (exit
 * combination outermost, then the plan's blocks): an error naming both when
 * start ends no block of this plan (a checkpoint of another memory budget). */
ev_status dominance_first_block(const dom_plan_t *plan, uint64_t exit_combos, uint64_t start, uint64_t *block,
                                ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
