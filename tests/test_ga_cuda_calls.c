/* A CUDA GA generation's fixed cost, counted by the emulation layer
 * (tests/cuda_emu/counters.h; emulated builds only, label emu): issue 34
 * item 3, bench/RESULTS.md "A CUDA GA generation's calls".
 *
 * On a small planted problem (324 lattice points, population 512 in 4
 * islands: the first dedup table holds the whole lattice, so no generation
 * grows it) one generation with new genomes (breed, evaluate, rank), with
 * the walk and with the bit-sliced evaluator, must make at most the
 * launches, CUB calls, copies and host waits of the table, no cudaMemset,
 * no device-to-device copy and no allocation, and copy back at most the
 * bytes the host needs (the counts, the new top-K and the rank record,
 * sized here from the plan); the generation is checked against the CPU's
 * (tests/support/ga_pair.h) at the same time. A local-search batch of host
 * genomes (the backend's evaluate) makes one copy each way and equals the
 * CPU's; setting a population waits only for its copies.
 * --trace prints each counted call of the measured generation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "fitness/slices_eval.h"
#include "kernels/cuda_api.h"
#include "runs/backend_registry.h"
#include "tests/check.h"
#include "tests/cuda_emu/counters.h"
#include "tests/support/ga_fixture.h"
#include "tests/support/ga_pair.h"

static int trace;

/* The most a generation may make (bench/RESULTS.md's "after" column). */
typedef struct {
    const char *mode; /* EVOLVE_EVALUATOR */
    uint64_t launches, cub_calls, copies_h2d, copies_d2h, syncs;
} bound_t;

static void print_counts(const char *what, const emu_counters_t *c)
{
    printf(
        "%-34s %3llu launches, %2llu CUB calls, %llu+%llu+%llu copies (h2d, d2h, d2d; %llu+%llu B), %llu memsets, "
        "%llu waits, %llu+%llu allocations (device, pinned)\n",
        what, (unsigned long long)c->launches, (unsigned long long)c->cub_calls, (unsigned long long)c->copies_h2d,
        (unsigned long long)c->copies_d2h, (unsigned long long)c->copies_d2d, (unsigned long long)c->bytes_h2d,
        (unsigned long long)c->bytes_d2h, (unsigned long long)c->memsets, (unsigned long long)c->syncs,
        (unsigned long long)c->mallocs, (unsigned long long)c->host_allocs);
}

/* Breeds, evaluates and ranks generation 1 on both sides; the CUDA side's
 * calls, less ga_pair_step's three downloads (genes, results, parents). */
static void measure_generation(ga_pair_t *x, emu_counters_t *c)
{
    const uint64_t P = x->plan.ctx.population, G = (uint64_t)x->plan.ctx.n_genes;
    emu_counters_reset();
    emu_counters_trace(trace ? stdout : NULL);
    ga_pair_breed(x);
    CHECK_EQ_I64(0, ga_pair_step(x));
    emu_counters_trace(NULL);
    emu_counters_get(c);
    CHECK(c->copies_d2h >= 3 && c->syncs >= 3);
    c->copies_d2h -= 3;
    c->syncs -= 3;
    c->bytes_d2h -= 2 * G * P + P * sizeof(eval_result_t) + 2 * P * sizeof(int32_t);
}

