/* The C interface to everything in kernels/: plain prototypes, no CUDA types.
 * Compiled only when the CUDA backend is built (EVOLVE_HAVE_CUDA). */
#ifndef EVOLVE_CUDA_API_H
#define EVOLVE_CUDA_API_H

#include <stddef.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of usable CUDA devices (0 when there is no driver or device). */
int cuda_device_count(void);

/* Name, memory and compute capability of device 0, for provenance:
 * "NVIDIA H100 80GB HBM3 (sm_90, 79.1 GiB, driver 13.0)". */
ev_status cuda_device_describe(char *buf, size_t n, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
