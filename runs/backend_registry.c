/* The one place that knows which backends were built. */
#include "runs/backend_registry.h"

#include <stdlib.h>
#include <string.h>

#include "ga/backend_twin.h"

#ifdef EVOLVE_HAVE_CUDA
#include "kernels/cuda_api.h"
extern const backend_ops_t backend_cuda_ops;
#endif

ev_status backend_find(const char *name, const backend_ops_t **ops, ev_error *err)
{
    if (!strcmp(name, "cpu")) {
        *ops = &backend_cpu_ops;
        return EV_OK;
    }
    if (strcmp(name, "cuda") && strcmp(name, "auto"))
        return ev_fail(err, EV_EUSAGE, "--backend: unknown backend '%s' (expected cpu, cuda or auto)", name);
    /* Tests only (ga/backend_twin.h): the CPU's twin stands in for the device,
     * so the GPU probe's verdicts are tested on machines without one. */
    const char *twin = getenv("EVOLVE_TEST_DEVICE");
    if (twin && *twin) {
        ev_status st = backend_twin_select(twin, err);
        if (st == EV_OK)
            *ops = &backend_twin_ops;
        return st;
    }
#ifdef EVOLVE_HAVE_CUDA
    char why[256];
    if (!cuda_device_unavailable(why, sizeof why)) {
        *ops = &backend_cuda_ops;
        return EV_OK;
    }
    if (!strcmp(name, "cuda"))
        return ev_fail(err, EV_ENODEV, "--backend cuda: no usable CUDA device: %s", why);
#else
    if (!strcmp(name, "cuda"))
        return ev_fail(err, EV_ENODEV,
                       "--backend cuda: this evolve was built without CUDA (EVOLVE_CUDA=OFF or no nvcc)");
#endif
    *ops = &backend_cpu_ops;
    return EV_OK;
}
