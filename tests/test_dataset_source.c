/* dataset_obtain: CSVs are ingested once into the cache file, which is then
 * reused while the inputs' bytes and the options are unchanged (a touched
 * file is not a change, one changed byte is), rebuilt when they change or
 * never over a file that is not an evolve dataset; a dataset file alone is
 * read as is. Without data.cache, configs on the same data share one file of
 * the shared cache (EVOLVE_CACHE_DIR, which tests/CMakeLists.txt sets per test).
 * Over the cap (EVOLVE_CACHE_MAX_MB, whole megabytes; another text is the
 * default) the least recently used cache files go first, each with its
 * .inputs, only until the folder fits, never the file just built, and a
 * file of the folder not named as a cache file stays. */
#define _POSIX_C_SOURCE 200809L /* setenv: the cap changed between builds */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/plat_cache.h"
#include "common/platform.h"
#include "io/dataset_cache.h"
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

/* trades_one with one byte changed: the same size */
static const char trades_one_b[] =
    "Date,Ticker,Entry Price,Entry Time,Exit Time,Trade Percent Change\n"
    "09/17/2014,SOXL,10.0,09:30:00,09:31:00,11\n";

static const char trades_two[] =
    "Date,Ticker,Entry Price,Entry Time,Exit Time,Trade Percent Change\n"
    "09/17/2014,SOXL,10.0,09:30:00,09:31:00,10\n"
    "09/17/2014,SOXL,10.5,09:30:30,09:31:00,4.76\n";

static char *soxl[] = {(char *)"SOXL"};

/* Runs dataset_obtain with a fresh log; returns the log text (caller frees). */
static char *obtain(config_t *cfg, dataset_t *ds, ev_status *st, ev_error *err)
{
    FILE *log = tmpfile();
    char *text;
    *st = dataset_obtain(cfg, ds, log, err);
    text = fx_slurp(log);
    fclose(log);
    return text;
}

/* The number of dataset files in the shared cache. */
static size_t shared_files(void)
{
    dataset_cache_entry_t *e;
    size_t n = 0;
    char *dir = NULL;
    ev_error err;
    if (dataset_cache_dir(&dir, &err) != EV_OK || dataset_cache_entries(dir, &e, &n, &err) != EV_OK)
        fprintf(stderr, "%s\n", err.msg);
    else
        dataset_cache_entries_free(e, n);
    free(dir);
    return n;
}

/* Two configs (other outputs, one with copies of the inputs elsewhere) on the
 * same bytes share one cache file; a touch keeps it; a changed byte makes
 * another; the cap removes the least recently used. */
static void test_shared(void)
{
    config_t a, b;
    dataset_t ds;
    ev_error err;
    ev_status st;
    char *log, *dir = NULL, *first, *abs;
    CHECK(dataset_cache_dir(&dir, &err) == EV_OK && fx_clean_dir(dir) == 0);
    free(dir);
    fx_write(DIR "/trades.csv", trades_one);
    if (fx_clean_dir(DIR "/copy/market") || fx_write(DIR "/copy/market/Raw_Market_data_09-17-2014.csv", market) ||
        fx_write(DIR "/copy/trades.csv", trades_one))
        return;
    memset(&a, 0, sizeof a);
    a.path = (char *)"a.yaml";
    a.output = (char *)"out/a.h5";
    a.market_dir = (char *)DIR "/market";
    a.trades_path = (char *)DIR "/trades.csv";
    a.dataset_is_cache = 1;
    a.tickers = soxl;
    a.n_tickers = 1;
    b = a;
    b.path = (char *)"b.yaml";
    b.output = (char *)"elsewhere/b.h5";
    b.market_dir = (char *)DIR "/copy/market";
    b.trades_path = (char *)DIR "/copy/trades.csv";

    log = obtain(&a, &ds, &st, &err);
    CHECK(st == EV_OK && a.dataset_path != NULL);
    CHECK_CONTAINS(log, "wrote dataset ");
    CHECK_CONTAINS(a.dataset_path, "/datasets/");
    CHECK_EQ_I64(1, (long long)shared_files());
    first = dataset_cache_inputs(a.dataset_path); /* what it was built from: absolute paths */
    abs = plat_abs_path(DIR "/trades.csv");
    CHECK(first && abs && strncmp(first, abs, strlen(abs)) == 0);
    CHECK_CONTAINS(first, "trades.csv + ");
    CHECK_CONTAINS(first, "(SOXL)");
    free(abs);
    free(first);
    free(log);
    dataset_free(&ds);

    log = obtain(&b, &ds, &st, &err);
    CHECK(st == EV_OK);
    CHECK_CONTAINS(log, "reusing cached dataset ");
    CHECK_STR(a.dataset_path, b.dataset_path);
    CHECK_EQ_I64(1, (long long)shared_files());
    /* the run records where its own inputs are */
    CHECK_STR(DIR "/copy/market/Raw_Market_data_09-17-2014.csv", ds.sources[0].path);
    CHECK_STR(DIR "/copy/trades.csv", ds.sources[1].path);
    free(log);
    dataset_free(&ds);
    free(b.dataset_path);
    b.dataset_path = NULL;

    /* rewritten with the same bytes (a new mtime): still the same file */
    plat_sleep_ms(20);
    fx_write(DIR "/copy/trades.csv", trades_one);
    log = obtain(&b, &ds, &st, &err);
    CHECK(st == EV_OK);
    CHECK_CONTAINS(log, "reusing cached dataset ");
    CHECK_EQ_I64(1, (long long)shared_files());
    free(log);
    dataset_free(&ds);
    free(b.dataset_path);
    b.dataset_path = NULL;

    /* one byte changed: another file, holding the new outcome */
    fx_write(DIR "/copy/trades.csv", trades_one_b);
    log = obtain(&b, &ds, &st, &err);
    CHECK(st == EV_OK);
    CHECK_CONTAINS(log, "wrote dataset ");
    CHECK(strcmp(a.dataset_path, b.dataset_path) != 0);
    CHECK_EQ_I64(2, (long long)shared_files());
    CHECK(ds.n_trades == 1 && ds.pct_change[0] == 11.0);
    free(log);
    dataset_free(&ds);

    /* a cap of 0 MB: building a third removes the two others, never the new one */
    plat_setenv_default("EVOLVE_CACHE_MAX_MB", "0");
    free(b.dataset_path);
    b.dataset_path = NULL;
    b.strict = 1;
    log = obtain(&b, &ds, &st, &err);
    CHECK(st == EV_OK);
    CHECK_CONTAINS(log, "removed the least recently used dataset cache");
    CHECK_EQ_I64(1, (long long)shared_files());
    CHECK(plat_stat(b.dataset_path, &(plat_stat_t){0}) == 0);
    free(log);
    dataset_free(&ds);
    free(a.dataset_path);
    free(b.dataset_path);
}

