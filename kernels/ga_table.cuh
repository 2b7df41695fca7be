/* The device dedup cache's probe functions (operators/dedup_table.h's hash and
 * linear probing), for the kernels that look up and insert.
 *
 * Protocol, and why it is race-free:
 *  - Lookups and inserts never run in the same kernel: a launch either only
 *    reads the table (ga_table_find) or only inserts (ga_table_put), and the
 *    default stream orders launches, so a lookup sees every earlier insert
 *    complete.
 *  - An insert claims its slot with atomicCAS on the slot's `used` word
 *    (0 -> 1): exactly one thread wins a slot, and only the winner writes the
 *    slot's key and result. Claims are never undone and entries never move.
 *  - The keys inserted by one launch are distinct and absent from the table
 *    (the caller deduplicated them and looked them up first), so no two
 *    threads race to insert the same key and no key is inserted twice.
 *  - A key lands at the first slot from its hash that it could claim; every
 *    slot it passed was claimed (by an earlier entry or a concurrent insert)
 *    and holds a key once the launch ends. So a later lookup that walks from
 *    the hash over non-empty slots reaches it: lookups give the same answers
 *    as the host cache, whatever order the threads claimed in. Only the slot
 *    positions (and so ga_cache_export's order) depend on that order.
 *  - The table is at most half full, so every probe ends. */
#ifndef EVOLVE_GA_TABLE_CUH
#define EVOLVE_GA_TABLE_CUH

#include <stdint.h>

#include "operators/dedup_table.h"
#include "kernels/ga_device.cuh"
#include "kernels/kernel_args.cuh"

/* What a kernel needs of the table, by value. */
typedef struct {
    uint64_t *keys;  /* [slots][words] */
    ga_slot_t *vals; /* [slots] */
    uint64_t mask;   /* slots - 1 */
    int32_t words;
} ga_table_view_t;
KERNEL_ARG_POINTERS(ga_table_view_t, keys, vals)

static inline ga_table_view_t ga_table_view(const ga_table_t *t)
{
    ga_table_view_t v;
    v.keys = t->keys;
    v.vals = t->vals;
    v.mask = t->slots - 1;
    v.words = t->words;
    return v;
}

/* 1 and *r = the stored result when key is in the table, else 0. */
__device__ __forceinline__ int ga_table_find(const ga_table_view_t &t, const uint64_t *key, eval_result_t *r)
{
    uint64_t s = dedup_hash(key, t.words) & t.mask;
    for (;;) {
        const uint64_t *k = t.keys + s * (uint64_t)t.words;
        if (dedup_key_empty(k, t.words))
            return 0;
        if (dedup_key_same(k, key, t.words)) {
            const ga_slot_t v = t.vals[s];
            r->fitness = v.fitness;
            r->trades = v.trades;
            r->feasible = v.feasible;
            r->pad_ = 0;
            return 1;
        }
        s = (s + 1) & t.mask;
    }
}

/* Inserts a key that is absent and that no other thread of the launch inserts. */
__device__ __forceinline__ void ga_table_put(const ga_table_view_t &t, const uint64_t *key, eval_result_t r)
{
    uint64_t s = dedup_hash(key, t.words) & t.mask;
    while (atomicCAS(&t.vals[s].used, 0u, 1u) != 0u)
        s = (s + 1) & t.mask;
    for (int32_t w = 0; w < t.words; w++)
        t.keys[s * (uint64_t)t.words + w] = key[w];
    t.vals[s].fitness = r.fitness;
    t.vals[s].trades = r.trades;
    t.vals[s].feasible = r.feasible;
}

/* Word w of item i's linear index, from SoA words [W][stride]. */
__device__ __forceinline__ void ga_index_load(const uint64_t *index, uint64_t stride, int32_t words, uint32_t i,
                                              uint64_t *out)
{
    for (int32_t w = 0; w < words; w++)
        out[w] = index[(uint64_t)w * stride + i];
}

#endif
