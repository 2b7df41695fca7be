/* The bit-sliced evaluator on the device (kernels/slices_device.cu) is exact
 * (label gpu; exits 77 without a device, the emulated build runs it on the
 * CPU):
 *  - on random problems (tests/support/slices_problem.h: every additive
 *    objective, fill level and price, costs, min_trades, fold statistics,
 *    every exit role with `off`, extreme outcomes, plane budgets that leave
 *    some combinations walking), every lattice point and a crowd of genomes
 *    on one exit combination (whole blocks of it: the shared-memory tiles),
 *    evaluated with the slices forced and with `auto`, in launches of a
 *    random size, give tables_eval's bits (the CPU's walk's, test_slices);
 *  - a GA run on the CUDA backend with EVOLVE_EVALUATOR=slices gives the
 *    generations (genes, results, parents fingerprinted) and hall of fame of
 *    the CPU backend's walk, for every additive objective, and the backend's
 *    GPU probe (ga/backend_probe.h) passes with every genome on the slices.
 * test_cuda_slices [ROUNDS] (default 60). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "ga/backend_probe.h"
#include "kernels/cuda_api.h"
#include "runs/backend_registry.h"
#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/fitness_harness.h"
#include "tests/support/ga_fixture.h"
#include "tests/support/slices_problem.h"

static const backend_ops_t *cuda_ops; /* backend_find("cuda") */

#define ADDITIVE 5 /* total_return, mean, sharpe, profit_factor, compound: the kinds before calmar */

typedef struct {
    uint64_t genomes, sliced, tiled, partial;
} tally_t;

static void die(const char *what, const ev_error *err)
{
    fprintf(stderr, "test_cuda_slices: %s: %s\n", what, err->msg);
    exit(1);
}

static int same(eval_result_t a, eval_result_t b)
{
    return a.trades == b.trades && a.feasible == b.feasible && memcmp(&a.fitness, &b.fitness, sizeof a.fitness) == 0;
}

/* The lattice's points, then `crowd` random ones moved onto the exit values
 * of one random point; SoA genes, *n of them. */
static uint16_t *batch(const fit_problem_t *p, const fit_tables_t *t, uint64_t *rng, uint64_t crowd, uint64_t *n)
{
    const uint64_t size = p->lat->size, np = (uint64_t)p->shape.n_params;
    uint16_t g[EV_MAX_PARAMS], x[EV_MAX_PARAMS], *genes;
    int32_t exits[2 + MORE_EXITS] = {t->target_param, t->stop_param};
    *n = size + crowd;
    genes = (uint16_t *)malloc(*n * np * sizeof *genes + 1);
    if (!genes)
        exit(2);
    for (int r = 0; r < MORE_EXITS; r++)
        exits[2 + r] = t->more[r].param;
    shape_decode(&p->shape, tb_rand(rng) % size, x);
    for (uint64_t i = 0; i < *n; i++) {
        shape_decode(&p->shape, i < size ? i : tb_rand(rng) % size, g);
        for (int r = 0; i >= size && r < 2 + MORE_EXITS; r++)
            if (exits[r] >= 0)
                g[exits[r]] = x[exits[r]];
        for (uint64_t k = 0; k < np; k++)
            genes[k * *n + i] = g[k];
    }
    return genes;
}

/* One problem in one mode: every genome of the batch against tables_eval. */
static int check_mode(const slices_problem_t *sp, slices_mode mode, uint64_t *rng, tally_t *tl)
{
    const fit_tables_t *t = &sp->t.view;
    const uint64_t np = (uint64_t)sp->p.shape.n_params;
    cuda_tables_t *d;
    cuda_eval_t *e;
    cuda_eval_sizes_t sz;
    cuda_slices_info_t info;
    uint64_t n;
    uint16_t *genes = batch(&sp->p, t, rng, 300 + tb_rand(rng) % 300, &n);
    eval_result_t *out = (eval_result_t *)malloc(n * sizeof *out);
    ev_error err;
    int bad = 0;
    sz.batch_max = n - tb_rand(rng) % 2 * (n / 3); /* one batch, or two */
    sz.launch_max = 1 + tb_rand(rng) % 400;        /* the slices' launches too */
    sz.topk_cap = 1024;
    if (!out)
        exit(2);
    if (cuda_tables_upload(&d, &sp->t, &err) != EV_OK || cuda_eval_open(&e, d, &sp->p.shape, &sz, &err) != EV_OK ||
        cuda_eval_slices(e, t, mode, sp->budget, &info, &err) != EV_OK)
        die("open", &err);
    CHECK(info.combos > 0 || sp->budget < (uint64_t)1 << 20); /* a large budget holds every combination */
    CHECK(info.combos == info.n_combos || sp->budget < (uint64_t)1 << 20);
    tl->partial += info.combos < info.n_combos;
    CHECK(info.combos == info.n_combos || info.walk_why != NULL); /* the backend's note says why */
    if (cuda_eval_genes(e, genes, n, out, &err) != EV_OK)
        die("evaluate", &err);
    for (uint64_t i = 0; i < n; i++) {
        uint16_t g[EV_MAX_PARAMS];
        eval_result_t want;
        for (uint64_t k = 0; k < np; k++)
            g[k] = genes[k * n + i];
        want = tables_eval(t, g);
        if (!same(want, out[i]) && bad++ < 5)
            fprintf(stderr, "genome %llu, mode %d: %.17g/%lld/%d, tables_eval %.17g/%lld/%d\n", (unsigned long long)i,
                    (int)mode, out[i].fitness, (long long)out[i].trades, out[i].feasible, want.fitness,
                    (long long)want.trades, want.feasible);
    }
    info = cuda_eval_slices_info(e);
    CHECK_EQ_I64((int64_t)n, info.combos ? (int64_t)(info.sliced + info.walked) : (int64_t)n);
    CHECK(mode != SLICES_MODE_SLICES || info.combos < info.n_combos || info.walked == 0);
    free(genes);
    free(out);
    cuda_eval_close(e);
    cuda_tables_free(d);
    tl->genomes += n;
    tl->sliced += info.sliced;
    tl->tiled += info.blocks_tiled;
    return bad;
}

