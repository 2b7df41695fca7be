/* The dataset file: write, read back, compare every array and field bit for
 * bit (large arrays go through chunking and compression, empty ones too);
 * a changed value or a flipped byte is caught by the content hash; files
 * that are missing, not HDF5 or not datasets get clear errors; a failed
 * write leaves nothing behind. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "common/platform.h"
#include "common/strutil.h"
#include "io/dataset_h5.h"
#include "tests/check.h"
#include "tests/fixture_files.h"

#define DIR "tmp_dataset_h5"

/* A dataset with every field set to something distinct. */
static void make_dataset(dataset_t *ds, int64_t np, int64_t nt, int32_t nf)
{
    size_t mp = (size_t)(np ? np : 1), mt = (size_t)(nt ? nt : 1);
    memset(ds, 0, sizeof *ds);
    ds->n_tickers = 2;
    ds->tickers = (char **)malloc(2 * sizeof(char *));
    ds->tickers[0] = ev_strdup("SOXL");
    ds->tickers[1] = ev_strdup("IONQ");
    ds->n_prices = np;
    ds->price = (float *)malloc(mp * sizeof(float));
    ds->ts = (int64_t *)malloc(mp * sizeof(int64_t));
    for (int64_t i = 0; i < np; i++) {
        ds->price[i] = (float)(10.0 + (double)(i % 977) * 0.01);
        ds->ts[i] = 1410946200 + i;
    }
    ds->ticker_begin = (int64_t *)malloc(2 * sizeof(int64_t));
    ds->ticker_end = (int64_t *)malloc(2 * sizeof(int64_t));
    ds->ticker_begin[0] = 0;
    ds->ticker_end[0] = ds->ticker_begin[1] = np / 2;
    ds->ticker_end[1] = np;
    ds->n_trades = nt;
    ds->ticker = (int32_t *)malloc(mt * sizeof(int32_t));
    ds->trade_id = (int64_t *)malloc(mt * sizeof(int64_t));
    ds->source_row = (int64_t *)malloc(mt * sizeof(int64_t));
    ds->entry_ts = (int64_t *)malloc(mt * sizeof(int64_t));
    ds->exit_ts = (int64_t *)malloc(mt * sizeof(int64_t));
    ds->start = (int64_t *)malloc(mt * sizeof(int64_t));
    ds->end = (int64_t *)malloc(mt * sizeof(int64_t));
    ds->entry_price = (double *)malloc(mt * sizeof(double));
    ds->pct_change = (double *)malloc(mt * sizeof(double));
    for (int64_t j = 0; j < nt; j++) { /* a path inside its ticker's half of the prices */
        int64_t lo = j * 2 >= nt ? np / 2 : 0, hi = j * 2 >= nt ? np : np / 2;
        ds->ticker[j] = (int32_t)(j * 2 >= nt);
        ds->trade_id[j] = 1000 + j;
        ds->source_row[j] = 2 + j;
        ds->entry_ts[j] = 1410946200 + 7 * j;
        ds->exit_ts[j] = 1410946200 + 7 * j + 60;
        ds->start[j] = lo + j % (hi - lo);
        ds->end[j] = ds->start[j] + 1;
        ds->entry_price[j] = 10.0 + 0.1 * (double)j;
        ds->pct_change[j] = j % 2 ? -0.123456789012345 : 1e-300;
    }
    ds->n_features = nf;
    ds->feature_names = (char **)malloc((size_t)(nf ? nf : 1) * sizeof(char *));
    ds->features = (double *)malloc((size_t)(nf ? nf : 1) * mt * sizeof(double));
    for (int32_t f = 0; f < nf; f++) {
        char name[64];
        snprintf(name, sizeof name, "Feature %d", (int)f);
        ds->feature_names[f] = ev_strdup(name);
        for (int64_t j = 0; j < nt; j++)
            ds->features[(size_t)f * (size_t)nt + (size_t)j] = (double)f + 1.0 / (double)(j + 3);
    }
    ds->drops[DROP_NO_MARKET_DAY] = 3;
    ds->drops[DROP_EMPTY_PATH] = 5;
    ds->drops[DROP_NON_FINITE] = 7;
    ds->trades_read = 11;
    ds->trades_other_ticker = 13;
    ds->market_rows_read = 17;
    ds->market_duplicates = 19;
    ds->market_files_unsorted = 23;
    ds->n_sources = 2;
    ds->sources = (dataset_source_t *)calloc(2, sizeof(dataset_source_t));
    ds->sources[0].path = ev_strdup("data/market/Raw_Market_data_09-17-2014.csv");
    ds->sources[0].kind = ev_strdup("market");
    ds->sources[0].size = 1783369;
    ds->sources[0].mtime_ns = 1700000000123456789LL;
    ds->sources[0].rows = 19899;
    ds->sources[1].path = ev_strdup("data/all_trade_logs.csv");
    ds->sources[1].kind = ev_strdup("trades");
    ds->sources[1].size = 3568;
    ds->sources[1].mtime_ns = -1;
    ds->sources[1].rows = 34;
    ds->tool_version = ev_strdup("evolve test");
    ds->created_utc = ev_strdup("2024-01-02T03:04:05Z");
    ds->input_fingerprint = 0xfedcba9876543210ULL; /* above INT64_MAX: stored unsigned */
    ds->content_hash = dataset_content_hash(ds);
}

