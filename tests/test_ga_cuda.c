/* The CUDA backend's GA ops against the CPU's, generation by generation
 * (label gpu; exits 77 where no device exists). Both run in lockstep
 * (tests/support/ga_pair.h) and every generation's outputs must be
 * identical: evaluate's counts and new top-K, rank's island counts, gene
 * histograms, feasible/best/median, the downloaded genes, results and
 * parents, the cache size; and at the end the caches as sets.
 *
 *  - random problems (every objective, fill, cost, constraint) with random
 *    settings: 1-5 islands, migration, immigrants, both selections, every
 *    crossover, any rates, populations of 2 to 300;
 *  - planted landscapes with larger populations (up to 4096) and islands;
 *  - lattices of 2^64 points and more: 2-, 3- and 4-word indices.
 * With --self-check the CPU ops run on both sides (no device needed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/backend_registry.h"
#include "kernels/cuda_api.h"
#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/ga_fixture.h"
#include "tests/support/ga_pair.h"
#include "tests/support/random_problem.h"

static const backend_ops_t *cuda_ops;

static void die(const char *what, const ev_error *err)
{
    fprintf(stderr, "test_ga_cuda: %s: %s\n", what, err->msg);
    exit(2);
}

/* Runs one configuration in lockstep; returns 1 on a difference. */
static int lockstep(const char *name, const fit_problem_t *p, const tables_host_t *t, const ga_settings_t *s,
                    uint64_t seed, uint32_t top, int *words)
{
    ga_pair_t x;
    int bad;
    ga_pair_open(&x, cuda_ops, p, t, s, seed, top);
    bad = ga_pair_run(&x);
    if (!bad && !ga_pair_same_cache(&x))
        bad = 1, snprintf(x.what, sizeof x.what, "the caches hold different entries");
    if (bad)
        fprintf(stderr, "%s: pop %u, %u islands, seed %llu: %s\n", name, s->population, s->islands,
                (unsigned long long)seed, x.what);
    if (words)
        *words = x.plan.index_words;
    ga_pair_close(&x);
    return bad;
}

static double unit(uint64_t *rng)
{
    return tb_uniform(rng);
}

static void random_settings(ga_settings_t *s, uint64_t *rng)
{
    uint32_t size;
    ga_settings_default(s);
    s->islands = 1 + (uint32_t)(tb_rand(rng) % 5);
    size = 2 + (uint32_t)(tb_rand(rng) % 60);
    s->population = s->islands * size;
    s->generations = 3 + (uint32_t)(tb_rand(rng) % 10);
    s->migration_every = (uint32_t)(tb_rand(rng) % 4);
    s->migration_count = (uint32_t)(tb_rand(rng) % (size < 4 ? size : 4));
    s->selection = (int32_t)(tb_rand(rng) % 2);
    s->tournament_k = 1 + (uint32_t)(tb_rand(rng) % 4);
    s->truncation = 0.05 + 0.95 * unit(rng);
    s->crossover = (int32_t)(tb_rand(rng) % 3);
    s->crossover_rate = unit(rng);
    s->mutation_rate = tb_rand(rng) % 2 ? 0.0 : 0.6 * unit(rng);
    s->creep_share = unit(rng);
    s->creep_max = 1 + (uint32_t)(tb_rand(rng) % 3);
    s->elitism = 0.3 * unit(rng);
    s->immigrant_diversity = unit(rng);
    s->immigrant_share = 0.5 * unit(rng);
}

static void test_random(int rounds)
{
    uint64_t rng = 20240917;
    int bad = 0, r;
    for (r = 0; r < rounds && !bad; r++) {
        dataset_t ds;
        lattice_t lat;
        objective_cfg_t obj;
        fit_problem_t p;
        tables_host_t t;
        ga_settings_t s;
        ev_error err;
        char name[64];
        random_dataset(&ds, &rng, NULL);
        random_lattice(&lat, &ds, &rng);
        random_objective(&obj, &rng);
        random_settings(&s, &rng);
        if (problem_init(&p, &ds, &lat, &obj, &err) != EV_OK || tables_build(&t, &p, &err) != EV_OK)
            die("random problem", &err);
        snprintf(name, sizeof name, "random round %d (%s)", r, objective_name((objective_kind)obj.kind));
        bad += lockstep(name, &p, &t, &s, 1 + tb_rand(&rng) % 1000, 1 + (uint32_t)(tb_rand(&rng) % 20), NULL);
        tables_free(&t);
        problem_free(&p);
        lattice_free(&lat);
        dataset_free(&ds);
    }
    printf("random problems: %d checked in lockstep, %d differ\n", r, bad);
    CHECK_EQ_I64(0, bad);
}

