/* A strategy's EV_HD backtest for a batch of genomes in a kernel (one thread
 * per genome) against the same function on the CPU, trade by trade, for the
 * gpu-labelled parity tests. B names the strategy: a struct whose static
 * EV_HD run(series, params, out, cap) returns the trade count and writes the
 * first cap trades (se_backtest, atc_backtest). */
#ifndef EVOLVE_TESTS_DEVICE_BACKTEST_CUH
#define EVOLVE_TESTS_DEVICE_BACKTEST_CUH

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#include "tests/check.h"

static int cuda_ok(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 1;
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    check_failures++;
    return 0;
}

/* After a launch: the launch's own error (a refused configuration), then
 * any fault while it ran. */
static int launch_ok(const char *what)
{
    return cuda_ok(cudaGetLastError(), what) && cuda_ok(cudaDeviceSynchronize(), what);
}

template <class B, class S, class P, class T>
__global__ void k_device_backtest(const S *s, const P *p, int count, T *out, int64_t cap, int64_t *n_out)
{
    const int g = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (g < count)
        n_out[g] = B::run(&s[g], &p[g], out + (size_t)g * (size_t)cap, cap);
}

/* dev_s: the genomes' series with device pointers; host_s: the same with host
 * pointers. Checks every genome's count; returns the trades that differ
 * (same(a, b) == 0) and adds the CPU's trades to *trades. */
template <class B, class S, class P, class T>
static int64_t device_backtest_mismatches(const S *dev_s, const S *host_s, const P *gs, int count, int64_t cap,
                                          int (*same)(const T *, const T *), int64_t *trades)
{
    S *d_s = NULL;
    P *d_p = NULL;
    T *d_t = NULL;
    int64_t *d_n = NULL, mismatched = 0;
    T *h_t = (T *)malloc((size_t)count * (size_t)cap * sizeof(T));
    T *cpu = (T *)malloc((size_t)cap * sizeof(T));
    int64_t *h_n = (int64_t *)malloc((size_t)count * sizeof(int64_t));
    cuda_ok(cudaMalloc((void **)&d_s, (size_t)count * sizeof(S)), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_p, (size_t)count * sizeof(P)), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_t, (size_t)count * (size_t)cap * sizeof(T)), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_n, (size_t)count * sizeof(int64_t)), "cudaMalloc");
    cuda_ok(cudaMemcpy(d_s, dev_s, (size_t)count * sizeof(S), cudaMemcpyHostToDevice), "cudaMemcpy");
    cuda_ok(cudaMemcpy(d_p, gs, (size_t)count * sizeof(P), cudaMemcpyHostToDevice), "cudaMemcpy");
    k_device_backtest<B, S, P, T><<<(count + 31) / 32, 32>>>(d_s, d_p, count, d_t, cap, d_n);
    launch_ok("backtest kernel");
    cuda_ok(cudaMemcpy(h_n, d_n, (size_t)count * sizeof(int64_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
    cuda_ok(cudaMemcpy(h_t, d_t, (size_t)count * (size_t)cap * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int g = 0; g < count; g++) {
        const int64_t k = B::run(&host_s[g], &gs[g], cpu, cap);
        CHECK_EQ_I64(k, h_n[g]);
        *trades += k;
        for (int64_t t = 0; t < k && t < cap && k == h_n[g]; t++)
            if (!same(&cpu[t], &h_t[(size_t)g * (size_t)cap + (size_t)t]))
                mismatched++;
    }
    cudaFree(d_s);
    cudaFree(d_p);
    cudaFree(d_t);
    cudaFree(d_n);
    free(h_t);
    free(cpu);
    free(h_n);
    return mismatched;
}

#endif
