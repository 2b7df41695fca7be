#include "ga/dedup_cache.h"

#include <stdlib.h>
#include <string.h>

#include "operators/dedup_table.h"
#include "operators/ga_types.h"

/* The slot holding index, or the empty slot where it would go. */
static uint64_t probe(const dedup_cache_t *c, const uint64_t *index)
{
    uint64_t mask = c->slots - 1, s = dedup_hash(index, c->words) & mask;
    for (;;) {
        const uint64_t *k = c->keys + s * (uint64_t)c->words;
        if (dedup_key_empty(k, c->words) || dedup_key_same(k, index, c->words))
            return s;
        s = (s + 1) & mask;
    }
}

static ev_status alloc_table(dedup_cache_t *c, uint64_t slots, ev_error *err)
{
    c->keys = (uint64_t *)malloc(slots * (uint64_t)c->words * sizeof(uint64_t));
    c->vals = (eval_result_t *)malloc(slots * sizeof(eval_result_t));
    if (!c->keys || !c->vals) {
        free(c->keys);
        free(c->vals);
        c->keys = NULL;
        c->vals = NULL;
        return ev_fail(err, EV_ENOMEM, "out of memory for a dedup cache of %llu slots (ga.cache_max_mb)",
                       (unsigned long long)slots);
    }
    memset(c->keys, 0xFF, slots * (uint64_t)c->words * sizeof(uint64_t));
    c->slots = slots;
    return EV_OK;
}

ev_status dedup_init(dedup_cache_t *c, int32_t words, uint64_t capacity, uint64_t expected, ev_error *err)
{
    memset(c, 0, sizeof *c);
    c->words = words;
    c->capacity = capacity;
    c->max_slots = dedup_max_slots(capacity);
    return alloc_table(c, dedup_grow_slots(2, c->max_slots, expected), err);
}

void dedup_free(dedup_cache_t *c)
{
    free(c->keys);
    free(c->vals);
    memset(c, 0, sizeof *c);
}

const eval_result_t *dedup_find(const dedup_cache_t *c, const uint64_t *index)
{
    uint64_t s = probe(c, index);
    return dedup_key_empty(c->keys + s * (uint64_t)c->words, c->words) ? NULL : &c->vals[s];
}

static ev_status grow(dedup_cache_t *c, ev_error *err)
{
    dedup_cache_t old = *c;
    ev_status st = alloc_table(c, old.slots * 2, err);
    if (st != EV_OK) {
        *c = old;
        return st;
    }
    for (uint64_t s = 0; s < old.slots; s++) {
        const uint64_t *k = old.keys + s * (uint64_t)old.words;
        if (!dedup_key_empty(k, c->words)) {
            uint64_t t = probe(c, k);
            memcpy(c->keys + t * (uint64_t)c->words, k, (uint64_t)c->words * sizeof(uint64_t));
            c->vals[t] = old.vals[s];
        }
    }
    free(old.keys);
    free(old.vals);
    return EV_OK;
}

ev_status dedup_insert(dedup_cache_t *c, const uint64_t *index, eval_result_t r, ev_error *err)
{
    uint64_t s;
    ev_status st;
    if (c->count >= c->capacity)
        return ev_fail(err, EV_EINTERNAL, "dedup cache: insert past its capacity of %llu genomes",
                       (unsigned long long)c->capacity);
    if ((c->count + 1) * 2 > c->slots && (st = grow(c, err)) != EV_OK)
        return st;
    s = probe(c, index);
    if (!dedup_key_empty(c->keys + s * (uint64_t)c->words, c->words))
        return ev_fail(err, EV_EINTERNAL, "dedup cache: an index was inserted twice");
    memcpy(c->keys + s * (uint64_t)c->words, index, (uint64_t)c->words * sizeof(uint64_t));
    c->vals[s] = r;
    c->count++;
    return EV_OK;
}

void dedup_export(const dedup_cache_t *c, uint64_t *index, eval_result_t *vals)
{
    uint64_t n = 0;
    for (uint64_t s = 0; s < c->slots; s++) {
        const uint64_t *k = c->keys + s * (uint64_t)c->words;
        if (dedup_key_empty(k, c->words))
            continue;
        memcpy(index + n * (uint64_t)c->words, k, (uint64_t)c->words * sizeof(uint64_t));
        vals[n++] = c->vals[s];
    }
}
