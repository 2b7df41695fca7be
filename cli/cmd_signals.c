/* evolve bars / evolve trades: the signal strategies' bars and trades. */
#include "cli/cmd_signals.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/options.h"
#include "common/platform.h"
#include "io/config.h"
#include "io/csv_reader.h"
#include "runs/run_genome.h"
#include "runs/trades_kinds.h"
#include "io/output_guard.h"
#include "signals/bars.h"
#include "signals/se_config.h"

typedef struct {
    const char *bars, *symbol, *market, *ticker, *timeframe, *csv;
} bars_opts_t;

static const char BARS_OPTIONS_HELP[] =
    "  --bars FILE       a bars CSV: timestamp,open,high,low,close,volume (epoch seconds or ISO-8601\n"
    "                    times; optional symbol column)\n"
    "  --symbol S        the symbol to read from a bars CSV with a symbol column\n"
    "  --market DIR      build the bars from the market files Raw_Market_data_MM-DD-YYYY.csv of DIR\n"
    "  --ticker T        ... for this ticker\n"
    "  --timeframe TF    ... at this timeframe: 1s..1d, e.g. 10s, 1m, 15m, 1h, 1d (a divisor of a day)\n";

static ev_status load_bars(const bars_opts_t *o, bars_t *b, ev_error *err)
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

/* An existing output is replaced only when it is a CSV this command wrote
 * (it begins with one of its headers, own[2], or any strategy's trades
 * header), never an input. */
static ev_status check_output(const char *path, const char *what, const char *const own[2], const bars_opts_t *o,
                              const char *genomes, ev_error *err)
{
    const char *marks[TRADES_KIND_MARKS_MAX + 3] = {own[0], own[1] ? own[1] : own[0]};
    ev_status st;
    trades_kind_marks(marks + 2, TRADES_KIND_MARKS_MAX + 1);
    if ((st = output_check_distinct(path, what, o->bars, "bars file", err)) != EV_OK ||
        (st = output_check_distinct(path, what, genomes, "genomes file", err)) != EV_OK)
        return st;
    return output_check_text(path, what, marks, err);
}

/* ---- evolve bars ---------------------------------------------------------- */

static const char *const bars_headers[2] = {BARS_CSV_HEADER, BARS_CSV_HEADER_SYMBOL};

int cmd_bars(int argc, char **argv)
{
    bars_opts_t o = {0};
    bars_t b;
    ev_error err;
    opt_result res;
    const opt_spec_t opts[] = {
        {.name = "--bars", .kind = OPT_STRING, .dest = &o.bars},
        {.name = "--symbol", .kind = OPT_STRING, .dest = &o.symbol},
        {.name = "--market", .kind = OPT_STRING, .dest = &o.market},
        {.name = "--ticker", .kind = OPT_STRING, .dest = &o.ticker},
        {.name = "--timeframe", .kind = OPT_STRING, .dest = &o.timeframe},
        {.name = "--csv", .kind = OPT_STRING, .dest = &o.csv},
    };
    const opt_table_t t = {.opts = opts, .n_opts = (int)(sizeof opts / sizeof opts[0])};
    if (opt_parse(&t, argc, argv, &res, &err) != EV_OK) {
        fprintf(stderr, "evolve bars: %s (see evolve bars --help)\n", err.msg);
        return 2;
    }
    if (res == OPT_HELP) {
        printf(
            "usage: evolve bars (--bars FILE [--symbol S] | --market DIR --ticker T --timeframe TF) --csv OUT\n"
            "\n"
            "Reads or builds OHLCV bars (rules: docs/signals.md) and writes them as a bars CSV.\n"
            "\n"
            "options:\n%s"
            "  --csv OUT         where the bars go\n"
            "  --help            this text\n"
            "\n"
            "Exit status: 0 success, 1 error (a bad row names its file, line and column), 2 usage error.\n",
            BARS_OPTIONS_HELP);
        return 0;
    }
    if (!o.csv) {
        fprintf(stderr, "evolve bars: --csv OUT is required (see evolve bars --help)\n");
        return 2;
    }
    if (load_bars(&o, &b, &err) != EV_OK) {
        fprintf(stderr, "evolve bars: %s\n", err.msg);
        return ev_exit_code(err.status);
    }
    if (check_output(o.csv, "--csv output", bars_headers, &o, NULL, &err) != EV_OK ||
        bars_write_csv(&b, o.csv, &err) != EV_OK) {
        fprintf(stderr, "evolve bars: %s\n", err.msg);
        bars_free(&b);
        return ev_exit_code(err.status);
    }
    fprintf(stderr, "evolve bars: %lld bars -> %s\n", (long long)b.n, o.csv);
    bars_free(&b);
    return 0;
}

