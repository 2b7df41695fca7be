#include "runs/backend_strategy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/backend_twin.h"
#include "ga/grid.h"
#include "signals/strategy_pack.h"

#ifdef EVOLVE_HAVE_CUDA
#include "kernels/cuda_api.h"
#include "kernels/strategy_cuda.h"
#endif

#ifdef _OPENMP
#include <omp.h>
#endif

struct backend {
    const backend_ops_t *ops; /* which of the three */
    strategy_t *st;
    const fit_problem_t *p;
    strategy_packed_runner_t runner; /* twin and cuda: what runs the packed jobs */
    /* Tests only (bench/gpu-check.sh): EVOLVE_TEST_CUDA_CORRUPT set makes the
     * cuda one flip the lowest bit of genome 17's fitness in every evaluate
     * of 18 or more genomes, so the GPU probe must stop a real CUDA run. */
    int corrupt;
};

/* Genomes per grid batch: a few seconds at most on the sample's bars, and a
 * chunk of neighbours that share their indicator series. A device takes
 * larger batches (its launches are sized apart, kernels/strategy_cuda.h). */
#define STRATEGY_GRID_BATCH 4096u
#define STRATEGY_GRID_BATCH_DEVICE 65536u

/* The twin in mode ga-oom: a pretend device whose memory holds no packed job
 * above TWIN_JOB_MOST genomes, so the retry with fewer genomes is tested
 * without a GPU (signals/strategy_pack.h). */
#define TWIN_JOB_MOST 200u

static ev_status twin_oom_run(strategy_packed_runner_t *r, const strategy_pack_t *pk, int64_t *counts, double **pct,
                              int64_t **bar, ev_error *err)
{
    strategy_packed_runner_t host;
    *pct = NULL;
    *bar = NULL;
    if (pk->count > TWIN_JOB_MOST)
        return ev_fail(err, EV_ENOMEM, "a job of %u genomes does not fit the twin's pretend device memory", pk->count);
    strategy_pack_host_runner(&host, (strategy_t *)r->ctx);
    return host.run(&host, pk, counts, pct, bar, err);
}

static uint64_t twin_smaller(strategy_packed_runner_t *r, uint64_t batch)
{
    (void)r;
    return batch > 1 ? batch / 2 : 0;
}

ev_status backend_strategy_open(const backend_ops_t *ops, backend_t **out, strategy_t *st, const fit_problem_t *p,
                                ev_error *err)
{
    backend_t *b = (backend_t *)calloc(1, sizeof *b);
    if (!b)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    b->ops = ops;
    b->st = st;
    b->p = p;
    if (ops == &backend_strategy_twin_ops)
        strategy_pack_host_runner(&b->runner, st);
    if (ops == &backend_strategy_twin_ops && !strcmp(backend_twin_mode(), "ga-oom")) {
        b->runner.run = twin_oom_run;
        b->runner.smaller = twin_smaller;
    }
#ifdef EVOLVE_HAVE_CUDA
    if (ops == &backend_strategy_cuda_ops) {
        strategy_cuda_runner(&b->runner);
        b->corrupt = getenv("EVOLVE_TEST_CUDA_CORRUPT") != NULL;
    }
#endif
    *out = b;
    return EV_OK;
}

const backend_ops_t *backend_strategy_for(const backend_ops_t *found)
{
    if (found == &backend_twin_ops)
        return &backend_strategy_twin_ops;
#ifdef EVOLVE_HAVE_CUDA
    if (!strcmp(found->name, "cuda"))
        return &backend_strategy_cuda_ops;
#endif
    return &backend_strategy_ops;
}

static void strategy_backend_close(backend_t *b)
{
    free(b);
}

static void strategy_describe(backend_t *b, char *buf, size_t n)
{
    const strategy_ops_t *ops = strategy_ops(b->st);
    char dev[320];
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    snprintf(dev, sizeof dev, "CPU, %d thread%s", threads, threads == 1 ? "" : "s");
    if (b->ops == &backend_strategy_twin_ops)
        snprintf(dev, sizeof dev, "test twin of the device path on the CPU (EVOLVE_TEST_DEVICE=%s), not a GPU",
                 backend_twin_mode());
#ifdef EVOLVE_HAVE_CUDA
    if (b->ops == &backend_strategy_cuda_ops) {
        ev_error e;
        if (cuda_device_describe(dev, sizeof dev, &e) != EV_OK)
            snprintf(dev, sizeof dev, "CUDA device 0 (%.200s)", e.msg);
    }
#endif
    snprintf(buf, n, "%s; strategy %s on %lld bars", dev, ops->name, (long long)ops->n_bars(strategy_state(b->st)));
}