#define SAME_ARRAY(a, b, field, n) \
    CHECK((n) == 0 || memcmp((a)->field, (b)->field, (size_t)(n) * sizeof *(a)->field) == 0)

static void check_same(const dataset_t *a, const dataset_t *b)
{
    CHECK_EQ_I64(a->n_tickers, b->n_tickers);
    for (int32_t i = 0; i < a->n_tickers && i < b->n_tickers; i++)
        CHECK_STR(a->tickers[i], b->tickers[i]);
    CHECK_EQ_I64(a->n_prices, b->n_prices);
    CHECK_EQ_I64(a->n_trades, b->n_trades);
    CHECK_EQ_I64(a->n_features, b->n_features);
    if (a->n_prices != b->n_prices || a->n_trades != b->n_trades || a->n_features != b->n_features)
        return;
    SAME_ARRAY(a, b, price, a->n_prices);
    SAME_ARRAY(a, b, ts, a->n_prices);
    SAME_ARRAY(a, b, ticker_begin, a->n_tickers);
    SAME_ARRAY(a, b, ticker_end, a->n_tickers);
    SAME_ARRAY(a, b, ticker, a->n_trades);
    SAME_ARRAY(a, b, trade_id, a->n_trades);
    SAME_ARRAY(a, b, source_row, a->n_trades);
    SAME_ARRAY(a, b, entry_ts, a->n_trades);
    SAME_ARRAY(a, b, exit_ts, a->n_trades);
    SAME_ARRAY(a, b, start, a->n_trades);
    SAME_ARRAY(a, b, end, a->n_trades);
    SAME_ARRAY(a, b, entry_price, a->n_trades);
    SAME_ARRAY(a, b, pct_change, a->n_trades);
    SAME_ARRAY(a, b, features, (int64_t)a->n_features * a->n_trades);
    for (int32_t f = 0; f < a->n_features; f++)
        CHECK_STR(a->feature_names[f], b->feature_names[f]);
    for (int r = 0; r < DROP_REASON_COUNT; r++)
        CHECK_EQ_I64(a->drops[r], b->drops[r]);
    CHECK_EQ_I64(a->trades_read, b->trades_read);
    CHECK_EQ_I64(a->trades_other_ticker, b->trades_other_ticker);
    CHECK_EQ_I64(a->market_rows_read, b->market_rows_read);
    CHECK_EQ_I64(a->market_duplicates, b->market_duplicates);
    CHECK_EQ_I64(a->market_files_unsorted, b->market_files_unsorted);
    CHECK_EQ_I64(a->n_sources, b->n_sources);
    for (int32_t i = 0; i < a->n_sources && i < b->n_sources; i++) {
        CHECK_STR(a->sources[i].path, b->sources[i].path);
        CHECK_STR(a->sources[i].kind, b->sources[i].kind);
        CHECK_EQ_I64(a->sources[i].size, b->sources[i].size);
        CHECK_EQ_I64(a->sources[i].mtime_ns, b->sources[i].mtime_ns);
        CHECK_EQ_I64(a->sources[i].rows, b->sources[i].rows);
    }
    CHECK_STR(a->tool_version, b->tool_version);
    CHECK_STR(a->created_utc, b->created_utc);
    CHECK(a->input_fingerprint == b->input_fingerprint);
    CHECK(a->content_hash == b->content_hash);
}

