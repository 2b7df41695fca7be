/* The suffix sums of dominance sums (fitness/dominance.h) on one block of
 * binned cells: afterwards cell x sums the trades genome x keeps. Axis by
 * axis over the whole block, or tiled and fused with the ranking
 * (fitness/dominance_rank.h) so that a large block's sweeps run in cache. */
#ifndef EVOLVE_DOMINANCE_SUFFIX_H
#define EVOLVE_DOMINANCE_SUFFIX_H

#include <stdint.h>

#include "fitness/dominance_rank.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A slice of a block at most this large (all its fields) is swept axis by
 * axis: every sweep then reads and writes it in a core's L1 (32 KB on the
 * development machine); larger slices are cut again, and each cut's adds
 * read slices just summed (bench/RESULTS.md: 128 KB, in L2, took 1.4x the
 * time of 4-16 KB on the trader-like lattice). */
#define DOM_TILE_BYTES ((uint64_t)16 << 10)

/* Suffix sums along every free axis: afterwards cell x sums the trades genome
 * x keeps. parallel: OpenMP threads over rows when the block is large. */
void dominance_suffix(const dom_block_t *b, int parallel);

/* The suffix sums and the ranking of the whole block into sink s (as
 * dominance_suffix then dominance_rank_range over every cell), fused for a
 * large block: its sweeps run on slices that stay in cache, and each slice is
 * ranked as soon as it is final (fitness/dominance_suffix.c). One thread. */
void dominance_suffix_rank(const dom_block_t *b, grid_sink_t *s, const topk_bar_t *shared);

#ifdef __cplusplus
}
#endif
#endif
