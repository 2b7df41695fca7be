/* Brute-force references for the strategy tests (test_strategy_class,
 * test_grid_pool, test_ga_pool): two genomes' kept trades and exits compared
 * entry by entry, and a gene's equal range read off every point's class. */
#ifndef EVOLVE_TESTS_BRUTE_FORCE_H
#define EVOLVE_TESTS_BRUTE_FORCE_H

#include <stdint.h>

#include "fitness/lattice_shape.h"
#include "fitness/trade_stats.h"

/* 1 when the lists a[na] and b[nb] (kept_trades) hold the same trades with
 * the same exit reasons, exit seconds and outcomes, in the same order. */
int kept_same(const kept_trade_t *a, int64_t na, const kept_trade_t *b, int64_t nb);

/* Gene k's brute-force equal range around point i: lo..hi, the values of
 * gene k that, the other genes as at i, give points of cls[i]'s class
 * without a break (cls[point]: a class for every point of the lattice). */
void brute_range(const lattice_shape_t *sh, const uint64_t *cls, uint64_t i, int32_t k, uint16_t *lo, uint16_t *hi);

#endif
