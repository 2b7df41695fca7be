/* Per-gene mutation (docs/ga.md).
 *
 * Gene k of the child made at (generation, child) reads block k of stream
 * RNG_STREAM_MUTATION (draws 4k..4k+3):
 *   word 0 (x): mutate? (bernoulli, mutation rate per gene)
 *   word 1 (y): creep (bernoulli, creep_share) or reset
 *   word 2 (z): creep step size 1 + uniform(creep_max), or the reset value
 *   word 3 (w): creep direction (up when the word is < 2^31)
 * Every mutation changes the gene, so the mutation rate is the rate of
 * changed genes: a reset picks uniformly among the n - 1 other values; a creep
 * moves 1..creep_max steps and stays on the lattice: a step that would leave
 * it is taken in the other direction, and a step longer than the room on
 * both sides is shortened to the larger room. A gene with one value never
 * mutates. */
#ifndef EVOLVE_MUTATION_H
#define EVOLVE_MUTATION_H

#include <stdint.h>

#include "common/hd.h"
#include "operators/breed_ctx.h"
#include "operators/rng.h"

/* Gene value v of a parameter with n values, after mutation block w. */
EV_HD uint16_t mutate_gene(const breed_ctx_t *c, philox_ctr_t w, uint32_t n, uint16_t v)
{
    uint32_t up_room, down_room, room, s, u;
    int up;
    if (n < 2u || !rng_bernoulli(w.x, c->mutation_thr))
        return v;
    if (!rng_bernoulli(w.y, c->creep_thr)) {
        u = rng_uniform(w.z, n - 1u);
        return (uint16_t)(u < v ? u : u + 1u);
    }
    up_room = n - 1u - v;
    down_room = v;
    room = up_room > down_room ? up_room : down_room;
    s = 1u + rng_uniform(w.z, c->creep_max);
    if (s > room)
        s = room;
    up = w.w < 0x80000000u;
    if (up && s > up_room)
        up = 0;
    else if (!up && s > down_room)
        up = 1;
    return (uint16_t)(up ? v + s : v - s);
}

/* Mutates a whole genome in place; returns the number of genes changed. */
EV_HD int32_t mutate_genome(const breed_ctx_t *c, uint32_t generation, uint32_t child, uint16_t *g)
{
    philox_key_t key = rng_key(c->seed);
    int32_t changed = 0;
    for (int32_t k = 0; k < c->n_genes; k++) {
        philox_ctr_t w = rng_block(key, generation, child, RNG_STREAM_MUTATION, (uint32_t)k);
        uint16_t v = mutate_gene(c, w, c->n_values[k], g[k]);
        changed += v != g[k];
        g[k] = v;
    }
    return changed;
}

#endif
