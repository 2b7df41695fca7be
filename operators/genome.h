/* Genomes as the GA operators see them: one uint16 gene per parameter (an
 * index into its list of values), populations as structure-of-arrays (gene k
 * of individual i at genes[k * pop + i], so a warp reading gene k of
 * consecutive individuals reads consecutive words), and the linear index of
 * SPEC sec. 3 in as many 64-bit words as the lattice needs. */
#ifndef EVOLVE_GENOME_H
#define EVOLVE_GENOME_H

#include <stdint.h>

#include "common/hd.h"
#include "operators/rng.h"

#define GA_MAX_GENES 16      /* = EV_MAX_PARAMS (checked in operators/ga_types.h) */
#define GA_INDEX_WORDS_MAX 4 /* 16 genes of < 2^16 values: a lattice of < 2^256 points */

EV_HD void genome_gather(const uint16_t *genes, uint32_t pop, uint32_t i, int32_t n_genes, uint16_t *out)
{
    for (int32_t k = 0; k < n_genes; k++)
        out[k] = genes[(uint64_t)k * pop + i];
}

EV_HD void genome_scatter(uint16_t *genes, uint32_t pop, uint32_t i, int32_t n_genes, const uint16_t *g)
{
    for (int32_t k = 0; k < n_genes; k++)
        genes[(uint64_t)k * pop + i] = g[k];
}

/* A genome uniform over the lattice: gene k = uniform(draw k, n_k) of stream
 * RNG_STREAM_RANDOM at (generation, individual). */
EV_HD void genome_random(philox_key_t key, uint32_t generation, uint32_t individual, int32_t n_genes,
                         const uint32_t *n_values, uint16_t *out)
{
    rng_cursor_t c;
    rng_cursor_init(&c, key, generation, individual, RNG_STREAM_RANDOM);
    for (int32_t k = 0; k < n_genes; k++)
        out[k] = (uint16_t)rng_uniform(rng_cursor_draw(&c, (uint32_t)k), n_values[k]);
}

/* x = x * n + add over `words` 64-bit words, least significant first. Each
 * word is multiplied as two 32-bit halves: with n, add < 2^32 every partial
 * product and carry fits in 64 bits, so no 128-bit type is needed. */
EV_HD void genome_mul_add(uint64_t *x, int32_t words, uint32_t n, uint32_t add)
{
    uint64_t carry = add;
    for (int32_t w = 0; w < words; w++) {
        uint64_t lo = (x[w] & 0xFFFFFFFFu) * n + carry;
        uint64_t hi = (x[w] >> 32) * n + (lo >> 32);
        x[w] = (hi << 32) | (lo & 0xFFFFFFFFu);
        carry = hi >> 32;
    }
}

/* The linear index sum_k g_k prod_{j>k} n_j (SPEC sec. 3) by Horner's rule,
 * in `words` words, least significant first. */
EV_HD void genome_index(const uint32_t *n_values, int32_t n_genes, const uint16_t *g, int32_t words, uint64_t *out)
{
    for (int32_t w = 0; w < words; w++)
        out[w] = 0;
    for (int32_t k = 0; k < n_genes; k++)
        genome_mul_add(out, words, n_values[k], g[k]);
}

/* Words needed for the indices of a lattice: the fewest W with size < 2^(64 W),
 * so an index is never all ones (the dedup cache's empty-slot mark). */
EV_HD int32_t genome_index_words(const uint32_t *n_values, int32_t n_genes)
{
    uint64_t size[GA_INDEX_WORDS_MAX];
    int32_t words = 1;
    size[0] = 1;
    for (int32_t w = 1; w < GA_INDEX_WORDS_MAX; w++)
        size[w] = 0;
    for (int32_t k = 0; k < n_genes; k++)
        genome_mul_add(size, GA_INDEX_WORDS_MAX, n_values[k], 0);
    for (int32_t w = 0; w < GA_INDEX_WORDS_MAX; w++)
        if (size[w])
            words = w + 1;
    return words;
}

/* Compares two multiword indices: -1, 0, 1. */
EV_HD int genome_index_cmp(const uint64_t *a, const uint64_t *b, int32_t words)
{
    for (int32_t w = words - 1; w >= 0; w--)
        if (a[w] != b[w])
            return a[w] < b[w] ? -1 : 1;
    return 0;
}

/* Genes in lexicographic order, the first gene most significant: the same
 * order as the linear index, without computing it. -1, 0, 1. */
EV_HD int genome_cmp(const uint16_t *a, const uint16_t *b, int32_t n_genes)
{
    for (int32_t k = 0; k < n_genes; k++)
        if (a[k] != b[k])
            return a[k] < b[k] ? -1 : 1;
    return 0;
}

#endif
