/* evolve doctor's GPU self-tests, each against the CPU bit for bit (built with CUDA only). */
#ifndef EVOLVE_DOCTOR_GPU_CHECKS_H
#define EVOLVE_DOCTOR_GPU_CHECKS_H

#include "cli/doctor_gpu_verdict.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every GPU check on device 0, on generated data: Philox against cuRAND,
 * breeding, the first-hit tables, fitness and top-K, dominance sums, the GPU
 * probe, the longest launch; one line each, then the count. */
doctor_tally_t doctor_gpu_checks(void);

#ifdef __cplusplus
}
#endif
#endif
