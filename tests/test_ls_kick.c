/* Local search's kick (ga/ls_kick.h, docs/ga.md "Local search"): against an
 * oracle that reads the documented draws one by one with rng_draw (draw
 * LS_KICK_DRAW0 the size, then per moved gene i the pick among the genes not
 * moved yet, in gene order, and its new value among the other values, in
 * value order). Every kick moves exactly k genes, 2 <= k <= kick_genes, each
 * to another value, never a gene of one value; all sizes and every movable
 * gene occur; other counters kick otherwise; the draws below LS_KICK_DRAW0
 * (a random start's) are not read. */
#include <stdio.h>
#include <string.h>

#include "ga/ls_kick.h"
#include "tests/check.h"

#define NG 12

/* The documented rule, read draw by draw. */
static uint32_t oracle(uint64_t seed, uint32_t gen, uint32_t ind, const uint32_t *nv, uint32_t k_min, uint32_t k_max,
                       uint16_t *g)
{
    philox_key_t key = rng_key(seed);
    int moved[NG] = {0};
    uint32_t m = 0, k;
    for (int i = 0; i < NG; i++)
        m += nv[i] >= 2;
    k = k_min +
        (uint32_t)(((uint64_t)rng_draw(key, gen, ind, RNG_STREAM_RANDOM, LS_KICK_DRAW0) * (k_max - k_min + 1)) >> 32);
    if (k > m)
        k = m;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t pick =
            (uint32_t)(((uint64_t)rng_draw(key, gen, ind, RNG_STREAM_RANDOM, LS_KICK_DRAW0 + 1 + 2 * i) * (m - i)) >>
                       32);
        int gene = -1;
        uint32_t v, others[64], n = 0;
        for (int j = 0; j < NG; j++) /* the pick-th movable gene not moved yet */
            if (nv[j] >= 2 && !moved[j] && pick-- == 0) {
                gene = j;
                break;
            }
        for (uint32_t x = 0; x < nv[gene]; x++)
            if (x != g[gene])
                others[n++] = x;
        v = (uint32_t)(((uint64_t)rng_draw(key, gen, ind, RNG_STREAM_RANDOM, LS_KICK_DRAW0 + 2 + 2 * i) * n) >> 32);
        g[gene] = (uint16_t)others[v];
        moved[gene] = 1;
    }
    return k;
}

int main(void)
{
    /* gene 3 has one value: never moved */
    const uint32_t nv[NG] = {5, 2, 9, 1, 33, 4, 7, 2, 16, 3, 11, 64};
    const uint16_t base[NG] = {4, 0, 8, 0, 17, 3, 6, 1, 0, 2, 10, 63};
    uint32_t sizes[NG + 1] = {0}, touched[NG] = {0}, differ = 0;
    for (uint32_t ind = 0; ind < 2000; ind++) {
        uint16_t g[NG], want[NG], other[NG];
        uint32_t k, kw, changed = 0;
        memcpy(g, base, sizeof g);
        memcpy(want, base, sizeof want);
        memcpy(other, base, sizeof other);
        k = ls_kick(rng_key(7), 5, 100 + ind, NG, nv, 2, 6, g);
        kw = oracle(7, 5, 100 + ind, nv, 2, 6, want);
        CHECK_EQ_I64(kw, k);
        CHECK(!memcmp(want, g, sizeof g));
        CHECK(k >= 2 && k <= 6);
        for (int j = 0; j < NG; j++) {
            CHECK(g[j] < nv[j]);
            changed += g[j] != base[j];
            touched[j] += g[j] != base[j];
        }
        CHECK_EQ_I64(k, changed);
        sizes[k]++;
        ls_kick(rng_key(7), 6, 100 + ind, NG, nv, 2, 6, other); /* the next generation's counters */
        differ += memcmp(other, g, sizeof g) != 0;
    }
    for (uint32_t k = 2; k <= 6; k++)
        CHECK(sizes[k] > 300); /* 2000 kicks, 5 sizes: ~400 each */
    for (int j = 0; j < NG; j++)
        CHECK(j == 3 ? touched[j] == 0 : touched[j] > 300); /* ~4 of 11 movable genes a kick: ~730 each */
    CHECK(differ > 1900);
    {
        /* a fixed size; more genes asked than movable: all movable ones move */
        const uint32_t two[4] = {1, 3, 1, 2};
        uint16_t g[NG] = {0, 1, 0, 1}, want[NG] = {0, 1, 0, 1};
        CHECK_EQ_I64(2, ls_kick(rng_key(3), 0, 9, 4, two, 6, 6, g));
        CHECK(g[0] == 0 && g[1] != 1 && g[2] == 0 && g[3] == 0);
        memcpy(g, base, sizeof g);
        memcpy(want, base, sizeof want);
        CHECK_EQ_I64(3, ls_kick(rng_key(3), 0, 9, NG, nv, 3, 3, g));
        CHECK_EQ_I64(3, oracle(3, 0, 9, nv, 3, 3, want));
        CHECK(!memcmp(want, g, sizeof g));
    }
    printf("kick sizes 2..6: %u %u %u %u %u of 2000\n", sizes[2], sizes[3], sizes[4], sizes[5], sizes[6]);
    return check_exit();
}
