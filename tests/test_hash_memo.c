#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv: plat_cache_dir under each variable */
/* The content-hash memo (io/hash_memo.h): an entry is used only for the file
 * as recorded (size, mtime, identity) and only when the file had settled
 * before it was hashed; entries survive a close and a reopen; and the ingest
 * key takes a file's hash from the memo (a planted entry changes the key)
 * until the file is touched, when it is read again. docs/dataset.md "The
 * dataset cache": the memo keeps the 4,096 most recently hashed files; a
 * path with a line break is never recorded (a line a file: it would read
 * back as another path); the key holds each market file's name (its date)
 * and the tickers; the cache folder is $EVOLVE_CACHE_DIR, else an absolute
 * $XDG_CACHE_HOME/evolve, else $HOME/.cache/evolve (an empty variable is
 * not set). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/plat_cache.h"
#include "common/platform.h"
#include "io/hash_memo.h"
#include "io/ingest.h"
#include "tests/check.h"
#include "tests/fixture_files.h"

#define DIR "tmp_hash_memo"

static const char market[] = "Ticker,Price,Time\nSOXL,10.0,09:30:00\nSOXL,11.0,09:31:00\n";
static const char trades[] =
    "Date,Ticker,Entry Price,Entry Time,Exit Time,Trade Percent Change\n"
    "09/17/2014,SOXL,10.0,09:30:00,09:31:00,10\n";

static void test_entries(const char *abs)
{
    plat_stat_t st, other;
    uint64_t h = 0;
    hash_memo_t *m = hash_memo_open(DIR "/memo");
    CHECK(m != NULL && plat_stat(abs, &st) == 0);
    if (!m)
        return;
    CHECK(!hash_memo_get(m, abs, &st, &h)); /* empty */
    hash_memo_put(m, abs, &st, st.mtime_ns + HASH_MEMO_SETTLE_NS, 0x1234);
    CHECK(hash_memo_get(m, abs, &st, &h) && h == 0x1234);
    other = st;
    other.size++;
    CHECK(!hash_memo_get(m, abs, &other, &h));
    other = st;
    other.mtime_ns++;
    CHECK(!hash_memo_get(m, abs, &other, &h));
    other = st;
    other.ino++;
    CHECK(!hash_memo_get(m, abs, &other, &h));
    CHECK(!hash_memo_get(m, DIR "/elsewhere.csv", &st, &h));
    /* hashed less than the settling time after its last write: never used */
    hash_memo_put(m, DIR "/racy.csv", &st, st.mtime_ns + HASH_MEMO_SETTLE_NS - 1, 0x99);
    CHECK(!hash_memo_get(m, DIR "/racy.csv", &st, &h));
    hash_memo_close(m);
    m = hash_memo_open(DIR "/memo"); /* read back */
    h = 0;
    CHECK(m && hash_memo_get(m, abs, &st, &h) && h == 0x1234);
    CHECK(!hash_memo_get(m, DIR "/racy.csv", &st, &h));
    hash_memo_close(m);
}

/* Over HASH_MEMO_MAX_ENTRIES, the oldest hashes are dropped on the way out. */
static void test_cap(const plat_stat_t *st)
{
    char path[64];
    uint64_t h = 0;
    hash_memo_t *m = hash_memo_open(DIR "/memo_cap");
    if (!m)
        return;
    for (int i = 0; i <= HASH_MEMO_MAX_ENTRIES; i++) { /* hashed at settle + i: entry 0 the oldest */
        snprintf(path, sizeof path, "/memo/file%d", i);
        hash_memo_put(m, path, st, st->mtime_ns + HASH_MEMO_SETTLE_NS + i, (uint64_t)i + 1);
    }
    hash_memo_close(m);
    m = hash_memo_open(DIR "/memo_cap");
    CHECK(m && !hash_memo_get(m, "/memo/file0", st, &h));
    CHECK(m && hash_memo_get(m, "/memo/file1", st, &h) && h == 2);
    snprintf(path, sizeof path, "/memo/file%d", HASH_MEMO_MAX_ENTRIES);
    CHECK(m && hash_memo_get(m, path, st, &h) && h == HASH_MEMO_MAX_ENTRIES + 1);
    hash_memo_close(m);
}

/* A path with a line break is not recorded: written, it would read back as
 * the path before the break, with another file's hash. */
static void test_line_break(const plat_stat_t *st)
{
    uint64_t h = 0;
    hash_memo_t *m = hash_memo_open(DIR "/memo_nl");
    if (!m)
        return;
    hash_memo_put(m, "/memo/a\n1 2 3 4 5 6 /memo/b", st, st->mtime_ns + HASH_MEMO_SETTLE_NS, 0x77);
    CHECK(!hash_memo_get(m, "/memo/a\n1 2 3 4 5 6 /memo/b", st, &h));
    hash_memo_close(m);
    m = hash_memo_open(DIR "/memo_nl");
    CHECK(m && !hash_memo_get(m, "/memo/a", st, &h));
    hash_memo_close(m);
}

