#include "cli/backend_strategy.h"

#include <stdio.h>
#include <stdlib.h>

#include "ga/grid.h"

#ifdef _OPENMP
#include <omp.h>
#endif

struct backend {
    strategy_t *st;
    const fit_problem_t *p;
};

/* Genomes per grid batch: a few seconds at most on the sample's bars, and a
 * chunk of neighbours that share their indicator series. */
#define STRATEGY_GRID_BATCH 4096u

ev_status backend_strategy_open(backend_t **out, strategy_t *st, const fit_problem_t *p, ev_error *err)
{
    backend_t *b = (backend_t *)calloc(1, sizeof *b);
    if (!b)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    b->st = st;
    b->p = p;
    *out = b;
    return EV_OK;
}

static void strategy_backend_close(backend_t *b)
{
    free(b);
}

static void strategy_describe(backend_t *b, char *buf, size_t n)
{
    int threads = 1;
    const strategy_ops_t *ops = strategy_ops(b->st);
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    snprintf(buf, n, "CPU, %d thread%s; strategy %s on %lld bars", threads, threads == 1 ? "" : "s", ops->name,
             (long long)ops->n_bars(strategy_state(b->st)));
}

static ev_status strategy_backend_evaluate(backend_t *b, const uint16_t *genes, uint64_t n, eval_result_t *out,
                                           ev_error *err)
{
    return strategy_evaluate(b->st, genes, n, out, err);
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
        st = strategy_evaluate(b->st, genes, count, r, err);
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
    return grid_pass(b, first, count, &sink, err);
}

static ev_status strategy_grid_batch(backend_t *b, uint64_t first, uint64_t count, topk_t *top, ev_error *err)
{
    return strategy_grid_batch_heat(b, first, count, top, NULL, err);
}

static uint64_t strategy_grid_batch_max(backend_t *b)
{
    (void)b;
    return STRATEGY_GRID_BATCH;
}

static ev_status strategy_grid_count_better(backend_t *b, uint64_t key, uint64_t *count, ev_error *err)
{
    return grid_count_better_passes(b, b->p->lat, STRATEGY_GRID_BATCH, grid_pass, key, count, err);
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

const backend_ops_t backend_strategy_ops = {
    .name = "cpu",
    .open = strategy_open_tables,
    .close = strategy_backend_close,
    .describe = strategy_describe,
    .evaluate = strategy_backend_evaluate,
    .grid_batch = strategy_grid_batch,
    .grid_batch_max = strategy_grid_batch_max,
    .grid_batch_heat = strategy_grid_batch_heat,
    .grid_count_better = strategy_grid_count_better,
};
