/* The strategy backend: the backend interface (ga/backend.h) over an
 * indicator-signal strategy (signals/strategy.h), on the CPU. It evaluates
 * genomes and grid batches; it has no GA ops, so the GA driver runs the CPU
 * backend's GA and evaluates new genomes through it, and no dominance grid
 * (that is for trade logs). */
#ifndef EVOLVE_BACKEND_STRATEGY_H
#define EVOLVE_BACKEND_STRATEGY_H

#include "ga/backend.h"
#include "signals/strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const backend_ops_t backend_strategy_ops;

/* The backend for strategy st (not owned) over problem p's lattice. */
ev_status backend_strategy_open(backend_t **b, strategy_t *st, const fit_problem_t *p, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