/* ---- evolve trades -------------------------------------------------------- */

typedef struct {
    const char **v;
    int n, cap;
} sets_t;

/* --set values are checked once the strategy is known (a config or --strategy
 * may come after them). */
static ev_status add_set(const char *name, const char *value, void *dest, ev_error *err)
{
    sets_t *s = (sets_t *)dest;
    (void)name;
    if (s->n == s->cap) {
        int c = s->cap ? 2 * s->cap : 16;
        const char **p = (const char **)realloc((void *)s->v, (size_t)c * sizeof *p);
        if (!p)
            return ev_fail(err, EV_ENOMEM, "out of memory");
        s->v = p;
        s->cap = c;
    }
    s->v[s->n++] = value;
    return EV_OK;
}

static ev_status apply_set(const trades_kind_t *k, void *g, const char *a, ev_error *err)
{
    const char *eq = strchr(a, '=');
    if (!eq)
        return ev_fail(err, EV_EUSAGE, "--set: expected NAME=VALUE, got '%s'", a);
    if (k->set(g, a, (size_t)(eq - a), eq + 1, strlen(eq + 1), err) != EV_OK) {
        ev_error_prefix(err, "--set: ");
        return EV_EUSAGE;
    }
    return EV_OK;
}

/* The genomes of a CSV whose header names parameters; the rest from base. */
static ev_status read_genomes(const trades_kind_t *k, const char *path, const void *base, char **out, int64_t *n,
                              ev_error *err)
{
    csv_reader_t *r;
    const csv_row_t *row;
    int64_t cap = 0;
    ev_status st;
    *out = NULL;
    *n = 0;
    if ((st = csv_open(path, 0, &r, err)) != EV_OK)
        return st;
    while ((st = csv_next(r, &row, err)) == EV_OK && row) {
        void *g;
        if (*n == cap) {
            int64_t c = cap ? 2 * cap : 256;
            char *q = (char *)realloc(*out, (size_t)c * k->genome_size);
            if (!q) {
                st = ev_fail(err, EV_ENOMEM, "out of memory reading %s", path);
                break;
            }
            *out = q;
            cap = c;
        }
        g = *out + (size_t)*n * k->genome_size;
        memcpy(g, base, k->genome_size);
        for (size_t c = 0; c < row->n_fields; c++) {
            const char *name = csv_column_name(r, (int)c);
            csv_field_t f = csv_trim(row->fields[c]);
            if ((st = k->set(g, name, strlen(name), f.p, f.n, err)) != EV_OK) {
                ev_error_prefix(err, "%s:%lld: column '%s': ", path, (long long)row->line, name);
                break;
            }
        }
        if (st != EV_OK)
            break;
        (*n)++;
    }
    csv_close(r);
    if (st == EV_OK && *n == 0)
        st =
            ev_fail(err, EV_EDATA, "%s: no genome (expected a header of parameter names and one row per genome)", path);
    if (st != EV_OK) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return st;
}

/* The run's genome at rank onto genome g (before --set). */
static ev_status apply_run_genome(const trades_kind_t *k, const char *run, uint64_t rank, void *g, ev_error *err)
{
    char **sets;
    int n;
    ev_status st = run_genome_assignments(run, rank, &sets, &n, err);
    for (int i = 0; i < n; i++) {
        if (st == EV_OK && (st = apply_set(k, g, sets[i], err)) != EV_OK)
            ev_error_prefix(err, "%s: rank %llu: ", run, (unsigned long long)rank);
        free(sets[i]);
    }
    free(sets);
    return st;
}

