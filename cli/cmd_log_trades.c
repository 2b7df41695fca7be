#include "cli/cmd_log_trades.h"

#include <stdio.h>
#include <string.h>

#include "cli/trade_rows.h"
#include "io/output_guard.h"
#include "runs/trades_log.h"

/* The CSV replaces only a trades CSV this command wrote, never an input. */
static ev_status check_csv(const char *csv, const config_t *cfg, ev_error *err)
{
    static const char *const marks[] = {TRADE_ROWS_CSV_HEADER, NULL};
    const char *inputs[][2] = {{cfg->path, "config"},
                               {cfg->trades_path, "trade log (data.trades)"},
                               {cfg->market_dir, "market directory (data.market_dir)"},
                               {cfg->dataset_path, "dataset"}};
    ev_status st = EV_OK;
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0] && st == EV_OK; i++)
        st = output_check_distinct(csv, "--csv output", inputs[i][0], inputs[i][1], err);
    return st == EV_OK ? output_check_text(csv, "--csv output", marks, err) : st;
}

int cmd_log_trades(config_t *cfg, const char *const *sets, int n_sets, int baseline, const char *csv)
{
    baseline_point_t pt;
    trades_log_t t;
    ev_error err;
    ev_status st = EV_OK;
    memset(&pt, 0, sizeof pt);
    memset(&t, 0, sizeof t);
    if (baseline && !cfg->baseline.present)
        st = ev_fail(&err, EV_EUSAGE,
                     "--list baseline: %s has no baseline: block (the trader's current settings, docs/config.md)",
                     cfg->path);
    else if (baseline)
        pt = cfg->baseline;
    for (int i = 0; i < n_sets && st == EV_OK; i++)
        st = trades_log_set(&pt, cfg, sets[i], &err);
    if (st == EV_OK && csv)
        st = check_csv(csv, cfg, &err);
    if (st == EV_OK && (st = trades_log_load(&t, cfg, &pt, stderr, &err)) == EV_OK) {
        const trade_rows_t rows = {&t.ds, t.k, t.n, t.part};
        if (csv && (st = trade_rows_write_csv(csv, &rows, &err)) == EV_OK)
            fprintf(stderr, "evolve trades: %s, %lld trades -> %s\n", baseline ? "the baseline" : "the settings given",
                    (long long)t.n, csv);
        if (!csv) {
            printf("%s: %s, %lld kept trades%s\n", cfg->path, baseline ? "the baseline" : "the settings given",
                   (long long)t.n, t.has_holdout ? " (in-sample and holdout)" : "");
            trade_rows_print(stdout, &rows, 0);
        }
    }
    if (st != EV_OK)
        fprintf(stderr, "evolve trades: error: %s\n", err.msg);
    trades_log_free(&t);
    return ev_exit_code(st);
}
