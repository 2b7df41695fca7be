/* Parent selection within an island (docs/ga.md).
 *
 * The island is ranked first (best first: rank_key descending, the lower
 * linear index on ties, then the lower individual); `order` lists its
 * individuals in that order. Selection then works on rank positions: the best
 * of k uniform picks is the pick with the smallest position, which is exactly
 * "the best by (rank_key, lower index)" without reading any fitness. */
#ifndef EVOLVE_SELECTION_H
#define EVOLVE_SELECTION_H

#include <stdint.h>

#include "common/hd.h"
#include "operators/breed_ctx.h"
#include "operators/rng.h"

/* Rank position (0 = the island's best) of one parent of `child` in
 * `generation` (the generation being made). stream: RNG_STREAM_SELECT_A or
 * _B. Tournament: pick j is uniform(draw j, island_size), j < k; the smallest
 * wins. Truncation: uniform(draw 0, truncation_pool). */
EV_HD uint32_t select_rank(const breed_ctx_t *c, uint32_t generation, uint32_t child, uint32_t stream)
{
    rng_cursor_t r;
    uint32_t best = UINT32_MAX;
    rng_cursor_init(&r, rng_key(c->seed), generation, child, stream);
    if (c->selection == SEL_TRUNCATION)
        return rng_uniform(rng_cursor_draw(&r, 0), c->truncation_pool);
    for (uint32_t j = 0; j < c->tournament_k; j++) {
        uint32_t pos = rng_uniform(rng_cursor_draw(&r, j), c->island_size);
        best = pos < best ? pos : best;
    }
    return best;
}

/* The parent as an individual of the ranked population: order[pop] holds
 * each island's individuals in rank order. */
EV_HD uint32_t select_parent(const breed_ctx_t *c, const uint32_t *order, uint32_t generation, uint32_t child,
                             uint32_t stream)
{
    uint32_t begin = breed_island_of(c, child) * c->island_size;
    return order[begin + select_rank(c, generation, child, stream)];
}

#endif
