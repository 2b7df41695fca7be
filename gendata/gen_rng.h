/* Counter-based randomness for gen-data.
 *
 * Every draw is a pure function of (seed, day, ticker, stream, counter): no
 * state is carried between draws, so days and tickers can be generated in any
 * order, on any number of threads, with identical output. The mixer is the
 * SplitMix64 finaliser (Steele, Lea, Flood 2014): draw i of a stream is
 * mix(key + (i + 1) * golden_gamma), i.e. exactly the SplitMix64 sequence
 * seeded with the stream's key. Keys are themselves hashed from their parts,
 * so neighbouring days or tickers give unrelated streams. */
#ifndef EVOLVE_IO_GEN_RNG_H
#define EVOLVE_IO_GEN_RNG_H

#include <math.h>
#include <stdint.h>

#define GEN_RNG_GAMMA 0x9E3779B97F4A7C15ULL

/* What a stream is used for; part of its key, so streams never share draws. */
enum {
    GEN_STREAM_PATH = 1,  /* per-second return and noise shocks */
    GEN_STREAM_JUMP = 2,  /* per-second jump decisions and jump sizes */
    GEN_STREAM_SLOW = 3,  /* log-volatility steps and per-minute drift shocks */
    GEN_STREAM_TAPE = 4,  /* per-second volume and missing rows */
    GEN_STREAM_DAILY = 5, /* day-level volatility regime and overnight gap */
    GEN_STREAM_TRADES = 6 /* trade windows and holding times */
};

static inline uint64_t gen_rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The key of one stream. day is the trading-day index (0 = --start); ticker is
 * a hash of the ticker's name (gen_rng_name_hash), so a ticker's data do not
 * depend on which other tickers are generated beside it. */
static inline uint64_t gen_rng_key(uint64_t seed, uint64_t day, uint64_t ticker, uint64_t stream)
{
    uint64_t k = gen_rng_mix(seed + GEN_RNG_GAMMA);
    k = gen_rng_mix(k ^ (day + 1) * GEN_RNG_GAMMA);
    k = gen_rng_mix(k ^ ticker);
    return gen_rng_mix(k ^ (stream + 1) * GEN_RNG_GAMMA);
}

/* FNV-1a of a name, then mixed. */
static inline uint64_t gen_rng_name_hash(const char *name)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *name; name++)
        h = (h ^ (uint8_t)*name) * 0x100000001b3ULL;
    return gen_rng_mix(h);
}

/* Draw `counter` of the stream `key`: 64 uniform bits. */
static inline uint64_t gen_rng_u64(uint64_t key, uint64_t counter)
{
    return gen_rng_mix(key + (counter + 1) * GEN_RNG_GAMMA);
}

/* Uniform in the open interval (0, 1): 53 bits, centred in their cell, so
 * log(u) is always finite. */
static inline double gen_rng_uniform(uint64_t key, uint64_t counter)
{
    return ((double)(gen_rng_u64(key, counter) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* Two independent standard normals from draws 2*pair and 2*pair + 1
 * (Box-Muller: both the cosine and the sine branch are used). */
static inline void gen_rng_normal2(uint64_t key, uint64_t pair, double *z0, double *z1)
{
    const double two_pi = 6.283185307179586;
    double r = sqrt(-2.0 * log(gen_rng_uniform(key, 2 * pair)));
    double a = two_pi * gen_rng_uniform(key, 2 * pair + 1);
    *z0 = r * cos(a);
    *z1 = r * sin(a);
}

/* One standard normal (the cosine branch only). */
static inline double gen_rng_normal(uint64_t key, uint64_t counter)
{
    double z0, z1;
    gen_rng_normal2(key, counter, &z0, &z1);
    return z0;
}

#endif
