/* The host dedup cache (ga/dedup_cache.c) with multiword indices: lattices
 * of 2^64 points or more key genomes by 2 to 4 words (genome_index_words), so
 * two genomes may share the low 64 bits and differ only above them. Such keys
 * must be stored and found as distinct, through growth and export.
 *
 * Why: a cache that compared only the low word would return one genome's
 * result for another (or refuse the second as "inserted twice") only on huge
 * lattices, where no other test looks. */
#include <stdio.h>
#include <string.h>

#include "ga/dedup_cache.h"
#include "tests/check.h"

#define N 200

static eval_result_t result_of(uint32_t i)
{
    eval_result_t r;
    memset(&r, 0, sizeof r);
    r.fitness = 1000.0 + i;
    r.trades = i;
    r.feasible = 1;
    return r;
}

/* Key i: the same low word for all, word `word` (>= 1) = i; the rest 0. */
static void key_of(uint32_t i, int32_t words, int32_t word, uint64_t *key)
{
    memset(key, 0, (size_t)words * sizeof *key);
    key[0] = UINT64_C(0x0123456789ABCDEF);
    key[word] = i;
}

static void check_shared_low_word(int32_t words, int32_t word)
{
    dedup_cache_t c;
    ev_error err;
    uint64_t key[4], exported[N * 4];
    eval_result_t vals[N];
    int seen[N];
    /* a small first table: inserting N keys grows it several times */
    if (dedup_init(&c, words, 4 * N, 4, &err) != EV_OK) {
        fprintf(stderr, "dedup_init: %s\n", err.msg);
        check_failures++;
        return;
    }
    for (uint32_t i = 0; i < N; i++) {
        key_of(i, words, word, key);
        CHECK(dedup_find(&c, key) == NULL); /* never seen: not mistaken for an earlier key */
        CHECK_EQ_I64(EV_OK, dedup_insert(&c, key, result_of(i), &err));
    }
    CHECK_EQ_I64(N, c.count);
    for (uint32_t i = 0; i < N; i++) {
        const eval_result_t *r;
        key_of(i, words, word, key);
        r = dedup_find(&c, key);
        CHECK(r != NULL);
        if (r) {
            CHECK_EQ_F64(1000.0 + i, r->fitness);
            CHECK_EQ_I64(i, r->trades);
        }
    }
    /* the export holds every key once, with its own result */
    memset(seen, 0, sizeof seen);
    dedup_export(&c, exported, vals);
    for (uint64_t j = 0; j < c.count && j < N; j++) {
        uint32_t i = (uint32_t)exported[j * (uint64_t)words + (uint64_t)word];
        CHECK(exported[j * (uint64_t)words] == UINT64_C(0x0123456789ABCDEF));
        if (i < N) {
            seen[i]++;
            CHECK_EQ_F64(1000.0 + i, vals[j].fitness);
        }
    }
    for (uint32_t i = 0; i < N; i++)
        CHECK_EQ_I64(1, seen[i]);
    dedup_free(&c);
}

int main(void)
{
    check_shared_low_word(2, 1); /* 2^64 <= lattice < 2^128 */
    check_shared_low_word(4, 3); /* only the top word differs */
    check_shared_low_word(3, 2);
    return check_exit();
}
