/* evolve doctor's watchdog check: the longest kernel launch a run makes, timed (built with CUDA only). */
#ifndef EVOLVE_DOCTOR_GPU_LAUNCH_H
#define EVOLVE_DOCTOR_GPU_LAUNCH_H

#include "cli/doctor_gpu_verdict.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A launch longer than half the Windows watchdog (TDR, 2 s) fails the check. */
#define DOCTOR_LAUNCH_LIMIT_S 1.0

/* One fitness launch of the backend's size on 50,000 generated trades and a
 * 1.2e8-point lattice, timed on device 0 against DOCTOR_LAUNCH_LIMIT_S. */
void doctor_check_launch(doctor_tally_t *t);

#ifdef __cplusplus
}
#endif
#endif
