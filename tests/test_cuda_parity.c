/* CPU against CUDA, bit for bit (label gpu; exits 77 where no device exists).
 *
 * On random problems (every objective, fill, cost and constraint):
 *  - the device-built first-hit tables equal tables_build's, byte for byte
 *    (and an upload comes back unchanged);
 *  - evaluate: every lattice genome and random populations of 1, 7 and 1000,
 *    identical eval_result_t bytes;
 *  - grid top-K with the tables evaluator (batches of 1, 7 and the whole
 *    lattice; K = 3 and K = the lattice) and with dominance sums (blocks
 *    forced by a tiny budget, and one block): identical rankings;
 *  - the same with deliberately tiny device scratch (batches of 5, launches
 *    of 2, 3 top-K candidates a pass), which exercises every chunking and
 *    overflow path, and evolve doctor's timing launch asked for more than a
 *    launch (one launch of 2, evaluations after it still the CPU's).
 * Every third problem is checked again with a fold statistic as the objective
 * (objective.aggregate over random day folds): the tables evaluator and the
 * dominance sums with one sum set per fold, against the CPU's tables.
 * Then one bigger problem (~1e6 lattice points, 3,000 trades): CPU
 * dominance against CUDA dominance and the CUDA tables grid.
 *
 * test_cuda_parity [ROUNDS [BIG_TRADES [BIG_TABLES]]]: fewer random problems
 * and a smaller big problem (the emulated build, tests/cuda_emu, runs it on
 * the CPU); no big problem with BIG_TRADES 0; BIG_TABLES 0 leaves out the big
 * problem's tables grid (a warp per genome: a million genomes are 32 million
 * emulated threads), checked on every random problem all the same.
 * Then a third as many problems again on lattices with SPEC sec. 4.1's exits.
 * Each round prints what it drew and its CPU seconds, and the end each kind's
 * count and any kind no round drew ("kinds not drawn", which fails the test
 * in ctest: tests/support/drawn_kinds.h), so that fewer rounds show what they
 * still cover. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runs/backend_registry.h"
#include "fitness/dominance.h"
#include "fitness/problem.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#include "ga/grid.h"
#include "kernels/cuda_api.h"
#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/drawn_kinds.h"
#include "tests/support/fitness_harness.h"
#include "tests/support/random_problem.h"

static void die(const char *what, const ev_error *err)
{
    fprintf(stderr, "test_cuda_parity: %s: %s\n", what, err->msg);
    exit(1);
}

static int same_ranking(const char *what, const topk_t *a, const topk_t *b)
{
    if (a->n != b->n) {
        fprintf(stderr, "%s: %u entries on the CPU, %u on CUDA\n", what, a->n, b->n);
        return 0;
    }
    for (uint32_t i = 0; i < a->n; i++)
        if (a->e[i].index != b->e[i].index || a->e[i].key != b->e[i].key ||
            memcmp(&a->e[i].r, &b->e[i].r, sizeof a->e[i].r) != 0) {
            fprintf(stderr, "%s: rank %u: CPU genome %llu (%.17g, %lld trades), CUDA genome %llu (%.17g, %lld)\n", what,
                    i, (unsigned long long)a->e[i].index, a->e[i].r.fitness, (long long)a->e[i].r.trades,
                    (unsigned long long)b->e[i].index, b->e[i].r.fitness, (long long)b->e[i].r.trades);
            return 0;
        }
    return 1;
}

static int same_bytes(const char *what, const void *a, const void *b, uint64_t n)
{
    if (n && memcmp(a, b, (size_t)n) != 0) {
        fprintf(stderr, "device tables differ from the host's in %s\n", what);
        return 0;
    }
    return 1;
}

static int same_tables(const tables_host_t *h, const tables_host_t *d)
{
    const fit_tables_t *v = &h->view;
    uint64_t n = (uint64_t)v->n_trades, lf = v->need_lf;
    int ok = d->q_t_len == h->q_t_len && d->q_s_len == h->q_s_len && d->view.n_trades == v->n_trades &&
             d->view.fill_price == v->fill_price && d->view.need_lf == v->need_lf;
    ok &= same_bytes("cells", h->cells, d->cells, n * (uint64_t)v->n_filters * 2);
    ok &= same_bytes("hit_t", h->hit_t, d->hit_t, n * (uint64_t)v->n_targets * 4);
    ok &= same_bytes("hit_s", h->hit_s, d->hit_s, n * (uint64_t)v->n_stops * 4);
    ok &= same_bytes("q_t", h->q_t, d->q_t, (uint64_t)h->q_t_len * 8);
    ok &= same_bytes("q_s", h->q_s, d->q_s, (uint64_t)h->q_s_len * 8);
    ok &= same_bytes("q_log", h->q_log, d->q_log, n * 8);
    ok &= same_bytes("lf_t", h->lf_t, d->lf_t, lf * (uint64_t)h->q_t_len * 8);
    ok &= same_bytes("lf_s", h->lf_s, d->lf_s, lf * (uint64_t)h->q_s_len * 8);
    ok &= same_bytes("lf_log", h->lf_log, d->lf_log, lf * n * 8);
    for (int r = 0; r < MORE_EXITS; r++) {
        const uint64_t cells = n * (uint64_t)v->more[r].n;
        ok &= d->view.more[r].n == v->more[r].n && d->view.more[r].param == v->more[r].param;
        ok &= same_bytes("more_hit", h->more_hit[r], d->more_hit[r], cells * 4);
        ok &= same_bytes("more_q", h->more_q[r], d->more_q[r], cells * 8);
        ok &= same_bytes("more_lf", h->more_lf[r], d->more_lf[r], lf * cells * 8);
    }
    return ok;
}

/* Device build (not for SPEC sec. 4.1's exits, whose tables are uploaded)
 * and upload, each downloaded and compared with the host's. */
