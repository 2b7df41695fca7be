/* The CUDA backend's sizing (kernels/backend_cuda.h) with the numbers of the two
 * target GPUs, on any machine (no device needed): launches stay under the
 * Windows watchdog's budget, batches under a quarter of the free memory,
 * and a lattice too big to enumerate (GA only) does not shrink the GA's
 * fitness launches to 1024 genomes. The GA state's device memory
 * (kernels/ga_state.cu's one list): the need cuda_ga_open checks against free
 * memory is the sum of the buffers it allocates, each of the size its
 * kernels index. The retry sizes after out of device memory
 * (kernels/mem_retry.h): halving to a floor, then an error. The strategy
 * backtest launches (kernels/strategy_cuda.h): bounded genome x bar steps. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernels/backend_cuda.h"
#include "kernels/mem_retry.h"
#include "kernels/strategy_cuda.h"
#include "signals/atc_strategy.h"
#include "signals/se_strategy.h"
#include "operators/dedup_table.h"
#include "tests/check.h"

#define GIB ((uint64_t)1 << 30)

static void test_bound(void)
{
    lattice_t lat;
    memset(&lat, 0, sizeof lat);
    lat.size_fits = 1;
    lat.size = 720;
    CHECK_EQ_I64(1024, cuda_batch_bound(&lat));
    lat.size = 1000000007;
    CHECK_EQ_I64(1000000007, cuda_batch_bound(&lat));
    lat.size_fits = 0; /* 2^63 points or more: size is not valid */
    lat.size = 0;
    CHECK(cuda_batch_bound(&lat) == UINT64_MAX);
}

/* One device and problem: the invariants every plan must keep. */
static void check_plan(const char *what, uint64_t free_bytes, int sms, int64_t trades, int32_t params, uint64_t bound,
                       cuda_eval_sizes_t *s)
{
    cuda_plan_sizes(s, free_bytes, sms, trades, params, bound);
    printf("%s: %llu genomes a launch, %llu a batch, %u top-K candidates\n", what, (unsigned long long)s->launch_max,
           (unsigned long long)s->batch_max, s->topk_cap);
    CHECK(s->launch_max >= 1 && s->launch_max <= s->batch_max);
    CHECK(s->batch_max <= bound);
    CHECK(s->batch_max * (24 + 2 * (uint64_t)params) <= free_bytes / 4);
    /* 1e8 trade evaluations per SM a launch (0.2 s at a pessimistic 5e8/s per
     * SM), unless the 32-genome floor applies */
    CHECK(s->launch_max == 32 || (double)s->launch_max * (double)trades <= 1e8 * sms);
    CHECK(s->topk_cap >= 1024);
}

static void test_plans(void)
{
    lattice_t ga_only;
    cuda_eval_sizes_t s;
    memset(&ga_only, 0, sizeof ga_only);
    /* RTX 4060: 24 SMs, ~7 GiB free; H100: 132 SMs, ~78 GiB free */
    check_plan("4060, 50,000 trades, GA-only lattice", 7 * GIB, 24, 50000, 16, cuda_batch_bound(&ga_only), &s);
    CHECK_EQ_I64(48000, s.launch_max);
    check_plan("H100, 50,000 trades, GA-only lattice", 78 * GIB, 132, 50000, 16, cuda_batch_bound(&ga_only), &s);
    CHECK(s.launch_max >= 260000);
    check_plan("4060, 600 trades, 720 points", 7 * GIB, 24, 600, 5, 1024, &s);
    CHECK_EQ_I64(1024, s.batch_max);
    check_plan("4060, 10 million trades", 7 * GIB, 24, 10000000, 7, UINT64_MAX, &s);
    CHECK_EQ_I64(240, s.launch_max);
    check_plan("4060, 600 trades, 1.2e9 points", 7 * GIB, 24, 600, 7, 1200000000, &s);
    check_plan("a nearly full GPU", 64ull << 20, 24, 600, 7, UINT64_MAX, &s);
}

static uint64_t buffer_bytes(const cuda_ga_buffer_t *list, const char *name)
{
    for (int a = 0; a < CUDA_GA_BUFFERS; a++)
        if (strcmp(list[a].name, name) == 0)
            return list[a].bytes;
    printf("no GA buffer named %s\n", name);
    CHECK(0);
    return 0;
}

/* One plan: the list against the sizes the GA's kernels index (P = population,
 * G = genes, W = index words; docs: 140 B + 8 B a word + 6 B a gene an
 * individual, CUB scratch, islands, the rank record, top-K, the first cache
 * table), and the need against the list's sum. */