/* Nothing but `keep` in DIR (no temporary file left behind). */
static void check_dir_holds_only(const char *keep)
{
    char **names;
    size_t n;
    ev_error err;
    CHECK(plat_list_dir(DIR, &names, &n, &err) == EV_OK);
    for (size_t i = 0; i < n; i++)
        if (!keep || strcmp(names[i], keep) != 0) {
            fprintf(stderr, "unexpected file left in " DIR ": %s\n", names[i]);
            CHECK(0);
        }
    plat_free_names(names, n);
}

static void round_trip(int64_t np, int64_t nt, int32_t nf)
{
    dataset_t a, b;
    ev_error err;
    uint64_t fp = 0;
    fx_clean_dir(DIR);
    make_dataset(&a, np, nt, nf);
    CHECK(dataset_write_h5(&a, DIR "/ds.h5", &err) == EV_OK);
    check_dir_holds_only("ds.h5");
    if (dataset_read_h5(DIR "/ds.h5", &b, &err) != EV_OK) {
        fprintf(stderr, "read: %s\n", err.msg);
        CHECK(0);
    } else {
        check_same(&a, &b);
        dataset_free(&b);
    }
    CHECK(dataset_read_fingerprint(DIR "/ds.h5", &fp, &err) == EV_OK);
    CHECK(fp == 0xfedcba9876543210ULL);
    /* Writing again replaces the file in place. */
    a.created_utc[0] = '3';
    a.content_hash = dataset_content_hash(&a);
    CHECK(dataset_write_h5(&a, DIR "/ds.h5", &err) == EV_OK);
    CHECK(dataset_read_h5(DIR "/ds.h5", &b, &err) == EV_OK);
    CHECK_STR("3024-01-02T03:04:05Z", b.created_utc);
    dataset_free(&b);
    dataset_free(&a);
}

/* Overwrites one price through the HDF5 API (the hash is not updated). */
static void change_price(const char *path, hsize_t at, float v)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/market/price", H5P_DEFAULT);
    hid_t fs = H5Dget_space(d), ms;
    hsize_t one = 1;
    CHECK(f >= 0 && d >= 0);
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, &at, NULL, &one, NULL);
    ms = H5Screate_simple(1, &one, NULL);
    CHECK(H5Dwrite(d, H5T_NATIVE_FLOAT, ms, fs, H5P_DEFAULT, &v) >= 0);
    H5Sclose(ms);
    H5Sclose(fs);
    H5Dclose(d);
    H5Fclose(f);
}

/* Flips one byte of /market/ts's raw data in the file (a contiguous dataset
 * has a file offset). */
static void flip_ts_byte(const char *path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/market/ts", H5P_DEFAULT);
    haddr_t off = H5Dget_offset(d);
    FILE *fp;
    int c;
    H5Dclose(d);
    H5Fclose(f);
    CHECK(off != HADDR_UNDEF);
    if (off == HADDR_UNDEF || !(fp = fopen(path, "r+b")))
        return;
    fseek(fp, (long)off + 9, SEEK_SET); /* the 2nd timestamp's 2nd byte */
    c = fgetc(fp);
    fseek(fp, (long)off + 9, SEEK_SET);
    fputc(c ^ 0x10, fp);
    fclose(fp);
}

