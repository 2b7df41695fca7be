/* evolve doctor: what the trader runs once after installing, and whenever a
 * GPU run looks wrong. It prints the build and its libraries, the CUDA
 * driver and runtime versions (with what to do when the driver is too old),
 * every device (name, compute capability, memory, whether it drives a
 * display), then runs the GPU self-tests on generated data, each against the
 * CPU bit for bit, and measures the longest kernel launch against Windows'
 * 2 s watchdog. One verdict line last.
 *
 * Exit status: 0 every check passed; 1 a check failed (the GPU must not be
 * trusted: run with --backend cpu); 2 usage; 3 no usable GPU (no device, no
 * driver, a driver too old, or an evolve built without CUDA): runs use the
 * CPU. */
#include <stdio.h>

#include "cli/commands.h"
#include "cli/doctor_versions.h"
#include "common/options.h"

#ifdef EVOLVE_HAVE_CUDA
#include "cli/doctor_gpu_checks.h"
#endif

#define DOCTOR_NO_GPU 3

static void doctor_usage(FILE *out)
{
    fprintf(out,
            "usage: evolve doctor [--help]\n"
            "\n"
            "Checks this evolve and the GPU it would use: build and library versions, the CUDA driver and\n"
            "runtime (and what to do when the driver is too old), every CUDA device (name, compute\n"
            "capability, memory, whether it drives a display), then the GPU self-tests on generated data,\n"
            "each compared with the CPU bit for bit: Philox on the device equals cuRAND, breeding on the\n"
            "device equals the host, the first-hit tables, fitness and top-K selection, dominance sums,\n"
            "a GA generation (breed, rank, dedup cache), and the longest kernel launch against Windows'\n"
            "2 s watchdog. Takes a few seconds.\n"
            "\n"
            "Exit status: 0 every check passed; 1 a check failed (do not trust this GPU: run with\n"
            "--backend cpu); 2 usage error; 3 no usable GPU (no device or driver, a driver too old for\n"
            "this build, or evolve built without CUDA): runs use the CPU.\n");
}

int cmd_doctor(int argc, char **argv)
{
    const opt_table_t table = {.opts = NULL,
                               .n_opts = 0,
                               .positional = NULL,
                               .max_positional = 0,
                               .positional_hint = "doctor takes no arguments"};
    opt_result res;
    ev_error err;
    ev_status st;
    if ((st = opt_parse(&table, argc, argv, &res, &err)) != EV_OK) {
        fprintf(stderr, "evolve doctor: %s (see evolve doctor --help)\n", err.msg);
        return ev_exit_code(st);
    }
    if (res == OPT_HELP) {
        doctor_usage(stdout);
        return 0;
    }
    printf("evolve doctor\n");
    doctor_print_build();
#ifdef EVOLVE_HAVE_CUDA
    if (doctor_print_cuda()) {
        printf(
            "verdict:    NO GPU: no usable CUDA device; evolve runs on the CPU (--backend auto picks it) "
            "(exit %d)\n",
            DOCTOR_NO_GPU);
        return DOCTOR_NO_GPU;
    }
    {
        doctor_tally_t t = doctor_gpu_checks();
        if (t.failed) {
            printf(
                "verdict:    FAIL: %d check(s) failed: do not trust this GPU; run with --backend cpu, and report the "
                "lines above (exit 1)\n",
                t.failed);
            return 1;
        }
        printf("verdict:    OK: every check passed; the GPU gives the CPU's results bit for bit (exit 0)\n");
        return 0;
    }
#else
    printf("CUDA:       not built in: this evolve has no GPU backend\n");
    printf("verdict:    NO GPU: this evolve was built without CUDA; it runs on the CPU (exit %d)\n", DOCTOR_NO_GPU);
    return DOCTOR_NO_GPU;
#endif
}