static void check_ga(uint32_t pop, uint32_t islands, int32_t G, int32_t W, uint32_t top_k, uint64_t capacity,
                     uint64_t gene_values, uint64_t temp)
{
    ga_plan_t plan;
    cuda_ga_buffer_t list[CUDA_GA_BUFFERS];
    uint64_t P = pop, need, sum = 0, slots, expect, record;
    memset(&plan, 0, sizeof plan);
    memset(list, 0, sizeof list);
    plan.ctx.population = pop;
    plan.ctx.islands = islands;
    plan.ctx.island_size = pop / islands;
    plan.ctx.n_genes = G;
    plan.index_words = W;
    plan.top_k = top_k;
    plan.cache_capacity = capacity;
    plan.gene_values = gene_values;
    need = cuda_ga_device_bytes(&plan, temp, list);
    CHECK(cuda_ga_device_bytes(&plan, temp, NULL) == need);
    for (int a = 0; a < CUDA_GA_BUFFERS; a++) {
        CHECK(list[a].name != NULL && list[a].bytes >= 1);
        for (int b = 0; b < a; b++)
            CHECK(strcmp(list[a].name, list[b].name) != 0);
        sum += list[a].bytes;
    }
    CHECK_EQ_I64((int64_t)sum, (int64_t)need);

    CHECK_EQ_I64((int64_t)(2 * P * G), (int64_t)buffer_bytes(list, "genes"));
    CHECK_EQ_I64((int64_t)(2 * P * G), (int64_t)buffer_bytes(list, "next"));
    CHECK_EQ_I64((int64_t)(2 * P * G), (int64_t)buffer_bytes(list, "new_genes"));
    CHECK_EQ_I64((int64_t)(8 * P), (int64_t)buffer_bytes(list, "parents"));
    CHECK_EQ_I64((int64_t)(24 * P), (int64_t)buffer_bytes(list, "results"));
    CHECK_EQ_I64((int64_t)(8 * P * W), (int64_t)buffer_bytes(list, "index"));
    CHECK_EQ_I64((int64_t)(8 * P), (int64_t)buffer_bytes(list, "key_b"));
    CHECK_EQ_I64((int64_t)(4 * P), (int64_t)buffer_bytes(list, "new_pos"));
    CHECK_EQ_I64((int64_t)(islands * sizeof(breed_island_t)), (int64_t)buffer_bytes(list, "islands"));
    /* the rank record: summary (24 B), island and gene counts, then 8-byte aligned the P fitness values */
    record = (24 + 4 * (uint64_t)islands + 4 * gene_values + 7) / 8 * 8 + 8 * P;
    CHECK_EQ_I64((int64_t)record, (int64_t)buffer_bytes(list, "rank record"));
    CHECK_EQ_I64((int64_t)(top_k * sizeof(ga_hof_entry_t)), (int64_t)buffer_bytes(list, "top"));
    CHECK_EQ_I64((int64_t)(temp ? temp : 1), (int64_t)buffer_bytes(list, "temp"));
    /* the cache is last, for the message that names its share */
    CHECK(strcmp(list[CUDA_GA_BUFFERS - 1].name, "dedup cache") == 0);
    slots = dedup_grow_slots(2, dedup_max_slots(capacity), P);
    CHECK_EQ_I64((int64_t)(slots * (8 * (uint64_t)W + 24)), (int64_t)list[CUDA_GA_BUFFERS - 1].bytes);

    /* the whole, as kernels/README.md counts it (132 B an individual besides the record's 8), plus the
     * one-element counters (16 B) */
    expect = P * (132 + 8 * (uint64_t)W + 6 * (uint64_t)G) + (temp ? temp : 1) + islands * sizeof(breed_island_t) +
             record + top_k * sizeof(ga_hof_entry_t) + slots * (8 * (uint64_t)W + 24) + 16;
    printf("GA population %u, %d genes, %d words: %.1f MiB of device memory\n", pop, G, W, (double)need / 1048576.0);
    CHECK_EQ_I64((int64_t)expect, (int64_t)need);
}

static void test_ga_sizes(void)
{
    check_ga(1000, 4, 7, 1, 10, 100000, 50, 12345);
    check_ga(2, 1, 1, 1, 1, 1, 2, 0); /* the smallest plan; CUB scratch counted as one byte */
    check_ga(1u << 20, 16, 12, 3, 100, 50000000, 600, 1u << 24);
    check_ga(INT32_MAX - 1, 2, GA_MAX_GENES, GA_INDEX_WORDS_MAX, 1000, 1ull << 32, 4000, 1ull << 30);
}

/* Out of device memory: batches halve (multiples of 32) down to 1024 genomes,
 * dominance budgets (multiples of a cell) down to one cell; each sequence
 * ends (0) at its floor, and the note is printed once. */
