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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <hdf5.h>
#include <xxhash.h>
#include <yaml.h>

#include "build_info.h"
#include "cli/commands.h"
#include "common/options.h"
#include "common/platform.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#ifdef EVOLVE_HAVE_CUDA
#include "runs/synth_data.h"
#include "fitness/dominance.h"
#include "fitness/tables.h"
#include "ga/backend_probe.h"
#include "kernels/backend_cuda.h"
#include "kernels/cuda_api.h"
#include "kernels/ga_selftest.h"
#include "operators/breed.h"
#endif

#define DOCTOR_NO_GPU 3
/* A launch longer than half the Windows watchdog (TDR, 2 s) fails the check. */
#define DOCTOR_LAUNCH_LIMIT_S 1.0

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

static void print_build(void)
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

typedef struct {
    int passed, failed;
} tally_t;

static void verdict(tally_t *t, int ok, const char *fmt, ...) EV_PRINTF(3, 4);

static void verdict(tally_t *t, int ok, const char *fmt, ...)
{
    va_list ap;
    printf("%s  ", ok ? "PASS" : "FAIL");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    if (ok)
        t->passed++;
    else
        t->failed++;
}

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
static int print_cuda(void)
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

static void check_philox(tally_t *t)
{
    enum { N = 65536 };
    uint32_t *ctr = (uint32_t *)malloc(4 * N * sizeof *ctr), *cu = (uint32_t *)malloc(4 * N * sizeof *cu),
             *hd = (uint32_t *)malloc(4 * N * sizeof *hd);
    uint32_t key[2] = {0x9abcdef0u, 0x12345678u};
    uint64_t rng = 1;
    uint32_t bad = 0, first = 0;
    ev_error err;
    if (!ctr || !cu || !hd) {
        verdict(t, 0, "Philox4x32-10: out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < N; i++) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        ctr[4 * i + 0] = i < N / 2 ? i % 8 : (uint32_t)(rng >> 32);
        ctr[4 * i + 1] = i < N / 2 ? i / 8 : (uint32_t)rng;
        ctr[4 * i + 2] = i < N / 2 ? i % 5 : (uint32_t)(rng >> 16);
        ctr[4 * i + 3] = i < N / 2 ? i % 5 : ~(uint32_t)rng;
    }
    if (cuda_selftest_philox(ctr, key, N, cu, hd, &err) != EV_OK) {
        verdict(t, 0, "Philox4x32-10 on the device: %s", err.msg);
        goto done;
    }
    for (uint32_t i = 0; i < N; i++) {
        philox_ctr_t c = {ctr[4 * i], ctr[4 * i + 1], ctr[4 * i + 2], ctr[4 * i + 3]};
        philox_key_t k = {key[0], key[1]};
        int wrong;
        c = philox4x32_10(c, k);
        wrong = c.x != cu[4 * i] || c.y != cu[4 * i + 1] || c.z != cu[4 * i + 2] || c.w != cu[4 * i + 3] ||
                memcmp(&cu[4 * i], &hd[4 * i], 16) != 0;
        if (wrong && !bad)
            first = i;
        bad += (uint32_t)wrong;
    }
    if (bad)
        verdict(t, 0, "Philox4x32-10: %u of %u counters differ between the host, cuRAND and the device (first: %u)",
                bad, N, first);
    else
        verdict(t, 1, "Philox4x32-10 on the device == cuRAND == the host (%u counters)", N);
done:
    free(ctr);
    free(cu);
    free(hd);
}

static void check_breed(tally_t *t)
{
    enum { POP = 2048, NG = 9, ISL = 8 };
    static uint16_t prev[NG * POP], host[NG * POP], dev[NG * POP];
    static int32_t hpar[2 * POP], dpar[2 * POP];
    static uint32_t order[POP];
    uint32_t nv[NG] = {2, 3, 10, 20, 65535, 7, 1, 300, 12};
    int32_t first[NG] = {0, 2, -1, 0, 65534, -1, 0, 0, 11};
    breed_island_t isl[ISL];
    int bad = 0, cases = 0;
    ev_error err;
    memset(isl, 0, sizeof isl);
    for (int sel = SEL_TOURNAMENT; sel <= SEL_TRUNCATION; sel++)
        for (int xo = XO_UNIFORM; xo <= XO_TWO_POINT; xo++) {
            ga_settings_t s;
            breed_ctx_t c;
            ga_settings_default(&s);
            s.population = POP;
            s.islands = ISL;
            s.selection = sel;
            s.crossover = xo;
            s.creep_max = 3;
            s.mutation_rate = 0.3;
            breed_ctx_init(&c, &s, UINT64_C(0xDEADBEEF12345), NG, nv, first);
            for (uint32_t i = 0; i < POP; i++)
                breed_initial(&c, i, host, hpar);
            if (cuda_selftest_breed(&c, isl, prev, order, 0, dev, dpar, &err) != EV_OK) {
                verdict(t, 0, "breed on the device: %s", err.msg);
                return;
            }
            bad += memcmp(host, dev, sizeof host) != 0 || memcmp(hpar, dpar, sizeof hpar) != 0;
            memcpy(prev, host, sizeof prev);
            for (uint32_t i = 0; i < POP; i++)
                order[i] = (i / 256) * 256 + (i * 37) % 256;
            for (uint32_t i = 0; i < ISL; i++) {
                isl[i].elites = 3;
                isl[i].migrants = i % 2 ? 4 : 0;
                isl[i].immigrants = i % 3 ? 0 : 20;
                isl[i].source = (i + ISL - 1) % ISL;
            }
            for (uint32_t gen = 1; gen <= 3; gen++) {
                for (uint32_t ch = 0; ch < POP; ch++)
                    breed_child(&c, isl, prev, order, gen, ch, host, hpar);
                if (cuda_selftest_breed(&c, isl, prev, order, gen, dev, dpar, &err) != EV_OK) {
                    verdict(t, 0, "breed on the device: %s", err.msg);
                    return;
                }
                bad += memcmp(host, dev, sizeof host) != 0 || memcmp(hpar, dpar, sizeof hpar) != 0;
                memcpy(prev, host, sizeof prev);
            }
            cases += 4;
        }
    verdict(t, bad == 0, "breed on the device %s the host: %d of %d generations of %u children differ",
            bad ? "!=" : "==", bad, cases, POP);
}

static int same_bytes(const void *a, const void *b, uint64_t n)
{
    return n == 0 || memcmp(a, b, (size_t)n) == 0;
}

static void check_tables(tally_t *t, const fit_problem_t *p, const tables_host_t *h)
{
    const fit_tables_t *v = &h->view;
    uint64_t n = (uint64_t)v->n_trades, lf = (uint64_t)v->need_lf;
    cuda_tables_t *d = NULL;
    tables_host_t back;
    ev_error err;
    int ok;
    memset(&back, 0, sizeof back);
    if (cuda_tables_build(&d, p, h->cells, &err) != EV_OK || cuda_tables_download(d, &back, &err) != EV_OK) {
        verdict(t, 0, "first-hit tables built on the device: %s", err.msg);
        cuda_tables_free(d);
        tables_free(&back);
        return;
    }
    ok = back.q_t_len == h->q_t_len && back.q_s_len == h->q_s_len && back.view.n_trades == v->n_trades;
    ok = ok && same_bytes(h->cells, back.cells, n * (uint64_t)v->n_filters * 2) &&
         same_bytes(h->hit_t, back.hit_t, n * (uint64_t)v->n_targets * 4) &&
         same_bytes(h->hit_s, back.hit_s, n * (uint64_t)v->n_stops * 4) &&
         same_bytes(h->q_t, back.q_t, (uint64_t)h->q_t_len * 8) &&
         same_bytes(h->q_s, back.q_s, (uint64_t)h->q_s_len * 8) && same_bytes(h->q_log, back.q_log, n * 8) &&
         same_bytes(h->lf_t, back.lf_t, lf * (uint64_t)h->q_t_len * 8) &&
         same_bytes(h->lf_s, back.lf_s, lf * (uint64_t)h->q_s_len * 8) &&
         same_bytes(h->lf_log, back.lf_log, lf * n * 8);
    verdict(t, ok, "first-hit tables built on the device %s the host's (%lld trades, %d targets, %d stops)",
            ok ? "==" : "!=", (long long)v->n_trades, v->n_targets, v->n_stops);
    cuda_tables_free(d);
    tables_free(&back);
}

static int same_lists(const topk_t *a, const topk_t *b)
{
    return a->n == b->n && (a->n == 0 || memcmp(a->e, b->e, a->n * sizeof a->e[0]) == 0);
}

/* The whole lattice by the tables evaluator and by dominance sums on both
 * backends: the top-K lists equal bit for bit. */
static void check_grids(tally_t *t, const backend_ops_t *cu, backend_t *gb, backend_t *cb, const fit_problem_t *p)
{
    topk_t top[2];
    ev_error err;
    ev_status st = EV_OK;
    const backend_ops_t *ops[2] = {&backend_cpu_ops, cu};
    backend_t *b[2] = {cb, gb};
    dominance_opts_t dopt;
    memset(&dopt, 0, sizeof dopt);
    dopt.memory_budget = 4096; /* blocks of a few hundred cells: the blocking is checked too */
    for (int ev = 0; ev < 2; ev++) {
        for (int k = 0; k < 2 && st == EV_OK; k++) {
            uint64_t most = ops[k]->grid_batch_max(b[k]);
            if ((st = topk_init(&top[k], 100, &err)) != EV_OK)
                break;
            if (ev == 0)
                for (uint64_t first = 0; first < p->lat->size && st == EV_OK; first += most)
                    st = ops[k]->grid_batch(b[k], first, p->lat->size - first < most ? p->lat->size - first : most,
                                            &top[k], &err);
            else
                st = ops[k]->grid_dominance(b[k], &dopt, &top[k], &err);
        }
        if (st != EV_OK)
            verdict(t, 0, "%s on the device: %s", ev ? "dominance sums" : "fitness (tables evaluator)", err.msg);
        else
            verdict(t, same_lists(&top[0], &top[1]), "%s over the %llu-point lattice: the device's top-%u %s the CPU's",
                    ev ? "dominance sums" : "fitness (tables evaluator) and top-K selection",
                    (unsigned long long)p->lat->size, top[0].n, same_lists(&top[0], &top[1]) ? "==" : "!=");
        topk_free(&top[0]);
        topk_free(&top[1]);
        if (st != EV_OK)
            return;
    }
}

/* Fitness, top-K, a GA generation, breeding and the dedup cache: the GPU
 * probe of every run (ga/backend_probe.h), with 16,384 random points and the
 * probe's largest GA (4 islands of 128). */
static void check_probe(tally_t *t, const backend_ops_t *cu, backend_t *gb, backend_t *cb, const fit_problem_t *p,
                        const tables_host_t *h)
{
    ga_settings_t s;
    backend_probe_opts_t o;
    backend_probe_t r;
    ev_error err;
    ga_settings_default(&s);
    s.population = 1024;
    s.islands = 4;
    memset(&o, 0, sizeof o);
    o.seed = 7;
    o.random_points = 16384;
    if (backend_probe_run(&backend_cpu_ops, cb, cu, gb, p, &h->view, &s, &o, &r, &err) != EV_OK)
        verdict(t, 0, "GPU probe: %s", err.msg);
    else if (!r.match)
        verdict(t, 0, "GPU probe: %s", r.what);
    else
        verdict(t, 1, "GPU probe (a run's check, larger): device == CPU on %s (%.1f ms)", r.summary, r.seconds * 1e3);
}

/* The longest launch a run makes: one fitness launch of the backend's size
 * on 50,000 trades (the trader's scale) and a 1.2e8-point lattice. */
static void check_launch(tally_t *t)
{
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    fit_problem_t p;
    tables_host_t h;
    cuda_tables_t *d = NULL;
    cuda_eval_t *e = NULL;
    cuda_eval_sizes_t sz;
    uint64_t free_bytes = 0, total_bytes = 0;
    int sms = 0, have_ds = 0, have_lat = 0, have_p = 0, have_h = 0;
    double secs = 0.0;
    ev_error err;
    ev_status st;
    memset(&obj, 0, sizeof obj);
    obj.kind = OBJ_SHARPE; /* the slowest objective per trade: 128-bit sums of squares */
    obj.min_trades = 10;
    if ((st = synth_dataset(&ds, 50000, 10, 11, &err)) == EV_OK && (have_ds = 1) &&
        (st = synth_lattice(&lat, "1e8", &ds, &err)) == EV_OK && (have_lat = 1) &&
        (st = problem_init(&p, &ds, &lat, &obj, &err)) == EV_OK && (have_p = 1) &&
        (st = tables_build(&h, &p, &err)) == EV_OK && (have_h = 1) &&
        (st = cuda_tables_upload(&d, &h, &err)) == EV_OK &&
        (st = cuda_device_memory(&free_bytes, &total_bytes, &sms, &err)) == EV_OK) {
        cuda_plan_sizes(&sz, free_bytes, sms, p.ds->n_trades, p.shape.n_params, cuda_batch_bound(&lat));
        if ((st = cuda_eval_open(&e, d, &p.shape, &sz, &err)) == EV_OK) {
            /* once to warm up (module load), then measured */
            st = cuda_eval_time_launch(e, sz.launch_max, &secs, &err);
            if (st == EV_OK)
                st = cuda_eval_time_launch(e, sz.launch_max, &secs, &err);
            sz = cuda_eval_sizes(e);
        }
    }
    if (st != EV_OK)
        verdict(t, 0, "longest launch: %s", err.msg);
    else
        verdict(t, secs <= DOCTOR_LAUNCH_LIMIT_S,
                "longest launch: %.1f ms (%llu genomes x %lld trades, sharpe) against Windows' 2 s watchdog (limit "
                "%.1f s)",
                secs * 1e3, (unsigned long long)sz.launch_max, (long long)p.ds->n_trades, DOCTOR_LAUNCH_LIMIT_S);
    cuda_eval_close(e);
    cuda_tables_free(d);
    if (have_h)
        tables_free(&h);
    if (have_p)
        problem_free(&p);
    if (have_lat)
        lattice_free(&lat);
    if (have_ds)
        dataset_free(&ds);
}

extern const backend_ops_t backend_cuda_ops;

/* Every GPU check on device 0; returns the tally. */
static tally_t run_checks(void)
{
    tally_t t = {0, 0};
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    fit_problem_t p;
    tables_host_t h;
    backend_t *gb = NULL, *cb = NULL;
    ev_error err;
    double t0 = plat_now();
    check_philox(&t);
    check_breed(&t);
    memset(&obj, 0, sizeof obj);
    obj.kind = OBJ_TOTAL_RETURN;
    obj.min_trades = 10;
    if (synth_dataset(&ds, 5000, 3, 5, &err) != EV_OK) {
        verdict(&t, 0, "generated data: %s", err.msg);
        return t;
    }
    if (synth_lattice(&lat, "seed", &ds, &err) != EV_OK || problem_init(&p, &ds, &lat, &obj, &err) != EV_OK ||
        tables_build(&h, &p, &err) != EV_OK) {
        verdict(&t, 0, "generated data: %s", err.msg);
        dataset_free(&ds);
        return t;
    }
    check_tables(&t, &p, &h);
    if (backend_cpu_ops.open(&cb, &p, &h, &err) != EV_OK || backend_cuda_ops.open(&gb, &p, &h, &err) != EV_OK) {
        verdict(&t, 0, "opening the backends: %s", err.msg);
    } else {
        check_grids(&t, &backend_cuda_ops, gb, cb, &p);
        check_probe(&t, &backend_cuda_ops, gb, cb, &p, &h);
    }
    if (gb)
        backend_cuda_ops.close(gb);
    if (cb)
        backend_cpu_ops.close(cb);
    tables_free(&h);
    problem_free(&p);
    lattice_free(&lat);
    dataset_free(&ds);
    check_launch(&t);
    printf("checks:     %d passed, %d failed (%.1f s)\n", t.passed, t.failed, plat_now() - t0);
    return t;
}
#endif

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
    print_build();
#ifdef EVOLVE_HAVE_CUDA
    if (print_cuda()) {
        printf(
            "verdict:    NO GPU: no usable CUDA device; evolve runs on the CPU (--backend auto picks it) "
            "(exit %d)\n",
            DOCTOR_NO_GPU);
        return DOCTOR_NO_GPU;
    }
    {
        tally_t t = run_checks();
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
