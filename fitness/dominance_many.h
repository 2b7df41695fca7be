/* Dominance sums (fitness/dominance.h) with whole exit combinations per
 * thread: when the filter lattice is one block and there are many exit
 * combinations (SPEC sec. 4.1's roles multiply them), each thread takes a
 * group of combinations at a time, bins every trade into all of the group's
 * blocks at once (a trade's table rows are read once for the group, not once
 * per combination), then sweeps and ranks each block alone. No barrier per
 * combination, and the group's blocks stay in cache while trades stream by.
 * The same sums and the same sink as the block-by-block pass. */
#ifndef EVOLVE_DOMINANCE_MANY_H
#define EVOLVE_DOMINANCE_MANY_H

#include <stdint.h>

#include "common/progress.h"
#include "common/status.h"
#include "fitness/dominance_cell.h"
#include "fitness/grid_sink.h"
#include "fitness/problem.h"
#include "fitness/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most combinations a thread bins at once, and the bytes their blocks
 * aim at (a core's L2: the group's cells take every trade's adds). */
#define DOM_GROUP_MAX 64u
#define DOM_GROUP_BYTES ((uint64_t)256 << 10)

/* Combinations per group for this plan (block_bytes: one combination's
 * block), or 0 when the pass does not apply: the filter lattice is cut into
 * blocks, fewer than two combinations per thread, or `threads` groups of
 * blocks exceed budget bytes. */
uint32_t dominance_many_group(const dom_plan_t *plan, uint64_t block_bytes, uint64_t exits, uint64_t budget,
                              int threads);

/* Combinations [first, exits) of the pass, `group` at a time per thread, into
 * sink (each block swept and ranked in slices of tile_bytes: dom_block_t); after each round of groups *done (points) grows and grid_pass_step
 * reports it to hook and prog. */
ev_status dominance_many_pass(const fit_problem_t *p, const fit_tables_t *t, const dom_plan_t *plan, uint32_t group,
                              uint64_t tile_bytes, uint64_t first, grid_sink_t *sink, const grid_progress_hook_t *hook,
                              progress_t *prog, uint64_t *done, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
