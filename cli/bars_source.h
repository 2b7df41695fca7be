/* Where evolve bars and evolve trades take their bars: --bars FILE or --market DIR --ticker T --timeframe TF. */
#ifndef EVOLVE_BARS_SOURCE_H
#define EVOLVE_BARS_SOURCE_H

#include "common/options.h"
#include "common/status.h"
#include "signals/bars.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The options, as parsed (NULL: not given), and --csv OUT. */
typedef struct {
    const char *bars, *symbol, *market, *ticker, *timeframe, *csv;
} bars_opts_t;

/* The options' entries of a command's option table, into bars_opts_t o. */
/* clang-format off */
#define BARS_SOURCE_OPTS(o)                                                 \
    {.name = "--bars", .kind = OPT_STRING, .dest = &(o).bars},              \
    {.name = "--symbol", .kind = OPT_STRING, .dest = &(o).symbol},          \
    {.name = "--market", .kind = OPT_STRING, .dest = &(o).market},          \
    {.name = "--ticker", .kind = OPT_STRING, .dest = &(o).ticker},          \
    {.name = "--timeframe", .kind = OPT_STRING, .dest = &(o).timeframe},    \
    {.name = "--csv", .kind = OPT_STRING, .dest = &(o).csv}
/* clang-format on */

/* The bars the options name; a usage error (EV_EUSAGE) when they name none,
 * both sources, or an incomplete or bad --market. */
ev_status bars_source_load(const bars_opts_t *o, bars_t *b, ev_error *err);

/* The options' lines of a command's --help. */
#define BARS_SOURCE_HELP                                                                                \
    "  --bars FILE       a bars CSV: timestamp,open,high,low,close,volume (epoch seconds or ISO-8601\n" \
    "                    times; optional symbol column)\n"                                              \
    "  --symbol S        the symbol to read from a bars CSV with a symbol column\n"                     \
    "  --market DIR      build the bars from the market files Raw_Market_data_MM-DD-YYYY.csv of DIR\n"  \
    "  --ticker T        ... for this ticker\n"                                                         \
    "  --timeframe TF    ... at this timeframe: 1s..1d, e.g. 10s, 1m, 15m, 1h, 1d (a divisor of a day)\n"

#ifdef __cplusplus
}
#endif
#endif
