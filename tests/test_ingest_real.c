/* Ingest of real prices: the bundled sample (samples/real, see its README:
 * Lean's second bars of SPY, AIG, BAC, IBM, 7-11 October 2013, and 76
 * trades), always; and the optional fixture ../shared/data/real-hf (NYSE TAQ
 * prices of ETF, AAA, BBB on 2014-09-17 and XXX on 2018-01-02/03, 34 trades)
 * where it exists beside the checkout. Counts come from the files (wc -l less
 * the header); every trade's path is checked against an independent scan of
 * the CSV text. */
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "io/ingest.h"
#include "io/timeparse.h"
#include "tests/check.h"

#define MAX_TICKERS 4
#define MAX_FILES 5

typedef struct {
    const char *dir; /* holds market/ and all_trade_logs.csv */
    const char *tickers[MAX_TICKERS];
    int n_tickers;
    const char *files[MAX_FILES]; /* the market files, in date order */
    long long rows[MAX_FILES];    /* their data rows */
    int n_files;
    long long trades;
} fixture_t;

static const fixture_t bundled = {EVOLVE_SOURCE_DIR "/samples/real",
                                  {"SPY", "AIG", "BAC", "IBM"},
                                  4,
                                  {"Raw_Market_data_10-07-2013.csv", "Raw_Market_data_10-08-2013.csv",
                                   "Raw_Market_data_10-09-2013.csv", "Raw_Market_data_10-10-2013.csv",
                                   "Raw_Market_data_10-11-2013.csv"},
                                  {12915, 14745, 14749, 15125, 13306},
                                  5,
                                  76};

static const fixture_t shared = {
    EVOLVE_SHARED_DATA "/real-hf",
    {"ETF", "AAA", "BBB", "XXX"},
    4,
    {"Raw_Market_data_09-17-2014.csv", "Raw_Market_data_01-02-2018.csv", "Raw_Market_data_01-03-2018.csv"},
    {19899, 10016, 9468},
    3,
    34};

/* The first row of `ticker` at or after `secs` in a market file, read
 * straight from the text (the files are sorted by time): its second and
 * (float)strtod price. Returns 0 when there is none. */
static int first_row_at_or_after(const char *path, const char *ticker, int secs, int *got_secs, float *price)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int found = 0;
    if (!f)
        return 0;
    if (!fgets(line, sizeof line, f)) { /* header: Ticker,Price,...,Time */
        fclose(f);
        return 0;
    }
    while (!found && fgets(line, sizeof line, f)) {
        char *comma = strchr(line, ','), *last = strrchr(line, ',');
        int h, m, s;
        if (!comma || !last || (size_t)(comma - line) != strlen(ticker) || strncmp(line, ticker, strlen(ticker)) != 0)
            continue;
        if (sscanf(last + 1, "%d:%d:%d", &h, &m, &s) != 3 || h * 3600 + m * 60 + s < secs)
            continue;
        *got_secs = h * 3600 + m * 60 + s;
        *price = (float)strtod(comma + 1, NULL);
        found = 1;
    }
    fclose(f);
    return found;
}

/* Rows per ticker over all market files, counted from the text. */
static void count_rows(const fixture_t *x, long long counts[MAX_TICKERS])
{
    char line[512], path[1024];
    for (int i = 0; i < MAX_TICKERS; i++)
        counts[i] = 0;
    for (int i = 0; i < x->n_files; i++) {
        FILE *f;
        snprintf(path, sizeof path, "%s/market/%s", x->dir, x->files[i]);
        if (!(f = fopen(path, "r")))
            continue;
        while (fgets(line, sizeof line, f))
            for (int t = 0; t < x->n_tickers; t++)
                if (strncmp(line, x->tickers[t], strlen(x->tickers[t])) == 0 && line[strlen(x->tickers[t])] == ',')
                    counts[t]++;
        fclose(f);
    }
}

