/* ingest_build: market files + trade log -> dataset_t with provenance. */
#include "io/ingest.h"

#include <stdlib.h>
#include <string.h>

#include "build_info.h"
#include "common/platform.h"
#include "common/strutil.h"
#include "io/ingest_key.h"
#include "io/market_ingest.h"
#include "io/trades_ingest.h"

static ev_status check_opts(const ingest_opts_t *o, ev_error *err)
{
    if (!o->market_dir || !o->trades_path)
        return ev_fail(err, EV_ECONFIG, "ingest needs both a market directory and a trade log");
    if (o->n_tickers <= 0)
        return ev_fail(err, EV_ECONFIG, "no ticker to keep; expected at least one ticker");
    for (int32_t i = 0; i < o->n_tickers; i++) {
        if (!o->tickers[i][0] || strchr(o->tickers[i], ','))
            return ev_fail(err, EV_ECONFIG, "ticker '%s' is not a ticker name", o->tickers[i]);
        for (int32_t j = 0; j < i; j++)
            if (strcmp(o->tickers[i], o->tickers[j]) == 0)
                return ev_fail(err, EV_ECONFIG, "ticker %s is listed twice", o->tickers[i]);
    }
    return EV_OK;
}

static ev_status stat_trades(const char *path, plat_stat_t *st, ev_error *err)
{
    return plat_check_input(path, "the trade log CSV file", st, err);
}

ev_status ingest_fingerprint(const ingest_opts_t *opts, uint64_t *fp, ev_error *err)
{
    market_files_t files;
    ev_status st;
    if ((st = check_opts(opts, err)) != EV_OK || (st = stat_trades(opts->trades_path, &(plat_stat_t){0}, err)))
        return st;
    if ((st = market_list_files(opts->market_dir, &files, err)) != EV_OK)
        return st;
    st = ingest_key(&files, opts, fp, err);
    market_files_free(&files);
    return st;
}

static ev_status set_source(dataset_source_t *s, const char *path, const char *kind, int64_t size, int64_t mtime_ns,
                            int64_t rows, ev_error *err)
{
    s->path = ev_strdup(path);
    s->kind = ev_strdup(kind);
    s->size = size;
    s->mtime_ns = mtime_ns;
    s->rows = rows;
    return s->path && s->kind ? EV_OK : ev_fail(err, EV_ENOMEM, "out of memory");
}

static ev_status set_tickers(const ingest_opts_t *o, dataset_t *ds, ev_error *err)
{
    ds->tickers = (char **)calloc((size_t)o->n_tickers, sizeof *ds->tickers);
    if (!ds->tickers)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    ds->n_tickers = o->n_tickers;
    for (int32_t i = 0; i < o->n_tickers; i++)
        if (!(ds->tickers[i] = ev_strdup(o->tickers[i])))
            return ev_fail(err, EV_ENOMEM, "out of memory");
    return EV_OK;
}

/* Sources, tool version, time, fingerprints. */
static ev_status set_provenance(const ingest_opts_t *o, const market_files_t *files, const plat_stat_t *trades,
                                const int64_t *rows, dataset_t *ds, ev_error *err)
{
    char buf[128];
    ev_status st = EV_OK;
    ds->sources = (dataset_source_t *)calloc(files->n + 1, sizeof *ds->sources);
    if (!ds->sources)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    ds->n_sources = (int32_t)files->n + 1;
    for (size_t i = 0; i < files->n && st == EV_OK; i++)
        st = set_source(&ds->sources[i], files->files[i].path, "market", files->files[i].size, files->files[i].mtime_ns,
                        rows[i], err);
    if (st == EV_OK)
        st = set_source(&ds->sources[files->n], o->trades_path, "trades", trades->size, trades->mtime_ns,
                        rows[files->n], err);
    if (st != EV_OK)
        return st;
    ds->tool_version = ev_strdup(EVOLVE_TOOL_VERSION);
    plat_utc_timestamp(buf, sizeof buf);
    ds->created_utc = ev_strdup(buf);
    if (!ds->tool_version || !ds->created_utc)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    ds->content_hash = dataset_content_hash(ds);
    return ingest_key(files, o, &ds->input_fingerprint, err);
}

ev_status ingest_build(const ingest_opts_t *opts, dataset_t *out, ev_error *err)
{
    market_files_t files;
    plat_stat_t trades;
    trades_log_t *log = NULL;
    int64_t *rows = NULL; /* data rows per source: market files, then the log */
    ev_status st;
    memset(out, 0, sizeof *out);
    memset(&files, 0, sizeof files);
    if ((st = check_opts(opts, err)) != EV_OK || (st = stat_trades(opts->trades_path, &trades, err)))
        return st;
    if ((st = market_list_files(opts->market_dir, &files, err)) != EV_OK)
        return st;
    /* The log's header is checked before the long read of the market files. */
    if ((st = trades_open(opts, &log, err)) != EV_OK) {
        market_files_free(&files);
        return st;
    }
    if (!(rows = (int64_t *)calloc(files.n + 1, sizeof *rows)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    if (st == EV_OK)
        st = set_tickers(opts, out, err);
    if (st == EV_OK)
        st = market_ingest(&files, opts->tickers, opts->n_tickers, opts->log, out, rows, err);
    if (st == EV_OK)
        st = trades_ingest(log, &files, out, &rows[files.n], err);
    trades_close(log);
    if (st == EV_OK)
        st = set_provenance(opts, &files, &trades, rows, out, err);
    free(rows);
    market_files_free(&files);
    if (st != EV_OK)
        dataset_free(out);
    return st;
}

void ingest_print_summary(const dataset_t *ds, FILE *out)
{
    int64_t dropped = 0, n_market = 0;
    const char *log = "the trade log";
    if (!out)
        return;
    for (int r = 0; r < DROP_REASON_COUNT; r++)
        dropped += ds->drops[r];
    for (int32_t i = 0; i < ds->n_sources; i++) {
        if (strcmp(ds->sources[i].kind, "market") == 0)
            n_market++;
        else
            log = ds->sources[i].path;
    }
    fprintf(out, "ingest: %s: %lld trade row(s), %lld of other tickers (skipped)\n", log, (long long)ds->trades_read,
            (long long)ds->trades_other_ticker);
    fprintf(out, "ingest: %lld trade(s) kept, %lld dropped:", (long long)ds->n_trades, (long long)dropped);
    for (int r = 0; r < DROP_REASON_COUNT; r++)
        fprintf(out, " %s %lld", drop_reason_name((drop_reason)r), (long long)ds->drops[r]);
    fprintf(out, "\ningest: %lld market file(s), %lld row(s) read; prices kept:", (long long)n_market,
            (long long)ds->market_rows_read);
    for (int32_t t = 0; t < ds->n_tickers; t++)
        fprintf(out, " %s %lld", ds->tickers[t], (long long)(ds->ticker_end[t] - ds->ticker_begin[t]));
    fprintf(out,
            "\ningest: %lld duplicate second(s) (the last row kept), %lld file(s) with rows out "
            "of time order (sorted)\n",
            (long long)ds->market_duplicates, (long long)ds->market_files_unsorted);
}
