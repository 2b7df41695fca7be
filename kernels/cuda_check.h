/* One check macro for CUDA runtime and cuRAND calls: on failure it records the
 * failing statement, file and line in an ev_error and jumps to the caller's
 * cleanup label `fail`. Only included from .cu files. Out-of-memory errors
 * become EV_ENOMEM; the caller prefixes what to reduce (it knows which
 * buffer was asked for). */
#ifndef EVOLVE_CUDA_CHECK_H
#define EVOLVE_CUDA_CHECK_H

#include <cstdio>

#include <cuda_runtime.h>

#include "common/status.h"

static inline ev_status ev_cuda_fail(ev_error *err, cudaError_t e, const char *stmt, const char *file, int line)
{
    /* A failed runtime call (cudaMalloc out of memory, a bad launch) also
     * leaves its error as the thread's "last error", which only
     * cudaGetLastError resets. It is reported here, so consume it: a caller
     * that recovers (cuda_open uploads the tables when building them ran out
     * of memory) would otherwise see it again from the next successful
     * launch's CUDA_TRY_LAUNCH. Sticky errors (a faulted context) stay. */
    (void)cudaGetLastError();
    ev_status s = (e == cudaErrorMemoryAllocation)                               ? EV_ENOMEM
                  : (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) ? EV_ENODEV
                                                                                 : EV_ECUDA;
    if (err) {
        snprintf(err->msg, sizeof err->msg, "%s:%d: %s failed: %s (%s)%s", file, line, stmt, cudaGetErrorString(e),
                 cudaGetErrorName(e), s == EV_ENOMEM ? "; the GPU is out of memory" : "");
        err->status = s;
    }
    return s;
}

/* Requires `ev_status st` and `ev_error *err` in scope and a `fail:` label. */
#define CUDA_TRY(stmt)                                             \
    do {                                                           \
        cudaError_t e_ = (stmt);                                   \
        if (e_ != cudaSuccess) {                                   \
            st = ev_cuda_fail(err, e_, #stmt, __FILE__, __LINE__); \
            goto fail;                                             \
        }                                                          \
    } while (0)

/* After a kernel launch: the launch error (bad configuration, no kernel image
 * for this GPU). A fault while the kernel runs surfaces at the next
 * synchronising call (cudaMemcpy, cudaDeviceSynchronize), which every caller
 * makes, checked, before it uses a result. */
#define CUDA_TRY_LAUNCH() CUDA_TRY(cudaGetLastError())

#endif
