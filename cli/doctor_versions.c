/* evolve doctor's first lines: the build, its libraries, the CUDA driver and runtime, every device. */
#include "cli/doctor_versions.h"

#include <stdio.h>

#include <cjson/cJSON.h>
#include <hdf5.h>
#include <xxhash.h>
#include <yaml.h>

#include "build_info.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#ifdef EVOLVE_HAVE_CUDA
#include "kernels/cuda_api.h"
#endif

void doctor_print_build(void)
{
    unsigned maj = 0, min = 0, rel = 0;
    H5get_libversion(&maj, &min, &rel);
    printf("build:      evolve %s (git %s), %s, %s\n", EVOLVE_VERSION, EVOLVE_GIT_REV, EVOLVE_C_COMPILER,
           EVOLVE_BUILD_TYPE);
#ifdef EVOLVE_HAVE_CUDA
    printf("            CUDA backend built for sm_%s\n", EVOLVE_CUDA_ARCHS);
#else
    printf("            CUDA backend not built (EVOLVE_CUDA=OFF, or no nvcc when it was configured)\n");
#endif
    printf("libraries:  HDF5 %u.%u.%u, libyaml %s, cJSON %s, xxHash %u.%u.%u", maj, min, rel, yaml_get_version_string(),
           cJSON_Version(), XXH_versionNumber() / 10000, (XXH_versionNumber() / 100) % 100, XXH_versionNumber() % 100);
#ifdef _OPENMP
    printf(", OpenMP (%d threads)\n", omp_get_max_threads());
#else
    printf(", no OpenMP (one CPU thread)\n");
#endif
}

#ifdef EVOLVE_HAVE_CUDA

static void version_text(int v, char *buf, size_t n)
{
    snprintf(buf, n, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* What a runtime of CUDA major version `major` needs of the driver. */
static const char *driver_needed(int major)
{
    return major >= 13   ? "r580 or newer (Linux 580.65.06, Windows 580.88)"
           : major == 12 ? "r525 or newer (Linux 525.60.13, Windows 527.41)"
                         : "r450 or newer (Linux 450.80.02, Windows 452.39)";
}

/* Driver, runtime and devices; 0 when device 0 can be used, else prints why. */
int doctor_print_cuda(void)
{
    int driver = 0, runtime = 0, n;
    char dv[16], rv[16], why[512];
    cuda_versions(&driver, &runtime);
    version_text(driver, dv, sizeof dv);
    version_text(runtime, rv, sizeof rv);
    printf("CUDA:       driver %s%s, runtime %s (linked statically)\n", driver ? "supports CUDA " : "",
           driver ? dv : "not found", rv);
    if (driver && driver / 1000 < runtime / 1000)
        printf(
            "            the driver is too old for this build: a CUDA %d build needs an NVIDIA driver %s.\n"
            "            Update the driver (nvidia.com/drivers), or build evolve with a CUDA %d.x toolkit\n"
            "            (README, \"CUDA toolkit and driver\")\n",
            runtime / 1000, driver_needed(runtime / 1000), driver / 1000);
    if (cuda_device_unavailable(why, sizeof why)) {
        printf("devices:    none usable: %s\n", why);
        return 1;
    }
    n = cuda_device_count();
    for (int d = 0; d < n; d++) {
        cuda_device_props_t p;
        ev_error err;
        if (cuda_device_props(d, &p, &err) != EV_OK) {
            printf("device %d:   %s\n", d, err.msg);
            continue;
        }
        printf("device %d:   %s, sm_%d%d, %d SMs, %.1f GiB (%.1f GiB free)%s, %s%s\n", d, p.name, p.major, p.minor,
               p.sms, (double)p.total_bytes / (1024.0 * 1024.0 * 1024.0),
               (double)p.free_bytes / (1024.0 * 1024.0 * 1024.0), p.integrated ? ", integrated" : "",
               p.watchdog ? "drives a display (kernels run under the OS watchdog)" : "no display (no kernel watchdog)",
               d == 0 ? "; evolve uses this one" : "");
    }
    return 0;
}
#endif
