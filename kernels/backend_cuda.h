/* The CUDA backend's sizing (kernels/backend_cuda.c), pure functions of the
 * device's numbers and the problem, declared here so tests can check them
 * on machines without a device. Compiled only with CUDA. */
#ifndef EVOLVE_BACKEND_CUDA_H
#define EVOLVE_BACKEND_CUDA_H

#include <stdint.h>

#include "fitness/lattice.h"
#include "kernels/cuda_api.h"

/* The most genomes a batch ever needs: an enumerable lattice's size (at
 * least 1024); no bound for a lattice of 2^63 points or more, which only
 * the GA searches, with populations of any size. */
uint64_t cuda_batch_bound(const lattice_t *lat);

/* Launch, batch and top-K sizes from the device (free bytes, SMs) and the
 * problem (trades, parameters, cuda_batch_bound). */
void cuda_plan_sizes(cuda_eval_sizes_t *s, uint64_t free_bytes, int sms, int64_t n_trades, int32_t n_params,
                     uint64_t size_max);

#endif
