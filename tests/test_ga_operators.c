/* The per-child operators (operators/ headers), checked against their documented
 * draws and within statistical bounds (5 sigma) over many children. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/lattice_shape.h"
#include "operators/breed.h"
#include "tests/check.h"

#define NG 8

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128_ref; /* GCC/Clang: the reference for multiword indices */
#endif

static void make_ctx(breed_ctx_t *c, uint32_t n_values, double rate)
{
    ga_settings_t s;
    uint32_t nv[NG];
    for (int k = 0; k < NG; k++)
        nv[k] = n_values;
    ga_settings_default(&s);
    s.population = 200;
    s.islands = 4;
    s.mutation_rate = rate;
    breed_ctx_init(c, &s, 99, NG, nv, NULL);
}

/* 5-sigma bound on a binomial count */
static int within_5_sigma(double count, double n, double p)
{
    double sd = sqrt(n * p * (1.0 - p));
    if (fabs(count - n * p) >= 5.0 * sd + 1e-9) {
        fprintf(stderr, "count %.0f of %.0f, expected %.1f +- 5 x %.2f\n", count, n, n * p, sd);
        return 0;
    }
    return 1;
}

static void test_mutation_rate(void)
{
    const double rates[] = {0.0 /* auto: 1/genes */, 0.05, 0.5};
    for (int r = 0; r < 3; r++) {
        breed_ctx_t c;
        double changed = 0, n = 0, p = rates[r] > 0 ? rates[r] : 1.0 / NG;
        make_ctx(&c, 20, rates[r]);
        for (uint32_t child = 0; child < 20000; child++) {
            uint16_t g[NG] = {0, 5, 10, 19, 3, 7, 11, 13};
            changed += mutate_genome(&c, 3, child, g);
            n += NG;
        }
        CHECK(within_5_sigma(changed, n, p));
    }
}

static void test_creep(void)
{
    const uint32_t sizes[] = {2, 3, 5, 20};
    breed_ctx_t c;
    make_ctx(&c, 20, 1.0);
    c.creep_thr = RNG_ALWAYS;
    c.creep_max = 3;
    for (int si = 0; si < 4; si++) {
        uint32_t n = sizes[si];
        for (uint32_t v = 0; v < n; v++) {
            int seen_up = 0, seen_down = 0;
            for (uint32_t d = 0; d < 2000; d++) {
                philox_ctr_t w = rng_block(rng_key(5), 1, d, RNG_STREAM_MUTATION, v);
                uint16_t m = mutate_gene(&c, w, n, (uint16_t)v);
                int delta = (int)m - (int)v;
                CHECK(m < n);
                CHECK(delta != 0 && abs(delta) <= (int)c.creep_max);
                seen_up |= delta > 0;
                seen_down |= delta < 0;
            }
            CHECK(seen_up == (v + 1 < n)); /* both ways where there is room, inward at the ends */
            CHECK(seen_down == (v > 0));
        }
    }
}

static void test_reset(void)
{
    breed_ctx_t c;
    uint32_t count[12] = {0}, draws = 22000;
    double chi = 0;
    make_ctx(&c, 12, 1.0);
    c.creep_thr = 0;
    for (uint32_t d = 0; d < draws; d++)
        count[mutate_gene(&c, rng_block(rng_key(8), 2, d, RNG_STREAM_MUTATION, 0), 12, 5)]++;
    CHECK_EQ_I64(0, count[5]); /* a reset always changes the gene */
    for (uint32_t v = 0; v < 12; v++) {
        double e = draws / 11.0;
        if (v != 5) {
            CHECK(count[v] > 0);
            chi += (count[v] - e) * (count[v] - e) / e;
        }
    }
    CHECK(chi < 35.6); /* 99.99 % quantile of chi-square with 10 df */
    /* a gene with one value never mutates */
    CHECK_EQ_I64(0, mutate_gene(&c, rng_block(rng_key(8), 2, 0, RNG_STREAM_MUTATION, 0), 1, 0));
}

