/* The CPU backend: the shared __host__ __device__ functions in plain loops,
 * OpenMP across genomes. Its GA ops are in ga/cpu_ga*.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/parallel.h"
#include "fitness/kept_batch.h"
#include "fitness/slices_eval.h"
#include "ga/backend.h"
#include "ga/cpu_ga.h"
#include "ga/grid.h"

#ifdef _OPENMP
#include <omp.h>
#endif

struct backend {
    const fit_problem_t *p;
    const fit_tables_t *t;
    kept_sets_t ks; /* the fast path; ks.bits == NULL: tables_eval */
    slices_t sl;    /* its bit planes (sl.combo NULL: the walk only) */
    uint64_t *uses; /* [sl.n_combos]: genomes evaluated per combination */
    slices_eval_t ev;
};

/* Bitsets above this size would not stay in cache: plain tables_eval then. */
#define CPU_KEPT_SETS_MAX_BYTES ((uint64_t)256 << 20)
/* The bit planes' budget (fitness/slices_build.h): combinations past it walk. */
#define CPU_SLICES_MAX_BYTES ((uint64_t)512 << 20)
/* A combination's planes cost about 100 ns a trade to build, 25-100 walks
 * of a genome: like renting skis before buying, its genomes walk until this
 * many were evaluated (any number when the slices are forced), then its
 * planes are built, so an exit-heavy lattice whose genomes spread over
 * thousands of combinations never pays more than about twice the walk. */
#define CPU_SLICES_BUILD_AFTER 64
/* Genomes a thread walks as one batch (fitness/kept_batch.h): enough that a
 * trade's table rows serve many of them, few enough that one word of their
 * kept sets and their sums stay in L2 (512 x 96 B). */
#define CPU_WALK_BATCH 512

/* One thread's evaluator: the kept sets (walk or slices) with their scratch,
 * or tables_eval. */
typedef struct {
    const backend_t *b;
    slices_scratch_t s;
    int fast;
    kept_batch_t kb;    /* the walks of a batch (cpu_eval_batch); kb.cap 0: one by one */
    uint64_t *at;       /* [kb.cap]: the genome in each slot */
    eval_result_t *res; /* [kb.cap] */
} cpu_eval_t;

static void cpu_eval_init(cpu_eval_t *e, const backend_t *b, int batch)
{
    e->b = b;
    e->fast = b->ks.bits != NULL;
    memset(&e->kb, 0, sizeof e->kb);
    e->at = NULL;
    e->res = NULL;
    if (e->fast && slices_scratch_init(&e->s, &b->ev, NULL) != EV_OK)
        e->fast = 0; /* no memory for the scratch: the slower path still works */
    if (e->fast && batch && kept_batch_init(&e->kb, &b->ks, CPU_WALK_BATCH, NULL) == EV_OK) {
        e->at = (uint64_t *)malloc(CPU_WALK_BATCH * sizeof *e->at);
        e->res = (eval_result_t *)malloc(CPU_WALK_BATCH * sizeof *e->res);
        if (!e->at || !e->res) /* one by one still works */
            kept_batch_free(&e->kb);
    }
}

static eval_result_t cpu_eval_one(cpu_eval_t *e, const uint16_t *genes)
{
    return e->fast ? slices_eval(&e->b->ev, &e->s, genes) : tables_eval(e->b->t, genes);
}

static void cpu_eval_free(cpu_eval_t *e)
{
    if (e->fast)
        slices_scratch_free(&e->s);
    kept_batch_free(&e->kb);
    free(e->at);
    free(e->res);
}

/* Genomes [lo, hi) of n (SoA genes; order: combo_order's, or NULL), at most
 * CPU_WALK_BATCH of them: the slices evaluate theirs at once, the walks go
 * into one batch. */
