/* The last step of dominance sums (fitness/dominance.h), on one block of
 * cells after its suffix sums (fitness/dominance_suffix.h), shared by the
 * pass that splits a block among threads and the one that gives each thread
 * whole exit combinations: the ranking of the block's cells into a grid
 * sink. */
#ifndef EVOLVE_DOMINANCE_RANK_H
#define EVOLVE_DOMINANCE_RANK_H

#include <stdint.h>

#include "fitness/dom_cells.h"
#include "fitness/dominance_cell.h"
#include "fitness/grid_sink.h"
#include "fitness/problem.h"
#include "fitness/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One block of cells under one exit combination, as the steps see it. */
typedef struct {
    const fit_problem_t *p;
    const fit_tables_t *t;
    const dom_plan_t *plan;
    const dom_cells_t *c;       /* plan->cells x dominance_sets(t) sums */
    const uint16_t *lead_genes; /* the fixed leading filters (mirrored space) */
    const tables_exits_t *exits;
    uint64_t tile_bytes; /* dominance_suffix_rank's slices (0: DOM_TILE_BYTES) */
} dom_block_t;

/* Offers cells [x0, x1) of the block to sink s (a thread's own twin), row by
 * row along the last free axis: a row's best key first (for total_return
 * over all days, the best feasible sum's: no key per cell), the heatmap's
 * cell takes it, and only a row whose best key both s's bar and `shared`
 * admit has its cells offered to s's top-K; genes and linear index are
 * stepped along, not encoded. shared: the bar of the list s merges into, taken before (NULL:
 * none); bars only get stricter, so what it refuses the merge would drop. */
void dominance_rank_range(const dom_block_t *b, grid_sink_t *s, const topk_bar_t *shared, uint64_t x0, uint64_t x1);

#ifdef __cplusplus
}
#endif
#endif
