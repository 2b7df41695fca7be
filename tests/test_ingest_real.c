/* Ingest of the real fixture (../shared/data/real-hf, see its README): NYSE
 * TAQ prices of ETF, AAA, BBB (2014-09-17) and XXX (2018-01-02/03) and 34
 * trades. Counts come from the files (wc -l less the header); every trade's
 * path is checked against an independent scan of the CSV text. Skips (77)
 * where the fixture is absent. */
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "io/ingest.h"
#include "io/timeparse.h"
#include "tests/check.h"

#define REAL EVOLVE_SHARED_DATA "/real-hf"

static const char *const tickers[] = {"ETF", "AAA", "BBB", "XXX"};

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
static void count_rows(const char *dir, long long counts[4])
{
    static const char *const files[] = {"Raw_Market_data_09-17-2014.csv", "Raw_Market_data_01-02-2018.csv",
                                        "Raw_Market_data_01-03-2018.csv"};
    char line[512], path[1024];
    for (int i = 0; i < 4; i++)
        counts[i] = 0;
    for (int i = 0; i < 3; i++) {
        FILE *f;
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if (!(f = fopen(path, "r")))
            continue;
        while (fgets(line, sizeof line, f))
            for (int t = 0; t < 4; t++)
                if (strncmp(line, tickers[t], strlen(tickers[t])) == 0 && line[strlen(tickers[t])] == ',')
                    counts[t]++;
        fclose(f);
    }
}

static void check_paths(const dataset_t *ds)
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
        snprintf(path, sizeof path, REAL "/market/Raw_Market_data_%02d-%02d-%04d.csv", m, d, (int)y);
        if (first_row_at_or_after(path, tickers[t], (int)(ds->entry_ts[j] - day * 86400), &got_secs, &price)) {
            CHECK_EQ_I64(day * 86400 + got_secs, ds->ts[s]);
            CHECK_EQ_F64(price, ds->price[s]);
            checked++;
        }
    }
    CHECK_EQ_I64(34, checked);
}

int main(void)
{
    ingest_opts_t o;
    dataset_t ds;
    ev_error err;
    plat_stat_t st;
    long long counts[4];
    if (plat_stat(REAL "/all_trade_logs.csv", &st) != 0) {
        printf("skipped: the real fixture %s is absent\n", REAL);
        return CHECK_SKIP_CODE;
    }
    memset(&o, 0, sizeof o);
    o.market_dir = REAL "/market";
    o.trades_path = REAL "/all_trade_logs.csv";
    o.tickers = tickers;
    o.n_tickers = 4;
    if (ingest_build(&o, &ds, &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    CHECK_EQ_I64(34, ds.n_trades);
    CHECK_EQ_I64(34, ds.trades_read);
    CHECK_EQ_I64(0, ds.trades_other_ticker);
    for (int r = 0; r < DROP_REASON_COUNT; r++)
        CHECK_EQ_I64(0, ds.drops[r]);
    CHECK_EQ_I64(0, ds.market_duplicates);
    CHECK_EQ_I64(0, ds.market_files_unsorted);
    CHECK_EQ_I64(19899 + 10016 + 9468, ds.market_rows_read);
    count_rows(REAL "/market", counts);
    CHECK_EQ_I64(counts[0] + counts[1] + counts[2] + counts[3], ds.n_prices);
    for (int t = 0; t < 4; t++)
        CHECK_EQ_I64(counts[t], ds.ticker_end[t] - ds.ticker_begin[t]);
    CHECK_EQ_I64(7, ds.n_features);
    CHECK_EQ_I64(4, ds.n_sources);
    if (ds.n_sources == 4) {
        CHECK_STR(REAL "/market/Raw_Market_data_09-17-2014.csv", ds.sources[0].path);
        CHECK_EQ_I64(19899, ds.sources[0].rows);
        CHECK_EQ_I64(10016, ds.sources[1].rows);
        CHECK_EQ_I64(9468, ds.sources[2].rows);
        CHECK_EQ_I64(34, ds.sources[3].rows);
    }
    check_paths(&ds);
    dataset_free(&ds);
    return check_exit();
}
