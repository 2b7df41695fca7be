/* The CUDA runtime as the emulation layer provides it (tests/cuda_emu,
 * kernels/README.md "Emulation"): the types, the runtime calls and the device
 * built-ins that evolve's .cu files use, each with its contract checked, and
 * nothing else, so a new CUDA call without an emulated twin fails the emu
 * build. Compiled as host C++17; force-included like nvcc's own header. */
#ifndef EVOLVE_CUDA_EMU_RUNTIME_H
#define EVOLVE_CUDA_EMU_RUNTIME_H

/* what nvcc's cuda_runtime.h brings in with it */
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUDART_VERSION 13000
#define __host__
#define __device__
#define __global__
#define __forceinline__ inline
#define __grid_constant__
#define __launch_bounds__(...)

/* ---- types ------------------------------------------------------------- */

enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevice = 101,
    cudaErrorInsufficientDriver = 35,
    cudaErrorNoDevice = 100,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

enum cudaDeviceAttr {
    cudaDevAttrClockRate = 13,
    cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37
};

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    int major, minor;
    int multiProcessorCount;
};

typedef struct emu_event *cudaEvent_t;
typedef struct emu_stream *cudaStream_t;

struct uint2 {
    unsigned x, y;
};
struct uint3 {
    unsigned x, y, z;
};
struct uint4 {
    unsigned x, y, z, w;
};
struct dim3 {
    unsigned x, y, z;
    dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz)
    {
    }
};
inline uint2 make_uint2(unsigned x, unsigned y)
{
    return uint2{x, y};
}
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w)
{
    return uint4{x, y, z, w};
}

/* ---- the runtime (tests/cuda_emu/device_memory.cpp, runtime.cpp) -------- */
/* The memory calls take their call site, for the reports. */

cudaError_t emu_cudaMalloc(const char *file, int line, void **p, size_t bytes);
cudaError_t emu_cudaFree(const char *file, int line, void *p);
cudaError_t emu_cudaMemcpy(const char *file, int line, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t emu_cudaMemset(const char *file, int line, void *dst, int value, size_t bytes);
/* cudaMemcpyAsync on the legacy default stream: the copy is made before it
 * returns (the layer runs everything in order), but it is counted as not
 * waiting (tests/cuda_emu/counters.h). Only stream 0 is emulated. */
cudaError_t emu_cudaMemcpyAsync(const char *file, int line, void *dst, const void *src, size_t bytes,
                                cudaMemcpyKind kind, cudaStream_t stream);
/* Pinned host memory: plain host memory here, its frees checked, leaks reported at exit. */
cudaError_t emu_cudaMallocHost(const char *file, int line, void **p, size_t bytes);
cudaError_t emu_cudaFreeHost(const char *file, int line, void *p);
template <class T> cudaError_t emu_cudaMalloc(const char *file, int line, T **p, size_t bytes)
{
    return emu_cudaMalloc(file, line, (void **)p, bytes);
}
template <class T> cudaError_t emu_cudaMallocHost(const char *file, int line, T **p, size_t bytes)
{
    return emu_cudaMallocHost(file, line, (void **)p, bytes);
}
#define cudaMalloc(p, bytes) emu_cudaMalloc(__FILE__, __LINE__, p, bytes)
#define cudaFree(p) emu_cudaFree(__FILE__, __LINE__, p)
#define cudaMemcpy(dst, src, bytes, kind) emu_cudaMemcpy(__FILE__, __LINE__, dst, src, bytes, kind)
#define cudaMemset(dst, value, bytes) emu_cudaMemset(__FILE__, __LINE__, dst, value, bytes)
#define cudaMemcpyAsync(dst, src, bytes, kind, stream) \
    emu_cudaMemcpyAsync(__FILE__, __LINE__, dst, src, bytes, kind, stream)
#define cudaMallocHost(p, bytes) emu_cudaMallocHost(__FILE__, __LINE__, p, bytes)
#define cudaFreeHost(p) emu_cudaFreeHost(__FILE__, __LINE__, p)

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
cudaError_t cudaDeviceSynchronize(void);
const char *cudaGetErrorName(cudaError_t e);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaGetDeviceCount(int *n);
cudaError_t cudaSetDevice(int dev);
cudaError_t cudaDriverGetVersion(int *v);
cudaError_t cudaRuntimeGetVersion(int *v);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int dev);
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int dev);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaEventDestroy(cudaEvent_t e);

/* ---- device code: built-ins, barriers, collectives, launches ------------ */

#include "cuda_emu/support.h"
#include "cuda_emu/device.h"

#endif
