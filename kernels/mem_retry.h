/* Out of device memory is not the end of a run that fits on the host
 * (issue 12): a buffer whose size is a choice (genome batches, dominance
 * blocks) is retried smaller, halving down to a floor, and only a request
 * that fails at its floor is an error, naming what it needs and what is
 * free. The arithmetic is here, in plain C, so tests/test_cuda_sizes.c
 * checks it without a device; the retries are in fitness.cu and dominance.cu.
 * Compiled only with CUDA. */
#ifndef EVOLVE_MEM_RETRY_H
#define EVOLVE_MEM_RETRY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The next size to try after count failed: half of it, rounded down to a
 * multiple of unit (>= 1), at least floor; 0 when count is at or below the
 * floor already (nothing smaller to try). */
uint64_t mem_retry_smaller(uint64_t count, uint64_t floor, uint64_t unit);

/* How many retries mem_retry_smaller allows from count to floor (tests). */
uint32_t mem_retry_steps(uint64_t count, uint64_t floor, uint64_t unit);

/* Says once per process, on stderr, that device memory is short and what
 * was shrunk ("genome batches", from, to): the run goes on, slower, with the
 * same results. Later calls only count. Returns 1 when this call printed. */
int mem_retry_note(const char *what, uint64_t from, uint64_t to);

/* The notes so far (tests). */
uint32_t mem_retry_notes(void);

#ifdef __cplusplus
}
#endif
#endif