static void check_tables(const fit_problem_t *p, const tables_host_t *h, int *bad)
{
    cuda_tables_t *d;
    tables_host_t back;
    ev_error err;
    if (!h->view.more_exits) {
        if (cuda_tables_build(&d, p, h->cells, &err) != EV_OK || cuda_tables_download(d, &back, &err) != EV_OK)
            die("device tables", &err);
        *bad += !same_tables(h, &back);
        tables_free(&back);
        cuda_tables_free(d);
    }
    if (cuda_tables_upload(&d, h, &err) != EV_OK || cuda_tables_download(d, &back, &err) != EV_OK)
        die("uploaded tables", &err);
    *bad += !same_tables(h, &back);
    tables_free(&back);
    cuda_tables_free(d);
}

/* n genomes as SoA genes: the first `lattice` lattice points in order, then random ones. */
static uint16_t *population(const fit_problem_t *p, uint64_t n, int lattice, uint64_t *rng)
{
    int32_t np = p->shape.n_params;
    uint16_t *genes = (uint16_t *)malloc((size_t)(n * (uint64_t)np + 1) * sizeof *genes);
    uint16_t g[EV_MAX_PARAMS];
    if (!genes)
        exit(2);
    for (uint64_t i = 0; i < n; i++) {
        if (lattice)
            shape_decode(&p->shape, i, g);
        else
            for (int32_t k = 0; k < np; k++)
                g[k] = (uint16_t)(tb_rand(rng) % p->shape.n_values[k]);
        for (int32_t k = 0; k < np; k++)
            genes[(uint64_t)k * n + i] = g[k];
    }
    return genes;
}

typedef ev_status (*eval_fn)(void *ctx, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err);

typedef struct {
    const backend_ops_t *ops;
    backend_t *b;
} backend_ctx_t;

static ev_status eval_backend(void *ctx, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err)
{
    const backend_ctx_t *c = (const backend_ctx_t *)ctx;
    return c->ops->evaluate(c->b, genes, n, out, err);
}

static ev_status eval_scratch(void *ctx, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err)
{
    return cuda_eval_genes((cuda_eval_t *)ctx, genes, n, out, err);
}

