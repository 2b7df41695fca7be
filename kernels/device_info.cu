#include <cstdio>

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
