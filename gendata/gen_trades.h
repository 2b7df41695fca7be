/* The trades of gen-data's trade log: entered by a plain rule on the
 * generated prices, one position at a time per ticker, held from seconds to
 * hours.
 *
 * A ticker-day with `count` trades (so the log has exactly the requested
 * number) is planned as follows:
 *  - holds: log-uniform from 10 s up to a cap, 3 h when the day has few
 *    trades, lower on busy days so that on average the holds fill at most
 *    half the session (the cap is what keeps positions from overlapping);
 *  - windows: the session is cut into `count` consecutive windows, window k
 *    long enough for 20 s of search plus hold k, the idle time spread at
 *    random between them;
 *  - signal: the first second of window k with a row where the price is at
 *    least a quarter of a one-minute ATR14 below its 5-minute mean while the
 *    5-minute mean is above the 30-minute mean ("pullback"); when none
 *    qualifies in time, the second with the deepest dip under the 5-minute
 *    mean ("dip"); the Strategy column of the log says which;
 *  - entry: filled 5-60 s after the signal (log-uniform; order latency, which
 *    also keeps the entry from sitting exactly on a noise trough);
 *  - exit: entry + hold, moved to the nearest earlier second that has a row;
 *    always inside the window, so before the next entry and the close. */
#ifndef EVOLVE_IO_GEN_TRADES_H
#define EVOLVE_IO_GEN_TRADES_H

#include <stdint.h>

#include "gendata/gen_indicators.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GEN_TRADE_MIN_HOLD 10    /* seconds */
#define GEN_TRADE_MIN_WINDOW 30  /* seconds: 20 s of search + the shortest hold */
#define GEN_TRADE_MAX_HOLD 10800 /* seconds: 3 h */
#define GEN_TRADES_PER_TICKER_DAY_MAX (GEN_DAY_SECONDS / GEN_TRADE_MIN_WINDOW)

enum { GEN_ENTRY_PULLBACK = 0, GEN_ENTRY_DIP = 1 };

typedef struct {
    int ticker;              /* position in the --tickers list */
    int kind;                /* GEN_ENTRY_* */
    int entry, exit;         /* session seconds (0 = 09:30:00); entry < exit */
    int32_t worst_c, best_c; /* lowest and highest row price in [entry, exit], cents */
} gen_trade_t;

/* Picks `count` (0..GEN_TRADES_PER_TICKER_DAY_MAX) trades of one ticker-day
 * into out[count], in entry order. s must have its indicators computed. In
 * the vanishingly rare case that a window has no row where one is needed, the
 * chosen second is given a row (s->present is set), so every entry and exit
 * has one. */
void gen_trades_pick(gen_series_t *s, int count, uint64_t seed, int day, uint64_t ticker_hash, int ticker,
                     gen_trade_t *out);

/* Orders a day's trades by entry second, then by ticker position. */
void gen_trades_sort(gen_trade_t *t, int n);

#ifdef __cplusplus
}
#endif
#endif