static void test_planted(void)
{
    ga_fixture_t f;
    ga_settings_t s;
    int bad = 0;
    fixture_open(&f, 4, 10);
    fixture_settings(&s); /* 64 in 2 islands, migration every 4 */
    s.generations = 20;
    bad += lockstep("planted, fixture settings", &f.p, &f.t, &s, 5, 10, NULL);
    s.population = 120;
    s.islands = 3;
    s.immigrant_diversity = 0.8; /* small islands lose diversity: immigrants arrive */
    s.selection = SEL_TRUNCATION;
    s.truncation = 0.2;
    s.crossover = XO_TWO_POINT;
    bad += lockstep("planted, immigrants", &f.p, &f.t, &s, 3, 4, NULL);
    fixture_settings(&s);
    s.population = 4096;
    s.islands = 4;
    s.generations = 12;
    s.migration_every = 3;
    s.migration_count = 5;
    s.crossover = XO_ONE_POINT;
    bad += lockstep("planted, 4096 in 4 islands", &f.p, &f.t, &s, 11, 50, NULL);
    s.population = 3000;
    s.islands = 1;
    s.mutation_rate = 0.5;
    bad += lockstep("planted, 3000 in 1 island", &f.p, &f.t, &s, 12, 1, NULL);
    fixture_close(&f);
    CHECK_EQ_I64(0, bad);
}

/* Lattices of ~2^74 (14 filters of 30 values), ~2^164 (10 of 60,000) and
 * ~2^227 (14 of 60,000) points: 2-, 3- and 4-word indices. */
static void test_multiword(void)
{
    static const int32_t filters[] = {14, 10, 14};
    static const uint32_t values[] = {30, 60000, 60000};
    for (int i = 0; i < 3; i++) {
        ga_fixture_t f;
        ga_settings_t s;
        int words = 0, bad;
        char name[64];
        fixture_open(&f, filters[i], values[i]);
        fixture_settings(&s);
        s.population = 256;
        s.islands = 4;
        s.generations = 10;
        s.mutation_rate = 0.02; /* mostly crossover: parents' genomes recur, so the cache hits */
        snprintf(name, sizeof name, "%d filters of %u values", filters[i], values[i]);
        bad = lockstep(name, &f.p, &f.t, &s, 9, 8, &words);
        printf("%s: %d-word indices, %s\n", name, words, bad ? "differ" : "identical");
        CHECK_EQ_I64(i + 2, words);
        CHECK_EQ_I64(0, bad);
        fixture_close(&f);
    }
}

/* test_ga_cuda [--self-check] [ROUNDS [--random-only]]: --self-check runs the CPU ops on
 * both sides (no device needed), which checks the harness and the settings. */
int main(int argc, char **argv)
{
    ev_error err;
    char desc[512];
    int self = argc > 1 && !strcmp(argv[1], "--self-check");
    int rounds = argc > 1 + self ? atoi(argv[1 + self]) : 60;
    /* --random-only after ROUNDS: the random problems alone (the emulated build's cudaMalloc failure injection) */
    int random_only = argc > 2 + self && !strcmp(argv[2 + self], "--random-only");
    if (self) {
        cuda_ops = &backend_cpu_ops;
        printf("self-check: the CPU ops on both sides\n");
    } else {
        if (cuda_device_count() <= 0) {
            printf("test_ga_cuda: no CUDA device on this machine: skipped\n");
            return CHECK_SKIP_CODE;
        }
        if (cuda_device_describe(desc, sizeof desc, &err) != EV_OK || backend_find("cuda", &cuda_ops, &err) != EV_OK)
            die("device", &err);
        printf("device: %s\n", desc);
    }
    test_random(rounds);
    if (!random_only) {
        test_planted();
        test_multiword();
    }
    return check_exit();
}
