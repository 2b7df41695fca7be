/* The geometry of dominance sums (fitness/dominance.h), shared by the CPU
 * evaluator and the CUDA kernels so both bin, sweep and name cells the same way.
 *
 * Per (target, stop) pair the filter lattice (mirrored space: a trade is kept
 * iff g'_f < cell_f for every filter f) is cut into blocks: the leading `lead`
 * filters are fixed to lead_genes, the free filters [lead, n_filters) span
 * `cells` cells in row-major order (the last filter fastest). */
#ifndef EVOLVE_DOMINANCE_CELL_H
#define EVOLVE_DOMINANCE_CELL_H

#include <stdint.h>

#include "common/hd.h"
#include "fitness/dom_cells.h"
#include "fitness/fold_accum.h"
#include "fitness/lattice.h"
#include "fitness/tables.h"

typedef struct {
    int32_t n_filters;
    int32_t lead;                   /* number of fixed leading filters */
    uint64_t cells;                 /* prod of filter_n over the free filters (>= 1) */
    uint64_t combos;                /* prod of filter_n over the fixed ones: blocks per pair */
    uint64_t stride[EV_MAX_PARAMS]; /* row-major cell strides of the free filters */
} dom_plan_t;

/* The cell of the block that trade row c (cells: uint16[n_filters]) is
 * binned into: with lead_genes fixed, the trade is in the block iff every
 * fixed filter keeps it and it passes value 0 of every free filter; its cell
 * is (cell_f - 1) along each free axis (the loosest genome of the block that
 * still keeps it). Returns 0 when the trade is in no cell of the block. */
EV_HD int dominance_trade_cell(const dom_plan_t *b, const uint16_t *lead_genes, const uint16_t *c, uint64_t *idx)
{
    uint64_t x = 0;
    int keep = 1;
    for (int32_t f = 0; f < b->lead; f++)
        keep &= lead_genes[f] < c[f];
    for (int32_t f = b->lead; f < b->n_filters; f++) {
        keep &= c[f] > 0;
        x += (uint64_t)(c[f] > 0 ? c[f] - 1 : 0) * b->stride[f];
    }
    *idx = x;
    return keep;
}

/* The filter genes (genome space: mirrored back for max filters) of cell x
 * of the block; other genes of `genes` are left alone. */
EV_HD void dominance_cell_genes(const dom_plan_t *b, const fit_tables_t *t, const uint16_t *lead_genes, uint64_t x,
                                uint16_t *genes)
{
    uint64_t rest = x;
    for (int32_t f = 0; f < b->n_filters; f++) {
        uint32_t g = f < b->lead ? lead_genes[f] : (uint32_t)(rest / b->stride[f]);
        if (f >= b->lead)
            rest -= (uint64_t)g * b->stride[f];
        genes[t->filter_param[f]] = (uint16_t)(t->filter_mirror[f] ? t->filter_n[f] - 1u - g : g);
    }
}

/* The fixed leading genes (mirrored space) of block `combo` in [0, combos). */
EV_HD void dominance_lead_decode(const dom_plan_t *b, const fit_tables_t *t, uint64_t combo, uint16_t *lead_genes)
{
    for (int32_t f = b->lead - 1; f >= 0; f--) {
        lead_genes[f] = (uint16_t)(combo % t->filter_n[f]);
        combo /= t->filter_n[f];
    }
}

/* Sum sets per block: one per day fold when the search ranks by a fold
 * statistic (objective.aggregate), else one. Set s of cell x lives at
 * s * cells + x: the fold is the slowest axis of the block, never swept. */
EV_HD int32_t dominance_sets(const fit_tables_t *t)
{
    return t->agg != AGG_ALL ? t->n_folds : 1;
}

/* The sum set of trade j (equity order): its day fold, or 0. */
EV_HD uint64_t dominance_trade_set(const fit_tables_t *t, int64_t j)
{
    return t->agg != AGG_ALL ? t->fold[j] : 0u;
}

/* The search's fitness of cell x of a block of `cells` cells: the objective
 * of its sums, or the fold statistic of its per-fold sums (fold_aggregate,
 * as tables_eval_folds computes it trade by trade). */
EV_HD eval_result_t dominance_cell_result(const fit_tables_t *t, const dom_cells_t *c, uint64_t cells, uint64_t x)
{
    accum_t a[EV_AGG_MAX_FOLDS];
    if (t->agg == AGG_ALL) {
        a[0] = dom_cells_load(c, x);
        return accum_finish(&a[0], &t->obj);
    }
    for (int32_t f = 0; f < t->n_folds; f++)
        a[f] = dom_cells_load(c, (uint64_t)f * cells + x);
    return fold_aggregate(a, t->n_folds, t->agg, &t->obj);
}

#endif