/* CPU evaluate against a CUDA evaluate on the lattice and random populations. */
static void check_evaluate(const fit_problem_t *p, backend_t *cpu, eval_fn gpu, void *ctx, uint64_t *rng, int *bad)
{
    const uint64_t sizes[] = {0 /* the whole lattice */, 1, 7, 1000};
    ev_error err;
    for (int s = 0; s < 4; s++) {
        uint64_t n = s == 0 ? p->lat->size : sizes[s];
        uint16_t *genes = population(p, n, s == 0, rng);
        eval_result_t *a = (eval_result_t *)calloc((size_t)n + 1, sizeof *a);
        eval_result_t *b = (eval_result_t *)calloc((size_t)n + 1, sizeof *b);
        if (!a || !b)
            exit(2);
        if (backend_cpu_ops.evaluate(cpu, genes, n, a, &err) != EV_OK || gpu(ctx, genes, n, b, &err) != EV_OK)
            die("evaluate", &err);
        for (uint64_t i = 0; i < n; i++)
            if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) {
                fprintf(stderr, "evaluate (%llu genomes): genome %llu: CPU %.17g/%lld/%d, CUDA %.17g/%lld/%d\n",
                        (unsigned long long)n, (unsigned long long)i, a[i].fitness, (long long)a[i].trades,
                        a[i].feasible, b[i].fitness, (long long)b[i].trades, b[i].feasible);
                (*bad)++;
                break;
            }
        free(genes);
        free(a);
        free(b);
    }
}

static void ranking(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, evaluator_kind ev, uint64_t batch,
                    uint64_t budget, uint32_t k, topk_t *out)
{
    grid_opts_t o;
    grid_stats_t s;
    ev_error err;
    memset(&o, 0, sizeof o);
    o.evaluator = ev;
    o.batch = batch;
    o.dominance_budget = budget;
    if (topk_init(out, k, &err) != EV_OK || grid_run(ops, b, p, &o, out, &s, &err) != EV_OK)
        die("grid", &err);
}

/* Grid rankings through the backend vtable against the CPU tables grid. */
static void check_grid(const fit_problem_t *p, backend_t *cpu, const backend_ops_t *cuda, backend_t *gpu, int *bad)
{
    const uint64_t batches[] = {1, 7, 0};
    const uint32_t ks[] = {3, (uint32_t)p->lat->size};
    for (int ki = 0; ki < 2; ki++) {
        topk_t want, got;
        ranking(&backend_cpu_ops, cpu, p, EVAL_TABLES, 0, 0, ks[ki], &want);
        for (int bi = 0; bi < 3; bi++) {
            ranking(cuda, gpu, p, EVAL_TABLES, batches[bi], 0, ks[ki], &got);
            *bad += !same_ranking("tables grid", &want, &got);
            topk_free(&got);
        }
        if (dominance_applicable(p)) {
            ranking(cuda, gpu, p, EVAL_DOMINANCE, 0, 64, ks[ki], &got); /* 64 B: blocks of a few cells */
            *bad += !same_ranking("dominance grid (small blocks)", &want, &got);
            topk_free(&got);
            ranking(cuda, gpu, p, EVAL_DOMINANCE, 0, 0, ks[ki], &got);
            *bad += !same_ranking("dominance grid", &want, &got);
            topk_free(&got);
        }
        topk_free(&want);
    }
}

/* Tiny device scratch: every loop in kernels/ runs many times. */
static void check_small_scratch(const fit_problem_t *p, const tables_host_t *h, backend_t *cpu, uint64_t *rng, int *bad)
{
    cuda_tables_t *d;
    cuda_eval_t *e;
    cuda_eval_sizes_t sz;
    ev_error err;
    const uint32_t ks[] = {4, (uint32_t)p->lat->size};
    sz.batch_max = 5;
    sz.launch_max = 2;
    sz.topk_cap = 3;
    if (cuda_tables_upload(&d, h, &err) != EV_OK || cuda_eval_open(&e, d, &p->shape, &sz, &err) != EV_OK)
        die("small scratch", &err);
    check_evaluate(p, cpu, eval_scratch, e, rng, bad);
    {
        /* evolve doctor's timing launch (cuda_eval_time_launch): asked for more
         * than a launch, it times one launch of launch_max points into the
         * batch buffers, and the evaluations after it are still the CPU's */
        double secs = -1.0;
        if (cuda_eval_time_launch(e, p->lat->size + 7, &secs, &err) != EV_OK)
            die("timing launch", &err);
        *bad += !(secs >= 0.0) || cuda_eval_sizes(e).launch_max != 2;
        check_evaluate(p, cpu, eval_scratch, e, rng, bad);
    }
    for (int ki = 0; ki < 2; ki++) {
        topk_t want, got;
        ranking(&backend_cpu_ops, cpu, p, EVAL_TABLES, 0, 0, ks[ki], &want);
        if (topk_init(&got, ks[ki], &err) != EV_OK || cuda_eval_grid(e, 0, p->lat->size, &got, &err) != EV_OK)
            die("small scratch grid", &err);
        *bad += !same_ranking("tables grid, tiny scratch", &want, &got);
        topk_free(&got);
        if (dominance_applicable(p)) {
            if (topk_init(&got, ks[ki], &err) != EV_OK ||
                cuda_dominance_grid(e, p, 64, NULL, NULL, &got, &err) != EV_OK)
                die("small scratch dominance", &err);
            *bad += !same_ranking("dominance grid, tiny scratch", &want, &got);
            topk_free(&got);
        }
        topk_free(&want);
    }
    cuda_eval_close(e);
    cuda_tables_free(d);
}