static void trades_usage(void)
{
    printf(
        "usage: evolve trades [CONFIG | (--bars FILE [--symbol S] | --market DIR --ticker T --timeframe TF)\n"
        "                     [--strategy NAME]] [--set NAME=VALUE ...] [--genomes FILE] --csv OUT\n"
        "       evolve trades CONFIG [--run RUN.h5 --rank N] [--set NAME=VALUE ...] --csv OUT\n"
        "\n"
        "Backtests a signal strategy (SIGNALS.md; docs/signals.md) and writes one row per trade.\n"
        "seller_exhaustion: genome,signal_bar,entry_bar,exit_bar,entry_time,exit_time,entry,exit,stop,tp,\n"
        "risk,reason,pnl,R,outcome_pct (reason stop_gap|stop|tp|time|session). atc: genome,signal_bar,\n"
        "entry_bar,exit_bar,entry_time,exit_time,side,entry,exit,reason,pnl,outcome_pct (side long|short,\n"
        "reason signal|session). pnl is in price units; outcome_pct is the outcome the fitness sums\n"
        "(pnl / entry * 100, less a config's objective.cost_pct, in micro-percent). Bar indices count\n"
        "from 0 over all bars; times as in the bars file; numbers as the shortest text that reads back.\n"
        "Each distinct indicator series is computed once and shared by every genome.\n"
        "\n"
        "options:\n%s"
        "  --strategy NAME   seller_exhaustion (default) or atc, with --bars/--market (a config names\n"
        "                    its own: strategy.type)\n"
        "  --set NAME=VALUE  a parameter, repeatable; the rest keep SIGNALS.md's defaults.\n"
        "                    seller_exhaustion: ema_fast, ema_slow, z_window, atr_window, max_hold (bars),\n"
        "                    vol_z, tr_z, cloc_min, atr_stop_mult, reward_r, fee_bp, slippage_bp.\n"
        "                    atc: ema_len, hull_len, wma_len, dema_len, lsma_len, kama_len, cutout (bars),\n"
        "                    ema_w, hma_w, wma_w, dema_w, lsma_w, kama_w, robustness (Narrow|Medium|Wide),\n"
        "                    La, De, long_threshold, short_threshold, cut_threshold, fee_bp, slippage_bp,\n"
        "                    hma_as_sma, pine_sticky_a, python_cut (true|false)\n"
        "  --genomes FILE    a CSV of genomes: a header of parameter names, one genome per row (the\n"
        "                    names it lacks come from --set and the defaults); genome = row number from 0\n"
        "  --metrics FILE    seller_exhaustion: one row of the source's metrics per genome\n"
        "  --run RUN.h5      with a CONFIG: the genome at --rank N (from 1) of the config's run file\n"
        "                    (its grid top-K, else its GA hall of fame); --set overrides its values\n"
        "  --csv OUT         where the trades go\n"
        "  --help            this text\n"
        "\n"
        "Exit status: 0 success, 1 error, 2 usage error.\n",
        BARS_OPTIONS_HELP);
}

/* The config's objective.cost_pct (0 when absent): outcome_pct is the
 * outcome the run's fitness sums. */
static ev_status config_cost_pct(const char *config, double *cost_pct, ev_error *err)
{
    config_t c;
    ev_status st = config_load(config, &c, err);
    if (st == EV_OK) {
        *cost_pct = c.objective.cost_pct;
        config_free(&c);
    }
    return st;
}

/* Writes the trades file (and the metrics file) of every genome under
 * temporary names, renamed into place when complete. */