/* Genes from A are even, from B odd: the child's pattern is readable. */
static void test_crossover(void)
{
    const int kinds[] = {XO_UNIFORM, XO_ONE_POINT, XO_TWO_POINT};
    uint16_t a[NG], b[NG], out[NG];
    for (int k = 0; k < NG; k++) {
        a[k] = (uint16_t)(2 * k);
        b[k] = (uint16_t)(2 * k + 1);
    }
    for (int ki = 0; ki < 3; ki++) {
        breed_ctx_t c;
        double crossed = 0, n = 20000, mixed = 0;
        make_ctx(&c, 20, 0);
        c.crossover = kinds[ki];
        c.crossover_thr = rng_threshold(0.7);
        for (uint32_t child = 0; child < n; child++) {
            int from_b[NG], switches = 0, nb = 0;
            int x = crossover_apply(&c, 4, child, a, b, out);
            crossed += x;
            for (int k = 0; k < NG; k++) {
                CHECK(out[k] == a[k] || out[k] == b[k]);
                from_b[k] = out[k] == b[k];
                nb += from_b[k];
                switches += k > 0 && from_b[k] != from_b[k - 1];
            }
            if (!x)
                CHECK_EQ_I64(0, nb);
            else if (kinds[ki] == XO_ONE_POINT)
                CHECK(!from_b[0] && from_b[NG - 1] && switches == 1);
            else if (kinds[ki] == XO_TWO_POINT)
                CHECK(!from_b[0] && !from_b[NG - 1] && switches == 2);
            mixed += x && nb > 0 && nb < NG;
        }
        CHECK(within_5_sigma(crossed, n, 0.7));
        CHECK(mixed > 0.9 * crossed);
    }
    {
        breed_ctx_t c;
        make_ctx(&c, 20, 0);
        c.crossover_thr = RNG_ALWAYS;
        for (uint32_t child = 0; child < 1000; child++)
            CHECK(crossover_apply(&c, 4, child, a, b, out));
        c.crossover_thr = 0;
        for (uint32_t child = 0; child < 1000; child++)
            CHECK(!crossover_apply(&c, 4, child, a, b, out));
    }
}

/* The winner is the best of exactly the documented picks, and the winners'
 * ranks follow P(rank <= r) = 1 - ((S - 1 - r) / S)^k. */
static void test_tournament(void)
{
    breed_ctx_t c;
    uint32_t order[200], s, n = 40000, at0 = 0, le9 = 0;
    make_ctx(&c, 20, 0);
    c.tournament_k = 3;
    s = c.island_size;
    for (uint32_t i = 0; i < 200; i++)
        order[i] = 199 - i; /* any permutation: parents must come from the right island */
    for (uint32_t child = 0; child < n; child++) {
        uint32_t ch = child % 200, gen = 1 + child / 200, best = UINT32_MAX;
        uint32_t r = select_rank(&c, gen, ch, RNG_STREAM_SELECT_A);
        uint32_t parent = select_parent(&c, order, gen, ch, RNG_STREAM_SELECT_A);
        for (uint32_t j = 0; j < c.tournament_k; j++) {
            uint32_t pick = rng_uniform(rng_draw(rng_key(c.seed), gen, ch, RNG_STREAM_SELECT_A, j), s);
            best = pick < best ? pick : best;
        }
        CHECK_EQ_I64(best, r);
        CHECK_EQ_I64(order[(ch / s) * s + r], parent);
        at0 += r == 0;
        le9 += r <= 9;
    }
    CHECK(within_5_sigma(at0, n, 1.0 - pow((s - 1.0) / s, 3)));
    CHECK(within_5_sigma(le9, n, 1.0 - pow((s - 10.0) / s, 3)));
    /* B is drawn from its own stream */
    CHECK(select_rank(&c, 1, 0, RNG_STREAM_SELECT_A) != select_rank(&c, 1, 0, RNG_STREAM_SELECT_B) ||
          select_rank(&c, 1, 1, RNG_STREAM_SELECT_A) != select_rank(&c, 1, 1, RNG_STREAM_SELECT_B));
}

static void test_truncation(void)
{
    ga_settings_t s;
    breed_ctx_t c;
    uint32_t nv[NG] = {20, 20, 20, 20, 20, 20, 20, 20}, seen[50] = {0};
    ga_settings_default(&s);
    s.population = 200;
    s.islands = 4;
    s.selection = SEL_TRUNCATION;
    s.truncation = 0.3;
    breed_ctx_init(&c, &s, 3, NG, nv, NULL);
    CHECK_EQ_I64(15, c.truncation_pool);
    for (uint32_t child = 0; child < 20000; child++) {
        uint32_t r = select_rank(&c, 2, child % 200, child < 10000 ? RNG_STREAM_SELECT_A : RNG_STREAM_SELECT_B);
        CHECK(r < 15);
        seen[r < 50 ? r : 49]++;
    }
    for (uint32_t r = 0; r < 15; r++)
        CHECK(seen[r] > 0);
    CHECK_EQ_I64(1, breed_share_count(0.01, 100)); /* decimal shares are not rounded up by representation error */
    CHECK_EQ_I64(7, breed_share_count(0.07, 100));
    CHECK_EQ_I64(41, breed_share_count(0.01, 4096));
}