static void check_paths(const fixture_t *x, const dataset_t *ds)
{
    int checked = 0;
    for (int64_t j = 0; j < ds->n_trades; j++) {
        int32_t t = ds->ticker[j];
        int64_t s = ds->start[j], e = ds->end[j], b = ds->ticker_begin[t], te = ds->ticker_end[t];
        int64_t day = ds->entry_ts[j] / 86400, y;
        int m, d, got_secs = -1;
        float price = 0;
        char path[1024];
        /* The path brackets the trade: nothing of its ticker in between is left out. */
        CHECK(b <= s && s < e && e <= te);
        CHECK(ds->ts[s] >= ds->entry_ts[j]);
        CHECK(s == b || ds->ts[s - 1] < ds->entry_ts[j]);
        CHECK(ds->ts[e - 1] <= ds->exit_ts[j]);
        CHECK(e == te || ds->ts[e] > ds->exit_ts[j]);
        if (j > 0 && ds->ticker[j - 1] == t)
            CHECK(ds->entry_ts[j - 1] <= ds->entry_ts[j]);
        /* price[start] is the CSV's first row of that ticker at or after the entry. */
        time_civil_from_days(day, &y, &m, &d);
        snprintf(path, sizeof path, "%s/market/Raw_Market_data_%02d-%02d-%04d.csv", x->dir, m, d, (int)y);
        if (first_row_at_or_after(path, x->tickers[t], (int)(ds->entry_ts[j] - day * 86400), &got_secs, &price)) {
            CHECK_EQ_I64(day * 86400 + got_secs, ds->ts[s]);
            CHECK_EQ_F64(price, ds->price[s]);
            checked++;
        }
    }
    CHECK_EQ_I64(x->trades, checked);
}

static void check_fixture(const fixture_t *x)
{
    ingest_opts_t o;
    dataset_t ds;
    ev_error err;
    char market[1024], trades[1024];
    long long counts[MAX_TICKERS], rows = 0, prices = 0;
    memset(&o, 0, sizeof o);
    snprintf(market, sizeof market, "%s/market", x->dir);
    snprintf(trades, sizeof trades, "%s/all_trade_logs.csv", x->dir);
    o.market_dir = market;
    o.trades_path = trades;
    o.tickers = x->tickers;
    o.n_tickers = x->n_tickers;
    if (ingest_build(&o, &ds, &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK(0);
        return;
    }
    CHECK_EQ_I64(x->trades, ds.n_trades);
    CHECK_EQ_I64(x->trades, ds.trades_read);
    CHECK_EQ_I64(0, ds.trades_other_ticker);
    for (int r = 0; r < DROP_REASON_COUNT; r++)
        CHECK_EQ_I64(0, ds.drops[r]);
    CHECK_EQ_I64(0, ds.market_duplicates);
    CHECK_EQ_I64(0, ds.market_files_unsorted);
    for (int i = 0; i < x->n_files; i++)
        rows += x->rows[i];
    CHECK_EQ_I64(rows, ds.market_rows_read);
    count_rows(x, counts);
    for (int t = 0; t < x->n_tickers; t++) {
        CHECK_EQ_I64(counts[t], ds.ticker_end[t] - ds.ticker_begin[t]);
        prices += counts[t];
    }
    CHECK_EQ_I64(prices, ds.n_prices);
    CHECK_EQ_I64(7, ds.n_features);
    CHECK_EQ_I64(x->n_files + 1, ds.n_sources);
    if (ds.n_sources == x->n_files + 1) {
        char first[2100];
        snprintf(first, sizeof first, "%s/%s", market, x->files[0]);
        CHECK_STR(first, ds.sources[0].path);
        for (int i = 0; i < x->n_files; i++)
            CHECK_EQ_I64(x->rows[i], ds.sources[i].rows);
        CHECK_EQ_I64(x->trades, ds.sources[x->n_files].rows);
    }
    check_paths(x, &ds);
    dataset_free(&ds);
}

int main(void)
{
    plat_stat_t st;
    check_fixture(&bundled);
    if (plat_stat(shared.dir, &st) == 0)
        check_fixture(&shared);
    else
        printf("note: the optional fixture %s is absent; only the bundled sample was checked\n", shared.dir);
    return check_exit();
}
