/* The rest of the runtime: errors, the one emulated device, events. */
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "internal.h"

namespace emu
{

namespace
{
cudaError_t g_last = cudaSuccess;
} // namespace

void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("emu: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    abort();
}

cudaError_t set_last_error(cudaError_t e)
{
    if (e != cudaSuccess)
        g_last = e;
    return e;
}

} // namespace emu

struct emu_event {
    std::chrono::steady_clock::time_point at;
    bool recorded;
};

using namespace emu;

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = g_last;
    g_last = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    return g_last;
}

cudaError_t cudaDeviceSynchronize(void)
{
    count_call(Count::sync, nullptr, 0, "cudaDeviceSynchronize", 0);
    return cudaSuccess; /* every launch has finished when it returns */
}

const char *cudaGetErrorName(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInsufficientDriver: return "cudaErrorInsufficientDriver";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorUnknown: return "cudaErrorUnknown";
    }
    return "cudaError(unnamed)";
}

const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorUnknown: return "unknown error";
    }
    return "unrecognized error code";
}

cudaError_t cudaGetDeviceCount(int *n)
{
    *n = 1;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int dev)
{
    return dev == 0 ? cudaSuccess : set_last_error(cudaErrorInvalidDevice);
}

cudaError_t cudaDriverGetVersion(int *v)
{
    *v = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *v)
{
    *v = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int dev)
{
    size_t free_bytes, total;
    if (dev != 0)
        return set_last_error(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "evolve CUDA emulation (CPU, tests/cuda_emu)");
    cudaMemGetInfo(&free_bytes, &total);
    p->totalGlobalMem = total;
    p->major = 9;
    p->minor = 0;
    p->multiProcessorCount = 4;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int dev)
{
    if (dev != 0)
        return set_last_error(cudaErrorInvalidDevice);
    switch (attr) {
    case cudaDevAttrMultiProcessorCount: *value = 4; break;
    case cudaDevAttrKernelExecTimeout: *value = 0; break;
    case cudaDevAttrIntegrated: *value = 1; break;
    case cudaDevAttrClockRate: *value = 1000000; break;
    case cudaDevAttrMemoryClockRate: *value = 1000000; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = 64; break;
    default: return set_last_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    *e = new emu_event{{}, false};
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t)
{
    e->at = std::chrono::steady_clock::now();
    e->recorded = true;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    count_call(Count::sync, nullptr, 0, "cudaEventSynchronize", 0);
    return e->recorded ? cudaSuccess : set_last_error(cudaErrorInvalidValue);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    if (!a->recorded || !b->recorded)
        return set_last_error(cudaErrorInvalidValue);
    *ms = std::chrono::duration<float, std::milli>(b->at - a->at).count();
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    delete e;
    return cudaSuccess;
}
