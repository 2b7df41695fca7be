/* The dedup cache's table rules, shared by the host cache (ga/dedup_cache.c)
 * and the device cache (kernels/ga_table.cuh), so both hash, probe and size
 * their tables the same way.
 *
 * A table is open addressing with linear probing over `slots` (a power of
 * two) keys of `words` 64-bit words (a genome's linear index, least
 * significant word first). All ones marks an empty slot: never a valid index
 * (genome_index_words leaves that value spare). Entries are never removed,
 * and the table is filled to at most half. */
#ifndef EVOLVE_DEDUP_TABLE_H
#define EVOLVE_DEDUP_TABLE_H

#include <stdint.h>

#include "common/hd.h"
#include "common/status.h"
#include "fitness/accum.h"

/* SplitMix64's finaliser over the words: every bit of the index moves the
 * slot, so runs of consecutive indices spread out. */
EV_HD uint64_t dedup_hash(const uint64_t *index, int32_t words)
{
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15);
    for (int32_t w = 0; w < words; w++) {
        h ^= index[w];
        h = (h ^ (h >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        h = (h ^ (h >> 27)) * UINT64_C(0x94D049BB133111EB);
        h ^= h >> 31;
    }
    return h;
}

EV_HD int dedup_key_empty(const uint64_t *key, int32_t words)
{
    for (int32_t w = 0; w < words; w++)
        if (key[w] != UINT64_MAX)
            return 0;
    return 1;
}

EV_HD int dedup_key_same(const uint64_t *a, const uint64_t *b, int32_t words)
{
    for (int32_t w = 0; w < words; w++)
        if (a[w] != b[w])
            return 0;
    return 1;
}

/* EV_EDATA when entry `entry` of a saved cache is the empty mark, which no
 * table can hold (ga_cache_import on every backend; host code). */
static inline ev_status dedup_import_check(const uint64_t *index, int32_t words, uint64_t entry, ev_error *err)
{
    if (!dedup_key_empty(index, words))
        return EV_OK;
    return ev_fail(err, EV_EDATA, "the saved dedup cache holds an invalid (all ones) index at entry %llu",
                   (unsigned long long)entry);
}

/* Slots of the largest table: the smallest power of two >= 2 that holds
 * `capacity` entries at half load. */
EV_HD uint64_t dedup_max_slots(uint64_t capacity)
{
    uint64_t s = 2;
    while (s / 2 < capacity)
        s *= 2;
    return s;
}

/* Slots after growing by doublings until `count` entries fit at half load
 * (never past max_slots). A first table is dedup_grow_slots(2, max, expected). */
EV_HD uint64_t dedup_grow_slots(uint64_t slots, uint64_t max_slots, uint64_t count)
{
    while (slots < max_slots && slots / 2 < count)
        slots *= 2;
    return slots < max_slots ? slots : max_slots;
}

/* A slot: the key's words and the cached result. */
static inline uint64_t dedup_slot_bytes(int32_t words)
{
    return 8u * (uint64_t)words + sizeof(eval_result_t);
}

/* The largest power-of-two slot count within cache_max_mb MiB (capped
 * where the byte count would overflow). */
static inline uint64_t dedup_budget_slots(uint64_t cache_max_mb, int32_t words)
{
    uint64_t budget = cache_max_mb > (UINT64_MAX >> 21) ? UINT64_MAX >> 1 : cache_max_mb << 20;
    uint64_t slots = 1;
    while (slots <= (UINT64_C(1) << 60) && slots * 2 <= budget / dedup_slot_bytes(words))
        slots *= 2;
    return slots;
}

/* Genomes the dedup cache holds within cache_max_mb: with W-word indices a
 * slot takes 8 W + 24 bytes, the table has the largest power-of-two number of
 * slots that fits, and it is filled to at most half. Every backend must hold
 * at least this many; the run stops with "cache full" beyond it. */
static inline uint64_t ga_cache_capacity(uint64_t cache_max_mb, int32_t index_words)
{
    return dedup_budget_slots(cache_max_mb, index_words) / 2;
}

#endif
