#include <cstdio>
#include <cstring>

#include "kernels/cuda_api.h"
#include "kernels/cuda_check.h"

extern "C" int cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky "no device" error */
        return 0;
    }
    return n;
}

extern "C" int cuda_device_unavailable(char *why, size_t n)
{
    int count = 0, driver = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaSuccess && count > 0)
        return 0;
    cudaGetLastError(); /* not an error of anything that follows */
    if (cudaDriverGetVersion(&driver) != cudaSuccess)
        driver = 0;
    cudaGetLastError();
    if (e == cudaSuccess)
        snprintf(why, n, "the NVIDIA driver reports no CUDA device");
    else if (driver == 0)
        snprintf(why, n, "no NVIDIA driver is installed (%s)", cudaGetErrorName(e));
    else if (e == cudaErrorInsufficientDriver)
        /* the usual case on a working GPU with an older driver */
        snprintf(why, n,
                 "the NVIDIA driver supports CUDA %d.%d, this evolve was built with CUDA %d.%d: update the "
                 "driver (%s)",
                 driver / 1000, (driver % 1000) / 10, CUDART_VERSION / 1000, (CUDART_VERSION % 1000) / 10,
                 cudaGetErrorName(e));
    else
        snprintf(why, n, "%s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
    return 1;
}

extern "C" ev_status cuda_device_describe(char *buf, size_t n, ev_error *err)
{
    ev_status st = EV_OK;
    cudaDeviceProp p;
    int driver = 0;
    CUDA_TRY(cudaGetDeviceProperties(&p, 0));
    CUDA_TRY(cudaDriverGetVersion(&driver));
    snprintf(buf, n, "%s (sm_%d%d, %.1f GiB, driver %d.%d)", p.name, p.major, p.minor,
             (double)p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), driver / 1000, (driver % 1000) / 10);
    return EV_OK;
fail:
    return st;
}

extern "C" void cuda_versions(int *driver, int *runtime)
{
    *driver = 0;
    *runtime = 0;
    if (cudaDriverGetVersion(driver) != cudaSuccess)
        *driver = 0;
    if (cudaRuntimeGetVersion(runtime) != cudaSuccess)
        *runtime = CUDART_VERSION;
    (void)cudaGetLastError(); /* not an error of anything that follows */
}

extern "C" ev_status cuda_device_props(int dev, cuda_device_props_t *p, ev_error *err)
{
    ev_status st = EV_OK;
    cudaDeviceProp q;
    size_t fb = 0, tb = 0;
    memset(p, 0, sizeof *p);
    CUDA_TRY(cudaGetDeviceProperties(&q, dev));
    snprintf(p->name, sizeof p->name, "%s", q.name);
    p->major = q.major;
    p->minor = q.minor;
    p->sms = q.multiProcessorCount;
    /* attributes, not cudaDeviceProp fields: CUDA 13 dropped some of those */
    CUDA_TRY(cudaDeviceGetAttribute(&p->watchdog, cudaDevAttrKernelExecTimeout, dev));
    CUDA_TRY(cudaDeviceGetAttribute(&p->integrated, cudaDevAttrIntegrated, dev));
    p->total_bytes = (uint64_t)q.totalGlobalMem;
    CUDA_TRY(cudaSetDevice(dev));
    CUDA_TRY(cudaMemGetInfo(&fb, &tb));
    p->free_bytes = (uint64_t)fb;
    CUDA_TRY(cudaSetDevice(0));
    return EV_OK;
fail:
    (void)cudaSetDevice(0);
    return st;
}

extern "C" ev_status cuda_device_memory(uint64_t *free_bytes, uint64_t *total_bytes, int *sm_count, ev_error *err)
{
    ev_status st = EV_OK;
    size_t fb = 0, tb = 0;
    int sms = 0;
    CUDA_TRY(cudaMemGetInfo(&fb, &tb));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    *free_bytes = (uint64_t)fb;
    *total_bytes = (uint64_t)tb;
    *sm_count = sms;
    return EV_OK;
fail:
    return st;
}

extern "C" ev_status cuda_device_peaks(double *int_ops_per_s, double *bytes_per_s, ev_error *err)
{
    ev_status st = EV_OK;
    int sms = 0, clock_khz = 0, mem_khz = 0, bus_bits = 0;
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    /* Clocks may be unreported (0) on some platforms: then the peak is 0. */
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0) != cudaSuccess)
        clock_khz = 0;
    if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0) != cudaSuccess)
        mem_khz = 0;
    if (cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0) != cudaSuccess)
        bus_bits = 0;
    cudaGetLastError(); /* an unsupported attribute is not an error here */
    /* sm_89 (Ada) and sm_90 (Hopper) both have 64 INT32 lanes per SM
     * (whitepapers: 4 partitions x 16); compares, adds and logic run there. */
    *int_ops_per_s = (double)sms * 64.0 * (double)clock_khz * 1e3;
    /* DDR: two transfers per memory clock over the bus. */
    *bytes_per_s = 2.0 * (double)mem_khz * 1e3 * (double)bus_bits / 8.0;
    return EV_OK;
fail:
    return st;
}