/* The ingest key reads the memo of the cache folder. */
static void test_key(const char *abs_trades)
{
    static const char *const soxl[] = {"SOXL"};
    char *dir = plat_cache_dir(), *memo_path = dir ? plat_path_join(dir, "hash-memo") : NULL;
    ingest_opts_t o;
    uint64_t real = 0, planted = 0, touched = 0;
    plat_stat_t st;
    hash_memo_t *m;
    ev_error err;
    memset(&o, 0, sizeof o);
    o.market_dir = DIR "/market";
    o.trades_path = DIR "/trades.csv";
    o.tickers = soxl;
    o.n_tickers = 1;
    CHECK(memo_path && ingest_fingerprint(&o, &real, &err) == EV_OK);
    if (!memo_path || plat_stat(o.trades_path, &st) != 0) {
        free(dir);
        return;
    }
    m = hash_memo_open(memo_path); /* a settled entry with another hash than the file's */
    hash_memo_put(m, abs_trades, &st, st.mtime_ns + HASH_MEMO_SETTLE_NS, 0xdeadbeef);
    hash_memo_close(m);
    CHECK(ingest_fingerprint(&o, &planted, &err) == EV_OK && planted != real); /* taken from the memo */
    plat_sleep_ms(20);
    CHECK(plat_touch(o.trades_path) == 0);
    CHECK(ingest_fingerprint(&o, &touched, &err) == EV_OK && touched == real); /* read again */
    free(memo_path);
    free(dir);
}

/* The same bytes under another day's name, or other tickers: another key. */
static void test_key_inputs(void)
{
    static const char *const soxl[] = {"SOXL"}, *const soxs[] = {"SOXS"};
    ingest_opts_t o;
    uint64_t base = 0, day = 0, tickers = 0;
    ev_error err;
    if (fx_clean_dir(DIR "/market2") || fx_write(DIR "/market2/Raw_Market_data_09-18-2014.csv", market))
        return;
    memset(&o, 0, sizeof o);
    o.market_dir = DIR "/market";
    o.trades_path = DIR "/trades.csv";
    o.tickers = soxl;
    o.n_tickers = 1;
    CHECK(ingest_fingerprint(&o, &base, &err) == EV_OK);
    o.market_dir = DIR "/market2";
    CHECK(ingest_fingerprint(&o, &day, &err) == EV_OK && day != base);
    o.market_dir = DIR "/market";
    o.tickers = soxs;
    CHECK(ingest_fingerprint(&o, &tickers, &err) == EV_OK && tickers != base);
}

#ifndef _WIN32
/* plat_cache_dir under each variable (POSIX: Windows has LOCALAPPDATA). */
static void cache_dir_is(const char *evolve, const char *xdg, const char *home, const char *want)
{
    const char *name[3] = {"EVOLVE_CACHE_DIR", "XDG_CACHE_HOME", "HOME"}, *value[3] = {evolve, xdg, home};
    char *got;
    for (int i = 0; i < 3; i++)
        if (value[i])
            setenv(name[i], value[i], 1);
        else
            unsetenv(name[i]);
    got = plat_cache_dir();
    if (want)
        CHECK_STR(want, got ? got : "(none)");
    else
        CHECK(got == NULL);
    free(got);
}

static void test_cache_dir(void)
{
    const char *was = getenv("EVOLVE_CACHE_DIR");
    char keep[4096];
    snprintf(keep, sizeof keep, "%s", was ? was : "");
    cache_dir_is("/e/cache", "/x/cache", "/h", "/e/cache");
    cache_dir_is("", "/x/cache", "/h", "/x/cache/evolve");
    cache_dir_is(NULL, "x/cache", "/h", "/h/.cache/evolve"); /* a relative XDG_CACHE_HOME is ignored */
    cache_dir_is(NULL, "", "/h", "/h/.cache/evolve");
    cache_dir_is(NULL, NULL, "", NULL);
    cache_dir_is(keep[0] ? keep : NULL, NULL, NULL, keep[0] ? keep : NULL); /* as it was */
}
#endif

int main(void)
{
    plat_stat_t st;
    char *abs;
    if (fx_clean_dir(DIR) || fx_clean_dir(DIR "/market") ||
        fx_write(DIR "/market/Raw_Market_data_09-17-2014.csv", market) || fx_write(DIR "/trades.csv", trades))
        return 1;
    plat_setenv_default("EVOLVE_CACHE_DIR", DIR "/cache"); /* when run outside ctest */
    abs = plat_abs_path(DIR "/trades.csv");
    CHECK(abs != NULL);
    if (abs) {
        test_entries(abs);
        test_key(abs);
    }
    if (plat_stat(DIR "/trades.csv", &st) == 0) {
        test_cap(&st);
        test_line_break(&st);
    }
    test_key_inputs();
#ifndef _WIN32
    test_cache_dir();
#endif
    free(abs);
    return check_exit();
}
