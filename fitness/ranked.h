/* A ranked genome: what every reported list (grid top-K, GA hall of fame)
 * holds, with its genes, so lattices too large for a 64-bit index print too. */
#ifndef EVOLVE_RANKED_H
#define EVOLVE_RANKED_H

#include <stdint.h>

#include "common/hd.h"
#include "fitness/accum.h"
#include "fitness/lattice.h"

typedef struct {
    uint64_t key;   /* rank_key(r) */
    uint64_t index; /* linear index; UINT64_MAX when the lattice has >= 2^64 points */
    eval_result_t r;
    uint16_t genes[EV_MAX_PARAMS]; /* genes beyond the lattice's are 0 */
} ranked_genome_t;
EV_STATIC_ASSERT(sizeof(ranked_genome_t) == 40 + 2 * EV_MAX_PARAMS, "ranked_genome_t layout is shared with CUDA");

#endif
