/* The counter-based RNG: Philox4x32-10 known answers, the draw numbering,
 * uniform integers (range, rough uniformity) and Bernoulli thresholds. */
#include <math.h>
#include <stdio.h>

#include "operators/philox.h"
#include "operators/rng.h"
#include "tests/check.h"

typedef struct {
    uint32_t ctr[4], key[2], out[4];
} kat_t;

/* Random123 kat_vectors (philox4x32_10), then GA streams with seed
 * 0x123456789ABCDEF0 from tests/philox_ref.py, an independent implementation. */
static const kat_t kats[] = {
    {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
    {{0, 0, 0, 0}, {0x9abcdef0, 0x12345678}, {0x092c9b44, 0x78384bc0, 0xc9fb80be, 0x2b3be4dd}},
    {{1, 7, 3, 4}, {0x9abcdef0, 0x12345678}, {0x61c881c9, 0xcd691ba5, 0x6be18a48, 0x23b84c31}},
    {{5, 1000, 200, 2}, {0x9abcdef0, 0x12345678}, {0xfdc54b51, 0x484043f4, 0xd8ad8b13, 0x32c108a1}},
};

static void test_known_answers(void)
{
    for (size_t i = 0; i < sizeof kats / sizeof kats[0]; i++) {
        philox_ctr_t c;
        philox_key_t k;
        c.x = kats[i].ctr[0];
        c.y = kats[i].ctr[1];
        c.z = kats[i].ctr[2];
        c.w = kats[i].ctr[3];
        k.x = kats[i].key[0];
        k.y = kats[i].key[1];
        c = philox4x32_10(c, k);
        CHECK_EQ_I64(kats[i].out[0], c.x);
        CHECK_EQ_I64(kats[i].out[1], c.y);
        CHECK_EQ_I64(kats[i].out[2], c.z);
        CHECK_EQ_I64(kats[i].out[3], c.w);
    }
}

/* Draw d is word d % 4 of block d / 4 with counter {block, individual,
 * generation, stream}; the cursor gives the same words in any order. */
static void test_draw_numbering(void)
{
    philox_key_t key = rng_key(UINT64_C(0x123456789ABCDEF0));
    rng_cursor_t c;
    CHECK_EQ_I64(0x9abcdef0, key.x);
    CHECK_EQ_I64(0x12345678, key.y);
    /* kats[4]: counter {1, 7, 3, 4} = block 1 of (generation 3, individual 7, stream 4) */
    CHECK_EQ_I64(0x61c881c9, rng_draw(key, 3, 7, 4, 4));
    CHECK_EQ_I64(0x23b84c31, rng_draw(key, 3, 7, 4, 7));
    CHECK_EQ_I64(0xfdc54b51, rng_draw(key, 200, 1000, 2, 20));
    rng_cursor_init(&c, key, 9, 11, RNG_STREAM_MUTATION);
    for (uint32_t d = 40; d-- > 0;)
        CHECK_EQ_I64(rng_draw(key, 9, 11, RNG_STREAM_MUTATION, d), rng_cursor_draw(&c, d));
    /* neighbouring counters differ */
    CHECK(rng_draw(key, 0, 0, 0, 0) != rng_draw(key, 0, 1, 0, 0));
    CHECK(rng_draw(key, 0, 0, 0, 0) != rng_draw(key, 1, 0, 0, 0));
    CHECK(rng_draw(key, 0, 0, 0, 0) != rng_draw(key, 0, 0, 1, 0));
    CHECK(rng_draw(key, 0, 0, 0, 0) != rng_draw(rng_key(1), 0, 0, 0, 0));
}

static void test_uniform(void)
{
    static const uint32_t ns[] = {1, 2, 3, 7, 10, 255, 65535, 4000000000u};
    philox_key_t key = rng_key(42);
    CHECK_EQ_I64(0, rng_uniform(0, 10));
    CHECK_EQ_I64(9, rng_uniform(UINT32_MAX, 10));
    CHECK_EQ_I64(65534, rng_uniform(UINT32_MAX, 65535));
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        uint32_t max = 0;
        for (uint32_t d = 0; d < 20000; d++) {
            uint32_t u = rng_uniform(rng_draw(key, 1, 2, 3, d), ns[i]);
            max = u > max ? u : max;
            if (u >= ns[i]) {
                CHECK(u < ns[i]);
                break;
            }
        }
        CHECK(ns[i] > 20000 || max == ns[i] - 1); /* small ranges are covered */
    }
    /* chi-square over 10 and 97 bins: 99.99 % quantiles are 33.7 (9 df) and ~160 (96 df) */
    for (uint32_t nb = 10; nb <= 97; nb += 87) {
        uint32_t count[97] = {0};
        uint32_t draws = 200000;
        double chi = 0.0, expect = (double)draws / nb;
        for (uint32_t d = 0; d < draws; d++)
            count[rng_uniform(rng_draw(key, d / 1000, d % 1000, RNG_STREAM_RANDOM, nb), nb)]++;
        for (uint32_t v = 0; v < nb; v++)
            chi += ((double)count[v] - expect) * ((double)count[v] - expect) / expect;
        printf("chi-square over %u bins: %.1f\n", nb, chi);
        CHECK(chi < (nb == 10 ? 33.7 : 160.0));
    }
}

static void test_bernoulli(void)
{
    philox_key_t key = rng_key(7);
    uint32_t hits = 0, n = 100000;
    double p = 0.3, sigma = sqrt(n * p * (1 - p));
    CHECK_EQ_I64(0, rng_threshold(0.0));
    CHECK_EQ_I64(0, rng_threshold(-1.0));
    CHECK(rng_threshold(1.0) == RNG_ALWAYS);
    CHECK(rng_threshold(2.0) == RNG_ALWAYS);
    CHECK_EQ_I64(UINT64_C(2147483648), rng_threshold(0.5));
    CHECK(rng_bernoulli(UINT32_MAX, RNG_ALWAYS));
    CHECK(!rng_bernoulli(0, 0));
    for (uint32_t d = 0; d < n; d++)
        hits += (uint32_t)rng_bernoulli(rng_draw(key, 0, d, RNG_STREAM_CROSSOVER, 0), rng_threshold(p));
    CHECK(fabs((double)hits - n * p) < 5 * sigma);
}

int main(void)
{
    test_known_answers();
    test_draw_numbering();
    test_uniform();
    test_bernoulli();
    return check_exit();
}
