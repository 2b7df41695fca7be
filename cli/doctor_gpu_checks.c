/* evolve doctor's GPU self-tests on generated data, each compared with the CPU bit for bit. */
#include "cli/doctor_gpu_checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/doctor_gpu_launch.h"
#include "common/platform.h"
#include "fitness/dominance.h"
#include "fitness/tables.h"
#include "ga/backend_probe.h"
#include "kernels/backend_cuda.h"
#include "kernels/cuda_api.h"
#include "kernels/ga_selftest.h"
#include "operators/breed.h"
#include "runs/synth_data.h"

extern const backend_ops_t backend_cuda_ops;

static void check_philox(doctor_tally_t *t)
{
    enum { N = 65536 };
    uint32_t *ctr = (uint32_t *)malloc(4 * N * sizeof *ctr), *cu = (uint32_t *)malloc(4 * N * sizeof *cu),
             *hd = (uint32_t *)malloc(4 * N * sizeof *hd);
    uint32_t key[2] = {0x9abcdef0u, 0x12345678u};
    uint64_t rng = 1;
    uint32_t bad = 0, first = 0;
    ev_error err;
    if (!ctr || !cu || !hd) {
        doctor_verdict(t, 0, "Philox4x32-10: out of host memory");
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
        doctor_verdict(t, 0, "Philox4x32-10 on the device: %s", err.msg);
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
        doctor_verdict(t, 0,
                       "Philox4x32-10: %u of %u counters differ between the host, cuRAND and the device (first: %u)",
                       bad, N, first);
    else
        doctor_verdict(t, 1, "Philox4x32-10 on the device == cuRAND == the host (%u counters)", N);
done:
    free(ctr);
    free(cu);
    free(hd);
}

static void check_breed(doctor_tally_t *t)
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
                doctor_verdict(t, 0, "breed on the device: %s", err.msg);
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
                    doctor_verdict(t, 0, "breed on the device: %s", err.msg);
                    return;
                }
                bad += memcmp(host, dev, sizeof host) != 0 || memcmp(hpar, dpar, sizeof hpar) != 0;
                memcpy(prev, host, sizeof prev);
            }
            cases += 4;
        }
    doctor_verdict(t, bad == 0, "breed on the device %s the host: %d of %d generations of %u children differ",
                   bad ? "!=" : "==", bad, cases, POP);
}

static int same_bytes(const void *a, const void *b, uint64_t n)
{
    return n == 0 || memcmp(a, b, (size_t)n) == 0;
}

static void check_tables(doctor_tally_t *t, const fit_problem_t *p, const tables_host_t *h)
{
    const fit_tables_t *v = &h->view;
    uint64_t n = (uint64_t)v->n_trades, lf = (uint64_t)v->need_lf;
    cuda_tables_t *d = NULL;
    tables_host_t back;
    ev_error err;
    int ok;
    memset(&back, 0, sizeof back);
    if (cuda_tables_build(&d, p, h->cells, &err) != EV_OK || cuda_tables_download(d, &back, &err) != EV_OK) {
        doctor_verdict(t, 0, "first-hit tables built on the device: %s", err.msg);
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
    doctor_verdict(t, ok, "first-hit tables built on the device %s the host's (%lld trades, %d targets, %d stops)",
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
static void check_grids(doctor_tally_t *t, const backend_ops_t *cu, backend_t *gb, backend_t *cb,
                        const fit_problem_t *p)
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
            doctor_verdict(t, 0, "%s on the device: %s", ev ? "dominance sums" : "fitness (tables evaluator)", err.msg);
        else
            doctor_verdict(t, same_lists(&top[0], &top[1]),
                           "%s over the %llu-point lattice: the device's top-%u %s the CPU's",
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
static void check_probe(doctor_tally_t *t, const backend_ops_t *cu, backend_t *gb, backend_t *cb,
                        const fit_problem_t *p, const tables_host_t *h)
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
        doctor_verdict(t, 0, "GPU probe: %s", err.msg);
    else if (!r.match)
        doctor_verdict(t, 0, "GPU probe: %s", r.what);
    else {
        /* the CUDA backend's description names its bit planes when the slices kernel runs */
        char desc[1024];
        const char *planes;
        cu->describe(gb, desc, sizeof desc);
        planes = strstr(desc, "; bit planes");
        doctor_verdict(t, 1, "GPU probe (a run's check, larger): device == CPU on %s%s%s (%.1f ms)", r.summary,
                       planes ? "; the bit-sliced kernel where it pays, with the " : "", planes ? planes + 2 : "",
                       r.seconds * 1e3);
    }
}

/* Every GPU check on device 0; returns the tally. */
doctor_tally_t doctor_gpu_checks(void)
{
    doctor_tally_t t = {0, 0};
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
        doctor_verdict(&t, 0, "generated data: %s", err.msg);
        return t;
    }
    if (synth_lattice(&lat, "seed", &ds, &err) != EV_OK || problem_init(&p, &ds, &lat, &obj, &err) != EV_OK ||
        tables_build(&h, &p, &err) != EV_OK) {
        doctor_verdict(&t, 0, "generated data: %s", err.msg);
        dataset_free(&ds);
        return t;
    }
    check_tables(&t, &p, &h);
    if (backend_cpu_ops.open(&cb, &p, &h, &err) != EV_OK || backend_cuda_ops.open(&gb, &p, &h, &err) != EV_OK) {
        doctor_verdict(&t, 0, "opening the backends: %s", err.msg);
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
    doctor_check_launch(&t);
    printf("checks:     %d passed, %d failed (%.1f s)\n", t.passed, t.failed, plat_now() - t0);
    return t;
}