/* Slots: elites copy the island's best, migrants the source's best,
 * immigrants are random with no parents, the rest are bred in the island. */
static void test_breed_slots(void)
{
    breed_ctx_t c;
    breed_island_t isl[4];
    uint16_t prev[NG * 200], next[NG * 200];
    int32_t parents[400];
    uint32_t order[200];
    int32_t first[NG] = {0, -1, 19, -1, 0, 0, 0, 0};
    ga_settings_t s;
    uint32_t nv[NG] = {20, 20, 20, 20, 20, 20, 20, 20};
    ga_settings_default(&s);
    s.population = 200;
    s.islands = 4;
    breed_ctx_init(&c, &s, 11, NG, nv, first);
    for (uint32_t i = 0; i < 200; i++) {
        breed_initial(&c, i, prev, parents);
        CHECK(parents[i] == -1 && parents[200 + i] == -1);
        order[i] = (i / 50) * 50 + (i * 7) % 50; /* a permutation within each island */
    }
    CHECK(prev[0] == 0 && prev[2 * 200] == 19 && prev[4 * 200] == 0);
    for (uint32_t k = 0; k < NG; k++)
        for (uint32_t i = 0; i < 200; i++)
            CHECK(prev[k * 200 + i] < 20);
    for (int i = 0; i < 4; i++) {
        isl[i].elites = 2;
        isl[i].migrants = 3;
        isl[i].immigrants = i == 2 ? 5 : 0;
        isl[i].source = (uint32_t)(i + 3) % 4;
    }
    for (uint32_t ch = 0; ch < 200; ch++)
        breed_child(&c, isl, prev, order, 1, ch, next, parents);
    for (uint32_t ch = 0; ch < 200; ch++) {
        uint32_t island = ch / 50, slot = ch % 50;
        int32_t pa = parents[ch], pb = parents[200 + ch];
        if (slot < 2 || slot >= 47) {
            uint32_t src = slot < 2 ? order[island * 50 + slot] : order[isl[island].source * 50 + slot - 47];
            CHECK_EQ_I64(src, pa);
            CHECK_EQ_I64(-1, pb);
            for (uint32_t k = 0; k < NG; k++)
                CHECK_EQ_I64(prev[k * 200 + src], next[k * 200 + ch]);
        } else if (island == 2 && slot >= 42) {
            CHECK(pa == -1 && pb == -1);
        } else {
            CHECK(pa >= 0 && (uint32_t)pa / 50 == island);
            CHECK(pb == -1 || (uint32_t)pb / 50 == island);
        }
    }
}

/* The linear index in words, against shape_encode (fits in 64 bits) and a
 * 128-bit reference (beyond). */
static void test_genome_index(void)
{
    uint32_t nv[16];
    uint16_t g[16];
    uint64_t w[GA_INDEX_WORDS_MAX];
    lattice_shape_t sh;
    uint64_t rng = 1;
    memset(&sh, 0, sizeof sh);
    for (int k = 0; k < 16; k++)
        nv[k] = 30;
    CHECK_EQ_I64(2, genome_index_words(nv, 16)); /* 30^16 ~ 4.3e23 */
    CHECK_EQ_I64(1, genome_index_words(nv, 13)); /* 30^13 ~ 1.6e19 < 2^64 */
    nv[0] = 65535;
    for (int k = 1; k < 16; k++)
        nv[k] = 65535;
    CHECK_EQ_I64(4, genome_index_words(nv, 16));
    for (int k = 0; k < 16; k++)
        nv[k] = 30;
    for (int t = 0; t < 1000; t++) {
#ifdef __SIZEOF_INT128__
        u128_ref ref = 0;
#endif
        for (int k = 0; k < 16; k++) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            g[k] = (uint16_t)((rng >> 33) % 30);
#ifdef __SIZEOF_INT128__
            ref = ref * 30 + g[k];
#endif
        }
        genome_index(nv, 16, g, 2, w);
#ifdef __SIZEOF_INT128__
        CHECK(w[0] == (uint64_t)ref && w[1] == (uint64_t)(ref >> 64));
#endif
        sh.n_params = 12;
        for (uint64_t k = 12, stride = 1; k-- > 0; stride *= 30) {
            sh.n_values[k] = 30;
            sh.stride[k] = stride;
        }
        genome_index(nv, 12, g, 1, w);
        CHECK_EQ_I64(shape_encode(&sh, g), w[0]);
    }
}

int main(void)
{
    test_mutation_rate();
    test_creep();
    test_reset();
    test_crossover();
    test_tournament();
    test_truncation();
    test_breed_slots();
    test_genome_index();
    return check_exit();
}