/* A fold statistic as the objective: each trade's fold and the statistic. */
typedef struct {
    const uint8_t *fold;
    int32_t n_folds, agg;
} folds_t;

/* One round: p's parity, then what it drew (tests/support/drawn_kinds.h). */
typedef struct {
    drawn_kinds_t *drawn;
    drawn_stream stream;
    int round;
} round_t;

static void check_problem(const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj, const folds_t *folds,
                          uint64_t *rng, const round_t *rd, int *bad)
{
    const clock_t t0 = clock();
    fit_problem_t p;
    tables_host_t t;
    backend_t *cpu, *gpu;
    const backend_ops_t *cuda;
    backend_ctx_t ctx;
    ev_error err;
    if (problem_init(&p, ds, lat, obj, &err) != EV_OK)
        die("setup", &err);
    if (folds) {
        p.fold = folds->fold;
        p.n_folds = folds->n_folds;
        p.agg = folds->agg;
    }
    if (tables_build(&t, &p, &err) != EV_OK || backend_cpu_ops.open(&cpu, &p, &t, &err) != EV_OK ||
        backend_find("cuda", &cuda, &err) != EV_OK || cuda->open(&gpu, &p, &t, &err) != EV_OK)
        die("setup", &err);
    ctx.ops = cuda;
    ctx.b = gpu;
    check_tables(&p, &t, bad);
    check_evaluate(&p, cpu, eval_backend, &ctx, rng, bad);
    check_grid(&p, cpu, cuda, gpu, bad);
    check_small_scratch(&p, &t, cpu, rng, bad);
    const drawn_problem_t drew = {lat, obj, folds ? folds->n_folds : 0, folds ? folds->agg : 0};
    drawn_add(rd->drawn, rd->stream, &drew);
    drawn_print(rd->stream, rd->round, &drew, (double)(clock() - t0) / CLOCKS_PER_SEC, stdout);
    cuda->close(gpu);
    backend_cpu_ops.close(cpu);
    tables_free(&t);
    problem_free(&p);
}

/* ~1e6 points: 5 filters, 6 targets, 5 stops. */
static void big_lattice(lattice_t *lat, const dataset_t *ds)
{
    static const double tv[] = {0.05, 0.1, 0.2, 0.3, 0.5, 1.0}, sv[] = {-1.0, -0.5, -0.3, -0.2, -0.1};
    static const double f4[] = {0.0, 0.2, 0.4, 0.6};
    double v[16];
    memset(lat, 0, sizeof *lat);
    for (int i = 0; i < 11; i++)
        v[i] = i / 10.0;
    tb_param(lat, "f0", PARAM_FILTER, FILTER_MIN, "F0", v, 11);
    tb_param(lat, "f1", PARAM_FILTER, FILTER_MAX, "F1", v, 11);
    for (int i = 0; i < 12; i++)
        v[i] = i / 4.0;
    tb_param(lat, "f2", PARAM_FILTER, FILTER_MIN, "F2", v, 12);
    for (int i = 0; i < 6; i++)
        v[i] = 0.5 * (i + 1);
    tb_param(lat, "f3", PARAM_FILTER, FILTER_MAX, "F2", v, 6);
    tb_param(lat, "f4", PARAM_FILTER, FILTER_MIN, "F1", f4, 4);
    tb_param(lat, "target", PARAM_TARGET, FILTER_MIN, NULL, tv, 6);
    tb_param(lat, "stop", PARAM_STOP, FILTER_MIN, NULL, sv, 5);
    tb_lattice_done(lat, ds);
}

