/* What the emulated runtime was asked to do, counted (tests/cuda_emu/counters.cpp):
 * kernel launches, CUB calls, copies and their bytes, sets, host waits and
 * allocations, so a test can bound a CUDA GA generation's fixed cost
 * (tests/test_ga_cuda_calls.c, bench/RESULTS.md "A CUDA GA generation's
 * calls"). A C interface: the tests that read it are C. Emulated builds only. */
#ifndef EVOLVE_CUDA_EMU_COUNTERS_H
#define EVOLVE_CUDA_EMU_COUNTERS_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t launches;                /* kernel<<<>>> launches */
    uint64_t cub_calls;               /* CUB algorithm calls that ran (not the scratch size queries) */
    uint64_t copies_h2d, bytes_h2d;   /* cudaMemcpy and cudaMemcpyAsync host -> device */
    uint64_t copies_d2h, bytes_d2h;   /* device -> host */
    uint64_t copies_d2d, bytes_d2d;   /* device -> device */
    uint64_t memsets;                 /* cudaMemset */
    uint64_t syncs;                   /* host waits for the device: cudaDeviceSynchronize,
                                             * cudaEventSynchronize, and every cudaMemcpy to or from
                                             * host memory (CUDA's synchronous copies wait for the
                                             * stream); cudaMemcpyAsync does not wait */
    uint64_t mallocs, frees;          /* cudaMalloc, cudaFree (of a non-null pointer) */
    uint64_t host_allocs, host_frees; /* cudaMallocHost, cudaFreeHost */
} emu_counters_t;

/* The counts since the start or the last reset. */
void emu_counters_get(emu_counters_t *c);
void emu_counters_reset(void);
/* While f is not NULL, each counted call is also written to f as one line:
 * what, the call site (file:line), the kernel or CUB algorithm, the bytes. */
void emu_counters_trace(FILE *f);

#ifdef __cplusplus
}
#endif

#endif
