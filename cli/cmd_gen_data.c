/* evolve gen-data: the command line of gendata/gen_data.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/options.h"
#include "common/platform.h"
#include "cli/commands.h"
#include "cli/gen_data_bars.h"
#include "gendata/gen_data.h"
#include "gendata/gen_trades.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: evolve gen-data --out DIR [options]\n"
            "\n"
            "Writes realistic sample data in the trader's formats (docs/spec.md sec. 1):\n"
            "  DIR/market/Raw_Market_data_MM-DD-YYYY.csv  one file per weekday, a row per ticker per\n"
            "                                             second 09:30:00-15:59:59 (~0.5 %% missing)\n"
            "  DIR/all_trade_logs.csv                     the trade log\n"
            "Prices follow a stochastic-volatility process with jumps, an intraday U-shaped\n"
            "volatility curve and overnight gaps, at each ticker's usual level and daily range;\n"
            "ATR/ADX/RSI come from one-minute bars of those prices. Trades are entered by a\n"
            "pullback rule, one position at a time per ticker, held 10 s to 3 h (less on days\n"
            "with many trades). The same options give the same bytes whatever the thread\n"
            "count. Files of the same names are replaced only in a directory gen-data wrote\n"
            "(DIR/.evolve-gen-data); a failed run leaves no file behind. Details: docs/gen-data.md.\n"
            "\n"
            "options:\n"
            "  --out DIR             output directory (created if missing); required\n"
            "  --days N              weekdays to write, 1..%d (default 5; exchange holidays are\n"
            "                        not skipped)\n"
            "  --start YYYY-MM-DD    first day; a Saturday or Sunday moves to Monday\n"
            "                        (default 2024-01-02)\n"
            "  --tickers LIST        comma-separated tickers in every market file, in this order\n"
            "                        (default SOXL,IONQ,MARA,NVDA,TSLA,AMD,TQQQ; names use A-Z 0-9 . -;\n"
            "                        tickers other than these seven get a generic $50 profile)\n"
            "  --trade-tickers LIST  tickers that trade, a subset of --tickers (default: SOXL,IONQ,MARA\n"
            "                        where listed, else the first ticker)\n"
            "  --trades N            exact number of trades in the log (default 600), spread evenly\n"
            "                        over days and trade tickers; at most %d per ticker per day\n"
            "  --seed S              random seed, 0..2^64-1 (default 1)\n"
            "  --bars TF             also write DIR/bars/TICKER_TF.csv for every ticker: OHLCV bars\n"
            "                        of timeframe TF (1m, 15m, 1h, ...) built from the market files\n"
            "                        as `evolve bars --market` builds them, for strategy configs\n"
            "  --quiet               no progress or summary lines\n"
            "  -h, --help            this text\n",
            GEN_MAX_DAYS, GEN_TRADES_PER_TICKER_DAY_MAX);
}

static ev_status start_option(const char *name, const char *value, void *dest, ev_error *err)
{
    gen_data_opts_t *o = (gen_data_opts_t *)dest;
    return gen_data_parse_date(value, &o->start_year, &o->start_month, &o->start_day, err);
}

static ev_status tickers_option(const char *name, const char *value, void *dest, ev_error *err)
{
    gen_data_opts_t *o = (gen_data_opts_t *)dest;
    return gen_data_parse_tickers(value, name, 0, o->tickers, &o->n_tickers, err);
}

static ev_status trade_tickers_option(const char *name, const char *value, void *dest, ev_error *err)
{
    gen_data_opts_t *o = (gen_data_opts_t *)dest;
    return gen_data_parse_tickers(value, name, 1, o->trade_tickers, &o->n_trade_tickers, err);
}

static ev_status parse_args(int argc, char **argv, gen_data_opts_t *o, const char **bars, int *help, ev_error *err)
{
    const opt_spec_t opts[] = {
        {.name = "--out", .kind = OPT_STRING, .dest = &o->out_dir},
        {.name = "--days", .kind = OPT_INT, .dest = &o->days, .lo = 1, .hi = GEN_MAX_DAYS},
        {.name = "--start", .kind = OPT_CALL, .dest = o, .call = start_option},
        {.name = "--tickers", .kind = OPT_CALL, .dest = o, .call = tickers_option},
        {.name = "--trade-tickers", .kind = OPT_CALL, .dest = o, .call = trade_tickers_option},
        {.name = "--trades", .kind = OPT_I64, .dest = &o->trades, .hi = 1000000000},
        {.name = "--seed", .kind = OPT_U64, .dest = &o->seed, .hi = UINT64_MAX},
        {.name = "--quiet", .kind = OPT_FLAG, .dest = &o->quiet},
        {.name = "--bars", .kind = OPT_STRING, .dest = bars},
    };
    const opt_table_t t = {.opts = opts, .n_opts = (int)(sizeof opts / sizeof opts[0])};
    opt_result res;
    ev_status st = opt_parse(&t, argc, argv, &res, err);
    *help = res == OPT_HELP;
    if (st != EV_OK || *help)
        return st;
    if (!o->out_dir || !*o->out_dir)
        return ev_fail(err, EV_EUSAGE, "--out DIR is required");
    return EV_OK;
}

int cmd_gen_data(int argc, char **argv)
{
    gen_data_opts_t o;
    const char *bars = NULL;
    ev_error err;
    int help = 0;
    ev_status st;
    gen_data_opts_default(&o);
    st = parse_args(argc, argv, &o, &bars, &help, &err);
    if (help) {
        usage(stdout);
        return 0;
    }
    if (st != EV_OK) {
        fprintf(stderr, "evolve gen-data: %s (see evolve gen-data --help)\n", err.msg);
        return ev_exit_code(st);
    }
    plat_install_interrupt();
    if (!bars || (st = gen_data_bars_check(&o, bars, &err)) == EV_OK)
        st = gen_data_run(&o, stderr, &err);
    if (st == EV_OK && bars)
        st = gen_data_bars_write(&o, bars, o.quiet ? NULL : stderr, &err);
    if (st != EV_OK)
        fprintf(stderr, "evolve gen-data: %s\n", err.msg);
    return ev_exit_code(st);
}