static void cpu_eval_batch(cpu_eval_t *e, const uint16_t *genes, uint64_t n, const uint64_t *order, uint64_t lo,
                           uint64_t hi, eval_result_t *out)
{
    const int32_t np = e->b->p->shape.n_params;
    for (uint64_t i = lo; i < hi; i++) {
        uint16_t g[EV_MAX_PARAMS];
        const uint64_t at = order ? order[i] & UINT32_MAX : i;
        tables_genome_t tg;
        const uint64_t *k;
        for (int32_t p = 0; p < np; p++)
            g[p] = genes[(uint64_t)p * n + at];
        if (!e->kb.cap)
            out[at] = cpu_eval_one(e, g);
        else if (!slices_eval_sliced(&e->b->ev, &e->s, g, &tg, &k, &out[at]))
            e->at[kept_batch_add(&e->kb, k, &tg)] = at;
    }
    if (e->kb.n) {
        const uint32_t m = e->kb.n;
        kept_batch_walk(&e->kb, e->res);
        for (uint32_t j = 0; j < m; j++)
            out[e->at[j]] = e->res[j];
    }
}

static ev_status cpu_open(backend_t **out, const fit_problem_t *p, const tables_host_t *tables, ev_error *err)
{
    backend_t *b = (backend_t *)calloc(1, sizeof *b);
    slices_mode mode;
    slices_kernel kern;
    ev_status st;
    if (!b)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    b->p = p;
    b->t = &tables->view;
    if ((st = slices_mode_from_env(&mode, err)) != EV_OK || (st = slices_kernel_from_env(&kern, err)) != EV_OK ||
        (st = kept_sets_build(&b->ks, b->t, CPU_KEPT_SETS_MAX_BYTES, err)) != EV_OK ||
        (mode != SLICES_MODE_WALK && (st = slices_open(&b->sl, &b->ks, CPU_SLICES_MAX_BYTES, err)) != EV_OK)) {
        kept_sets_free(&b->ks);
        free(b);
        return st;
    }
    if (b->sl.combo && !(b->uses = (uint64_t *)calloc((size_t)b->sl.n_combos, sizeof *b->uses)))
        slices_free(&b->sl); /* the walk still works */
    slices_eval_init(&b->ev, &b->ks, &b->sl, mode, kern);
    *out = b;
    return EV_OK;
}

static void cpu_close(backend_t *b)
{
    free(b->uses);
    slices_free(&b->sl);
    kept_sets_free(&b->ks);
    free(b);
}

static void cpu_describe(backend_t *b, char *buf, size_t n)
{
    int threads = 1;
    (void)b;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    snprintf(buf, n, "CPU, %d thread%s", threads, threads == 1 ? "" : "s");
}

static int cmp_u64(const void *x, const void *y)
{
    const uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;
    return (a > c) - (a < c);
}

/* The genomes in order of their exit combination (SoA genes), so that one
 * combination's bit planes or outcomes stay in cache across its genomes (the
 * walk 1.3-2x, the slices 1.2-1.5x faster at 50,000 trades), and a batch's
 * neighbours share exit values (fitness/kept_batch.h); NULL (the given order)
 * without kept sets, past 2^32 combinations, or without memory. Keys:
 * combination << 32 | genome. */
static uint64_t *combo_order(const backend_t *b, const uint16_t *genes, uint64_t n)
{
    const fit_tables_t *t = b->t;
    uint64_t *key;
    if (!b->ks.bits || n < 2 || n > UINT32_MAX || tables_exit_combos(t) > UINT32_MAX ||
        !(key = (uint64_t *)malloc(n * sizeof *key)))
        return NULL;
    for (uint64_t i = 0; i < n; i++) {
        tables_exits_t x;
        x.ti = t->target_param >= 0 ? (int32_t)genes[(uint64_t)t->target_param * n + i] : -1;
        x.si = t->stop_param >= 0 ? (int32_t)genes[(uint64_t)t->stop_param * n + i] : -1;
        for (int r = 0; r < MORE_EXITS; r++)
            x.mi[r] = t->more[r].param >= 0 ? (int32_t)genes[(uint64_t)t->more[r].param * n + i] : -1;
        key[i] = tables_exit_combo_of(t, &x) << 32 | i;
    }
    qsort(key, (size_t)n, sizeof *key, cmp_u64);
    return key;
}