/* The fixture's problem under objective kind, its CPU backend reopened with the walk. */
static void reobjective(ga_fixture_t *f, objective_kind kind)
{
    ev_error err;
    objective_cfg_t obj;
    harness_objective(&obj, kind);
    obj.min_trades = 3;
    obj.cost_pct = 0.01;
    obj.fill = FILL_PRICE; /* outcomes of every low bit */
    backend_cpu_ops.close(f->b);
    problem_free(&f->p);
    tables_free(&f->t);
    plat_setenv(SLICES_MODE_ENV, "walk");
    if (problem_init(&f->p, &f->ds, &f->lat, &obj, &err) || tables_build(&f->t, &f->p, &err) ||
        backend_cpu_ops.open(&f->b, &f->p, &f->t, &err))
        die("reopen the CPU backend", &err);
}

/* GA runs and the probe: the CUDA backend's slices against the CPU's walk. */
static int check_runs(void)
{
    ga_fixture_t f;
    int bad = 0;
    fixture_open(&f, 4, 8); /* 4 filters x 8 values, 6 targets, 6 stops */
    for (int k = 0; k < ADDITIVE; k++) {
        backend_t *cu = NULL, *cpu;
        trace_t tr[2];
        ga_result_t res[2];
        ga_settings_t s;
        backend_probe_opts_t po;
        backend_probe_t pr;
        char desc[1024];
        ev_error err;
        int same_gens;
        fixture_settings(&s);
        reobjective(&f, (objective_kind)k);
        if (fixture_run(&f, NULL, &s, 5, &tr[0], &res[0], &err) != EV_OK)
            die("CPU GA", &err);
        plat_setenv(SLICES_MODE_ENV, "slices");
        if (cuda_ops->open(&cu, &f.p, &f.t, &err) != EV_OK)
            die("cuda backend", &err);
        plat_setenv(SLICES_MODE_ENV, "");
        cuda_ops->describe(cu, desc, sizeof desc);
        CHECK(strstr(desc, "bit planes of 36 exit combinations") != NULL); /* every genome takes the slices */
        cpu = f.b;
        f.b = cu;
        if (fixture_run(&f, cuda_ops, &s, 5, &tr[1], &res[1], &err) != EV_OK)
            die("CUDA GA", &err);
        f.b = cpu;
        memset(&po, 0, sizeof po);
        po.seed = 9;
        if (backend_probe_run(&backend_cpu_ops, cpu, cuda_ops, cu, &f.p, &f.t.view, &s, &po, &pr, &err) != EV_OK)
            die("probe", &err);
        CHECK(pr.match && pr.ga_checked);
        if (!pr.match)
            fprintf(stderr, "%s: probe: %s\n", objective_name((objective_kind)k), pr.what);
        same_gens = tr[0].n == tr[1].n && memcmp(tr[0].hash, tr[1].hash, tr[0].n * sizeof tr[0].hash[0]) == 0;
        bad += !same_gens || !fixture_same_top(&res[0].hof, &res[1].hof) || res[0].evaluations != res[1].evaluations;
        printf("%-14s GA on CUDA with the slices %s CPU walk (%u generations, %llu evaluations); probe: %s\n",
               objective_name((objective_kind)k), same_gens ? "==" : "!=", tr[1].n,
               (unsigned long long)res[1].evaluations, pr.summary);
        ga_result_free(&res[0]);
        ga_result_free(&res[1]);
        cuda_ops->close(cu);
    }
    fixture_close(&f);
    return bad;
}

int main(int argc, char **argv)
{
    uint64_t rng = 3535;
    const int rounds = argc > 1 ? atoi(argv[1]) : 60;
    tally_t tl;
    ev_error err;
    int bad = 0;
    memset(&tl, 0, sizeof tl);
    if (cuda_device_count() == 0) {
        printf("test_cuda_slices: no CUDA device on this machine: skipped\n");
        return CHECK_SKIP_CODE;
    }
    if (backend_find("cuda", &cuda_ops, &err) != EV_OK)
        die("backend", &err);
    for (int r = 0; r < rounds && !bad; r++) {
        slices_problem_t sp;
        slices_problem_draw(&sp, &rng, (objective_kind)(r % ADDITIVE), 0);
        bad += check_mode(&sp, SLICES_MODE_SLICES, &rng, &tl);
        bad += check_mode(&sp, SLICES_MODE_AUTO, &rng, &tl);
        if (bad)
            fprintf(stderr, "round %d (objective %s, fill %d, aggregate %d) disagrees\n", r,
                    objective_name((objective_kind)sp.obj.kind), sp.obj.fill, sp.agg);
        slices_problem_free(&sp);
    }
    CHECK_EQ_I64(0, bad);
    printf(
        "%d problems, %llu genomes (%llu through the slices, %llu blocks on shared tiles), %llu with some "
        "combinations walking\n",
        rounds, (unsigned long long)tl.genomes, (unsigned long long)tl.sliced, (unsigned long long)tl.tiled,
        (unsigned long long)tl.partial);
    CHECK(tl.sliced > tl.genomes / 5); /* a third of the problems have budgets that leave most to the walk */
    CHECK(tl.tiled > 0);
    CHECK(tl.partial > 0);
    if (!bad)
        CHECK_EQ_I64(0, check_runs());
    return check_exit();
}
