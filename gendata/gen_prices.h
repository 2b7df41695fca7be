/* The price process of gen-data: per-second log returns with stochastic
 * volatility, an intraday U-shaped volatility curve, slow intraday trends and
 * occasional jumps; day-level volatility regimes and overnight gaps link the
 * days. Prices are rounded to the cent.
 *
 * A day is simulated on its own (so days run in parallel): the path starts
 * GEN_WARMUP_SECONDS before the open with a synthetic pre-open history that is
 * never written but seeds the indicators, so the first rows of a day already
 * carry formed ATR/ADX/RSI values. Only the opening level ties a day to the
 * one before, and it is computed cheaply and sequentially from each day's
 * open-to-close return (gen_prices_day_levels). */
#ifndef EVOLVE_IO_GEN_PRICES_H
#define EVOLVE_IO_GEN_PRICES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GEN_OPEN_TIME 34200     /* 09:30:00 in seconds after midnight */
#define GEN_DAY_SECONDS 23400   /* 09:30:00 .. 15:59:59 */
#define GEN_WARMUP_SECONDS 7200 /* synthetic history before the open: 120 one-minute bars */
#define GEN_SERIES_SECONDS (GEN_WARMUP_SECONDS + GEN_DAY_SECONDS)

/* What makes one ticker look like itself. */
typedef struct {
    double price;      /* typical level, dollars */
    double day_range;  /* typical session high-low range, fraction of the price */
    double day_volume; /* typical shares traded per session */
} gen_profile_t;

/* The built-in profiles of SOXL, IONQ, MARA, NVDA, TSLA, AMD, TQQQ; any other
 * name gets a generic $50 stock moving ~3 % a day. */
void gen_profile_for(const char *ticker, gen_profile_t *out);

/* Intraday volatility multiplier per session second: high at the open, low
 * at lunch, rising into the close; its mean square is 1 so the day's variance
 * is what sigma_day says. */
typedef struct {
    double vol[GEN_DAY_SECONDS];
} gen_shape_t;

void gen_shape_init(gen_shape_t *shape);

/* Day-level volatility: sigma_day[d] (sd of the open-to-close log return of
 * day d), an AR(1) regime in log space around the profile's level. */
void gen_prices_day_sigmas(const gen_profile_t *p, uint64_t seed, uint64_t ticker_hash, int days, double *sigma_day);

/* Simulates one ticker-day: rel[GEN_SERIES_SECONDS] is the log price relative
 * to an arbitrary origin (index GEN_WARMUP_SECONDS is the 09:30:00 second).
 * Returns the day's open-to-close log return rel[last] - rel[open]. A pure
 * function of its arguments. */
double gen_prices_path(const gen_shape_t *shape, double sigma_day, uint64_t seed, int day, uint64_t ticker_hash,
                       double *rel);

/* Opening levels (dollars, unrounded): open_level[d + 1] = close of day d
 * times an overnight gap, with a weak pull back to the profile's price so long
 * runs stay at realistic levels. day_return: the gen_prices_path results. */
void gen_prices_day_levels(const gen_profile_t *p, uint64_t seed, uint64_t ticker_hash, int days,
                           const double *sigma_day, const double *day_return, double *open_level);

/* The written tape of one ticker-day from its path:
 * price_c[GEN_SERIES_SECONDS]: cents, warm-up included;
 * volume[GEN_DAY_SECONDS]: shares traded in each session second;
 * present[GEN_DAY_SECONDS]: 0 for the ~0.5 % of seconds that have no row. */
void gen_prices_tape(const gen_profile_t *p, const gen_shape_t *shape, double sigma_day, double open_level,
                     uint64_t seed, int day, uint64_t ticker_hash, const double *rel, int32_t *price_c, int32_t *volume,
                     uint8_t *present);

#ifdef __cplusplus
}
#endif
#endif