static void set_env(const char *name, const char *value)
{
#ifdef _WIN32
    (void)_putenv_s(name, value);
#else
    (void)setenv(name, value, 1);
#endif
}

/* name in the shared cache folder, bytes long, its last use now (malloc'ed path). */
static char *cache_entry(const char *dir, const char *name, size_t bytes)
{
    char *path = plat_path_join(dir, name);
    FILE *f = path ? fopen(path, "wb") : NULL;
    for (size_t i = 0; f && i < bytes; i++)
        fputc(0, f);
    if (f)
        fclose(f);
    plat_sleep_ms(20); /* the next one is used later */
    return path;
}

static int there(const char *path)
{
    plat_stat_t ps;
    return plat_stat(path, &ps) == 0;
}

/* Three cache files of 0.6 MB, used one after the other, a foreign file and
 * the file just built: a cap of 1 MB removes the two least recently used
 * and their .inputs, not the most recent, the new one or the foreign one;
 * "1MB" is no cap; a cap of 0 leaves the file just built alone. */
static void test_cap_order(void)
{
    static const char *const names[] = {"00000000000000a1.h5", "00000000000000b2.h5", "00000000000000c3.h5"};
    enum { SIZE = 600 * 1024 };
    char *dir = NULL, *path[3], *inputs[3], *foreign, *built, *log;
    ingest_opts_t o;
    ev_error err;
    FILE *f = tmpfile();
    if (!f || dataset_cache_dir(&dir, &err) != EV_OK || fx_clean_dir(dir) != 0) {
        CHECK(!"the shared cache folder");
        if (f)
            fclose(f);
        free(dir);
        return;
    }
    memset(&o, 0, sizeof o);
    o.market_dir = DIR "/market";
    o.trades_path = DIR "/trades.csv";
    foreign = cache_entry(dir, "my-own-notes-xyz.h5", 3 * SIZE); /* the oldest, and the largest */
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "%.16s.inputs", names[i]);
        inputs[i] = cache_entry(dir, name, 10);
        path[i] = cache_entry(dir, names[i], SIZE);
    }
    built = cache_entry(dir, "00000000000000d4.h5", 1024);
    set_env("EVOLVE_CACHE_MAX_MB", "1MB");
    dataset_cache_built(built, &o, f);
    CHECK(there(path[0]) && there(path[1]) && there(path[2]));
    set_env("EVOLVE_CACHE_MAX_MB", "1");
    dataset_cache_built(built, &o, f);
    log = fx_slurp(f);
    CHECK(!there(path[0]) && !there(path[1]) && !there(inputs[0]) && !there(inputs[1]));
    CHECK(there(path[2]) && there(inputs[2]) && there(built) && there(foreign));
    CHECK_CONTAINS(log, names[0]);
    CHECK_CONTAINS(log, names[1]);
    CHECK(!strstr(log, names[2]) && !strstr(log, "my-own-notes"));
    set_env("EVOLVE_CACHE_MAX_MB", "0");
    dataset_cache_built(built, &o, f);
    CHECK(!there(path[2]) && there(built) && there(foreign));
    fclose(f);
    free(log);
    for (int i = 0; i < 3; i++) {
        free(path[i]);
        free(inputs[i]);
    }
    free(foreign);
    free(built);
    free(dir);
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

    /* The same bytes written again (another mtime): reused. */
    plat_sleep_ms(20);
    fx_write(DIR "/trades.csv", trades_one);
    log = obtain(&cfg, &ds, &st, &err);
    CHECK(st == EV_OK);
    CHECK_CONTAINS(log, "reusing cached dataset " CACHE);
    free(log);
    dataset_free(&ds);

    /* One byte changed, the same size: rebuilt. */
    fx_write(DIR "/trades.csv", trades_one_b);
    log = obtain(&cfg, &ds, &st, &err);
    CHECK(st == EV_OK);
    CHECK_CONTAINS(log, "changed since " CACHE);
    CHECK(ds.n_trades == 1 && ds.pct_change[0] == 11.0);
    free(log);
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
    cfg.dataset_path = NULL;
    plat_setenv_default("EVOLVE_CACHE_DIR", DIR "/shared"); /* when run outside ctest */
    test_shared();
    test_cap_order();
    return check_exit();
}
