/* Choosing a backend by name (runs/backend_registry.c): cpu, auto (cuda when a
 * device can be used, else cpu), cuda (refused with the reason where no
 * device can be used: no driver, a driver too old for this build, no GPU),
 * and unknown names. Runs on every machine; what it expects of cuda and auto
 * depends on whether this one has a usable device. */
#include <stdio.h>
#include <string.h>

#include "runs/backend_registry.h"
#include "ga/backend.h"
#include "tests/check.h"
#ifdef EVOLVE_HAVE_CUDA
#include "kernels/cuda_api.h"
#endif

int main(void)
{
    const backend_ops_t *ops = NULL;
    ev_error err;
    int have_device = 0;
#ifdef EVOLVE_HAVE_CUDA
    char why[256];
    have_device = !cuda_device_unavailable(why, sizeof why);
    CHECK_EQ_I64(have_device, cuda_device_count() > 0);
    if (!have_device)
        CHECK(strlen(why) > 10); /* says what is missing */
#endif
    CHECK_EQ_I64(EV_OK, backend_find("cpu", &ops, &err));
    CHECK_STR("cpu", ops->name);
    CHECK_EQ_I64(EV_EUSAGE, backend_find("opencl", &ops, &err));
    CHECK_CONTAINS(err.msg, "'opencl'");
    CHECK_EQ_I64(EV_OK, backend_find("auto", &ops, &err));
    CHECK_STR(have_device ? "cuda" : "cpu", ops->name);
    if (have_device) {
        CHECK_EQ_I64(EV_OK, backend_find("cuda", &ops, &err));
        CHECK_STR("cuda", ops->name);
    } else {
        CHECK_EQ_I64(EV_ENODEV, backend_find("cuda", &ops, &err));
#ifdef EVOLVE_HAVE_CUDA
        /* the reason, not just "none": a trader with a GPU and an old driver must learn to update it */
        CHECK_CONTAINS(err.msg, "no usable CUDA device: ");
        CHECK_CONTAINS(err.msg, why);
#else
        CHECK_CONTAINS(err.msg, "built without CUDA");
#endif
        printf("cuda refused: %s\n", err.msg);
    }
    return check_exit();
}