static void test_mem_retry(void)
{
    uint64_t c = (uint64_t)1 << 26, prev = c;
    uint32_t steps = 0;
    while ((c = mem_retry_smaller(c, 1024, 32)) != 0) {
        CHECK(c < prev && c >= 1024 && c % 32 == 0);
        prev = c;
        steps++;
    }
    CHECK_EQ_I64(1024, prev);
    CHECK_EQ_I64(16, steps); /* 2^26 -> 2^10 */
    CHECK_EQ_I64(steps, mem_retry_steps((uint64_t)1 << 26, 1024, 32));
    CHECK_EQ_I64(0, mem_retry_smaller(1024, 1024, 32));
    CHECK_EQ_I64(0, mem_retry_smaller(500, 1024, 32)); /* already below the floor */
    CHECK_EQ_I64(1024, mem_retry_smaller(1500, 1024, 32));
    CHECK_EQ_I64(1056, mem_retry_smaller(2113, 1024, 32)); /* 1056 = 33 x 32 */
    CHECK_EQ_I64(48, mem_retry_smaller(100, 16, 16));      /* dominance: cells of 16 B */
    CHECK_EQ_I64(16, mem_retry_smaller(31, 16, 16));
    CHECK_EQ_I64(0, mem_retry_smaller(16, 16, 16));
    CHECK_EQ_I64(5, mem_retry_smaller(10, 0, 0)); /* unit 0 is 1, and so is the floor */
    CHECK_EQ_I64(0, mem_retry_smaller(1, 0, 0));
    CHECK_EQ_I64(5, mem_retry_smaller(10, 0, 1));
    /* an 8 GiB card with 1 GiB left: a quarter of free memory at plan time
     * (cuda_plan_sizes), halved until it fits, never below 1024 genomes */
    {
        cuda_eval_sizes_t s;
        uint64_t per = sizeof(eval_result_t) + 2u * 7u, fits = ((uint64_t)1 << 30) / per, b;
        cuda_plan_sizes(&s, 6 * GIB, 24, 50000, 7, UINT64_MAX);
        b = s.batch_max;
        while (b > fits && (b = mem_retry_smaller(b, 1024, 32)) != 0)
            ;
        CHECK(b >= 1024 && b <= fits);
    }
    CHECK_EQ_I64(0, mem_retry_notes());
    CHECK_EQ_I64(1, mem_retry_note("genome batches", 4096, 2048));
    CHECK_EQ_I64(0, mem_retry_note("genome batches", 2048, 1024)); /* said once */
    CHECK_EQ_I64(2, mem_retry_notes());
}

/* Strategy launch plans (kernels/strategy_cuda.h): genomes x steps x the bar
 * cost within STRATEGY_LAUNCH_STEPS, steps x the cost within
 * STRATEGY_SLICE_STEPS (or 1), run states within STRATEGY_RUNS_BYTES, and
 * enough slices to reach the last bar. */
static void test_strategy_launches(void)
{
    static const int64_t bars[] = {0, 1, 1950, 100000, 5000000, (int64_t)1 << 40};
    static const uint32_t counts[] = {1, 100, 4096, 1u << 20, UINT32_MAX};
    for (int kind = STRATEGY_DEVICE_SE; kind <= STRATEGY_DEVICE_ATC; kind++) {
        const uint64_t cost = kind == STRATEGY_DEVICE_ATC ? 32 : 1;
        const uint64_t run = kind == STRATEGY_DEVICE_ATC ? sizeof(atc_run_t) : sizeof(se_run_t);
        for (size_t i = 0; i < sizeof bars / sizeof bars[0]; i++)
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
                const strategy_launch_t l = strategy_cuda_launch_plan(kind, bars[i], counts[c]);
                const uint64_t n = (uint64_t)(bars[i] > 0 ? bars[i] : 1);
                CHECK(l.genomes >= 1 && l.genomes <= (1u << 20) && l.genomes <= counts[c]);
                CHECK((uint64_t)l.genomes * run <= STRATEGY_RUNS_BYTES);
                CHECK(l.steps >= 1 && (uint64_t)l.steps <= n);
                CHECK((uint64_t)l.genomes * (uint64_t)l.steps * cost <= STRATEGY_LAUNCH_STEPS);
                CHECK(l.steps == 1 || (uint64_t)l.steps * cost <= STRATEGY_SLICE_STEPS);
                CHECK((uint64_t)l.slices * (uint64_t)l.steps >= n && (uint64_t)(l.slices - 1) * (uint64_t)l.steps < n);
            }
    }
    {
        /* short series: one slice, every genome at once */
        const strategy_launch_t l = strategy_cuda_launch_plan(STRATEGY_DEVICE_SE, 1950, 4096);
        CHECK_EQ_I64(4096, l.genomes);
        CHECK_EQ_I64(1950, l.steps);
        CHECK_EQ_I64(1, l.slices);
    }
    {
        /* a million bars of atc: no thread loops over them in one launch */
        const strategy_launch_t l = strategy_cuda_launch_plan(STRATEGY_DEVICE_ATC, 1000000, 100);
        CHECK_EQ_I64(100, l.genomes);
        CHECK_EQ_I64(STRATEGY_SLICE_STEPS / 32, l.steps);
        CHECK_EQ_I64((1000000 + l.steps - 1) / l.steps, l.slices);
    }
}

int main(void)
{
    test_strategy_launches();
    test_mem_retry();
    test_bound();
    test_plans();
    test_ga_sizes();
    return check_exit();
}
