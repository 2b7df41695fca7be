/* The two CSV formats gen-data writes (SPEC sec. 1), row by row.
 *
 * Market row:  Ticker,Price,Val,Avg,Atr14,Atr28,Rsi,Volume,Adx28,Adx14,Adx7,
 *              Volatility Percent,Volatility Ratio,Time
 *   prices and ATRs with 4 decimals (like the trader's files), Rsi/Adx/
 *   Volatility columns with 2, Volume an integer, Time HH:MM:SS.
 * Trade row:   the 15 usable columns plus three extras a real log carries
 *   (Strategy after Ticker; Shares and Entry Rsi at the end). Entry/Exit Price
 *   and the Entry features are printed by the same code from the same values
 *   as the market row of that second, so their text is identical. */
#ifndef EVOLVE_IO_GEN_CSV_H
#define EVOLVE_IO_GEN_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "gendata/gen_indicators.h"
#include "gendata/gen_trades.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Upper bound of one row's length (tickers are at most 15 characters). */
#define GEN_CSV_ROW_MAX 512
/* The notional a trade's Shares column is sized for: floor($10,000 / entry). */
#define GEN_CSV_TRADE_NOTIONAL_CENTS 1000000

extern const char gen_csv_market_header[]; /* with its '\n' */
extern const char gen_csv_trade_header[];  /* with its '\n' */

/* One trade-log row (with '\n'). date_mdy: "MM/DD/YYYY"; entry: the market row
 * at the entry second; exit_price_c: the price at the exit second, cents. */
char *gen_csv_trade_row(char *dst, const char *date_mdy, int64_t trade_id, const char *ticker, const gen_trade_t *t,
                        const gen_row_t *entry, int32_t exit_price_c);

/* Writes a day's market file at path: the header, then for each session
 * second every ticker that has a row, in list order. series[n_tickers]. */
ev_status gen_csv_write_market(const char *path, const char *const *tickers, const gen_series_t *const *series,
                               int n_tickers, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
