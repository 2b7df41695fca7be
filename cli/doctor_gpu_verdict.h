/* evolve doctor's GPU checks' tally: one PASS or FAIL line per check (built with CUDA only). */
#ifndef EVOLVE_DOCTOR_GPU_VERDICT_H
#define EVOLVE_DOCTOR_GPU_VERDICT_H

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int passed, failed;
} doctor_tally_t;

/* Prints "PASS  <line>" or "FAIL  <line>" (ok or not) on stdout, flushed,
 * and counts it in t. */
void doctor_verdict(doctor_tally_t *t, int ok, const char *fmt, ...) EV_PRINTF(3, 4);

#ifdef __cplusplus
}
#endif
#endif
