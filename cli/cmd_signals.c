/* evolve bars / evolve trades: the signal strategies' bars and trades. */
#include "cli/cmd_signals.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/options.h"
#include "common/platform.h"
#include "io/csv_reader.h"
#include "io/output_guard.h"
#include "cli/run_genome.h"
#include "signals/bars.h"
#include "signals/features.h"
#include "signals/se_config.h"
#include "signals/se_params.h"

#define TRADES_HEADER "genome,signal_bar,entry_bar,exit_bar,entry_time,exit_time,entry,exit,stop,tp,risk,reason,pnl,R\n"
#define METRICS_HEADER "genome,n,win_rate,avg_R,total_pnl,max_dd,sharpe\n"
#define BARS_HEADER "timestamp,open,high,low,close,volume\n"

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
 * (its first line is the header), never an input. */
static ev_status check_output(const char *path, const char *header, const bars_opts_t *o, const char *genomes,
                              ev_error *err)
{
    FILE *f;
    char line[256];
    ev_status st;
    if ((st = output_check_distinct(path, "--csv output", o->bars, "bars file", err)) != EV_OK ||
        (st = output_check_distinct(path, "--csv output", genomes, "genomes file", err)) != EV_OK)
        return st;
    f = fopen(path, "rb");
    if (!f)
        return EV_OK;
    if (!fgets(line, sizeof line, f))
        line[0] = '\0';
    fclose(f);
    if (line[0] == '\0' || !strcmp(line, header))
        return EV_OK;
    return ev_fail(err, EV_EIO, "%s: exists and is not a file this command wrote; not replacing it (--csv)", path);
}