/* Counts the genomes of each combination that order (combo_order's keys)
 * holds, and builds the planes of those past CPU_SLICES_BUILD_AFTER; one
 * that cannot be built walks. */
static void build_used(backend_t *b, const uint64_t *order, uint64_t n)
{
    const uint64_t after = b->ev.mode == SLICES_MODE_SLICES ? 1 : CPU_SLICES_BUILD_AFTER;
    ev_error ignored;
    for (uint64_t i = 0, j; b->uses && i < n; i = j) {
        const uint64_t c = order[i] >> 32;
        for (j = i + 1; j < n && order[j] >> 32 == c;)
            j++;
        b->uses[c] += j - i;
        if (b->uses[c] >= after)
            (void)slices_build_combo(&b->sl, c, &ignored);
    }
}

static ev_status cpu_evaluate(backend_t *b, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err)
{
    uint64_t *order = combo_order(b, genes, n);
    const int par = (double)n * (double)b->t->n_trades >= EV_PARALLEL_MIN_WORK;
    uint64_t chunk = n, chunks;
    (void)err;
    if (order)
        build_used(b, order, n);
#ifdef _OPENMP
    if (par) /* every thread a share, in batches */
        chunk = (n + (uint64_t)omp_get_max_threads() - 1) / (uint64_t)omp_get_max_threads();
#endif
    chunk = chunk < 64 ? 64 : chunk > CPU_WALK_BATCH ? CPU_WALK_BATCH : chunk;
    chunks = (n + chunk - 1) / chunk;
#pragma omp parallel if (par)
    {
        cpu_eval_t e;
        cpu_eval_init(&e, b, 1);
#pragma omp for schedule(dynamic, 1)
        for (int64_t c = 0; c < (int64_t)chunks; c++) {
            const uint64_t lo = (uint64_t)c * chunk, hi = lo + chunk < n ? lo + chunk : n;
            cpu_eval_batch(&e, genes, n, order, lo, hi, out);
        }
        cpu_eval_free(&e);
    }
    free(order);
    return EV_OK;
}

/* The tables evaluator over lattice points [first, first + count), each
 * offered to the sink (top-K, heatmap, count). */
static ev_status cpu_grid_pass(backend_t *b, uint64_t first, uint64_t count, grid_sink_t *sink, ev_error *err)
{
    ev_status st = EV_OK;
    ev_error ignored;
    /* a grid visits every combination equally: all of them, in order, within
     * the budget, when each has enough lattice points to pay for its planes */
    const int worth =
        b->sl.combo && (b->ev.mode == SLICES_MODE_SLICES || b->p->lat->size / b->sl.n_combos >= CPU_SLICES_BUILD_AFTER);
    for (uint64_t c = 0; worth && c < b->sl.n_combos; c++)
        (void)slices_build_combo(&b->sl, c, &ignored);
#pragma omp parallel if ((double)count * (double)b->t->n_trades >= EV_PARALLEL_MIN_WORK)
    {
        grid_sink_t local;
        ev_error lerr;
        cpu_eval_t e;
        int ok = grid_sink_local(&local, sink, &lerr) == EV_OK;
        if (!ok) {
#pragma omp critical(cpu_grid_err)
            st = ev_fail(err, EV_ENOMEM, "%s", lerr.msg);
        }
        cpu_eval_init(&e, b, 0);
        /* Contiguous chunks: neighbours share their filter genes, so the
         * kept set is reused across their targets and stops. */
#pragma omp for schedule(dynamic, 1024)
        for (int64_t i = 0; i < (int64_t)count; i++) {
            uint16_t g[EV_MAX_PARAMS];
            uint64_t idx = first + (uint64_t)i;
            if (!ok)
                continue;
            shape_decode(&b->p->shape, idx, g);
            grid_sink_offer(&local, idx, g, cpu_eval_one(&e, g));
        }
        if (ok) {
#pragma omp critical(cpu_grid_merge)
            grid_sink_merge(sink, &local);
        }
        cpu_eval_free(&e);
        grid_sink_local_free(&local);
    }
    return st;
}