static void check_mode(ga_fixture_t *f, const bound_t *b)
{
    ga_settings_t s;
    ga_pair_t x;
    emu_counters_t c;
    uint64_t P, I, GV, record, most_d2h;
    const backend_ops_t *cuda_ops;
    ev_error err;
    if (backend_find("cuda", &cuda_ops, &err) != EV_OK) {
        fprintf(stderr, "test_ga_cuda_calls: %s\n", err.msg);
        exit(2);
    }
    plat_setenv(SLICES_MODE_ENV, b->mode);
    fixture_settings(&s);
    s.population = 512;
    s.islands = 4;
    s.generations = 3;
    ga_pair_open(&x, cuda_ops, &f->p, &f->t, &s, 17, 10);
    plat_setenv(SLICES_MODE_ENV, "");
    ga_pair_init(&x);
    CHECK_EQ_I64(0, ga_pair_step(&x));

    measure_generation(&x, &c);
    printf("evaluator %s: generation 1 evaluated %llu new genomes of %llu distinct\n", b->mode,
           (unsigned long long)x.side[1].ev.new_evals, (unsigned long long)x.side[1].ev.distinct);
    print_counts("  breed + evaluate + rank:", &c);
    CHECK(x.side[1].ev.new_evals > 0); /* the generation launched the evaluator */
    CHECK(c.launches <= b->launches);
    CHECK(c.launches >= 8); /* the counter counts */
    CHECK(c.cub_calls <= b->cub_calls);
    CHECK(c.copies_h2d <= b->copies_h2d);
    CHECK(c.copies_d2h <= b->copies_d2h);
    CHECK(c.syncs <= b->syncs);
    CHECK_EQ_I64(0, (int64_t)c.copies_d2d);
    CHECK_EQ_I64(0, (int64_t)c.memsets);
    CHECK_EQ_I64(0, (int64_t)(c.mallocs + c.frees + c.host_allocs + c.host_frees));
    /* what the host needs back: the dedup counts (16 B), the new top-K, the
     * rank record (summary 24 B, island and gene counts, P fitness values),
     * and with the slices the sliced count (8 B) */
    P = s.population;
    I = s.islands;
    GV = 0;
    for (int32_t k = 0; k < x.plan.ctx.n_genes; k++)
        GV += x.plan.ctx.n_values[k];
    record = (24 + 4 * I + 4 * GV + 7) / 8 * 8 + 8 * P;
    most_d2h = 16 + (uint64_t)x.plan.top_k * sizeof(ga_hof_entry_t) + record + 8;
    CHECK(c.bytes_d2h <= most_d2h);
    CHECK(c.bytes_d2h >= record);

    {
        /* a local-search batch: 60 host genomes through the backend's evaluate */
        enum { N = 60 };
        uint16_t genes[EV_MAX_PARAMS * N];
        eval_result_t got[N], want[N];
        const int32_t G = x.plan.ctx.n_genes;
        for (int32_t k = 0; k < G; k++)
            for (uint32_t i = 0; i < N; i++)
                genes[k * N + i] = (uint16_t)((i * 7u + (uint32_t)k * 3u) % x.plan.ctx.n_values[k]);
        emu_counters_reset();
        if (x.side[1].ops->evaluate(x.side[1].b, genes, N, got, &err) != EV_OK ||
            x.side[0].ops->evaluate(x.side[0].b, genes, N, want, &err) != EV_OK) {
            fprintf(stderr, "test_ga_cuda_calls: evaluate: %s\n", err.msg);
            exit(2);
        }
        emu_counters_get(&c);
        print_counts("  a local-search batch of 60:", &c);
        CHECK(memcmp(got, want, sizeof got) == 0);
        CHECK_EQ_I64(1, (int64_t)c.copies_h2d); /* all gene rows in one copy */
        CHECK_EQ_I64((int64_t)(2 * G * N), (int64_t)c.bytes_h2d);
        CHECK_EQ_I64(1 + !strcmp(b->mode, "slices"), (int64_t)c.copies_d2h); /* results (and the sliced count) */
    }
    {
        /* setting a population (local search's put, resume): its two copies are its only waits */
        emu_counters_reset();
        if (x.side[1].ops->ga_set_population(x.side[1].g, x.side[1].genes, x.side[1].parents, &err) != EV_OK) {
            fprintf(stderr, "test_ga_cuda_calls: set population: %s\n", err.msg);
            exit(2);
        }
        emu_counters_get(&c);
        print_counts("  ga_set_population:", &c);
        CHECK_EQ_I64(2, (int64_t)c.copies_h2d);
        CHECK_EQ_I64(2, (int64_t)c.syncs);
    }
    ga_pair_close(&x);
}

int main(int argc, char **argv)
{
    /* the numbers of bench/RESULTS.md "A CUDA GA generation's calls" (after) */
    static const bound_t bounds[] = {
        {"walk", 12, 5, 1, 3, 3},
        {"slices", 15, 6, 1, 4, 4},
    };
    ga_fixture_t f;
    trace = argc > 1 && !strcmp(argv[1], "--trace");
    if (cuda_device_count() <= 0) {
        printf("test_ga_cuda_calls: no CUDA device: skipped\n");
        return CHECK_SKIP_CODE;
    }
    fixture_open(&f, 2, 3); /* 2 filters of 3 values, 6 targets, 6 stops: 324 points */
    for (size_t m = 0; m < sizeof bounds / sizeof bounds[0]; m++)
        check_mode(&f, &bounds[m]);
    fixture_close(&f);
    return check_exit();
}
