/* One child of the next generation (docs/ga.md): the per-individual step a
 * CPU loop or a CUDA thread runs, reading only the ranked previous
 * generation, so children can be made in any order or all at once. */
#ifndef EVOLVE_BREED_H
#define EVOLVE_BREED_H

#include <stdint.h>

#include "common/hd.h"
#include "operators/breed_ctx.h"
#include "operators/crossover.h"
#include "operators/genome.h"
#include "operators/mutation.h"
#include "operators/selection.h"

/* Individual i of generation 0: uniform over the lattice (stream
 * RNG_STREAM_RANDOM), individual 0 with the fixed genes of ctx->first.
 * genes: SoA [n_genes][population]; parents: [2][population], set to -1. */
EV_HD void breed_initial(const breed_ctx_t *c, uint32_t i, uint16_t *genes, int32_t *parents)
{
    uint16_t g[GA_MAX_GENES];
    genome_random(rng_key(c->seed), 0, i, c->n_genes, c->n_values, g);
    for (int32_t k = 0; i == 0 && k < c->n_genes; k++)
        if (c->first[k] >= 0)
            g[k] = (uint16_t)c->first[k];
    genome_scatter(genes, c->population, i, c->n_genes, g);
    parents[i] = -1;
    parents[c->population + i] = -1;
}

/* Child `child` of `generation` (>= 1), by its island's plan (breed_island_t).
 * prev: the previous generation's genes, SoA [n_genes][population];
 * order: each island's individuals of prev in rank order, [population];
 * isl: [islands]. Writes the child's genes to next (SoA) and its parents
 * (individuals of prev; -1 where none) to parents[child] (A) and
 * parents[population + child] (B, set only when a crossover happened). */
EV_HD void breed_child(const breed_ctx_t *c, const breed_island_t *isl, const uint16_t *prev, const uint32_t *order,
                       uint32_t generation, uint32_t child, uint16_t *next, int32_t *parents)
{
    uint32_t size = c->island_size, island = breed_island_of(c, child);
    uint32_t slot = child - island * size;
    const breed_island_t *p = &isl[island];
    uint16_t a[GA_MAX_GENES], b[GA_MAX_GENES], out[GA_MAX_GENES];
    int32_t pa = -1, pb = -1;
    if (slot < p->elites) {
        pa = (int32_t)order[island * size + slot];
        genome_gather(prev, c->population, (uint32_t)pa, c->n_genes, out);
    } else if (slot >= size - p->migrants) {
        pa = (int32_t)order[p->source * size + slot - (size - p->migrants)];
        genome_gather(prev, c->population, (uint32_t)pa, c->n_genes, out);
    } else if (slot >= size - p->migrants - p->immigrants) {
        genome_random(rng_key(c->seed), generation, child, c->n_genes, c->n_values, out);
    } else {
        uint32_t ia = select_parent(c, order, generation, child, RNG_STREAM_SELECT_A);
        uint32_t ib = select_parent(c, order, generation, child, RNG_STREAM_SELECT_B);
        genome_gather(prev, c->population, ia, c->n_genes, a);
        genome_gather(prev, c->population, ib, c->n_genes, b);
        pa = (int32_t)ia;
        if (crossover_apply(c, generation, child, a, b, out))
            pb = (int32_t)ib;
        mutate_genome(c, generation, child, out);
    }
    genome_scatter(next, c->population, child, c->n_genes, out);
    parents[child] = pa;
    parents[c->population + child] = pb;
}

#endif
