/* The bars of evolve bars and evolve trades, from a bars CSV or the market files. */
#include "cli/bars_source.h"

ev_status bars_source_load(const bars_opts_t *o, bars_t *b, ev_error *err)
{
    if (o->bars && o->market)
        return ev_fail(err, EV_EUSAGE, "--bars and --market: give one source of bars");
    if (o->bars)
        return bars_read_csv(o->bars, o->symbol, b, err);
    if (o->market) {
        int32_t tf;
        if (!o->ticker || !o->timeframe)
            return ev_fail(err, EV_EUSAGE, "--market needs --ticker and --timeframe");
        tf = bars_parse_timeframe(o->timeframe);
        if (!tf)
            return ev_fail(err, EV_EUSAGE,
                           "--timeframe: expected a divisor of a day such as 1s, 10s, 1m, 15m, 1h or 1d, got '%s'",
                           o->timeframe);
        return bars_from_market(o->market, o->ticker, tf, b, err);
    }
    return ev_fail(err, EV_EUSAGE, "no bars: give --bars FILE or --market DIR --ticker T --timeframe TF");
}
