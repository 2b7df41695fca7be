/* Portable signed 128-bit integers for exact sums of squares (SPEC sec. 5).
 * MSVC has no __int128, so this is two 64-bit words in two's complement,
 * with the same code on the host and the device. */
#ifndef EVOLVE_INT128_H
#define EVOLVE_INT128_H

#include <math.h>
#include <stdint.h>

#include "common/hd.h"

typedef struct {
    uint64_t lo;
    uint64_t hi; /* two's complement high word */
} ev_i128;

EV_HD ev_i128 i128_zero(void)
{
    ev_i128 r;
    r.lo = 0;
    r.hi = 0;
    return r;
}

EV_HD ev_i128 i128_add(ev_i128 a, ev_i128 b)
{
    ev_i128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo ? 1u : 0u);
    return r;
}

EV_HD ev_i128 i128_neg(ev_i128 a)
{
    ev_i128 r;
    r.lo = ~a.lo + 1u;
    r.hi = ~a.hi + (r.lo == 0 ? 1u : 0u);
    return r;
}

EV_HD ev_i128 i128_sub(ev_i128 a, ev_i128 b)
{
    return i128_add(a, i128_neg(b));
}

/* Unsigned 64 x 64 -> 128 from four 32-bit products (compilers without
 * 128-bit integers; tests/test_int128.c checks it everywhere). */
EV_HD ev_i128 u128_mul_u64_parts(uint64_t a, uint64_t b)
{
    ev_i128 r;
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    r.lo = (mid << 32) | (p00 & 0xffffffffu);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return r;
}

/* Unsigned 64 x 64 -> 128. */
EV_HD ev_i128 u128_mul_u64(uint64_t a, uint64_t b)
{
#ifdef __CUDA_ARCH__
    ev_i128 r;
    r.lo = a * b;
    r.hi = __umul64hi(a, b);
    return r;
#elif defined(__SIZEOF_INT128__)
    /* one multiply where the compiler has 128-bit integers (sharpe's sums of
     * squares add one per kept trade) */
    __extension__ typedef unsigned __int128 u128_;
    const u128_ p = (u128_)a * b;
    ev_i128 r;
    r.lo = (uint64_t)p;
    r.hi = (uint64_t)(p >> 64);
    return r;
#else
    return u128_mul_u64_parts(a, b);
#endif
}

EV_HD uint64_t i64_abs_u(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* Signed 64 x 64 -> 128. */
EV_HD ev_i128 i128_mul_i64(int64_t a, int64_t b)
{
    ev_i128 r = u128_mul_u64(i64_abs_u(a), i64_abs_u(b));
    return ((a < 0) != (b < 0)) ? i128_neg(r) : r;
}

/* Non-negative 128 x non-negative 64 (result assumed to fit). */
EV_HD ev_i128 i128_mul_u64(ev_i128 a, uint64_t b)
{
    ev_i128 r = u128_mul_u64(a.lo, b);
    r.hi += a.hi * b;
    return r;
}

EV_HD int i128_is_neg(ev_i128 a)
{
    return (a.hi >> 63) != 0;
}

EV_HD int i128_is_zero(ev_i128 a)
{
    return a.lo == 0 && a.hi == 0;
}

/* Nearest double to x through the signed conversion, one correctly rounded
 * instruction on every compiler and GPU, so no compiler's own unsigned
 * sequence is trusted: x >= 2^63 is halved keeping a sticky bit (round to
 * odd), which leaves the final rounding exact. */
EV_HD double u64_to_double(uint64_t x)
{
    if ((x >> 63) == 0)
        return (double)(int64_t)x;
    return 2.0 * (double)(int64_t)((x >> 1) | (x & 1));
}

/* Nearest double to a non-negative value (correctly rounded): its top 64
 * significant bits, with a sticky bit for the rest, scaled by 2^s. */
EV_HD double u128_to_double(ev_i128 a)
{
    int s = 0;
    uint64_t top;
    if (a.hi == 0)
        return u64_to_double(a.lo);
    while (s < 64 && (a.hi >> s) != 0)
        s++; /* s = significant bits of hi, 1..64 */
    if (s == 64)
        top = a.hi | (uint64_t)(a.lo != 0);
    else
        top = (a.hi << (64 - s)) | (a.lo >> s) | (uint64_t)((a.lo << (64 - s)) != 0);
    return ldexp(u64_to_double(top), s);
}

#endif
