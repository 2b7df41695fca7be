/* The GA's shared code on the device equals the host bit for bit: cuRAND's
 * Philox4x32-10, our HD Philox and the host stream agree; breed_initial and
 * breed_child make the same children in a kernel as in the CPU loop.
 * Skips (77) without a CUDA device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cuda_api.h"
#include "kernels/ga_selftest.h"
#include "operators/breed.h"
#include "tests/check.h"

static void test_philox(void)
{
    enum { N = 4096 };
    static uint32_t ctr[4 * N], cu[4 * N], hd[4 * N];
    uint32_t key[2] = {0x9abcdef0u, 0x12345678u};
    ev_error err;
    uint64_t rng = 1;
    int bad = 0;
    for (uint32_t i = 0; i < N; i++) {
        /* GA-shaped counters {block, individual, generation, stream}, then random ones */
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        ctr[4 * i + 0] = i < N / 2 ? i % 8 : (uint32_t)(rng >> 32);
        ctr[4 * i + 1] = i < N / 2 ? i / 8 : (uint32_t)rng;
        ctr[4 * i + 2] = i < N / 2 ? i % 5 : (uint32_t)(rng >> 16);
        ctr[4 * i + 3] = i < N / 2 ? i % 5 : ~(uint32_t)rng;
    }
    if (cuda_selftest_philox(ctr, key, N, cu, hd, &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK(0);
        return;
    }
    for (uint32_t i = 0; i < N; i++) {
        philox_ctr_t c;
        philox_key_t k;
        c.x = ctr[4 * i];
        c.y = ctr[4 * i + 1];
        c.z = ctr[4 * i + 2];
        c.w = ctr[4 * i + 3];
        k.x = key[0];
        k.y = key[1];
        c = philox4x32_10(c, k);
        bad += c.x != cu[4 * i] || c.y != cu[4 * i + 1] || c.z != cu[4 * i + 2] || c.w != cu[4 * i + 3];
        bad += memcmp(&cu[4 * i], &hd[4 * i], 16) != 0;
    }
    printf("philox: %u counters, %d mismatches between host, cuRAND and the HD function on the device\n", N, bad);
    CHECK_EQ_I64(0, bad);
}

static void test_breed(int selection, int crossover)
{
    enum { POP = 2048, NG = 9 };
    static uint16_t prev[NG * POP], host[NG * POP], dev[NG * POP];
    static int32_t hpar[2 * POP], dpar[2 * POP];
    static uint32_t order[POP];
    uint32_t nv[NG] = {2, 3, 10, 20, 65535, 7, 1, 300, 12};
    int32_t first[NG] = {0, 2, -1, 0, 65534, -1, 0, 0, 11};
    breed_island_t isl[8];
    ga_settings_t s;
    breed_ctx_t c;
    ev_error err;
    ga_settings_default(&s);
    s.population = POP;
    s.islands = 8;
    s.selection = selection;
    s.crossover = crossover;
    s.creep_max = 3;
    s.mutation_rate = 0.3;
    breed_ctx_init(&c, &s, UINT64_C(0xDEADBEEF12345), NG, nv, first);
    for (uint32_t i = 0; i < POP; i++)
        breed_initial(&c, i, host, hpar);
    if (cuda_selftest_breed(&c, isl, prev, order, 0, dev, dpar, &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK(0);
        return;
    }
    CHECK(memcmp(host, dev, sizeof host) == 0 && memcmp(hpar, dpar, sizeof hpar) == 0);
    memcpy(prev, host, sizeof prev);
    for (uint32_t i = 0; i < POP; i++)
        order[i] = (i / 256) * 256 + (i * 37) % 256;
    for (uint32_t i = 0; i < 8; i++) {
        isl[i].elites = 3;
        isl[i].migrants = i % 2 ? 4 : 0;
        isl[i].immigrants = i % 3 ? 0 : 20;
        isl[i].source = (i + 7) % 8;
    }
    for (uint32_t gen = 1; gen <= 3; gen++) {
        for (uint32_t ch = 0; ch < POP; ch++)
            breed_child(&c, isl, prev, order, gen, ch, host, hpar);
        if (cuda_selftest_breed(&c, isl, prev, order, gen, dev, dpar, &err) != EV_OK) {
            fprintf(stderr, "%s\n", err.msg);
            CHECK(0);
            return;
        }
        CHECK(memcmp(host, dev, sizeof host) == 0);
        CHECK(memcmp(hpar, dpar, sizeof hpar) == 0);
        memcpy(prev, host, sizeof prev);
    }
}

int main(void)
{
    if (cuda_device_count() <= 0) {
        printf("no CUDA device: skipped\n");
        return CHECK_SKIP_CODE;
    }
    test_philox();
    for (int sel = SEL_TOURNAMENT; sel <= SEL_TRUNCATION; sel++)
        for (int xo = XO_UNIFORM; xo <= XO_TWO_POINT; xo++)
            test_breed(sel, xo);
    return check_exit();
}
