/* Device self-tests of the GA's shared __host__ __device__ code: the same
 * functions run in tiny kernels, for tests/test_ga_gpu.c to compare with the
 * host bit for bit. Compiled only with CUDA (kernels/ga_selftest.cu). */
#ifndef EVOLVE_GA_SELFTEST_H
#define EVOLVE_GA_SELFTEST_H

#include <stdint.h>

#include "common/status.h"
#include "operators/breed_ctx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* For n counters ctr[4i..4i+3] and one key[2]: cuRAND's curand_Philox4x32_10
 * into out_curand[4n] and operators/philox.h's philox4x32_10 into out_hd[4n],
 * both computed on the device. */
ev_status cuda_selftest_philox(const uint32_t *ctr, const uint32_t *key, uint32_t n, uint32_t *out_curand,
                               uint32_t *out_hd, ev_error *err);

/* One generation on the device: breed_initial for every individual when
 * generation == 0 (prev, order, isl unused), else breed_child. Arrays as in
 * operators/breed.h, host memory in and out. */
ev_status cuda_selftest_breed(const breed_ctx_t *ctx, const breed_island_t *isl, const uint16_t *prev,
                              const uint32_t *order, uint32_t generation, uint16_t *next, int32_t *parents,
                              ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
