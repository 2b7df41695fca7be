/* Crossover of two parent genomes (docs/ga.md).
 *
 * One Philox block of stream RNG_STREAM_CROSSOVER at (generation, child):
 *   word 0: apply? (bernoulli, crossover_rate); otherwise the child is A
 *   word 1: one-point cut / first two-point cut
 *   word 2: second two-point cut
 *   word 3: uniform crossover mask (bit k set: gene k from B)
 * A genome of one gene cannot be crossed: the child is A. */
#ifndef EVOLVE_CROSSOVER_H
#define EVOLVE_CROSSOVER_H

#include <stdint.h>

#include "common/hd.h"
#include "operators/breed_ctx.h"
#include "operators/rng.h"

/* Genes [lo, hi) from B, the rest from A, for the one- and two-point kinds:
 *   one-point: lo = 1 + uniform(word 1, n - 1), hi = n   (A's head, B's tail)
 *   two-point: two distinct cuts p, q in [1, n - 1] (q drawn among the n - 2
 *              values other than p), lo = min, hi = max; n = 2 has one cut. */
EV_HD void crossover_cuts(const breed_ctx_t *c, philox_ctr_t w, uint32_t *lo, uint32_t *hi)
{
    uint32_t n = (uint32_t)c->n_genes;
    uint32_t p = 1u + rng_uniform(w.y, n - 1u), q;
    if (c->crossover == XO_ONE_POINT || n == 2u) {
        *lo = p;
        *hi = c->crossover == XO_ONE_POINT ? n : p + 1u;
        return;
    }
    q = 1u + rng_uniform(w.z, n - 2u);
    if (q >= p)
        q++;
    *lo = p < q ? p : q;
    *hi = p < q ? q : p;
}

/* The child of parents a and b (gene arrays) in out; returns 1 when it was
 * crossed (both parents contribute to its lineage), 0 when it copies a. */
EV_HD int crossover_apply(const breed_ctx_t *c, uint32_t generation, uint32_t child, const uint16_t *a,
                          const uint16_t *b, uint16_t *out)
{
    philox_ctr_t w = rng_block(rng_key(c->seed), generation, child, RNG_STREAM_CROSSOVER, 0);
    int32_t n = c->n_genes;
    uint32_t lo, hi;
    if (n < 2 || !rng_bernoulli(w.x, c->crossover_thr)) {
        for (int32_t k = 0; k < n; k++)
            out[k] = a[k];
        return 0;
    }
    if (c->crossover == XO_UNIFORM) {
        for (int32_t k = 0; k < n; k++)
            out[k] = ((w.w >> k) & 1u) ? b[k] : a[k];
        return 1;
    }
    crossover_cuts(c, w, &lo, &hi);
    for (int32_t k = 0; k < n; k++)
        out[k] = ((uint32_t)k >= lo && (uint32_t)k < hi) ? b[k] : a[k];
    return 1;
}

#endif
