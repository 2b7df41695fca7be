/* evolve gen-data: the command line of gendata/gen_data.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "cli/commands.h"
#include "gendata/gen_data.h"
#include "gendata/gen_trades.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: evolve gen-data --out DIR [options]\n"
            "\n"
            "Writes realistic sample data in the trader's formats (SPEC sec. 1):\n"
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
            "  --quiet               no progress or summary lines\n"
            "  -h, --help            this text\n",
            GEN_MAX_DAYS, GEN_TRADES_PER_TICKER_DAY_MAX);
}

/* Whole number in [lo, hi]; EV_EUSAGE naming the option otherwise. */
static ev_status parse_count(const char *opt, const char *s, long long lo, long long hi, long long *out, ev_error *err)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (!*s || *end || errno == ERANGE || v < lo || v > hi)
        return ev_fail(err, EV_EUSAGE, "%s: expected a whole number from %lld to %lld, got \"%s\"", opt, lo, hi, s);
    *out = v;
    return EV_OK;
}

static ev_status parse_seed(const char *s, uint64_t *out, ev_error *err)
{
    char *end;
    unsigned long long v;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (!*s || *end || errno == ERANGE || s[0] == '-' || s[0] == '+')
        return ev_fail(err, EV_EUSAGE,
                       "--seed: expected a whole number from 0 to "
                       "18446744073709551615, got \"%s\"",
                       s);
    *out = (uint64_t)v;
    return EV_OK;
}

/* One option with its value (from "--opt VALUE" or "--opt=VALUE"). */
static ev_status apply_option(gen_data_opts_t *o, const char *opt, const char *val, ev_error *err)
{
    long long n = 0;
    ev_status st;
    if (!strcmp(opt, "--out")) {
        o->out_dir = val;
        return EV_OK;
    }
    if (!strcmp(opt, "--days")) {
        st = parse_count(opt, val, 1, GEN_MAX_DAYS, &n, err);
        o->days = (int)n;
        return st;
    }
    if (!strcmp(opt, "--trades")) {
        st = parse_count(opt, val, 0, 1000000000LL, &n, err);
        o->trades = n;
        return st;
    }
    if (!strcmp(opt, "--start"))
        return gen_data_parse_date(val, &o->start_year, &o->start_month, &o->start_day, err);
    if (!strcmp(opt, "--tickers"))
        return gen_data_parse_tickers(val, opt, 0, o->tickers, &o->n_tickers, err);
    if (!strcmp(opt, "--trade-tickers"))
        return gen_data_parse_tickers(val, opt, 1, o->trade_tickers, &o->n_trade_tickers, err);
    if (!strcmp(opt, "--seed"))
        return parse_seed(val, &o->seed, err);
    return ev_fail(err, EV_EUSAGE, "unknown option %s (see 'evolve gen-data --help')", opt);
}

static ev_status parse_args(int argc, char **argv, gen_data_opts_t *o, int *help, ev_error *err)
{
    static const char *const with_value[] = {"--out",           "--days",   "--start", "--tickers",
                                             "--trade-tickers", "--trades", "--seed"};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *eq = strchr(arg, '='), *val = NULL;
        char opt[32];
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        int takes_value = 0;
        ev_status st;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            *help = 1;
            return EV_OK;
        }
        if (!strcmp(arg, "--quiet")) {
            o->quiet = 1;
            continue;
        }
        if (len >= sizeof opt)
            return ev_fail(err, EV_EUSAGE, "unknown option %s (see 'evolve gen-data --help')", arg);
        memcpy(opt, arg, len);
        opt[len] = '\0';
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
            takes_value |= !strcmp(opt, with_value[k]);
        if (!takes_value)
            return ev_fail(err, EV_EUSAGE, "unknown option %s (see 'evolve gen-data --help')", arg);
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return ev_fail(err, EV_EUSAGE, "%s: a value is required", opt);
        st = apply_option(o, opt, val, err);
        if (st != EV_OK)
            return st;
    }
    if (!o->out_dir || !*o->out_dir)
        return ev_fail(err, EV_EUSAGE, "--out DIR is required (see 'evolve gen-data --help')");
    return EV_OK;
}

int cmd_gen_data(int argc, char **argv)
{
    gen_data_opts_t o;
    ev_error err;
    int help = 0;
    ev_status st;
    gen_data_opts_default(&o);
    st = parse_args(argc, argv, &o, &help, &err);
    if (help) {
        usage(stdout);
        return 0;
    }
    if (st == EV_OK) {
        plat_install_interrupt();
        st = gen_data_run(&o, stderr, &err);
    }
    if (st != EV_OK)
        fprintf(stderr, "evolve gen-data: %s\n", err.msg);
    return ev_exit_code(st);
}
