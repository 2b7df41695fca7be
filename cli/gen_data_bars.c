#include "cli/gen_data_bars.h"

#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "gendata/gen_marker.h"
#include "signals/bars.h"

void gen_data_bars_free(char **paths, int n)
{
    for (int i = 0; paths && i < n; i++)
        free(paths[i]);
    free(paths);
}

static ev_status timeframe_of(const char *tf_text, int32_t *tf, ev_error *err)
{
    *tf = bars_parse_timeframe(tf_text);
    if (!*tf)
        return ev_fail(err, EV_EUSAGE,
                       "--bars: expected a timeframe that divides a day, such as 1m, 5m, 15m, 1h or 1d, got '%s'",
                       tf_text);
    return EV_OK;
}

ev_status gen_data_bars_paths(const gen_data_opts_t *o, const char *tf_text, char ***paths, int *n, ev_error *err)
{
    char *dir = plat_path_join(o->out_dir, "bars");
    *n = 0;
    *paths = (char **)calloc((size_t)o->n_tickers, sizeof **paths);
    if (!dir || !*paths) {
        free(dir);
        free(*paths);
        *paths = NULL;
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    for (; *n < o->n_tickers; (*n)++) {
        char name[GEN_TICKER_CHARS + 40];
        snprintf(name, sizeof name, "%s_%s.csv", o->tickers[*n], tf_text);
        if (!((*paths)[*n] = plat_path_join(dir, name))) {
            free(dir);
            return ev_fail(err, EV_ENOMEM, "out of memory");
        }
    }
    free(dir);
    return EV_OK;
}

ev_status gen_data_bars_check(const gen_data_opts_t *o, const char *tf_text, ev_error *err)
{
    char **paths;
    int32_t tf;
    int n;
    ev_status st;
    if ((st = timeframe_of(tf_text, &tf, err)) != EV_OK ||
        (st = gen_data_bars_paths(o, tf_text, &paths, &n, err)) != EV_OK)
        return st;
    st = gen_marker_check(o->out_dir, paths, n, err);
    gen_data_bars_free(paths, n);
    return st;
}

ev_status gen_data_bars_write(const gen_data_opts_t *o, const char *tf_text, FILE *log, ev_error *err)
{
    char *market = plat_path_join(o->out_dir, "market");
    char *dir = plat_path_join(o->out_dir, "bars");
    char **paths = NULL;
    int32_t tf;
    int n = 0;
    ev_status st;
    if (!market || !dir)
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    else if ((st = timeframe_of(tf_text, &tf, err)) == EV_OK &&
             (st = gen_data_bars_paths(o, tf_text, &paths, &n, err)) == EV_OK)
        st = plat_mkdirs(dir, err);
    for (int i = 0; i < n && st == EV_OK; i++) {
        bars_t b;
        if ((st = bars_from_market(market, o->tickers[i], tf, &b, err)) != EV_OK)
            break;
        st = bars_write_csv(&b, paths[i], err);
        if (st == EV_OK && log)
            fprintf(log, "gen-data: wrote %lld %s bars of %s to %s\n", (long long)b.n, tf_text, o->tickers[i],
                    paths[i]);
        bars_free(&b);
    }
    gen_data_bars_free(paths, n);
    free(market);
    free(dir);
    return st;
}
