/* A planted landscape: a synthetic dataset and lattice whose best genome is
 * known by construction (tests of search quality, bench_ga).
 *
 * Each filter f has values 0..n_values-1 and a planted gene; trades are
 *   good:  kept by the planted filters; the path touches the planted target
 *          exactly, then falls (logged -1 %): the planted target is their best;
 *   dip:   kept; dips exactly to the stop just tighter than the planted one,
 *          then touches the planted target: stops tighter than planted cost them;
 *   crash: kept; fall 5 % (below every stop): the tighter the stop the better;
 *   bad:   one filter's feature below its planted value, fall 5 %: removing
 *          them is why that filter should be tight;
 *   noise: random features, flat path, logged -0.3..+0.3 %: ruggedness.
 * Good, dip and crash trades spread above the planted filter values, so any
 * tighter filter drops good trades. One filter (index 1) has direction max.
 * With total_return the planted genome is the optimum for the default counts
 * (tests check it against the grid). */
#ifndef EVOLVE_TESTS_PLANTED_H
#define EVOLVE_TESTS_PLANTED_H

#include <stdint.h>

#include "fitness/dataset.h"
#include "fitness/lattice.h"

typedef struct {
    int32_t n_filters;  /* 1..14 */
    uint32_t n_values;  /* values per filter, >= 6 */
    uint32_t n_targets; /* >= 4 */
    uint32_t n_stops;   /* >= 4 */
    int64_t good, dip, crash, bad_per_filter, noise;
    uint64_t seed; /* the data's randomness (not the GA's) */
} planted_opts_t;

void planted_defaults(planted_opts_t *o);

/* Trades in all (good + dip + crash + bad_per_filter * n_filters + noise). */
int64_t planted_trades(const planted_opts_t *o);

/* Builds the dataset and the bound lattice (filters f0.., target, stop);
 * optimum[n_filters + 2] gets the planted genome. Aborts on failure. */
void planted_build(const planted_opts_t *o, dataset_t *ds, lattice_t *lat, uint16_t *optimum);

#endif
