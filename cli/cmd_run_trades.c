/* evolve trades RUN.h5 [--rank N] [--list grid|ga] [--csv FILE] [--dataset FILE]:
 * the kept trades of a reported genome of a run (report/replay.h), on the
 * terminal or as CSV. (evolve trades with a strategy config or bars is
 * cmd_trades.c's.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_run_trades.h"
#include "cli/trade_rows.h"
#include "common/options.h"
#include "common/platform.h"
#include "common/shortest.h"
#include "fitness/validation.h"
#include "io/output_guard.h"
#include "io/timeparse.h"
#include "report/replay.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: evolve trades RUN.h5 [--rank N] [--list grid|ga] [--csv FILE] [--dataset FILE]\n"
            "\n"
            "Lists the kept trades of a reported genome of a run file, over the run's whole dataset (found\n"
            "from the run file: provenance/dataset), in equity-curve order (entry time across tickers):\n"
            "  ticker, trade id, entry time and price, the exit second, the exit reason (target, stop,\n"
            "  breakeven, trail, time: docs/spec.md sec. 4.1, or logged: no exit was hit), the outcome\n"
            "  (percent, after costs, as the fitness sums it), the cumulative result, and the part:\n"
            "  in_sample, or holdout (runs with a validation: block).\n"
            "\n"
            "options:\n"
            "  --rank N        the genome's rank in the list (default 1)\n"
            "  --list L        grid (the grid's top-K) or ga (the hall of fame); default: grid where the\n"
            "                  run has one, else ga\n"
            "  --csv FILE      write the trades as CSV (written under a temporary name, then renamed)\n"
            "                  instead of the terminal table\n"
            "  --dataset FILE  the run's dataset at another path (its content hash must match)\n"
            "  --help          this text\n"
            "\n"
            "'evolve trades CONFIG --set ...' backtests a seller_exhaustion genome (docs/signals.md).\n"
            "Exit status: 0 success, 1 error (a missing or foreign file, another dataset), 2 usage error.\n");
}

/* The --csv output replaces only a trades CSV this command wrote, never the
 * run file or its dataset (io/output_guard.h). */
static ev_status check_csv(const char *path, const report_run_t *r, const char *dataset, ev_error *err)
{
    static const char *const marks[] = {TRADE_ROWS_CSV_HEADER, NULL};
    ev_status st;
    if ((st = output_check_distinct(path, "--csv output", r->rf.path, "run file", err)) != EV_OK ||
        (st = output_check_distinct(path, "--csv output", dataset ? dataset : r->dataset_path, "run's dataset", err)) !=
            EV_OK)
        return st;
    return output_check_text(path, "--csv output", marks, err);
}

int cmd_run_trades(int argc, char **argv)
{
    const char *run = NULL, *csv = NULL, *dataset = NULL;
    static const char *const lists[] = {"grid", "ga", NULL};
    uint64_t rank = 1;
    int list = -1;
    report_run_t r;
    replay_t rp;
    ev_error err;
    ev_status st;
    opt_result res;
    const opt_spec_t opts[] = {
        {.name = "--rank", .kind = OPT_U64, .dest = &rank, .lo = 1, .hi = UINT32_MAX},
        {.name = "--list", .kind = OPT_CHOICE, .dest = &list, .choices = lists},
        {.name = "--csv", .kind = OPT_STRING, .dest = &csv},
        {.name = "--dataset", .kind = OPT_STRING, .dest = &dataset},
    };
    const opt_table_t t = {.opts = opts,
                           .n_opts = (int)(sizeof opts / sizeof opts[0]),
                           .positional = &run,
                           .max_positional = 1,
                           .positional_hint = "one run file is expected"};
    if (opt_parse(&t, argc, argv, &res, &err) != EV_OK) {
        fprintf(stderr, "evolve trades: %s (see evolve trades RUN.h5 --help)\n", err.msg);
        return 2;
    }
    if (res == OPT_HELP) {
        usage(stdout);
        return 0;
    }
    memset(&err, 0, sizeof err);
    memset(&rp, 0, sizeof rp);
    if ((st = report_load(&r, run, &err)) == EV_OK && (!csv || (st = check_csv(csv, &r, dataset, &err)) == EV_OK) &&
        (st = replay_load(&rp, &r, list < 0 ? NULL : lists[list], (uint32_t)rank, dataset, &err)) == EV_OK) {
        const trade_rows_t rows = {&rp.ds, rp.k, rp.n, rp.part};
        if (csv && (st = trade_rows_write_csv(csv, &rows, &err)) == EV_OK)
            fprintf(stderr, "evolve trades: rank %u of the %s list, %lld trades -> %s (dataset %s, found by %s)\n",
                    rp.rank, rp.list, (long long)rp.n, csv, rp.dataset_path, rp.dataset_how);
        if (!csv) {
            printf("%s: rank %u of the %s list, %lld kept trades%s; dataset %s (found by %s)\n", r.rf.path, rp.rank,
                   rp.list, (long long)rp.n, rp.has_holdout ? " (in-sample and holdout)" : "", rp.dataset_path,
                   rp.dataset_how);
            trade_rows_print(stdout, &rows, 0);
        }
    }
    if (st != EV_OK)
        fprintf(stderr, "evolve trades: error: %s\n", err.msg);
    replay_free(&rp);
    report_free(&r);
    return ev_exit_code(st);
}
