/* fitness/int128.h against the compiler's own 128-bit integers: products,
 * differences, and u128_to_double/u64_to_double correctly rounded (sharpe's
 * variance goes through them, and every backend must give the same bits).
 * Needs a compiler with unsigned __int128 (GCC, Clang); skips elsewhere. */
#include <stdint.h>

#include "fitness/int128.h"
#include "tests/check.h"

#ifndef __SIZEOF_INT128__
int main(void)
{
    printf("test_int128: skipped: no unsigned __int128 to compare with\n");
    return 77;
}
#else
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

static uint64_t state = 0x9e3779b97f4a7c15u;
static uint64_t next(void) /* splitmix64 */
{
    uint64_t z = (state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static u128 wide(ev_i128 a)
{
    return ((u128)a.hi << 64) | a.lo;
}

static ev_i128 narrow(u128 x)
{
    ev_i128 a;
    a.lo = (uint64_t)x;
    a.hi = (uint64_t)(x >> 64);
    return a;
}

/* A value of `bits` significant bits (1..127). */
static u128 random_bits(int bits)
{
    u128 x = ((u128)next() << 64) | next();
    x >>= 128 - bits;
    return x | ((u128)1 << (bits - 1));
}

/* A 53-bit mantissa, then `tail` bits that sit exactly on the halfway point,
 * just under it or just over it (a 1 far below: only a sticky bit sees it). */
static u128 near_tie(int tail, int kind)
{
    u128 m = ((u128)1 << 52) | (next() & ((UINT64_C(1) << 52) - 1));
    u128 x = (m << tail) | ((u128)1 << (tail - 1));
    return kind == 0 ? x : kind == 1 ? x - 1 : x + 1;
}

static void check_convert(u128 x)
{
    double want = (double)x; /* libgcc: correctly rounded */
    double got = u128_to_double(narrow(x));
    if (got != want) {
        fprintf(stderr, "u128_to_double(%016llx%016llx): expected %.17g, got %.17g\n", (unsigned long long)(x >> 64),
                (unsigned long long)x, want, got);
        check_failures++;
    }
}

int main(void)
{
    for (int i = 0; i < 20000; i++) {
        int bits = 1 + (int)(next() % 127);
        check_convert(random_bits(bits));
        check_convert(near_tie(2 + (int)(next() % 74), (int)(next() % 3)));
    }
    for (int i = 0; i < 20000; i++) {
        uint64_t x = next() >> (next() % 64);
        CHECK_EQ_F64((double)x, u64_to_double(x));
    }
    CHECK_EQ_F64(18446744073709551616.0, u64_to_double(UINT64_MAX));
    CHECK_EQ_F64(9223372036854775808.0, u64_to_double(UINT64_C(1) << 63));
    for (int i = 0; i < 20000; i++) {
        int64_t a = (int64_t)next() >> (next() % 64), b = (int64_t)next() >> (next() % 64);
        uint64_t u = next() >> 32, v = next() >> 33, x = next() >> (next() % 64), y = next();
        CHECK(wide(i128_mul_i64(a, b)) == (u128)((s128)a * b));
        CHECK(wide(i128_sub(i128_mul_i64(a, a), i128_mul_i64(b, b))) == (u128)((s128)a * a - (s128)b * b));
        CHECK(wide(i128_mul_u64(u128_mul_u64(u, v), v)) == (u128)u * v * v);
        CHECK(wide(u128_mul_u64_parts(x, y)) == (u128)x * y); /* the path without 128-bit integers */
    }
    return check_exit();
}
#endif