static void check_big(uint64_t *rng, int32_t trades, int big_tables, int *bad)
{
    const random_dataset_opts_t sizes = {20000, trades, 1};
    const objective_kind kinds[] = {OBJ_TOTAL_RETURN, OBJ_SHARPE, OBJ_COMPOUND};
    dataset_t ds;
    lattice_t lat;
    random_dataset(&ds, rng, &sizes);
    big_lattice(&lat, &ds);
    printf("big problem: %lld trades, %llu lattice points\n", (long long)ds.n_trades, (unsigned long long)lat.size);
    for (int i = 0; i < 3; i++) {
        objective_cfg_t obj;
        fit_problem_t p;
        tables_host_t t;
        backend_t *cpu, *gpu;
        const backend_ops_t *cuda;
        topk_t want, got;
        ev_error err;
        harness_objective(&obj, kinds[i]);
        obj.fill = i == 1 ? FILL_PRICE : FILL_LEVEL;
        obj.min_trades = 5;
        if (problem_init(&p, &ds, &lat, &obj, &err) != EV_OK || tables_build(&t, &p, &err) != EV_OK ||
            backend_cpu_ops.open(&cpu, &p, &t, &err) != EV_OK || backend_find("cuda", &cuda, &err) != EV_OK ||
            cuda->open(&gpu, &p, &t, &err) != EV_OK)
            die("big setup", &err);
        check_tables(&p, &t, bad);
        ranking(&backend_cpu_ops, cpu, &p, EVAL_DOMINANCE, 0, 0, 50, &want);
        ranking(cuda, gpu, &p, EVAL_DOMINANCE, 0, 0, 50, &got);
        *bad += !same_ranking("big: dominance", &want, &got);
        topk_free(&got);
        ranking(cuda, gpu, &p, EVAL_DOMINANCE, 0, 1 << 20, 50, &got);
        *bad += !same_ranking("big: dominance, 1 MiB blocks", &want, &got);
        topk_free(&got);
        if (big_tables) { /* a million genomes of 32 lanes each: too many fibers under emulation */
            ranking(cuda, gpu, &p, EVAL_TABLES, 0, 0, 50, &got);
            *bad += !same_ranking("big: tables", &want, &got);
            topk_free(&got);
        }
        topk_free(&want);
        cuda->close(gpu);
        backend_cpu_ops.close(cpu);
        tables_free(&t);
        problem_free(&p);
    }
    lattice_free(&lat);
    dataset_free(&ds);
}

/* The kinds each stream enumerates on purpose; the numbers (costs,
 * min_trades, which feature, how many filters) and the objectives of the fold
 * and exits rounds are counted, not needed: those rounds enumerate the fold
 * statistics and the exit roles, each objective is the plain rounds'. */
#define LATTICE_ROUNDS_NEED                                                                  \
    (DRAWN_RANGE(DRAWN_FILL, 2) | DRAWN_RANGE(DRAWN_MAX_DD, 2) | DRAWN_RANGE(DRAWN_DIR, 2) | \
     DRAWN_RANGE(DRAWN_TARGET, 2) | DRAWN_RANGE(DRAWN_STOP, 2) | DRAWN_RANGE(DRAWN_DOMINANCE, 2))
static const uint64_t need[DRAWN_STREAMS] = {
    [DRAWN_PLAIN] = DRAWN_RANGE(DRAWN_OBJ, OBJ_COUNT) | LATTICE_ROUNDS_NEED,
    [DRAWN_FOLDS] = DRAWN_RANGE(DRAWN_FILL, 2) | DRAWN_RANGE(DRAWN_DOMINANCE, 2) | DRAWN_RANGE(DRAWN_AGG, 3),
    [DRAWN_EXITS] = LATTICE_ROUNDS_NEED | DRAWN_RANGE(DRAWN_EXIT, 6),
};

