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
 * far below the ~2 s after which Windows resets a GPU that drives a display.
 * A launch still takes at least one genome's whole backtest, one thread's
 * serial loop over every bar (docs/signals.md "What is not done"). */
#define STRATEGY_LAUNCH_STEPS ((uint64_t)1 << 27)

/* Genomes per launch for strategy kind `kind` (signals/strategy.h) on
 * n_bars bars: at least 1, at most 2^20. Needs no device (tests). */
uint32_t strategy_cuda_launch_genomes(int32_t kind, int64_t n_bars);

/* r runs packed jobs on device 0. */
void strategy_cuda_runner(strategy_packed_runner_t *r);

#ifdef __cplusplus
}
#endif
#endif
