/* Builds small datasets and lattices by hand for tests: the fitness tests must
 * not depend on ingest. start/end are computed by a naive scan (SPEC sec. 2). */
#ifndef EVOLVE_TESTS_BUILDER_H
#define EVOLVE_TESTS_BUILDER_H

#include <stdint.h>

#include "fitness/dataset.h"
#include "fitness/lattice.h"

/* An empty dataset with the given tickers and feature names. */
void tb_dataset(dataset_t *ds, int32_t n_tickers, const char *const *tickers, int32_t n_features,
                const char *const *features);

/* Appends a ticker's prices; tickers must be added in id order, times sorted. */
void tb_prices(dataset_t *ds, int32_t ticker, const int64_t *ts, const float *price, int64_t n);

/* Appends a trade (callers add them in dataset order); features[n_features]. */
void tb_trade(dataset_t *ds, int32_t ticker, int64_t entry_ts, int64_t exit_ts, double entry_price, double pct_change,
              const double *features);

/* Appends a parameter with the given values (texts made with %.17g). */
void tb_param(lattice_t *lat, const char *name, param_role role, filter_dir dir, const char *feature,
              const double *values, uint32_t n);

/* lattice_finish + lattice_bind; aborts the test on failure. */
void tb_lattice_done(lattice_t *lat, const dataset_t *ds);

/* Deterministic pseudo-random numbers for random tests (SplitMix64). */
uint64_t tb_rand(uint64_t *state);
double tb_uniform(uint64_t *state); /* [0, 1) */

#endif
