/* One seeded generation of the CPU GA (ga_run on the CPU backend's GA ops),
 * recomputed slot by slot from the operators: the island ranking (docs/ga.md:
 * rank_key descending, then the lower linear index, then the lower
 * individual), each island's plan (elites, migrants, immigrants), and every
 * child: elites and migrants copied from their rank, immigrants from
 * genome_random, and every bred child from select_parent, crossover_apply and
 * mutate_genome. Genes and parents must match exactly.
 *
 * Why: the statistical operator tests cannot see a slot bred the wrong way.
 * An elitism off by one (slot `elites` an unmutated copy of rank `elites`)
 * still has a parent in its island and genes on the lattice; only an exact
 * recomputation of every slot catches it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/ga_plan.h"
#include "operators/breed.h"
#include "tests/check.h"
#include "tests/support/ga_fixture.h"

#define MAX_POP 64
#define MAX_ISLANDS 4

/* What the observer keeps of generations 0 and 1. */
typedef struct {
    uint32_t pop, n_genes, islands, seen;
    uint16_t genes0[GA_MAX_GENES * MAX_POP], genes1[GA_MAX_GENES * MAX_POP];
    eval_result_t results0[MAX_POP];
    int32_t parents0[2 * MAX_POP], parents1[2 * MAX_POP];
    breed_island_t plan1[MAX_ISLANDS];
} two_gens_t;

static ev_status keep_generation(void *ctx, const ga_generation_t *g, ev_error *err)
{
    two_gens_t *t = (two_gens_t *)ctx;
    size_t n = (size_t)g->n_genes * g->population;
    (void)err;
    t->pop = g->population;
    t->n_genes = g->n_genes;
    t->islands = g->islands;
    if (g->stats->generation == 0) {
        memcpy(t->genes0, g->genes, n * sizeof *g->genes);
        memcpy(t->results0, g->results, g->population * sizeof *g->results);
        memcpy(t->parents0, g->parents, 2u * g->population * sizeof *g->parents);
    } else if (g->stats->generation == 1) {
        memcpy(t->genes1, g->genes, n * sizeof *g->genes);
        memcpy(t->parents1, g->parents, 2u * g->population * sizeof *g->parents);
        memcpy(t->plan1, g->stats->islands, g->islands * sizeof *t->plan1);
    }
    t->seen++;
    return EV_OK;
}

/* The ranking of docs/ga.md, written out independently of cpu_ga_rank.c
 * (comparing genes lexicographically is comparing linear indices). */
static const two_gens_t *rank_of;

static int cmp_rank(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    uint64_t ka = rank_key(rank_of->results0[a]), kb = rank_key(rank_of->results0[b]);
    if (ka != kb)
        return ka > kb ? -1 : 1;
    for (uint32_t k = 0; k < rank_of->n_genes; k++) {
        uint16_t ga = rank_of->genes0[k * rank_of->pop + a], gb = rank_of->genes0[k * rank_of->pop + b];
        if (ga != gb)
            return ga < gb ? -1 : 1;
    }
    return a < b ? -1 : a > b;
}

static uint32_t distinct_in_island(const two_gens_t *t, uint32_t first, uint32_t size)
{
    uint32_t unique = 0;
    for (uint32_t i = first; i < first + size; i++) {
        int dup = 0;
        for (uint32_t j = first; j < i && !dup; j++) {
            dup = 1;
            for (uint32_t k = 0; k < t->n_genes && dup; k++)
                dup = t->genes0[k * t->pop + i] == t->genes0[k * t->pop + j];
        }
        unique += !dup;
    }
    return unique;
}

static uint32_t share_of(double share, uint32_t size)
{
    double x = ceil(share * size - 1e-9); /* docs/ga.md: ceil(share x n - 1e-9) */
    return x <= 0 ? 0 : x >= size ? size : (uint32_t)x;
}

/* Runs generations 0 and 1 with settings s and seed, and recomputes
 * generation 1. Returns the immigrants planned in all islands. */
