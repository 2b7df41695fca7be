/* Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
 * SC'11) as a pure function of a 128-bit counter and a 64-bit key.
 *
 * Bit-identical to cuRAND's curand_Philox4x32_10(uint4 c, uint2 k) in
 * curand_philox4x32_x.h: the same round (two 32x32->64 multiplies by
 * 0xD2511F53 / 0xCD9E8D57, outputs {hi1^y^k0, lo1, hi0^w^k1, lo0}), the same
 * Weyl key schedule (+0x9E3779B9, +0xBB67AE85) and ten rounds. The field
 * names x, y, z, w mirror CUDA's uint4/uint2 so a kernel can convert by
 * member. Used without state: the caller's counter says which numbers it
 * wants, so every thread, launch shape and backend draws the same stream. */
#ifndef EVOLVE_PHILOX_H
#define EVOLVE_PHILOX_H

#include <stdint.h>

#include "common/hd.h"

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

typedef struct {
    uint32_t x, y, z, w;
} philox_ctr_t;
EV_STATIC_ASSERT(sizeof(philox_ctr_t) == 16, "philox_ctr_t must match CUDA's uint4");

typedef struct {
    uint32_t x, y;
} philox_key_t;
EV_STATIC_ASSERT(sizeof(philox_key_t) == 8, "philox_key_t must match CUDA's uint2");

EV_HD philox_ctr_t philox_round(philox_ctr_t c, philox_key_t k)
{
    uint64_t p0 = (uint64_t)PHILOX_M0 * (uint64_t)c.x;
    uint64_t p1 = (uint64_t)PHILOX_M1 * (uint64_t)c.z;
    philox_ctr_t r;
    r.x = (uint32_t)(p1 >> 32) ^ c.y ^ k.x;
    r.y = (uint32_t)p1;
    r.z = (uint32_t)(p0 >> 32) ^ c.w ^ k.y;
    r.w = (uint32_t)p0;
    return r;
}

/* Ten rounds, the key bumped between rounds (nine bumps), as in cuRAND. */
EV_HD philox_ctr_t philox4x32_10(philox_ctr_t c, philox_key_t k)
{
    c = philox_round(c, k);
    for (int i = 1; i < 10; i++) {
        k.x += PHILOX_W0;
        k.y += PHILOX_W1;
        c = philox_round(c, k);
    }
    return c;
}

/* Word i (0..3) of a block: x, y, z, w. */
EV_HD uint32_t philox_word(philox_ctr_t b, uint32_t i)
{
    return i == 0 ? b.x : i == 1 ? b.y : i == 2 ? b.z : b.w;
}

#endif