static ev_status write_all(const trades_kind_t *k, const bars_t *b, double cost_pct, const char *csv,
                           const char *metrics, const char *gs, int64_t n_gs, int64_t *total, void **store_out,
                           ev_error *err)
{
    FILE *out = NULL, *mout = NULL;
    char *tmp = NULL, *mtmp = NULL;
    void *store = NULL;
    ev_status st;
    *total = 0;
    if ((st = k->store_create(b, &store, err)) != EV_OK)
        goto done;
    *store_out = store;
    tmp = plat_temp_name(csv);
    mtmp = metrics ? plat_temp_name(metrics) : NULL;
    if (!tmp || (metrics && !mtmp)) {
        st = ev_fail(err, EV_ENOMEM, "out of memory");
        goto done;
    }
    if (metrics && !(mout = fopen(mtmp, "wb"))) {
        st = ev_fail(err, EV_EIO, "%s: cannot create the metrics file", metrics);
        goto done;
    }
    if (!(out = fopen(tmp, "wb"))) {
        st = ev_fail(err, EV_EIO, "%s: cannot create the trades file", csv);
        goto done;
    }
    fputs(k->header, out);
    if (mout)
        fputs(k->metrics_header, mout);
    for (int64_t g = 0; g < n_gs; g++) {
        int64_t n;
        if ((st = k->write(store, b, g, gs + (size_t)g * k->genome_size, cost_pct, out, mout, &n, err)) != EV_OK) {
            ev_error_prefix(err, "genome %lld: ", (long long)g);
            goto done;
        }
        *total += n;
    }
    {
        const int e = plat_fclose_written(out);
        out = NULL;
        if (e != 0) {
            st = ev_fail(err, EV_EIO, "%s: cannot write the trades file (disk full?)", csv);
            goto done;
        }
    }
    if (mout) {
        const int e = plat_fclose_written(mout);
        mout = NULL;
        if (e != 0) {
            st = ev_fail(err, EV_EIO, "%s: cannot write the metrics file (disk full?)", metrics);
            goto done;
        }
        if ((st = plat_rename_replace(mtmp, metrics, err)) != EV_OK)
            goto done;
    }
    st = plat_rename_replace(tmp, csv, err);
done:
    if (out)
        fclose(out);
    if (mout)
        fclose(mout);
    if (st != EV_OK) {
        if (tmp)
            plat_remove(tmp);
        if (mtmp)
            plat_remove(mtmp);
    }
    free(tmp);
    free(mtmp);
    return st;
}