int main(int argc, char **argv)
{
    uint64_t rng = 424242, fold_rng = 99, more_rng = 31337;
    int bad = 0, rounds = 0, max_rounds = argc > 1 ? atoi(argv[1]) : 150;
    int32_t big_trades = argc > 2 ? atoi(argv[2]) : 3000;
    int big_tables = argc > 3 ? atoi(argv[3]) : 1;
    char desc[512];
    drawn_kinds_t drawn;
    const backend_ops_t *cuda;
    ev_error err;
    if (cuda_device_count() == 0) {
        printf("test_cuda_parity: no CUDA device on this machine: skipped\n");
        return CHECK_SKIP_CODE;
    }
    if (cuda_device_describe(desc, sizeof desc, &err) != EV_OK || backend_find("cuda", &cuda, &err) != EV_OK)
        die("device", &err);
    printf("device: %s\n", desc);
    memset(&drawn, 0, sizeof drawn);
    for (; rounds < max_rounds && !bad; rounds++) {
        dataset_t ds;
        lattice_t lat;
        objective_cfg_t obj;
        random_dataset(&ds, &rng, NULL);
        random_lattice(&lat, &ds, &rng);
        random_objective(&obj, &rng);
        round_t rd = {&drawn, DRAWN_PLAIN, rounds};
        check_problem(&ds, &lat, &obj, NULL, &rng, &rd, &bad);
        if (!bad && rounds % 3 == 0) {
            /* own stream: the plain rounds stay the problems they were */
            folds_t f = {NULL, 2 + (int32_t)(fold_rng % 15), AGG_MEAN_FOLD + (int32_t)(fold_rng / 15 % 3)};
            uint8_t *fold = (uint8_t *)malloc((size_t)ds.n_trades + 1);
            for (int64_t j = 0; j < ds.n_trades; j++) {
                fold_rng = fold_rng * 6364136223846793005ull + 1442695040888963407ull;
                fold[j] = (uint8_t)((fold_rng >> 33) % (uint64_t)f.n_folds);
            }
            f.fold = fold;
            rd.stream = DRAWN_FOLDS;
            check_problem(&ds, &lat, &obj, &f, &fold_rng, &rd, &bad);
            if (bad)
                fprintf(stderr, "with %d folds, aggregate %d:\n", f.n_folds, f.agg);
            free(fold);
        }
        if (bad)
            fprintf(stderr, "round %d (objective %s, fill %d, cost %g, min_trades %lld, max_dd %d) disagrees\n", rounds,
                    objective_name((objective_kind)obj.kind), obj.fill, obj.cost_pct, (long long)obj.min_trades,
                    obj.has_max_drawdown);
        lattice_free(&lat);
        dataset_free(&ds);
    }
    /* lattices with SPEC sec. 4.1's exits (trail, breakeven, max_hold): their
     * tables are uploaded from the host; own stream, a third as many rounds */
    for (int more = 0; more < max_rounds / 3 && !bad; more++) {
        dataset_t ds;
        lattice_t lat;
        objective_cfg_t obj;
        random_dataset(&ds, &more_rng, NULL);
        random_lattice_more(&lat, &ds, &more_rng);
        random_objective(&obj, &more_rng);
        const round_t rd = {&drawn, DRAWN_EXITS, more};
        check_problem(&ds, &lat, &obj, NULL, &more_rng, &rd, &bad);
        if (bad)
            fprintf(stderr, "round %d with more exits (objective %s, fill %d) disagrees\n", more,
                    objective_name((objective_kind)obj.kind), obj.fill);
        lattice_free(&lat);
        dataset_free(&ds);
    }
    printf("%d random problems checked\n", rounds);
    if (!bad)
        drawn_report(&drawn, need, stdout); /* "kinds not drawn": ctest fails the test (tests/CMakeLists.txt) */
    if (!bad && big_trades > 0) {
        const clock_t t0 = clock();
        check_big(&rng, big_trades, big_tables, &bad);
        printf("big problem: %.2f s of CPU\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
    CHECK_EQ_I64(0, bad);
    return check_exit();
}
