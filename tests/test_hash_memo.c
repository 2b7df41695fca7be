/* The content-hash memo (io/hash_memo.h): an entry is used only for the file
 * as recorded (size, mtime, identity) and only when the file had settled
 * before it was hashed; entries survive a close and a reopen; and the ingest
 * key takes a file's hash from the memo (a planted entry changes the key)
 * until the file is touched, when it is read again. */
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

int main(void)
{
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
    free(abs);
    return check_exit();
}
