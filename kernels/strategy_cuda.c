/* The device's runner of packed strategy jobs (kernels/strategy_cuda.h). */
#include "kernels/strategy_cuda.h"

#include "common/test_hooks.h"
#include "kernels/cuda_api.h"
#include "kernels/mem_retry.h"
#include "signals/atc_strategy.h"
#include "signals/se_strategy.h"

/* Relative cost of one bar of a genome's backtest: seller_exhaustion reads a
 * few doubles and compares; atc updates 54 + 6 equities per bar. */
static uint64_t bar_cost(int32_t kind)
{
    return kind == STRATEGY_DEVICE_ATC ? 32u : 1u;
}

static uint64_t run_bytes(int32_t kind)
{
    return kind == STRATEGY_DEVICE_ATC ? sizeof(atc_run_t) : sizeof(se_run_t);
}

strategy_launch_t strategy_cuda_launch_plan(int32_t kind, int64_t n_bars, uint32_t count)
{
    const uint64_t cost = bar_cost(kind), budget = STRATEGY_LAUNCH_STEPS / cost;
    const uint64_t bars = (uint64_t)(n_bars > 0 ? n_bars : 1);
    const uint64_t test_rows = (uint64_t)test_hook_strategy_slice();  /* gpu tests: many slices */
    const uint64_t test_group = (uint64_t)test_hook_strategy_group(); /* ... and many groups */
    uint64_t g = count ? count : 1, steps = STRATEGY_SLICE_STEPS / cost;
    strategy_launch_t l;
    if (g > ((uint64_t)1 << 20))
        g = (uint64_t)1 << 20;
    if (g > STRATEGY_RUNS_BYTES / run_bytes(kind))
        g = STRATEGY_RUNS_BYTES / run_bytes(kind);
    if (g > budget)
        g = budget;
    if (test_group && g > test_group)
        g = test_group;
    if (steps > budget / g)
        steps = budget / g;
    if (steps > bars)
        steps = bars;
    if (test_rows && steps > test_rows)
        steps = test_rows;
    if (steps < 1)
        steps = 1;
    l.genomes = (uint32_t)g;
    l.steps = (int64_t)steps;
    l.slices = (int64_t)((bars + steps - 1) / steps);
    return l;
}

static ev_status device_run(strategy_packed_runner_t *r, const strategy_pack_t *pk, int64_t *counts, double **pct,
                            int64_t **bar, ev_error *err)
{
    ev_status st;
    (void)r;
    st = cuda_strategy_run(pk, strategy_cuda_launch_plan(pk->kind, pk->n_bars, pk->count), counts, pct, bar, err);
    if (st == EV_ENOMEM)
        ev_error_prefix(err, "a job of %u strategy genomes (%.1f MiB of series): ", pk->count,
                        (double)pk->arena_bytes / 1048576.0);
    return st;
}

static uint64_t device_smaller(strategy_packed_runner_t *r, uint64_t batch)
{
    const uint64_t next = mem_retry_smaller(batch, 1, 1);
    (void)r;
    if (next)
        mem_retry_note("strategy genome jobs", batch, next);
    return next;
}

void strategy_cuda_runner(strategy_packed_runner_t *r)
{
    r->run = device_run;
    r->smaller = device_smaller;
    r->ctx = NULL;
    r->batch = UINT64_MAX;
    r->jobs = 0;
}
