/* evolve ingest: the trader's CSVs -> a dataset file (SPEC sec. 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/options.h"
#include "common/plat_lock.h"
#include "common/platform.h"
#include "common/strutil.h"
#include "cli/commands.h"
#include "io/dataset_h5.h"
#include "io/dataset_h5_layout.h"
#include "io/ingest.h"
#include "io/output_guard.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: evolve ingest --market DIR --trades FILE --out FILE.h5 [options]\n"
            "\n"
            "Reads the market files and the trade log, keeps the chosen tickers, finds each\n"
            "trade's price path and writes the prepared dataset (layout: docs/dataset.md).\n"
            "\n"
            "  --market DIR       directory of Raw_Market_data_MM-DD-YYYY.csv files (one per\n"
            "                     day; columns Ticker, Price, Time; other *.csv names are errors)\n"
            "  --trades FILE      the trade log (all_trade_logs.csv): columns Date, Ticker,\n"
            "                     Entry Price, Entry Time, Exit Time, Trade Percent Change;\n"
            "                     Trade Id optional\n"
            "  --out FILE.h5      the dataset to write (written under a temporary name and\n"
            "                     renamed when complete; its directory is created)\n"
            "  --tickers A,B,C    tickers to keep, in id order (required)\n"
            "  --features \"C1,C2\" trade-log columns to keep as features beyond the standard\n"
            "                     ones (Entry Volatility Percent, Entry Volatility Ratio,\n"
            "                     Entry Adx28/14/7, Worst Exit Percent, Trade Best Exit Percent,\n"
            "                     each kept when present); a missing one is an error\n"
            "  --strict           make every dropped trade an error\n"
            "  --quiet            print errors only (no summary, no warnings)\n"
            "  --help             this text\n"
            "\n"
            "A trade of a kept ticker is dropped (counted per reason, printed and stored) when:\n"
            "  non_finite     its Entry Price, Trade Percent Change or a kept feature is empty,\n"
            "                 NaN or inf\n"
            "  no_market_day  there is no market file for its entry day\n"
            "  empty_path     its ticker has no price from its entry time to its exit time\n"
            "Malformed rows (bad dates, times or numbers, a non-positive price, an exit before\n"
            "the entry) are errors naming the file, line and column; nothing is written then.\n"
            "Exit status: 0 done, 1 error in the data or files, 2 bad command line.\n");
}

typedef struct {
    char **items;
    int32_t n;
} str_list_t;

static void list_free(str_list_t *l)
{
    for (int32_t i = 0; i < l->n; i++)
        free(l->items[i]);
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

/* "A, B,C" -> {"A", "B", "C"}; empty or repeated items are usage errors. */
static ev_status list_parse(const char *opt, const char *s, str_list_t *l, ev_error *err)
{
    size_t cap = strlen(s) / 2 + 2;
    list_free(l);
    if (!(l->items = (char **)calloc(cap, sizeof *l->items)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (const char *p = s;; p++) {
        const char *e = strchr(p, ','), *b = p;
        size_t n;
        if (!e)
            e = p + strlen(p);
        while (b < e && *b == ' ')
            b++;
        n = (size_t)(e - b);
        while (n && b[n - 1] == ' ')
            n--;
        if (n == 0)
            return ev_fail(err, EV_EUSAGE,
                           "%s '%s': an empty name; expected names separated by "
                           "commas",
                           opt, s);
        if (!(l->items[l->n++] = ev_strndup(b, n)))
            return ev_fail(err, EV_ENOMEM, "out of memory");
        for (int32_t j = 0; j + 1 < l->n; j++)
            if (strcmp(l->items[j], l->items[l->n - 1]) == 0)
                return ev_fail(err, EV_EUSAGE, "%s: '%s' is listed twice", opt, l->items[j]);
        if (!*e)
            return EV_OK;
        p = e;
    }
}

typedef struct {
    const char *market, *trades, *out;
    str_list_t tickers, features;
    int strict, quiet, help;
} ingest_args_t;

static ev_status list_option(const char *name, const char *value, void *dest, ev_error *err)
{
    return list_parse(name, value, (str_list_t *)dest, err);
}

static ev_status parse_args(int argc, char **argv, ingest_args_t *a, ev_error *err)
{
    const opt_spec_t opts[] = {
        {.name = "--market", .kind = OPT_STRING, .dest = &a->market},
        {.name = "--trades", .kind = OPT_STRING, .dest = &a->trades},
        {.name = "--out", .kind = OPT_STRING, .dest = &a->out},
        {.name = "--tickers", .kind = OPT_CALL, .dest = &a->tickers, .call = list_option},
        {.name = "--features", .kind = OPT_CALL, .dest = &a->features, .call = list_option},
        {.name = "--strict", .kind = OPT_FLAG, .dest = &a->strict},
        {.name = "--quiet", .kind = OPT_FLAG, .dest = &a->quiet},
    };
    const opt_table_t t = {.opts = opts, .n_opts = (int)(sizeof opts / sizeof opts[0])};
    opt_result res;
    ev_status st = opt_parse(&t, argc, argv, &res, err);
    a->help = res == OPT_HELP;
    if (st != EV_OK || a->help)
        return st;
    if (!a->market || !a->trades || !a->out)
        return ev_fail(err, EV_EUSAGE, "missing %s",
                       !a->market   ? "--market DIR"
                       : !a->trades ? "--trades FILE"
                                    : "--out FILE.h5");
    /* no hidden default (it once was SOXL,IONQ,MARA): as data.tickers in a config */
    if (a->tickers.n == 0)
        return ev_fail(err, EV_EUSAGE, "missing --tickers A,B,C: the tickers of the trade log to keep, in id order");
    return st;
}

/* One writer per output: a second ingest to the same --out is refused. */
static ev_status write_locked(const dataset_t *ds, const char *out, ev_error *err)
{
    char *lock_path = plat_lock_path(out);
    plat_lock_t *lock = NULL;
    long holder;
    ev_status st;
    if (!lock_path)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    st = plat_lock_take(lock_path, &lock, &holder, err);
    if (st == EV_EBUSY)
        ev_error_prefix(err, "%s: another evolve is writing it now: ", out);
    if (st == EV_OK) {
        plat_lock_remove_temps(out, stderr);
        st = dataset_write_h5(ds, out, err);
    }
    plat_lock_release(lock);
    free(lock_path);
    return st;
}

/* --out may replace an earlier dataset, never anything else (an input, a typo). */
static ev_status check_out(const char *out, const char *trades, ev_error *err)
{
    ev_status st = output_check_h5(out, DATASET_H5_FORMAT, "--out dataset", "an evolve dataset", err);
    return st == EV_OK ? output_check_distinct(out, "--out dataset", trades, "--trades log", err) : st;
}

/* Checked again: a file may have appeared while the inputs were read. */
static ev_status write_out(const dataset_t *ds, const char *out, const char *trades, ev_error *err)
{
    char *dir;
    ev_status st;
    if ((st = check_out(out, trades, err)) != EV_OK)
        return st;
    if (!(dir = plat_dirname(out)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    st = plat_mkdirs(dir, err);
    free(dir);
    return st == EV_OK ? write_locked(ds, out, err) : st;
}

static ev_status run_ingest(const ingest_args_t *a, ev_error *err)
{
    FILE *log = a->quiet ? NULL : stderr;
    ingest_opts_t o;
    dataset_t ds;
    ev_status st;
    o.market_dir = a->market;
    o.trades_path = a->trades;
    o.tickers = (const char *const *)a->tickers.items;
    o.n_tickers = a->tickers.n;
    o.extra_features = (const char *const *)a->features.items;
    o.n_extra_features = a->features.n;
    o.strict = a->strict;
    o.log = log;
    if ((st = check_out(a->out, a->trades, err)) != EV_OK || (st = ingest_build(&o, &ds, err)) != EV_OK)
        return st;
    ingest_print_summary(&ds, log);
    st = write_out(&ds, a->out, a->trades, err);
    if (st == EV_OK && log)
        fprintf(log, "ingest: wrote %s (%lld trades, %lld prices)\n", a->out, (long long)ds.n_trades,
                (long long)ds.n_prices);
    dataset_free(&ds);
    return st;
}

int cmd_ingest(int argc, char **argv)
{
    ingest_args_t a;
    ev_error err;
    ev_status st;
    memset(&a, 0, sizeof a);
    st = parse_args(argc, argv, &a, &err);
    if (st == EV_OK && a.help)
        usage(stdout);
    else if (st == EV_EUSAGE)
        fprintf(stderr, "evolve ingest: %s (see evolve ingest --help)\n", err.msg);
    else if (st == EV_OK)
        st = run_ingest(&a, &err);
    if (st != EV_OK && st != EV_EUSAGE)
        fprintf(stderr, "evolve ingest: error: %s\n", err.msg);
    list_free(&a.tickers);
    list_free(&a.features);
    return ev_exit_code(st);
}
