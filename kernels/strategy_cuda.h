/* The device's runner of packed strategy jobs (signals/strategy_pack.h): a
 * job runs on the GPU (cuda_strategy_run, kernels/strategy_device.cu) in
 * launches sized for the display watchdog, and a job that runs out of device
 * memory is retried with half the genomes (kernels/mem_retry.h), noted once.
 * Compiled only with CUDA. */
#ifndef EVOLVE_KERNELS_STRATEGY_CUDA_H
#define EVOLVE_KERNELS_STRATEGY_CUDA_H

#include <stdint.h>

#include "signals/strategy_pack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Genome x bar steps one launch may take (the count and write passes are
 * launches of their own), weighted by the strategy's cost per bar (1 for
 * seller_exhaustion, 32 for atc): 2^27, 0.03 to 0.13 s at the 1e9 to 5e9
 * weighted steps a second an RTX 4060's FP64 rate and memory bandwidth allow
 * (an estimate, not a measured figure: tune it with the bench on the card),
 * far below the ~2 s after which Windows resets a GPU that drives a display. */
#define STRATEGY_LAUNCH_STEPS ((uint64_t)1 << 27)

/* Weighted rows one genome's thread may take in one launch: a thread's
 * serial loop, whatever the launch's width (65,536 seller_exhaustion rows,
 * 2,048 atc bars: tens of milliseconds at a guess of 0.2 to 1 us a row). */
#define STRATEGY_SLICE_STEPS ((uint64_t)1 << 16)

/* Device memory for the genomes' backtests in progress (se_run_t, atc_run_t). */
#define STRATEGY_RUNS_BYTES ((uint64_t)256 << 20)

/* How a packed job of `count` genomes over n_bars bars runs: groups of
 * `genomes` genomes, one after the other; each group's backtests advance
 * `steps` rows per launch (se_run_steps, atc_run_steps) for `slices`
 * launches, ceil(n_bars / steps), after which every one has ended. */
typedef struct {
    uint32_t genomes; /* 1 to 2^20 */
    int64_t steps;    /* 1 to n_bars */
    int64_t slices;
} strategy_launch_t;

/* The launch plan for strategy kind `kind` (signals/strategy.h): genomes x
 * steps x the bar cost within STRATEGY_LAUNCH_STEPS, steps x the bar cost
 * within STRATEGY_SLICE_STEPS (or 1 row), run states within
 * STRATEGY_RUNS_BYTES; steps at most EVOLVE_TEST_STRATEGY_SLICE and genomes
 * at most EVOLVE_TEST_STRATEGY_GROUP where the gpu tests set them
 * (common/test_hooks.h). Needs no device (tests). */
strategy_launch_t strategy_cuda_launch_plan(int32_t kind, int64_t n_bars, uint32_t count);

/* r runs packed jobs on device 0. */
void strategy_cuda_runner(strategy_packed_runner_t *r);

#ifdef __cplusplus
}
#endif
#endif
