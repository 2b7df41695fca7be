/* operators/philox.h against cuRAND's own Philox4x32-10
 * (curand_Philox4x32_10 of curand_philox4x32_x.h), both run on the host.
 *
 * The cuRAND header compiles for the host when QUALIFIERS includes __host__
 * (its mulhilo32 has a host branch), so the claim that the GA's host stream
 * is cuRAND's is checked where there is no GPU too; test_ga_gpu.c repeats
 * it on the device. Label unit: needs nvcc, not a device. */
#define QUALIFIERS static __forceinline__ __host__ __device__
#include <curand_philox4x32_x.h>

#include <stdio.h>

#include "operators/rng.h"
#include "tests/check.h"

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 11;
}

/* The same counter and key through both; 1 when the four words agree. */
static int same_block(uint32_t x, uint32_t y, uint32_t z, uint32_t w, uint32_t k0, uint32_t k1)
{
    philox_ctr_t c;
    philox_key_t k;
    uint4 r = curand_Philox4x32_10(make_uint4(x, y, z, w), make_uint2(k0, k1));
    c.x = x;
    c.y = y;
    c.z = z;
    c.w = w;
    k.x = k0;
    k.y = k1;
    c = philox4x32_10(c, k);
    return c.x == r.x && c.y == r.y && c.z == r.z && c.w == r.w;
}

/* Random counters and keys, and the extremes. */
static void test_blocks(void)
{
    uint64_t s = 7;
    int bad = 0;
    bad += !same_block(0, 0, 0, 0, 0, 0);
    bad += !same_block(~0u, ~0u, ~0u, ~0u, ~0u, ~0u);
    for (int i = 0; i < 100000; i++) {
        uint64_t a = lcg(&s), b = lcg(&s), c = lcg(&s);
        bad += !same_block((uint32_t)a, (uint32_t)(a >> 32), (uint32_t)b, (uint32_t)(b >> 32), (uint32_t)c,
                           (uint32_t)(c >> 21));
    }
    printf("philox: 100002 random blocks, %d differ from cuRAND's\n", bad);
    CHECK_EQ_I64(0, bad);
}

/* The GA's draws (rng_draw: counter {d / 4, individual, generation, stream},
 * key = the seed's words) are words of cuRAND's blocks. */
static void test_draws(void)
{
    const uint64_t seeds[] = {0, 1, UINT64_C(0x123456789ABCDEF0), UINT64_MAX};
    int bad = 0;
    for (int si = 0; si < 4; si++) {
        philox_key_t key = rng_key(seeds[si]);
        for (uint32_t stream = RNG_STREAM_RANDOM; stream <= RNG_STREAM_MUTATION; stream++)
            for (uint32_t gen = 0; gen < 3; gen++)
                for (uint32_t ind = 0; ind < 40; ind += 13)
                    for (uint32_t d = 0; d < 70; d++) {
                        uint4 r = curand_Philox4x32_10(make_uint4(d / 4u, ind, gen, stream),
                                                       make_uint2((uint32_t)seeds[si], (uint32_t)(seeds[si] >> 32)));
                        uint32_t want = d % 4u == 0 ? r.x : d % 4u == 1 ? r.y : d % 4u == 2 ? r.z : r.w;
                        bad += rng_draw(key, gen, ind, stream, d) != want;
                    }
    }
    printf("draws: %d differ from cuRAND's\n", bad);
    CHECK_EQ_I64(0, bad);
}

int main(void)
{
    test_blocks();
    test_draws();
    return check_exit();
}
