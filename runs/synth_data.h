/* Synthetic inputs for the grid benchmark (bench/bench_grid.c) and `evolve
 * doctor` (cli/cmd_doctor.c): a dataset shaped like the
 * trader's, and the built-in lattices. */
#ifndef EVOLVE_SYNTH_DATA_H
#define EVOLVE_SYNTH_DATA_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/dataset.h"
#include "fitness/lattice.h"

/* 3 tickers with one price a second over a 6.5-hour session (23,400 a day)
 * for `days` days, and `trades` trades spread over them in dataset order,
 * held 1 minute to 2 hours, with the five features of the seed lattice
 * ("Entry Volatility Percent", "Entry Volatility Ratio", "Entry Adx28",
 * "Entry Adx14", "Entry Adx7") on realistic grids. Deterministic in seed. */
ev_status synth_dataset(dataset_t *ds, int64_t trades, int32_t days, uint64_t seed, ev_error *err);

/* The built-in lattices, by name:
 *   "seed":  the trader's seed lattice (volatility 0,.3,.4,.5,.6; ratio
 *            0,.2,.5,.7,.8,.9,1; adx28/14/7 0,20,30; target .2,.3,.4,.5;
 *            stop -.5,-.4,-.3): 11,340 points;
 *   "1e8":   30 x 30 x 22^3 filter cells x 12 pairs = 115 million points;
 *   "1.2e9": 40^5 filter cells x 12 pairs = 1.23 billion points;
 *   any of them + "+x" (e.g. "seed+x"): SPEC sec. 4.1's trail, breakeven and
 *            max_hold added, 6 values each (216 times the points).
 * Bound to ds. */
ev_status synth_lattice(lattice_t *lat, const char *name, const dataset_t *ds, ev_error *err);

#endif
