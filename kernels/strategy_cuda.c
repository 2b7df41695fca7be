/* The device's runner of packed strategy jobs (kernels/strategy_cuda.h). */
#include "kernels/strategy_cuda.h"

#include "kernels/cuda_api.h"
#include "kernels/mem_retry.h"

/* Relative cost of one bar of a genome's backtest: seller_exhaustion reads a
 * few doubles and compares; atc updates 54 + 6 equities per bar. */
static uint64_t bar_cost(int32_t kind)
{
    return kind == STRATEGY_DEVICE_ATC ? 32u : 1u;
}

uint32_t strategy_cuda_launch_genomes(int32_t kind, int64_t n_bars)
{
    const uint64_t per_genome = (uint64_t)(n_bars > 0 ? n_bars : 1) * bar_cost(kind);
    const uint64_t g = STRATEGY_LAUNCH_STEPS / per_genome;
    const uint64_t most = (uint64_t)1 << 20;
    return (uint32_t)(g < 1 ? 1 : g > most ? most : g);
}

static ev_status device_run(strategy_packed_runner_t *r, const strategy_pack_t *pk, int64_t *counts, double **pct,
                            int64_t **bar, ev_error *err)
{
    ev_status st;
    (void)r;
    st = cuda_strategy_run(pk, strategy_cuda_launch_genomes(pk->kind, pk->n_bars), counts, pct, bar, err);
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
