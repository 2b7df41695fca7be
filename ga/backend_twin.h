/* A test-only second backend: the CPU backend under the name "twin",
 * optionally made to get one thing wrong, so that the parity probe
 * (ga/backend_probe.h) and what a run does when it fails (runs/gpu_probe.c)
 * are tested on machines without a GPU. A run uses it in place of a device
 * backend only when the environment variable EVOLVE_TEST_DEVICE names a
 * mode (runs/backend_registry.c); no user sets it. */
#ifndef EVOLVE_BACKEND_TWIN_H
#define EVOLVE_BACKEND_TWIN_H

#include "common/status.h"
#include "ga/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const backend_ops_t backend_twin_ops;

/* What the twin gets wrong, for every backend_twin_ops opened after:
 *   exact    nothing (a device that agrees with the CPU)
 *   fitness  evaluate: the lowest bit of genome 17's fitness in every call of 18 or more genomes
 *   trades   evaluate: genome 17 keeps one trade more
 *   feasible evaluate: genome 17's feasibility flipped
 * (fitness, trades, feasible: another genome than 17 with EVOLVE_TEST_DEVICE_AT=N)
 *   topk     grid_batch: the lowest bit of the last entry's fitness
 *   breed    ga_breed: gene 0 of individual 1 moves to the next value
 *   cache    ga_cache_export: the lowest bit of the first entry's fitness
 *   ga-oom   nothing wrong, but ga_open fails out of memory for populations
 *            above 512 (ga_run then keeps the GA on the host), and the
 *            strategy twin's packed jobs above 200 genomes fail out of
 *            memory (retried with fewer, runs/backend_strategy.c)
 * EV_EUSAGE for another name. */
ev_status backend_twin_select(const char *mode, ev_error *err);

/* The selected mode's fault planted into another backend's results, for
 * that backend's own twin (the strategy backend's, runs/backend_strategy.c):
 * an evaluate call's n results (modes fitness and trades), a grid batch's
 * top-K (mode topk); the other modes leave them alone. */
void backend_twin_corrupt_results(eval_result_t *out, uint64_t n);
void backend_twin_corrupt_topk(topk_t *top);

/* Mode fitness's fault whatever the mode: for a real device made wrong on
 * purpose (EVOLVE_TEST_CUDA_CORRUPT, bench/gpu-check.sh). */
void backend_twin_flip_fitness(eval_result_t *out, uint64_t n);

/* A real device's evaluate made wrong on purpose (EVOLVE_TEST_CUDA_CORRUPT=
 * FIELD[:N], FIELD fitness, trades or feasible, N the result, default 17;
 * any other value: fitness of result 17). Tests only. */
void backend_twin_device_fault(eval_result_t *out, uint64_t n, const char *spec);

/* The selected mode's name ("exact", ...). */
const char *backend_twin_mode(void);

#ifdef __cplusplus
}
#endif
#endif
