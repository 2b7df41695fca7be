/* The host dedup cache: every genome the GA has evaluated, by linear index
 * (index_words 64-bit words), with its result. Open addressing with linear
 * probing; an all-ones index marks an empty slot (never a valid index: see
 * genome_index_words). Grows by doubling up to twice its capacity in slots,
 * filled to at most half (ga_cache_capacity). While it doubles, the old and
 * the new table exist together for a moment. Not thread-safe for writes;
 * lookups may run in parallel while nothing is inserted. The hash, the empty
 * mark and the sizing rules are operators/dedup_table.h's, shared with the device
 * cache (kernels/ga_table.cuh). */
#ifndef EVOLVE_DEDUP_CACHE_H
#define EVOLVE_DEDUP_CACHE_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/accum.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int32_t words;
    uint64_t slots;      /* power of two */
    uint64_t max_slots;  /* 2 x capacity, rounded up to a power of two */
    uint64_t count;      /* entries held */
    uint64_t capacity;   /* the most entries held */
    uint64_t *keys;      /* [slots][words] */
    eval_result_t *vals; /* [slots] */
} dedup_cache_t;

/* capacity: the most entries it will hold (ga_cache_capacity); expected:
 * entries to make room for at once (e.g. the population). */
ev_status dedup_init(dedup_cache_t *c, int32_t words, uint64_t capacity, uint64_t expected, ev_error *err);
void dedup_free(dedup_cache_t *c);

/* The stored result of an index, or NULL. */
const eval_result_t *dedup_find(const dedup_cache_t *c, const uint64_t *index);

/* Inserts a new index (the caller has checked it is absent and that
 * count < capacity). */
ev_status dedup_insert(dedup_cache_t *c, const uint64_t *index, eval_result_t r, ev_error *err);

/* Every entry, in slot order: index [count][words], vals [count]. */
void dedup_export(const dedup_cache_t *c, uint64_t *index, eval_result_t *vals);

#ifdef __cplusplus
}
#endif
#endif