static uint32_t check_generation_one(ga_fixture_t *f, ga_settings_t *s, uint64_t seed)
{
    static two_gens_t t;
    ga_observer_t obs;
    ga_run_opts_t o;
    ga_result_t res;
    ev_error err;
    breed_ctx_t c;
    int32_t first[GA_MAX_GENES];
    uint32_t order[MAX_POP], size, immigrants_total = 0;
    memset(&t, 0, sizeof t);
    memset(&obs, 0, sizeof obs);
    memset(&o, 0, sizeof o);
    obs.ctx = &t;
    obs.want_population = 1;
    obs.on_generation = keep_generation;
    o.seed = seed;
    o.top = 4;
    o.observer = &obs;
    s->generations = 2;
    if (ga_run(&backend_cpu_ops, f->b, &f->p, s, &o, &res, &err) != EV_OK) {
        fprintf(stderr, "ga_run: %s\n", err.msg);
        exit(2);
    }
    ga_result_free(&res);
    CHECK_EQ_I64(2, t.seen);
    if (t.seen != 2 || t.pop > MAX_POP || t.islands > MAX_ISLANDS)
        return 0;
    size = t.pop / t.islands;
    ga_first_genome(f->p.lat, first);
    breed_ctx_init(&c, s, seed, (int32_t)t.n_genes, f->p.shape.n_values, first);

    /* generation 0: breed_initial's, without parents */
    {
        static uint16_t g0[GA_MAX_GENES * MAX_POP];
        int32_t par0[2 * MAX_POP];
        for (uint32_t i = 0; i < t.pop; i++)
            breed_initial(&c, i, g0, par0);
        CHECK(memcmp(g0, t.genes0, (size_t)t.n_genes * t.pop * sizeof *g0) == 0);
        CHECK(memcmp(par0, t.parents0, 2u * t.pop * sizeof *par0) == 0);
    }

    rank_of = &t;
    for (uint32_t i = 0; i < t.pop; i++)
        order[i] = i;
    for (uint32_t isl = 0; isl < t.islands; isl++)
        qsort(order + isl * size, size, sizeof *order, cmp_rank);

    for (uint32_t isl = 0; isl < t.islands; isl++) {
        breed_island_t want;
        uint32_t elites = share_of(s->elitism, size);
        want.elites = elites < 1 ? 1 : elites;
        want.migrants = 0;
        if (t.islands > 1 && s->migration_every > 0 && 1 % s->migration_every == 0)
            want.migrants = s->migration_count < size - want.elites ? s->migration_count : size - want.elites;
        want.source = (isl + t.islands - 1) % t.islands;
        want.immigrants = 0;
        if ((double)distinct_in_island(&t, isl * size, size) < s->immigrant_diversity * size) {
            uint32_t n = share_of(s->immigrant_share, size), room = size - want.elites - want.migrants;
            want.immigrants = n < room ? n : room;
        }
        CHECK_EQ_I64(want.elites, t.plan1[isl].elites);
        CHECK_EQ_I64(want.migrants, t.plan1[isl].migrants);
        CHECK_EQ_I64(want.immigrants, t.plan1[isl].immigrants);
        CHECK_EQ_I64(want.source, t.plan1[isl].source);
        immigrants_total += want.immigrants;

        for (uint32_t slot = 0; slot < size; slot++) {
            uint32_t child = isl * size + slot, bred_end = size - want.migrants - want.immigrants;
            uint16_t a[GA_MAX_GENES], b[GA_MAX_GENES], out[GA_MAX_GENES];
            int32_t pa = -1, pb = -1;
            if (slot < want.elites) { /* the island's best, in rank order */
                pa = (int32_t)order[isl * size + slot];
                genome_gather(t.genes0, t.pop, (uint32_t)pa, (int32_t)t.n_genes, out);
            } else if (slot >= size - want.migrants) { /* the source island's best */
                pa = (int32_t)order[want.source * size + slot - (size - want.migrants)];
                genome_gather(t.genes0, t.pop, (uint32_t)pa, (int32_t)t.n_genes, out);
            } else if (slot >= bred_end) { /* immigrants: random, no parents */
                genome_random(rng_key(seed), 1, child, (int32_t)t.n_genes, c.n_values, out);
            } else { /* bred: select A and B, cross over, mutate */
                uint32_t ia = select_parent(&c, order, 1, child, RNG_STREAM_SELECT_A);
                uint32_t ib = select_parent(&c, order, 1, child, RNG_STREAM_SELECT_B);
                genome_gather(t.genes0, t.pop, ia, (int32_t)t.n_genes, a);
                genome_gather(t.genes0, t.pop, ib, (int32_t)t.n_genes, b);
                pa = (int32_t)ia;
                if (crossover_apply(&c, 1, child, a, b, out))
                    pb = (int32_t)ib;
                mutate_genome(&c, 1, child, out);
            }
            for (uint32_t k = 0; k < t.n_genes; k++)
                if (t.genes1[k * t.pop + child] != out[k]) {
                    fprintf(stderr, "child %u (island %u, slot %u): gene %u is %u, expected %u\n", child, isl, slot, k,
                            t.genes1[k * t.pop + child], out[k]);
                    check_failures++;
                }
            if (t.parents1[child] != pa || t.parents1[t.pop + child] != pb) {
                fprintf(stderr, "child %u (island %u, slot %u): parents (%d, %d), expected (%d, %d)\n", child, isl,
                        slot, t.parents1[child], t.parents1[t.pop + child], pa, pb);
                check_failures++;
            }
        }
    }
    return immigrants_total;
}

/* Default-like settings: two islands, no migration and (diverse islands) no
 * immigrants in generation 1: elites then bred children. */
static void test_elites_then_bred(void)
{
    ga_fixture_t f;
    ga_settings_t s;
    fixture_open(&f, 3, 8);
    fixture_settings(&s); /* population 64, 2 islands, elitism 0.05: 2 elites of 32 */
    check_generation_one(&f, &s, 7);
    s.elitism = 0.1; /* 4 elites, tournament of 2, one-point crossover */
    s.tournament_k = 2;
    s.crossover = XO_ONE_POINT;
    check_generation_one(&f, &s, 8);
    fixture_close(&f);
}

/* Every kind of slot in one generation: migration in generation 1 and, on a
 * lattice of 216 points, duplicates that call for immigrants. */
static void test_all_slot_kinds(void)
{
    ga_fixture_t f;
    ga_settings_t s;
    fixture_open(&f, 1, 6);
    fixture_settings(&s);
    s.migration_every = 1;
    s.migration_count = 3;
    s.immigrant_diversity = 1.0; /* any duplicate in an island brings immigrants */
    s.immigrant_share = 0.2;
    s.elitism = 0.1;
    s.selection = SEL_TRUNCATION;
    s.crossover = XO_TWO_POINT;
    /* the seed is chosen so that some island is planned immigrants */
    CHECK(check_generation_one(&f, &s, 5) > 0);
    fixture_close(&f);
}

int main(void)
{
    test_elites_then_bred();
    test_all_slot_kinds();
    return check_exit();
}
