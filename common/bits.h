/* Bit tricks the compilers spell differently. */
#ifndef EVOLVE_BITS_H
#define EVOLVE_BITS_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static inline int bits_ctz64(uint64_t x) /* x != 0 */
{
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
#else
static inline int bits_ctz64(uint64_t x) /* x != 0 */
{
    return __builtin_ctzll(x);
}
#endif

#endif
