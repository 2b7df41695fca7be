/* Counter-based randomness for the GA (docs/ga.md, "Draw numbering").
 *
 * Draw d of (seed, generation, individual, stream) is word d % 4 of
 * Philox4x32-10(counter = {d / 4, individual, generation, stream},
 *               key     = {seed low 32 bits, seed high 32 bits}).
 * Nothing is carried from one draw to the next, so the CPU loop and a CUDA
 * thread per child (whatever the launch shape) draw the same numbers, and a
 * resumed run continues exactly (the counters are implied by the generation).
 *
 * Integers and coin flips are made from 32-bit words with integer arithmetic
 * only, so every backend turns a word into the same decision. */
#ifndef EVOLVE_RNG_H
#define EVOLVE_RNG_H

#include <stdint.h>

#include "common/hd.h"
#include "operators/philox.h"

/* What a stream of draws is for: the fourth counter word. Never renumber:
 * the numbers are part of the reproducibility contract of a seed. */
typedef enum {
    RNG_STREAM_RANDOM = 0,    /* gene k of a random genome (initial population, immigrants): draw k */
    RNG_STREAM_SELECT_A = 1,  /* parent A: tournament pick j is draw j; truncation uses draw 0 */
    RNG_STREAM_SELECT_B = 2,  /* parent B: likewise */
    RNG_STREAM_CROSSOVER = 3, /* draws 0..3: apply?, cut 1, cut 2, uniform mask */
    RNG_STREAM_MUTATION = 4   /* gene k: draws 4k..4k+3 (mutate?, creep?, size/value, direction) */
} rng_stream_id;

/* 2^32: the Bernoulli threshold of a certain event. */
#define RNG_ALWAYS (UINT64_C(1) << 32)

EV_HD philox_key_t rng_key(uint64_t seed)
{
    philox_key_t k;
    k.x = (uint32_t)seed;
    k.y = (uint32_t)(seed >> 32);
    return k;
}

/* Block b (draws 4b..4b+3) of a stream. */
EV_HD philox_ctr_t rng_block(philox_key_t key, uint32_t generation, uint32_t individual, uint32_t stream,
                             uint32_t block)
{
    philox_ctr_t c;
    c.x = block;
    c.y = individual;
    c.z = generation;
    c.w = stream;
    return philox4x32_10(c, key);
}

/* Draw d of a stream: the definition every other accessor must agree with. */
EV_HD uint32_t rng_draw(philox_key_t key, uint32_t generation, uint32_t individual, uint32_t stream, uint32_t d)
{
    return philox_word(rng_block(key, generation, individual, stream, d / 4u), d % 4u);
}

/* Reads one stream in order without recomputing a block for every word: a
 * cache, not state (the values are those of rng_draw whatever the order). */
typedef struct {
    philox_key_t key;
    uint32_t generation, individual, stream;
    uint32_t block; /* block held in `words`, or UINT32_MAX */
    philox_ctr_t words;
} rng_cursor_t;

EV_HD void rng_cursor_init(rng_cursor_t *c, philox_key_t key, uint32_t generation, uint32_t individual, uint32_t stream)
{
    c->key = key;
    c->generation = generation;
    c->individual = individual;
    c->stream = stream;
    c->block = UINT32_MAX;
    c->words.x = c->words.y = c->words.z = c->words.w = 0;
}

EV_HD uint32_t rng_cursor_draw(rng_cursor_t *c, uint32_t d)
{
    if (c->block != d / 4u) {
        c->block = d / 4u;
        c->words = rng_block(c->key, c->generation, c->individual, c->stream, c->block);
    }
    return philox_word(c->words, d % 4u);
}

/* An integer in [0, n) from a word: floor(r * n / 2^32) (multiply-shift).
 * Bias at most n / 2^32, which for n <= 65535 is below 2e-5. */
EV_HD uint32_t rng_uniform(uint32_t r, uint32_t n)
{
    return (uint32_t)(((uint64_t)r * (uint64_t)n) >> 32);
}

/* A coin with P(true) = threshold / 2^32 (rng_threshold). */
EV_HD int rng_bernoulli(uint32_t r, uint64_t threshold)
{
    return (uint64_t)r < threshold;
}

/* The threshold of probability p, computed once on the host: floor(p * 2^32)
 * (exact: scaling by a power of two), clamped to [0, 2^32]. It is a 64-bit
 * number because p = 1 needs 2^32, one more than a word holds. */
EV_HD uint64_t rng_threshold(double p)
{
    if (!(p > 0.0))
        return 0;
    if (p >= 1.0)
        return RNG_ALWAYS;
    return (uint64_t)(p * 4294967296.0);
}

#endif
