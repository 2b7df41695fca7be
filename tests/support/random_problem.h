/* Random datasets, lattices and objectives for the parity tests
 * (test_fitness_random: every evaluator on the CPU; test_cuda_parity: CPU
 * against CUDA) and the brute-force tests on small lattices (test_basin,
 * test_strategy_class, test_grid_pool, test_ga_pool...). Deterministic for a
 * given rng state. */
#ifndef EVOLVE_TESTS_RANDOM_PROBLEM_H
#define EVOLVE_TESTS_RANDOM_PROBLEM_H

#include <stdint.h>

#include "fitness/dataset.h"
#include "fitness/lattice.h"
#include "fitness/objective_cfg.h"

/* Feature names of random datasets: F0 and F1 take values on a 0.1 grid in
 * [0, 1] (so features often equal thresholds exactly), F2 is uniform in [0, 3). */
extern const char *const random_feature_names[3];

typedef struct {
    int32_t prices_per_ticker; /* per ticker (2 tickers); >= 100 */
    int32_t min_trades;        /* trades: min_trades + rand % extra_trades */
    int32_t extra_trades;      /* >= 1 */
} random_dataset_opts_t;

/* NULL opts: 600 prices a ticker, 10..49 trades (the unit test's sizes). */
void random_dataset(dataset_t *ds, uint64_t *rng, const random_dataset_opts_t *opts);

/* 1-3 filters (min or max) on random features with random subsets of a
 * value pool, usually a target and a stop. */
void random_lattice(lattice_t *lat, const dataset_t *ds, uint64_t *rng);
/* The same, with SPEC sec. 4.1's exits too, each present half the time. */
void random_lattice_more(lattice_t *lat, const dataset_t *ds, uint64_t *rng);
/* random_lattice_more whose exit roles hold `off` (last) half the time. */
void random_lattice_off(lattice_t *lat, const dataset_t *ds, uint64_t *rng);

/* Any objective, fill, cost, min_trades and, sometimes, a drawdown limit. */
void random_objective(objective_cfg_t *obj, uint64_t *rng);

/* A whole random problem, drawn as random_dataset (NULL opts), then
 * random_lattice_more when more (else random_lattice), then
 * random_objective; random_problem_free frees its dataset and lattice. */
typedef struct {
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
} random_problem_t;

void random_problem(random_problem_t *rp, uint64_t *rng, int more);
void random_problem_free(random_problem_t *rp);

#endif