static ev_status strategy_backend_evaluate(backend_t *b, const uint16_t *genes, uint64_t n, eval_result_t *out,
                                           ev_error *err)
{
    ev_status st;
    if (b->ops == &backend_strategy_ops)
        return strategy_evaluate(b->st, genes, n, out, err);
    st = strategy_evaluate_with(b->st, NULL, genes, n, strategy_pack_chunk, &b->runner, out, err);
    if (st == EV_OK && b->ops == &backend_strategy_twin_ops)
        backend_twin_corrupt_results(out, n);
    if (st == EV_OK && b->corrupt)
        backend_twin_flip_fitness(out, n);
    return st;
}

/* Lattice points [first, first + count) evaluated as one batch, each offered
 * to the sink in index order. */
static ev_status grid_pass(backend_t *b, uint64_t first, uint64_t count, grid_sink_t *sink, ev_error *err)
{
    const lattice_shape_t *shape = &b->p->shape;
    const int32_t np = shape->n_params;
    uint16_t *genes = (uint16_t *)calloc((size_t)count * (size_t)np + 1, sizeof *genes);
    eval_result_t *r = (eval_result_t *)malloc((size_t)count * sizeof *r + 1);
    ev_status st = EV_OK;
    if (!genes || !r)
        st = ev_fail(err, EV_ENOMEM, "out of memory for a grid batch of %llu genomes", (unsigned long long)count);
    for (uint64_t i = 0; st == EV_OK && i < count; i++) {
        uint16_t g[EV_MAX_PARAMS];
        shape_decode(shape, first + i, g);
        for (int32_t k = 0; k < np; k++)
            genes[(uint64_t)k * count + i] = g[k];
    }
    if (st == EV_OK)
        st = strategy_backend_evaluate(b, genes, count, r, err);
    for (uint64_t i = 0; st == EV_OK && i < count; i++) {
        uint16_t g[EV_MAX_PARAMS];
        for (int32_t k = 0; k < np; k++)
            g[k] = genes[(uint64_t)k * count + i];
        grid_sink_offer(sink, first + i, g, r[i]);
    }
    free(genes);
    free(r);
    return st;
}

static ev_status strategy_grid_batch_heat(backend_t *b, uint64_t first, uint64_t count, topk_t *top, grid_heat_t *heat,
                                          ev_error *err)
{
    grid_sink_t sink = grid_sink_of(top, heat);
    ev_status st = grid_pass(b, first, count, &sink, err);
    if (st == EV_OK && top && b->ops == &backend_strategy_twin_ops)
        backend_twin_corrupt_topk(top);
    return st;
}

static ev_status strategy_grid_batch(backend_t *b, uint64_t first, uint64_t count, topk_t *top, ev_error *err)
{
    return strategy_grid_batch_heat(b, first, count, top, NULL, err);
}

static uint64_t strategy_grid_batch_max(backend_t *b)
{
    return b->ops == &backend_strategy_ops ? STRATEGY_GRID_BATCH : STRATEGY_GRID_BATCH_DEVICE;
}

static ev_status strategy_grid_count_better(backend_t *b, uint64_t key, uint64_t *count, ev_error *err)
{
    return grid_count_better_passes(b, b->p->lat, strategy_grid_batch_max(b), grid_pass, key, count, err);
}

/* Opened by backend_strategy_open, never through `open`: a strategy is not a
 * trade-log problem with first-hit tables. */
static ev_status strategy_open_tables(backend_t **b, const fit_problem_t *p, const tables_host_t *tables, ev_error *err)
{
    (void)b;
    (void)p;
    (void)tables;
    return ev_fail(err, EV_EINTERNAL, "the strategy backend opens on a strategy (backend_strategy_open)");
}

/* The three differ in name only: the functions look at b->ops. */
#define STRATEGY_BACKEND_OPS(NAME)                                                                                  \
    {                                                                                                               \
        .name = NAME, .open = strategy_open_tables, .close = strategy_backend_close, .describe = strategy_describe, \
        .evaluate = strategy_backend_evaluate, .grid_batch = strategy_grid_batch,                                   \
        .grid_batch_max = strategy_grid_batch_max, .grid_batch_heat = strategy_grid_batch_heat,                     \
        .grid_count_better = strategy_grid_count_better                                                             \
    }

const backend_ops_t backend_strategy_ops = STRATEGY_BACKEND_OPS("cpu");
const backend_ops_t backend_strategy_twin_ops = STRATEGY_BACKEND_OPS("twin");
#ifdef EVOLVE_HAVE_CUDA
const backend_ops_t backend_strategy_cuda_ops = STRATEGY_BACKEND_OPS("cuda");
#endif
