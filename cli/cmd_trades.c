/* evolve trades: a signal strategy's backtest of one genome, a file of genomes or a run's genome, as trade rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bars_source.h"
#include "cli/cmd_log_trades.h"
#include "cli/cmd_signals.h"
#include "cli/signals_output.h"
#include "cli/trades_genomes.h"
#include "cli/trades_write.h"
#include "common/options.h"
#include "io/config.h"
#include "io/output_guard.h"
#include "runs/trades_kinds.h"
#include "signals/se_config.h"

static void trades_usage(void)
{
    printf(
        "usage: evolve trades [CONFIG | (--bars FILE [--symbol S] | --market DIR --ticker T --timeframe TF)\n"
        "                     [--strategy NAME]] [--set NAME=VALUE ...] [--genomes FILE] --csv OUT\n"
        "       evolve trades CONFIG [--run RUN.h5 --rank N] [--set NAME=VALUE ...] --csv OUT\n"
        "       evolve trades LOG_CONFIG [--list baseline] [--set NAME=VALUE ...] [--csv OUT]\n"
        "\n"
        "A trade-log config (data:, docs/config.md): the kept trades of the trader's own settings over its\n"
        "whole dataset, as 'evolve trades RUN.h5' lists a run's genome: --list baseline starts from the\n"
        "config's baseline:, each --set NAME=VALUE sets a parameter to any value its role allows (on the\n"
        "lattice or not; off for trail, breakeven, max_hold); a parameter not given does not apply (none:\n"
        "the log as traded). Without --csv, a table on the terminal.\n"
        "\n"
        "Backtests a signal strategy (docs/signals-spec.md; docs/signals.md) and writes one row per trade.\n"
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
        "  --set NAME=VALUE  a parameter, repeatable; the rest keep docs/signals-spec.md's defaults.\n"
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
        BARS_SOURCE_HELP);
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

/* A trade-log config (data:, not strategy:): its own settings' trades
 * (cli/cmd_log_trades.h); -1 when config is a strategy config, else an exit
 * code. run_options: --run, --genomes or --metrics was given. */
static int log_config(const char *config, const sets_t *sets, int list, const bars_opts_t *o, int run_options)
{
    config_t c;
    ev_error err;
    int rc;
    if (config_load(config, &c, &err) != EV_OK) {
        fprintf(stderr, "evolve trades: %s\n", err.msg);
        return ev_exit_code(err.status);
    }
    if (c.strategy_type) {
        config_free(&c);
        return -1;
    }
    if (run_options) {
        fprintf(stderr,
                "evolve trades: %s is a trade-log config: --run, --rank, --genomes and --metrics are for "
                "strategy configs (a run's genome: evolve trades RUN.h5 --rank N)\n",
                config);
        rc = 2;
    } else {
        rc = cmd_log_trades(&c, sets->v, sets->n, list >= 0, o->csv);
    }
    config_free(&c);
    return rc;
}

int cmd_trades(int argc, char **argv)
{
    bars_opts_t o = {0};
    sets_t sets = {0};
    const char *genomes = NULL, *config = NULL, *metrics = NULL, *strategy = NULL, *run = NULL;
    uint64_t rank = 0;
    static const char *const lists[] = {"baseline", NULL};
    int list = -1;
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
        BARS_SOURCE_OPTS(o),
        {.name = "--set", .kind = OPT_CALL, .dest = &sets, .call = trades_add_set},
        {.name = "--genomes", .kind = OPT_STRING, .dest = &genomes},
        {.name = "--metrics", .kind = OPT_STRING, .dest = &metrics},
        {.name = "--strategy", .kind = OPT_STRING, .dest = &strategy},
        {.name = "--run", .kind = OPT_STRING, .dest = &run},
        {.name = "--rank", .kind = OPT_U64, .dest = &rank, .lo = 1, .hi = UINT32_MAX},
        {.name = "--list", .kind = OPT_CHOICE, .dest = &list, .choices = lists},
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
    if (config && !o.bars && !o.market && !strategy &&
        (rc = log_config(config, &sets, list, &o, run || rank || genomes || metrics)) >= 0)
        goto done;
    rc = 2;
    if (list >= 0) {
        fprintf(stderr,
                "evolve trades: --list baseline: a strategy's baseline is its values: give them with --set "
                "(docs/signals.md)\n");
        goto done;
    }
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
    if (run && trades_apply_run_genome(k, run, rank, base, &err) != EV_OK)
        goto fail;
    for (int i = 0; i < sets.n; i++)
        if (trades_apply_set(k, base, sets.v[i], &err) != EV_OK)
            goto fail;
    if ((have_cfg ? se_config_load_bars(&cfg, &b, &err) : bars_source_load(&o, &b, &err)) != EV_OK)
        goto fail;
    if (genomes) {
        if (trades_read_genomes(k, genomes, base, &gs, &n_gs, &err) != EV_OK)
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
    if (signals_output_check(o.csv, "--csv output", (const char *const[2]){k->header, NULL}, &o, genomes, &err) !=
            EV_OK ||
        (have_cfg && output_check_distinct(o.csv, "--csv output", config, "config", &err) != EV_OK) ||
        (have_cfg && output_check_distinct(o.csv, "--csv output", cfg.bars_csv, "bars file", &err) != EV_OK))
        goto fail;
    if (metrics && (signals_output_check(metrics, "--metrics output", (const char *const[2]){k->metrics_header, NULL},
                                         &o, genomes, &err) != EV_OK ||
                    output_check_distinct(metrics, "--metrics output", o.csv, "--csv output", &err) != EV_OK ||
                    (have_cfg && output_check_distinct(metrics, "--metrics output", config, "config", &err) != EV_OK)))
        goto fail;
    if (trades_write_all(k, &b, cost_pct, o.csv, metrics, gs, n_gs, &total, &store, &err) != EV_OK)
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
