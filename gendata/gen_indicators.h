/* One ticker-day of gen-data as the writers see it: the cent tape and the
 * indicator columns derived from it.
 *
 * Atr14/Atr28 (Wilder ATR), Adx28/Adx14/Adx7 (Wilder ADX) and Rsi (Wilder
 * RSI 14) are computed on one-minute bars built from every simulated second
 * (warm-up included); a row carries the values of the last *completed* bar,
 * so no row sees its own minute's future. Before a Wilder average has n
 * inputs it is the plain mean of what it has (the classic SMA seed), so no
 * value is ever undefined; with the 120 warm-up bars every session row is
 * past all seeds anyway. */
#ifndef EVOLVE_IO_GEN_INDICATORS_H
#define EVOLVE_IO_GEN_INDICATORS_H

#include <stdint.h>

#include "gendata/gen_prices.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GEN_BARS (GEN_SERIES_SECONDS / 60)
#define GEN_AVG_SECONDS 300 /* the Avg column: simple mean of the last 5 min of prices */

/* Indicator values once bar b has closed, in written units. */
typedef struct {
    int32_t atr14_q, atr28_q;         /* ten-thousandths of a dollar */
    int32_t rsi_c;                    /* hundredths, 0..10000 */
    int32_t adx28_c, adx14_c, adx7_c; /* hundredths, 0..10000 */
    int32_t ratio_c;                  /* round(atr14 / atr28, 2) in hundredths */
} gen_bar_ind_t;

typedef struct {
    /* Filled by gen_prices_tape. */
    int32_t price_c[GEN_SERIES_SECONDS]; /* cents; index GEN_WARMUP_SECONDS = 09:30:00 */
    int32_t volume[GEN_DAY_SECONDS];     /* shares per session second */
    uint8_t present[GEN_DAY_SECONDS];    /* 1 when the second has a row */
    /* Filled by gen_indicators_compute. */
    int64_t price_sum[GEN_SERIES_SECONDS + 1]; /* prefix sums of price_c, cent-seconds */
    int64_t val_q[GEN_DAY_SECONDS];            /* session VWAP, ten-thousandths of a dollar */
    gen_bar_ind_t bar[GEN_BARS];
} gen_series_t;

/* One market row's values, all as integers in the units they are written in
 * (so the market file and the trade log print identical text). */
typedef struct {
    int32_t price_c;          /* cents (written with 4 decimals) */
    int64_t val_q, avg_q;     /* ten-thousandths of a dollar */
    int32_t atr14_q, atr28_q; /* ten-thousandths of a dollar */
    int32_t rsi_c;            /* hundredths */
    int32_t volume;           /* shares */
    int32_t adx28_c, adx14_c, adx7_c;
    int32_t volpct_c; /* round(atr14 / price * 100, 2) in hundredths */
    int32_t ratio_c;  /* round(atr14 / atr28, 2) in hundredths */
} gen_row_t;

/* Bars, Wilder ATR/ADX/RSI, VWAP and prefix sums from price_c and volume. */
void gen_indicators_compute(gen_series_t *s);

/* Mean price in cents of the `window` seconds ending at series index i
 * (i + 1 >= window). */
double gen_series_sma(const gen_series_t *s, int i, int window);

/* The row of session second `sec` (0 = 09:30:00). */
void gen_series_row(const gen_series_t *s, int sec, gen_row_t *row);

#ifdef __cplusplus
}
#endif
#endif
