/* A sweep over two exit levels at once (fitness/sweep.c's pair of level
 * dimensions: target, stop or an exit of SPEC sec. 4.1) for the additive
 * objectives, in O(n1 + n2) per trade instead of n1 x n2 outcomes.
 *
 * Each role's first hit is monotone in its value (fitness/hits.h,
 * more_exits.h), so for one trade the cells (i1, i2) won by the fixed roles
 * are a product of two intervals, those won by value i1 of the first level an
 * interval of i2 (the values of the second that hit later), and those won by
 * value i2 an interval of i1. Each interval is added to a difference array
 * (per row, per column, and 2-D for the product) and the prefix sums give
 * every cell's sums: the same integers as adding every cell's outcome, so
 * the same results bit for bit. A trade whose rows are not monotone (never
 * expected; checked per trade) is added cell by cell. The drawdown needs the
 * trades in order per cell: callers keep the cell-by-cell loop for it. */
#ifndef EVOLVE_SWEEP_LEVELS_H
#define EVOLVE_SWEEP_LEVELS_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/exit_race.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t n1, n2;
    accum_t *row;     /* [n1][n2 + 1]: value i1's wins, a difference along i2 */
    accum_t *col;     /* [n2][n1 + 1]: value i2's wins, a difference along i1 */
    accum_t *both;    /* [n1 + 1][n2 + 1]: the fixed roles' wins, a 2-D difference */
    int64_t *k1, *k2; /* one trade's race keys per value */
} sweep_levels_t;

ev_status sweep_levels_init(sweep_levels_t *s, uint32_t n1, uint32_t n2, ev_error *err);
void sweep_levels_free(sweep_levels_t *s);

/* One trade: fixed is its race without the two levels, r1 and r2 their rows.
 * out[i1 * n2 + i2] gets the trade directly when its rows are not monotone. */
void sweep_levels_add(sweep_levels_t *s, const objective_prep_t *o, race_t fixed, const race_row_t *r1,
                      const race_row_t *r2, accum_t *out);

/* Adds every cell's sums into out[i1 * n2 + i2], once, at the end (the
 * difference arrays are summed in place). */
void sweep_levels_finish(const sweep_levels_t *s, accum_t *out);

#ifdef __cplusplus
}
#endif
#endif
