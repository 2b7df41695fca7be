/* Random-walk OHLCV bars for the signal tests: a counter-free xorshift
 * stream (the caller owns its state, so each test keeps its own seed) and
 * one-minute bars around the clock whose prices are rounded to cents, with
 * occasional volume bursts. */
#ifndef EVOLVE_TESTS_WALK_BARS_H
#define EVOLVE_TESTS_WALK_BARS_H

#include <stdint.h>

#include "signals/bars.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A uniform double in [0, 1) from *state (nonzero), advancing it. */
double walk_uniform(uint64_t *state);

/* n bars from price `start`: each close within +-0.5 % of its open (the
 * previous close), high/low up to 0.3 % beyond; b's arrays are malloc'ed
 * (bars_free frees them). */
void walk_bars(bars_t *b, int64_t n, double start, uint64_t *state);

#ifdef __cplusplus
}
#endif
#endif