int cmd_trades(int argc, char **argv)
{
    bars_opts_t o = {0};
    sets_t sets = {0};
    const char *genomes = NULL, *config = NULL, *metrics = NULL, *strategy = NULL, *run = NULL;
    uint64_t rank = 0;
    const trades_kind_t *k = NULL; /* set before any store is made */
    se_config_t cfg;
    int have_cfg = 0;
    bars_t b;
    char *base = NULL, *gs = NULL;
    int64_t n_gs = 0, total = 0;
    double cost_pct = 0;
    void *store = NULL;
    ev_error err;
    opt_result res;
    int rc = 1;
    const opt_spec_t opts[] = {
        {.name = "--bars", .kind = OPT_STRING, .dest = &o.bars},
        {.name = "--symbol", .kind = OPT_STRING, .dest = &o.symbol},
        {.name = "--market", .kind = OPT_STRING, .dest = &o.market},
        {.name = "--ticker", .kind = OPT_STRING, .dest = &o.ticker},
        {.name = "--timeframe", .kind = OPT_STRING, .dest = &o.timeframe},
        {.name = "--csv", .kind = OPT_STRING, .dest = &o.csv},
        {.name = "--set", .kind = OPT_CALL, .dest = &sets, .call = add_set},
        {.name = "--genomes", .kind = OPT_STRING, .dest = &genomes},
        {.name = "--metrics", .kind = OPT_STRING, .dest = &metrics},
        {.name = "--strategy", .kind = OPT_STRING, .dest = &strategy},
        {.name = "--run", .kind = OPT_STRING, .dest = &run},
        {.name = "--rank", .kind = OPT_U64, .dest = &rank, .lo = 1, .hi = UINT32_MAX},
    };
    const opt_table_t t = {.opts = opts,
                           .n_opts = (int)(sizeof opts / sizeof opts[0]),
                           .positional = &config,
                           .max_positional = 1,
                           .positional_hint = "one strategy config is expected"};
    memset(&b, 0, sizeof b);
    memset(&cfg, 0, sizeof cfg);
    if (opt_parse(&t, argc, argv, &res, &err) != EV_OK) {
        fprintf(stderr, "evolve trades: %s (see evolve trades --help)\n", err.msg);
        free((void *)sets.v);
        return 2;
    }
    if (res == OPT_HELP) {
        trades_usage();
        free((void *)sets.v);
        return 0;
    }
    rc = 2;
    if (!o.csv) {
        fprintf(stderr, "evolve trades: --csv OUT is required (see evolve trades --help)\n");
        goto done;
    }
    if (config && (o.bars || o.market || strategy)) {
        fprintf(stderr,
                "evolve trades: a config names its bars and strategy (strategy.bars, strategy.type): drop "
                "--bars/--market/--strategy\n");
        goto done;
    }
    k = trades_kind_named(strategy ? strategy : "seller_exhaustion");
    if (!k) {
        fprintf(stderr, "evolve trades: --strategy: expected seller_exhaustion or atc, got '%s'\n", strategy);
        goto done;
    }
    rc = 1;
    if (config) {
        if (se_config_load(config, &cfg, &err) != EV_OK)
            goto fail;
        have_cfg = 1;
        if (config_cost_pct(config, &cost_pct, &err) != EV_OK)
            goto fail;
        k = trades_kind_of(cfg.type);
    }
    if (metrics && !k->metrics_header) {
        fprintf(stderr, "evolve trades: --metrics: strategy %s has no metrics rows (seller_exhaustion has)\n", k->name);
        rc = 2;
        goto done;
    }
    if (!(base = (char *)malloc(k->genome_size))) {
        ev_fail(&err, EV_ENOMEM, "out of memory");
        goto fail;
    }
    if (have_cfg)
        k->base(&cfg, base);
    else
        k->defaults(base);
    if ((run != NULL) != (rank != 0) || (run && !config)) {
        fprintf(stderr,
                "evolve trades: --run RUN.h5 and --rank N go together, with the run's config "
                "(evolve trades CONFIG --run RUN.h5 --rank N --csv OUT)\n");
        rc = 2;
        goto done;
    }
    if (run && apply_run_genome(k, run, rank, base, &err) != EV_OK)
        goto fail;
    for (int i = 0; i < sets.n; i++)
        if (apply_set(k, base, sets.v[i], &err) != EV_OK)
            goto fail;
    if ((have_cfg ? se_config_load_bars(&cfg, &b, &err) : load_bars(&o, &b, &err)) != EV_OK)
        goto fail;
    if (genomes) {
        if (read_genomes(k, genomes, base, &gs, &n_gs, &err) != EV_OK)
            goto fail;
    } else {
        gs = base;
        base = NULL;
        n_gs = 1;
    }
    for (int64_t g = 0; g < n_gs; g++) {
        const void *genome = gs + (size_t)g * k->genome_size;
        if ((have_cfg ? k->config_check(&cfg, genome, &err) : k->check ? k->check(genome, &err) : EV_OK) != EV_OK) {
            if (genomes)
                ev_error_prefix(&err, "%s: genome %lld: ", genomes, (long long)g);
            goto fail;
        }
    }
    if (check_output(o.csv, "--csv output", (const char *const[2]){k->header, NULL}, &o, genomes, &err) != EV_OK ||
        (have_cfg && output_check_distinct(o.csv, "--csv output", config, "config", &err) != EV_OK) ||
        (have_cfg && output_check_distinct(o.csv, "--csv output", cfg.bars_csv, "bars file", &err) != EV_OK))
        goto fail;
    if (metrics && (check_output(metrics, "--metrics output", (const char *const[2]){k->metrics_header, NULL}, &o,
                                 genomes, &err) != EV_OK ||
                    output_check_distinct(metrics, "--metrics output", o.csv, "--csv output", &err) != EV_OK ||
                    (have_cfg && output_check_distinct(metrics, "--metrics output", config, "config", &err) != EV_OK)))
        goto fail;
    if (write_all(k, &b, cost_pct, o.csv, metrics, gs, n_gs, &total, &store, &err) != EV_OK)
        goto fail;
    fprintf(stderr,
            "evolve trades: %lld bars, %lld genome(s), %lld trades -> %s; indicators: %lld distinct series computed "
            "for %lld look-ups\n",
            (long long)b.n, (long long)n_gs, (long long)total, o.csv, (long long)k->computed(store),
            (long long)k->lookups(store));
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "evolve trades: %s\n", err.msg);
    rc = ev_exit_code(err.status);
done:
    if (store)
        k->store_free(store);
    if (have_cfg)
        se_config_free(&cfg);
    free(base);
    free(gs);
    bars_free(&b);
    free((void *)sets.v);
    return rc;
}
