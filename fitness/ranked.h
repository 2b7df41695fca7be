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

/* a ranks before b (SPEC sec. 5): rank_key descending, then the lower linear
 * index, then the genes lexicographically. On one lattice the genes' order is
 * the linear index order, so the genes decide only where the index does not
 * fit a word (UINT64_MAX for every genome); entries without genes (a grid
 * top-K's, all 0) are ordered by their index alone. */
EV_HD int ranked_before(const ranked_genome_t *a, const ranked_genome_t *b)
{
    if (a->key != b->key)
        return a->key > b->key;
    if (a->index != b->index)
        return a->index < b->index;
    for (int k = 0; k < EV_MAX_PARAMS; k++)
        if (a->genes[k] != b->genes[k])
            return a->genes[k] < b->genes[k];
    return 0;
}

#endif
