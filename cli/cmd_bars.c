/* evolve bars: OHLCV bars read or built (docs/signals.md), written as a bars CSV. */
#include <stdio.h>

#include "cli/bars_source.h"
#include "cli/cmd_signals.h"
#include "cli/signals_output.h"
#include "common/options.h"

static const char *const bars_headers[2] = {BARS_CSV_HEADER, BARS_CSV_HEADER_SYMBOL};

int cmd_bars(int argc, char **argv)
{
    bars_opts_t o = {0};
    bars_t b;
    ev_error err;
    opt_result res;
    const opt_spec_t opts[] = {
        BARS_SOURCE_OPTS(o),
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
            BARS_SOURCE_HELP);
        return 0;
    }
    if (!o.csv) {
        fprintf(stderr, "evolve bars: --csv OUT is required (see evolve bars --help)\n");
        return 2;
    }
    if (bars_source_load(&o, &b, &err) != EV_OK) {
        fprintf(stderr, "evolve bars: %s\n", err.msg);
        return ev_exit_code(err.status);
    }
    if (signals_output_check(o.csv, "--csv output", bars_headers, &o, NULL, &err) != EV_OK ||
        bars_write_csv(&b, o.csv, &err) != EV_OK) {
        fprintf(stderr, "evolve bars: %s\n", err.msg);
        bars_free(&b);
        return ev_exit_code(err.status);
    }
    fprintf(stderr, "evolve bars: %lld bars -> %s\n", (long long)b.n, o.csv);
    bars_free(&b);
    return 0;
}
