/* The CPU's popcount loops of the bit-sliced evaluator, chosen at run time:
 * AVX-512 VPOPCNTDQ (8 words an instruction) where the CPU has it, else
 * AVX2 (nibble lookups), else the POPCNT instruction, else plain C. Every
 * kernel gives the same counts; only their speed differs. */
#ifndef EVOLVE_SLICES_POPCNT_H
#define EVOLVE_SLICES_POPCNT_H

#include <stdint.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    SLICES_KERNEL_PLAIN = 0, /* slices_popc64, any CPU */
    SLICES_KERNEL_POPCNT,    /* x86 POPCNT, one word at a time */
    SLICES_KERNEL_AVX2,      /* 4 words at a time, nibble lookup (Mula) */
    SLICES_KERNEL_AVX512,    /* 8 words at a time, VPOPCNTQ */
    SLICES_KERNELS
} slices_kernel;

/* 1 when this CPU (and this build's compiler) can run kernel k. */
int slices_kernel_available(slices_kernel k);
/* The fastest kernel this CPU runs. */
slices_kernel slices_kernel_best(void);
const char *slices_kernel_name(slices_kernel k);

/* The environment variable that forces a kernel: plain, popcnt, avx2 or
 * avx512-vpopcntdq (benches, and tests of a path slower than this CPU's best). */
#define SLICES_KERNEL_ENV "EVOLVE_SLICES_KERNEL"

/* The kernel SLICES_KERNEL_ENV asks for, else the best; an unknown name or
 * one this CPU cannot run is an error naming the variable. */
ev_status slices_kernel_from_env(slices_kernel *k, ev_error *err);

/* cnt[p] += popcount(k[w] & planes[p * nw + w]) summed over w < nw, p < n_planes. */
void slices_counts(slices_kernel kern, const uint64_t *k, const uint64_t *planes, int64_t nw, int32_t n_planes,
                   uint64_t *cnt);

/* out[w] = a[w] & b[w]; returns the popcount of out (a fold's kept trades). */
uint64_t slices_and_count(const uint64_t *a, const uint64_t *b, int64_t nw, uint64_t *out);

/* The popcount of k[0..nw) (a genome's kept trades). */
uint64_t slices_count(slices_kernel kern, const uint64_t *k, int64_t nw);

#ifdef __cplusplus
}
#endif
#endif