/* ---- evolve bars ---------------------------------------------------------- */

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
    if (check_output(o.csv, BARS_HEADER, &o, NULL, &err) != EV_OK || bars_write_csv(&b, o.csv, &err) != EV_OK) {
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

static ev_status add_set(const char *name, const char *value, void *dest, ev_error *err)
{
    sets_t *s = (sets_t *)dest;
    se_params_t probe;
    se_params_defaults(&probe);
    if (se_params_assign(&probe, value, err) != EV_OK) {
        ev_error_prefix(err, "%s: ", name);
        return EV_EUSAGE;
    }
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

/* The genomes of a CSV whose header names parameters; the rest from base. */
static ev_status read_genomes(const char *path, const se_params_t *base, se_params_t **out, int64_t *n, ev_error *err)
{
    csv_reader_t *r;
    const csv_row_t *row;
    int64_t cap = 0;
    ev_status st;
    size_t nf = 0;
    *out = NULL;
    *n = 0;
    if ((st = csv_open(path, 0, &r, err)) != EV_OK)
        return st;
    while ((st = csv_next(r, &row, err)) == EV_OK && row) {
        se_params_t p = *base;
        nf = row->n_fields;
        for (size_t c = 0; c < row->n_fields; c++) {
            const char *name = csv_column_name(r, (int)c);
            csv_field_t f = csv_trim(row->fields[c]);
            if ((st = se_params_set(&p, name, strlen(name), f.p, f.n, err)) != EV_OK) {
                ev_error_prefix(err, "%s:%lld: column '%s': ", path, (long long)row->line, name);
                break;
            }
        }
        if (st != EV_OK)
            break;
        if (*n == cap) {
            int64_t c = cap ? 2 * cap : 256;
            se_params_t *q = (se_params_t *)realloc(*out, (size_t)c * sizeof *q);
            if (!q) {
                st = ev_fail(err, EV_ENOMEM, "out of memory reading %s", path);
                break;
            }
            *out = q;
            cap = c;
        }
        (*out)[(*n)++] = p;
    }
    (void)nf;
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

static void write_trades(FILE *f, const bars_t *b, int64_t g, const se_trade_t *t, int64_t n)
{
    for (int64_t k = 0; k < n; k++) {
        char te[32], tx[32];
        bars_format_time(b, t[k].entry_bar, te, sizeof te);
        bars_format_time(b, t[k].exit_bar, tx, sizeof tx);
        fprintf(f, "%lld,%lld,%lld,%lld,%s,%s,%.17g,%.17g,%.17g,%.17g,%.17g,%s,%.17g,%.17g\n", (long long)g,
                (long long)t[k].signal_bar, (long long)t[k].entry_bar, (long long)t[k].exit_bar, te, tx, t[k].entry,
                t[k].exit, t[k].stop, t[k].tp, t[k].risk, se_reason_name(t[k].reason), t[k].pnl, t[k].r_mult);
    }
}

/* The run's genome at rank onto p (before --set). */
static ev_status apply_run_genome(const char *run, uint64_t rank, se_params_t *p, ev_error *err)
{
    char **sets;
    int n;
    ev_status st = run_genome_assignments(run, rank, &sets, &n, err);
    for (int i = 0; i < n; i++) {
        if (st == EV_OK && (st = se_params_assign(p, sets[i], err)) != EV_OK)
            ev_error_prefix(err, "%s: rank %llu: ", run, (unsigned long long)rank);
        free(sets[i]);
    }
    free(sets);
    return st;
}

static void trades_usage(void)
{
    printf(
        "usage: evolve trades (--bars FILE [--symbol S] | --market DIR --ticker T --timeframe TF)\n"
        "                     [--set NAME=VALUE ...] [--genomes FILE] --csv OUT\n"
        "       evolve trades CONFIG [--run RUN.h5 --rank N] [--set NAME=VALUE ...] --csv OUT\n"
        "\n"
        "Backtests strategy seller_exhaustion (SIGNALS.md sec. 1; docs/signals.md) and writes one row per\n"
        "trade: genome,signal_bar,entry_bar,exit_bar,entry_time,exit_time,entry,exit,stop,tp,risk,reason,\n"
        "pnl,R (bar indices count from 0 over all bars; times as in the bars file; reason\n"
        "stop_gap|stop|tp|time). Each distinct (indicator, length) is computed once and shared by\n"
        "every genome.\n"
        "\n"
        "options:\n%s"
        "  --set NAME=VALUE  a parameter: ema_fast, ema_slow, z_window, atr_window, max_hold (bars),\n"
        "                    vol_z, tr_z, cloc_min, atr_stop_mult, reward_r, fee_bp, slippage_bp;\n"
        "                    repeatable; the rest keep SIGNALS.md's defaults (15-minute bars)\n"
        "  --genomes FILE    a CSV of genomes: a header of parameter names, one genome per row (the\n"
        "                    names it lacks come from --set and the defaults); genome = row number from 0\n"
        "  --run RUN.h5      with a CONFIG: the genome at --rank N (from 1) of the config's run file\n"
        "                    (its grid top-K, else its GA hall of fame); --set overrides its values\n"
        "  --csv OUT         where the trades go\n"
        "  --help            this text\n"
        "\n"
        "Exit status: 0 success, 1 error, 2 usage error.\n",
        BARS_OPTIONS_HELP);
}

int cmd_trades(int argc, char **argv)
{
    bars_opts_t o = {0};
    sets_t sets = {0};
    const char *genomes = NULL, *config = NULL, *metrics = NULL, *run = NULL;
    uint64_t rank = 0;
    FILE *mout = NULL;
    char *mtmp = NULL;
    se_config_t cfg;
    int have_cfg = 0;
    bars_t b;
    se_params_t base, *gs = NULL;
    int64_t n_gs = 0, total = 0;
    se_features_t *feat = NULL;
    ev_error err;
    opt_result res;
    FILE *out = NULL;
    char *tmp = NULL;
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
    if (!o.csv) {
        fprintf(stderr, "evolve trades: --csv OUT is required (see evolve trades --help)\n");
        free((void *)sets.v);
        return 2;
    }
    if (config) {
        if (o.bars || o.market) {
            fprintf(stderr, "evolve trades: a config names its bars (strategy.bars): drop --bars/--market\n");
            free((void *)sets.v);
            return 2;
        }
        if (se_config_load(config, &cfg, &err) != EV_OK)
            goto fail;
        have_cfg = 1;
        se_config_base(&cfg, &base);
    } else
        se_params_defaults(&base);
    if ((run != NULL) != (rank != 0) || (run && !config)) {
        fprintf(stderr,
                "evolve trades: --run RUN.h5 and --rank N go together, with the run's config "
                "(evolve trades CONFIG --run RUN.h5 --rank N --csv OUT)\n");
        se_config_free(&cfg);
        free((void *)sets.v);
        return 2;
    }
    if (run && apply_run_genome(run, rank, &base, &err) != EV_OK)
        goto fail;
    for (int i = 0; i < sets.n; i++)
        se_params_assign(&base, sets.v[i], &err); /* checked when parsed */
    if ((have_cfg ? se_config_load_bars(&cfg, &b, &err) : load_bars(&o, &b, &err)) != EV_OK)
        goto fail;
    if (genomes) {
        if (read_genomes(genomes, &base, &gs, &n_gs, &err) != EV_OK)
            goto fail;
    } else {
        gs = (se_params_t *)malloc(sizeof *gs);
        if (!gs) {
            ev_fail(&err, EV_ENOMEM, "out of memory");
            goto fail;
        }
        gs[0] = base;
        n_gs = 1;
    }
    if (have_cfg)
        for (int64_t g = 0; g < n_gs; g++)
            if (se_config_check(&cfg, &gs[g], &err) != EV_OK) {
                if (genomes)
                    ev_error_prefix(&err, "%s: genome %lld: ", genomes, (long long)g);
                goto fail;
            }
    if (check_output(o.csv, TRADES_HEADER, &o, genomes, &err) != EV_OK ||
        (have_cfg && output_check_distinct(o.csv, "--csv output", config, "config", &err) != EV_OK) ||
        (have_cfg && output_check_distinct(o.csv, "--csv output", cfg.bars_csv, "bars file", &err) != EV_OK))
        goto fail;
    if (metrics && (check_output(metrics, METRICS_HEADER, &o, genomes, &err) != EV_OK ||
                    output_check_distinct(metrics, "--metrics output", o.csv, "--csv output", &err) != EV_OK ||
                    (have_cfg && output_check_distinct(metrics, "--metrics output", config, "config", &err) != EV_OK)))
        goto fail;
    if (se_features_create(&b, &feat, &err) != EV_OK)
        goto fail;
    if (metrics) {
        mtmp = plat_temp_name(metrics);
        if (!mtmp) {
            ev_fail(&err, EV_ENOMEM, "out of memory");
            goto fail;
        }
        if (!(mout = fopen(mtmp, "wb"))) {
            ev_fail(&err, EV_EIO, "%s: cannot create the metrics file", metrics);
            goto fail;
        }
        fputs(METRICS_HEADER, mout);
    }
    tmp = plat_temp_name(o.csv);
    if (!tmp) {
        ev_fail(&err, EV_ENOMEM, "out of memory");
        goto fail;
    }
    out = fopen(tmp, "wb");
    if (!out) {
        ev_fail(&err, EV_EIO, "%s: cannot create the trades file", o.csv);
        goto fail;
    }
    fputs(TRADES_HEADER, out);
    for (int64_t g = 0; g < n_gs; g++) {
        se_trade_t *tr;
        int64_t n;
        if (se_run_genome(feat, &gs[g], &tr, &n, &err) != EV_OK) {
            ev_error_prefix(&err, "genome %lld: ", (long long)g);
            goto fail;
        }
        write_trades(out, &b, g, tr, n);
        if (mout) {
            se_metrics_t m;
            se_metrics(tr, n, &m);
            fprintf(mout, "%lld,%lld,%.17g,%.17g,%.17g,%.17g,%.17g\n", (long long)g, (long long)m.n, m.win_rate,
                    m.avg_r, m.total_pnl, m.max_dd, m.sharpe);
        }
        total += n;
        free(tr);
    }
    {
        int e = plat_fclose_written(out);
        out = NULL;
        if (e != 0) {
            ev_fail(&err, EV_EIO, "%s: cannot write the trades file (disk full?)", o.csv);
            goto fail;
        }
    }
    if (mout) {
        int e = plat_fclose_written(mout);
        mout = NULL;
        if (e != 0) {
            ev_fail(&err, EV_EIO, "%s: cannot write the metrics file (disk full?)", metrics);
            goto fail;
        }
        if (plat_rename_replace(mtmp, metrics, &err) != EV_OK)
            goto fail;
    }
    if (plat_rename_replace(tmp, o.csv, &err) != EV_OK)
        goto fail;
    fprintf(stderr,
            "evolve trades: %lld bars, %lld genome(s), %lld trades -> %s; indicators: %lld distinct series computed "
            "for %lld look-ups\n",
            (long long)b.n, (long long)n_gs, (long long)total, o.csv, (long long)se_features_computed(feat),
            (long long)se_features_lookups(feat));
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "evolve trades: %s\n", err.msg);
    rc = ev_exit_code(err.status);
    if (out)
        fclose(out);
    if (tmp)
        plat_remove(tmp);
    if (mout)
        fclose(mout);
    if (mtmp)
        plat_remove(mtmp);
done:
    free(mtmp);
    if (have_cfg)
        se_config_free(&cfg);
    se_features_free(feat);
    free(tmp);
    free(gs);
    bars_free(&b);
    free((void *)sets.v);
    return rc;
}
