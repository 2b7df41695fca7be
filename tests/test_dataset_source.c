/* dataset_obtain: CSVs are ingested once into the cache file, which is then
 * reused while inputs and options are unchanged, rebuilt when they change or
 * never over a file that is not an evolve dataset; a dataset file alone is read as is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "io/dataset_source.h"
#include "tests/check.h"
#include "tests/fixture_files.h"

#define DIR "tmp_dataset_source"
#define CACHE DIR "/cache/sub/ds.h5"
#define FILL "0,0,0,0,0,0,0,0,0,0,0"

/* One row a line: */
/* clang-format off */
static const char market[] = "Ticker,Price,Val,Avg,Atr14,Atr28,Rsi,Volume,Adx28,Adx14,Adx7,"
                             "Volatility Percent,Volatility Ratio,Time\n"
                             "SOXL,10.0," FILL ",09:30:00\n"
                             "SOXL,10.5," FILL ",09:30:30\n"
                             "SOXL,11.0," FILL ",09:31:00\n";

/* clang-format on */
static const char trades_one[] =
    "Date,Ticker,Entry Price,Entry Time,Exit Time,Trade Percent Change\n"
    "09/17/2014,SOXL,10.0,09:30:00,09:31:00,10\n";

static const char trades_two[] =
    "Date,Ticker,Entry Price,Entry Time,Exit Time,Trade Percent Change\n"
    "09/17/2014,SOXL,10.0,09:30:00,09:31:00,10\n"
    "09/17/2014,SOXL,10.5,09:30:30,09:31:00,4.76\n";

static char *soxl[] = {(char *)"SOXL"};

/* Runs dataset_obtain with a fresh log; returns the log text (caller frees). */
static char *obtain(const config_t *cfg, dataset_t *ds, ev_status *st, ev_error *err)
{
    FILE *log = tmpfile();
    char *text;
    *st = dataset_obtain(cfg, ds, log, err);
    text = fx_slurp(log);
    fclose(log);
    return text;
}

int main(void)
{
    config_t cfg;
    dataset_t ds, again;
    ev_error err;
    ev_status st;
    plat_stat_t ps;
    char *log;
    if (fx_clean_dir(DIR) || fx_clean_dir(DIR "/market") || fx_clean_dir(DIR "/cache/sub") ||
        fx_write(DIR "/market/Raw_Market_data_09-17-2014.csv", market) || fx_write(DIR "/trades.csv", trades_one))
        return 1;
    memset(&cfg, 0, sizeof cfg);
    cfg.path = (char *)"test.yaml";
    cfg.market_dir = (char *)DIR "/market";
    cfg.trades_path = (char *)DIR "/trades.csv";
    cfg.dataset_path = (char *)CACHE;
    cfg.dataset_is_cache = 1;
    cfg.tickers = soxl;
    cfg.n_tickers = 1;

    /* First run: ingest, print the summary, write the cache. */
    log = obtain(&cfg, &ds, &st, &err);
    CHECK(st == EV_OK);
    CHECK_CONTAINS(log, "1 trade(s) kept");
    CHECK_CONTAINS(log, "wrote dataset " CACHE);
    CHECK(plat_stat(CACHE, &ps) == 0);
    CHECK_EQ_I64(1, ds.n_trades);
    free(log);

    /* Second run: the cache is reused, the same dataset comes back. */
    log = obtain(&cfg, &again, &st, &err);
    CHECK(st == EV_OK);
    CHECK_CONTAINS(log, "reusing cached dataset " CACHE);
    CHECK(again.content_hash == ds.content_hash);
    CHECK(strstr(log, "trade(s) kept") == NULL); /* no ingest happened */
    free(log);
    dataset_free(&again);
    dataset_free(&ds);

    /* A changed trade log (another size): rebuilt. */
    fx_write(DIR "/trades.csv", trades_two);
    log = obtain(&cfg, &ds, &st, &err);
    CHECK(st == EV_OK);
    CHECK_CONTAINS(log, "changed since " CACHE);
    CHECK_EQ_I64(2, ds.n_trades);
    free(log);
    dataset_free(&ds);

    /* Another option (strict): rebuilt too. */
    cfg.strict = 1;
    log = obtain(&cfg, &ds, &st, &err);
    CHECK(st == EV_OK);
    CHECK_CONTAINS(log, "changed since " CACHE);
    free(log);
    dataset_free(&ds);

    /* A cache path holding something that is not an evolve dataset (a typo,
     * an input) is refused, not overwritten. */
    CHECK(rename(CACHE, CACHE ".bak") == 0);
    fx_write(CACHE, "garbage");
    log = obtain(&cfg, &ds, &st, &err);
    CHECK(st == EV_EIO);
    CHECK_CONTAINS(err.msg, CACHE
                   ": refusing to overwrite it with the dataset cache (data.cache): it is not an "
                   "HDF5 file, not an evolve dataset");
    CHECK(plat_stat(CACHE, &ps) == 0 && ps.size == 7); /* "garbage", untouched */
    free(log);
    CHECK(plat_rename_replace(CACHE ".bak", CACHE, &err) == EV_OK); /* over "garbage", on Windows too */

    /* Only a dataset file: read as is. */
    cfg.market_dir = cfg.trades_path = NULL;
    cfg.dataset_is_cache = 0;
    log = obtain(&cfg, &ds, &st, &err);
    CHECK(st == EV_OK);
    CHECK_EQ_I64(2, ds.n_trades);
    free(log);
    dataset_free(&ds);
    cfg.dataset_path = (char *)DIR "/none.h5";
    log = obtain(&cfg, &ds, &st, &err);
    CHECK(st == EV_EIO);
    CHECK_CONTAINS(err.msg, DIR "/none.h5: no such file");
    free(log);

    /* Half a data source is a config error. */
    cfg.market_dir = (char *)DIR "/market";
    log = obtain(&cfg, &ds, &st, &err);
    CHECK(st == EV_ECONFIG);
    CHECK_CONTAINS(err.msg, "test.yaml: data.market_dir is set but data.trades is not");
    free(log);

    /* An ingest error is returned and no cache is written. */
    plat_remove(CACHE);
    cfg.trades_path = (char *)DIR "/trades.csv";
    cfg.dataset_path = (char *)CACHE;
    fx_write(DIR "/trades.csv", "Date,Ticker\n");
    log = obtain(&cfg, &ds, &st, &err);
    CHECK(st == EV_EPARSE);
    CHECK_CONTAINS(err.msg, "trades.csv:1: the header has no column 'Entry Price'");
    CHECK(plat_stat(CACHE, &ps) != 0);
    free(log);
    return check_exit();
}
