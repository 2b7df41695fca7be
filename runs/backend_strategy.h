/* The strategy backends: the backend interface (ga/backend.h) over an
 * indicator-signal strategy (signals/strategy.h). They evaluate genomes and
 * grid batches; they have no GA ops, so the GA driver runs the CPU backend's
 * GA on the host and evaluates new genomes through them, and no dominance
 * grid (that is for trade logs). Three of them, alike but for who runs the
 * backtests of a chunk of prepared genomes (the host prepares the series in
 * every case, signals/strategy.c):
 *   cpu   the CPU, OpenMP across genomes (strategy_evaluate);
 *   cuda  the GPU: each chunk packed (signals/strategy_pack.h) and run one
 *         thread per genome (kernels/strategy_cuda.h); built with CUDA only;
 *   twin  tests only (EVOLVE_TEST_DEVICE, ga/backend_twin.h): the device's
 *         packed path run on the CPU, with the selected mode's planted fault,
 *         so the GPU probe of a strategy run is tested without a GPU.
 * The fitness of every one is strategy_result of the genome's outcomes. */
#ifndef EVOLVE_BACKEND_STRATEGY_H
#define EVOLVE_BACKEND_STRATEGY_H

#include "ga/backend.h"
#include "signals/strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const backend_ops_t backend_strategy_ops;      /* "cpu" */
extern const backend_ops_t backend_strategy_twin_ops; /* "twin" */
#ifdef EVOLVE_HAVE_CUDA
extern const backend_ops_t backend_strategy_cuda_ops; /* "cuda" */
#endif

/* Backend ops (one of the above) for strategy st (not owned) over problem
 * p's lattice. */
ev_status backend_strategy_open(const backend_ops_t *ops, backend_t **b, strategy_t *st, const fit_problem_t *p,
                                ev_error *err);

/* The strategy backend that stands for backend_find's answer
 * (runs/backend_registry.h): the CPU's, the twin's or the CUDA one's. */
const backend_ops_t *backend_strategy_for(const backend_ops_t *found);

#ifdef __cplusplus
}
#endif
#endif
