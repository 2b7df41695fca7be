/* The two steps of dominance sums (fitness/dominance.h) after binning, on one
 * block of cells, shared by the pass that splits a block among threads and
 * the one that gives each thread whole exit combinations: the suffix sums,
 * and the ranking of the block's cells into a grid sink. */
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
} dom_block_t;

/* Suffix sums along every free axis: afterwards cell x sums the trades genome
 * x keeps. parallel: OpenMP threads over rows when the block is large. */
void dominance_suffix(const dom_block_t *b, int parallel);

/* Offers cells [x0, x1) of the block to sink s (a thread's own twin). A
 * cell's key comes first; its genes and linear index are stepped along, not
 * encoded, and only a key that both s's bar and `shared` admit is offered to
 * s's top-K. shared: the bar of the list s merges into, taken before (NULL:
 * none); bars only get stricter, so what it refuses the merge would drop. */
void dominance_rank_range(const dom_block_t *b, grid_sink_t *s, const topk_bar_t *shared, uint64_t x0, uint64_t x1);

#ifdef __cplusplus
}
#endif
#endif