static ev_status cpu_grid_batch_heat(backend_t *b, uint64_t first, uint64_t count, topk_t *top, grid_heat_t *heat,
                                     ev_error *err)
{
    grid_sink_t sink = grid_sink_of(top, heat);
    return cpu_grid_pass(b, first, count, &sink, err);
}

static ev_status cpu_grid_batch(backend_t *b, uint64_t first, uint64_t count, topk_t *top, ev_error *err)
{
    return cpu_grid_batch_heat(b, first, count, top, NULL, err);
}

static uint64_t cpu_grid_batch_max(backend_t *b)
{
    /* About a second of work per batch keeps progress and Ctrl-C responsive. */
    uint64_t per = (uint64_t)(b->t->n_trades > 0 ? b->t->n_trades : 1);
    uint64_t n = (uint64_t)400000000 / per;
    return n < 1024 ? 1024 : n;
}

static ev_status cpu_grid_dominance(backend_t *b, const dominance_opts_t *opts, topk_t *top, ev_error *err)
{
    return dominance_grid(b->p, b->t, opts, top, err);
}

static ev_status cpu_grid_dominance_heat(backend_t *b, const dominance_opts_t *opts, topk_t *top, grid_heat_t *heat,
                                         ev_error *err)
{
    grid_sink_t sink = grid_sink_of(top, heat);
    return dominance_grid_sink(b->p, b->t, opts, &sink, err);
}

/* Dominance sums where the objective allows (one pass over the cells), else
 * the tables evaluator in batches; Ctrl-C is answered between batches. */
static ev_status cpu_grid_count_better(backend_t *b, uint64_t key, uint64_t *count, ev_error *err)
{
    grid_sink_t sink = grid_sink_of(NULL, NULL);
    ev_status st;
    if (!dominance_applicable(b->p) || !b->p->lat->size_fits)
        return grid_count_better_passes(b, b->p->lat, cpu_grid_batch_max(b), cpu_grid_pass, key, count, err);
    sink.count_better = 1;
    sink.better_than = key;
    st = dominance_grid_sink(b->p, b->t, NULL, &sink, err);
    *count = sink.count;
    return st;
}

static const fit_tables_t *cpu_host_tables(backend_t *b)
{
    return b ? b->t : NULL;
}

const backend_ops_t backend_cpu_ops = {
    .name = "cpu",
    .open = cpu_open,
    .close = cpu_close,
    .describe = cpu_describe,
    .evaluate = cpu_evaluate,
    .grid_batch = cpu_grid_batch,
    .grid_batch_max = cpu_grid_batch_max,
    .grid_dominance = cpu_grid_dominance,
    .ga_open = cpu_ga_open,
    .ga_close = cpu_ga_close,
    .ga_init_population = cpu_ga_init_population,
    .ga_set_population = cpu_ga_set_population,
    .ga_evaluate = cpu_ga_evaluate,
    .ga_rank = cpu_ga_rank,
    .ga_breed = cpu_ga_breed,
    .ga_download = cpu_ga_download,
    .ga_cache_count = cpu_ga_cache_count,
    .ga_cache_export = cpu_ga_cache_export,
    .ga_cache_import = cpu_ga_cache_import,
    .grid_batch_heat = cpu_grid_batch_heat,
    .grid_dominance_heat = cpu_grid_dominance_heat,
    .grid_count_better = cpu_grid_count_better,
    .host_tables = cpu_host_tables,
};