static void test_corruption(void)
{
    dataset_t a, b;
    ev_error err;
    fx_clean_dir(DIR);
    make_dataset(&a, 100, 10, 2);
    CHECK(dataset_write_h5(&a, DIR "/ds.h5", &err) == EV_OK);
    change_price(DIR "/ds.h5", 5, 99.5f);
    CHECK(dataset_read_h5(DIR "/ds.h5", &b, &err) == EV_EDATA);
    CHECK_CONTAINS(err.msg, "dataset " DIR "/ds.h5 is corrupt");
    CHECK(b.price == NULL); /* nothing half-read is handed out */

    CHECK(dataset_write_h5(&a, DIR "/ds.h5", &err) == EV_OK);
    CHECK(dataset_read_h5(DIR "/ds.h5", &b, &err) == EV_OK);
    dataset_free(&b);
    flip_ts_byte(DIR "/ds.h5");
    CHECK(dataset_read_h5(DIR "/ds.h5", &b, &err) == EV_EDATA);
    CHECK_CONTAINS(err.msg, "dataset " DIR "/ds.h5 is corrupt");

    /* Consistent hash, impossible index: refused before any kernel uses it. */
    a.end[9] = a.n_prices + 1;
    a.content_hash = dataset_content_hash(&a);
    CHECK(dataset_write_h5(&a, DIR "/ds.h5", &err) == EV_OK);
    CHECK(dataset_read_h5(DIR "/ds.h5", &b, &err) == EV_EDATA);
    CHECK_CONTAINS(err.msg, "is corrupt: trade 9 (ticker id 1) has the price path [59, 101)");
    dataset_free(&a);
}

static void test_bad_files(void)
{
    dataset_t b;
    ev_error err;
    uint64_t fp;
    hid_t f;
    fx_clean_dir(DIR);
    CHECK(dataset_read_h5(DIR "/missing.h5", &b, &err) == EV_EIO);
    CHECK_CONTAINS(err.msg, DIR "/missing.h5: no such file");
    CHECK(dataset_read_fingerprint(DIR "/missing.h5", &fp, &err) != EV_OK);
    CHECK_CONTAINS(err.msg, DIR "/missing.h5");

    fx_write(DIR "/text.h5", "Ticker,Price\n");
    CHECK(dataset_read_h5(DIR "/text.h5", &b, &err) == EV_EDATA);
    CHECK_CONTAINS(err.msg, DIR "/text.h5: not an HDF5 file");

    f = H5Fcreate(DIR "/other.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Fclose(f);
    CHECK(dataset_read_h5(DIR "/other.h5", &b, &err) == EV_EDATA);
    CHECK_CONTAINS(err.msg, DIR "/other.h5: not an evolve dataset");
    CHECK(dataset_read_fingerprint(DIR "/other.h5", &fp, &err) == EV_EDATA);

    /* A truncated dataset file. */
    {
        dataset_t a;
        FILE *in, *out;
        char buf[1024];
        size_t n;
        make_dataset(&a, 100, 10, 2);
        CHECK(dataset_write_h5(&a, DIR "/full.h5", &err) == EV_OK);
        dataset_free(&a);
        in = fopen(DIR "/full.h5", "rb");
        out = fopen(DIR "/cut.h5", "wb");
        n = in ? fread(buf, 1, sizeof buf, in) : 0;
        if (out)
            fwrite(buf, 1, n, out);
        if (in)
            fclose(in);
        if (out)
            fclose(out);
        CHECK(dataset_read_h5(DIR "/cut.h5", &b, &err) != EV_OK);
        CHECK_CONTAINS(err.msg, DIR "/cut.h5");
    }
}

static void test_write_failure(void)
{
#define WDIR "tmp_dataset_h5_write"
    dataset_t a;
    ev_error err;
    char **names;
    size_t n;
    fx_clean_dir(WDIR);
    make_dataset(&a, 10, 2, 1);
    CHECK(dataset_write_h5(&a, WDIR "/no/such/dir/ds.h5", &err) == EV_EIO);
    CHECK_CONTAINS(err.msg, WDIR "/no/such/dir/ds.h5");
    /* The final name is a directory: the rename fails and the temporary file
     * is removed. */
    CHECK(fx_clean_dir(WDIR "/ds.h5") == 0);
    CHECK(dataset_write_h5(&a, WDIR "/ds.h5", &err) == EV_EIO);
    CHECK_CONTAINS(err.msg, WDIR "/ds.h5");
    CHECK(plat_list_dir(WDIR, &names, &n, &err) == EV_OK);
    CHECK_EQ_I64(1, n); /* only the directory ds.h5 itself */
    plat_free_names(names, n);
    dataset_free(&a);
#undef WDIR
}

int main(void)
{
    round_trip(200000, 50000, 7); /* chunked and compressed */
    round_trip(100, 10, 3);       /* contiguous */
    round_trip(0, 0, 0);          /* empty arrays */
    round_trip(5, 0, 2);          /* features [2][0] */
    test_corruption();
    test_bad_files();
    test_write_failure();
    return check_exit();
}
