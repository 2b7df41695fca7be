/* Golden ingest: a tiny hand-written market directory and trade log whose
 * every price index, trade path, drop and count is worked out below by hand.
 *
 * Market (tickers SOXL = id 0, IONQ = id 1; MARA is not configured):
 *   Raw_Market_data_09-17-2014.csv (day 1, 09:30:00 = 1410946200), standard header:
 *     SOXL rows at +0 +1 +3 (+2 out of order) +4 +4 (duplicate: the last, 10.41, is kept) +6
 *     IONQ rows at +0 +5 +7; MARA at +0 (skipped)
 *   Raw_Market_data_01-05-2015.csv (day 2, 09:30:00 = 1420450200): a BOM, CRLF,
 *     columns in another order; IONQ at +0 +10, SOXL at +60 +120 +180.
 *   Named so that name order (01-05-2015 first) is not time order.
 *
 *   index: 0     1     2     3     4     5     | 6     7     8      SOXL [0, 9)
 *   SOXL   d1+0  d1+1  d1+2  d1+3  d1+4  d1+6  | d2+60 d2+120 d2+180
 *   index: 9     10    11    | 12    13                             IONQ [9, 14)
 *   IONQ   d1+0  d1+5  d1+7  | d2+0  d2+10
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "io/ingest.h"
#include "tests/check.h"
#include "tests/fixture_files.h"

#define DIR "tmp_ingest_golden"
#define D1 1410946200LL /* 2014-09-17 09:30:00 */
#define D2 1420450200LL /* 2015-01-05 09:30:00 */

/* A price whose (float)strtod (1.0f: the double is exactly halfway between
 * two floats, ties go to even) differs from strtof (1.0000001f). */
#define HALFWAY_TEXT "1.00000005960464477550"

#define FILLER "0,0,0,0,0,0,0,0,0,0,0"
/* One row a line: */
/* clang-format off */
static const char market1[] =
    "Ticker,Price,Val,Avg,Atr14,Atr28,Rsi,Volume,Adx28,Adx14,Adx7,Volatility Percent,"
    "Volatility Ratio,Time\n"
    "SOXL,10.00," FILLER ",09:30:00\n"
    "MARA,5.00," FILLER ",09:30:00\n"
    "IONQ,20.00," FILLER ",09:30:00\n"
    "SOXL,10.10," FILLER ",09:30:01\n"
    "SOXL,10.30," FILLER ",09:30:03\n"
    "IONQ,20.50," FILLER ",09:30:05\n"
    "SOXL,10.20," FILLER ",09:30:02\n"
    "SOXL,10.40," FILLER ",09:30:04\n"
    "SOXL,10.41," FILLER ",09:30:04\n"
    "SOXL,10.50," FILLER ",09:30:06\n"
    "IONQ," HALFWAY_TEXT "," FILLER ",09:30:07\n";

/* clang-format on */
static const char market2[] =
    "\xEF\xBB\xBF"
    "Time,Volume,Ticker,Rsi,Price,Note\r\n"
    "09:30:00,100,IONQ,50,21.00,x\r\n"
    "09:30:10,100,IONQ,50,21.50,\r\n"
    "09:31:00,100,SOXL,50,11.00,\"a,b\"\r\n"
    "09:32:00,100,SOXL,50,11.20,\r\n"
    "09:33:00,100,SOXL,50,11.30,\r\n";

/* Lines 2..14; line 9 is blank. Columns after Exit Time: Worst Exit Percent,
 * Entry Volatility Percent, Entry Volatility Ratio, Entry Adx28, Entry Adx14,
 * Entry Adx7, Trade Best Exit Percent, Trade Percent Change. */
static const char trades[] =
    "Date,Trade Id,Ticker,Entry Price,Exit Price,Entry Time,Exit Time,Worst Exit Percent,"
    "Entry Volatility Percent,Entry Volatility Ratio,Entry Adx28,Entry Adx14,Entry Adx7,"
    "Trade Best Exit Percent,Trade Percent Change\n"
    /* 2  T1 normal: [0, 4) */
    "09/17/2014,101,SOXL,10.00,10.30,09:30:00,09:30:03,-0.1,0.5,0.9,21,22,23,3.1,3.0\n"
    /* 3  T2 entry between seconds (+5 missing): [5, 6) */
    "2014-09-17,102,SOXL,10.45,10.50,09:30:05,09:30:06,-0.2,0.6,0.8,24,25,26,0.5,0.48\n"
    /* 4  T3 exit exactly on a second (d2+120): [7, 8) */
    "01-05-2015,103,SOXL,11.10,11.20,09:31:30,09:32:00,-0.3,0.7,0.7,27,28,29,0.9,0.9\n"
    /* 5  T4 entry day without a market file: no_market_day */
    "09/18/2014,104,SOXL,10.00,10.10,10:00:00,10:05:00,-0.4,0.8,0.6,30,31,32,1.0,1.0\n"
    /* 6  T5 IONQ has no price from d1+8 to 09:35:00: empty_path */
    "09/17/2014,105,IONQ,20.60,20.70,09:30:08,09:35:00,-0.5,0.9,0.5,33,34,35,0.5,0.4\n"
    /* 7  T6 empty Entry Adx14 (and no market day: non_finite is checked first) */
    "09/18/2014,106,SOXL,10.00,10.10,10:00:00,10:05:00,-0.6,1.0,0.4,36,,38,1.0,1.0\n"
    /* 8  T7 another ticker: skipped, not a drop */
    "09/17/2014,107,MARA,5.00,5.10,09:30:00,09:30:05,-0.7,1.1,0.3,39,40,41,2.0,2.0\n"
    "\n"
    /* 10 T8 IONQ, ties T9's entry: [12, 14) */
    "01/05/2015,108,IONQ,21.00,21.50,09:30:00,09:30:10,-0.8,1.2,0.2,42,43,44,2.4,2.38\n"
    /* 11 T9 same (ticker, entry) as T8, later in the file: [12, 13) */
    "01/05/2015,109,IONQ,21.00,21.00,09:30:00,09:30:05,-0.9,1.3,0.1,45,46,47,0.0,-0.1\n"
    /* 12 T10 IONQ day 1, sorts before T8 and T9: [9, 12) */
    "09/17/2014,110,IONQ,20.00,1.00,09:30:00,09:30:07,-95,1.4,0.05,48,49,50,2.5,-95\n"
    /* 13 T11 full date-times (space and 'T'): [6, 9) */
    "01/05/2015,111,SOXL,10.90,11.30,2015-01-05 09:30:30,2015-01-05T09:33:00,-0.1,1.5,1.1,51,52,"
    "53,3.7,3.67\n"
    /* 14 T12 one-digit hour, entry = exit = d1+1: [1, 2) */
    "9/17/2014,112,SOXL,10.10,10.10,9:30:01,9:30:01,0,1.6,1.2,54,55,56,0,0\n";

static const char *const tickers[] = {"SOXL", "IONQ"};
static const char *const extras[] = {"Exit Price", "Entry Adx7"}; /* the 2nd is standard */

static ingest_opts_t golden_opts(FILE *log)
{
    ingest_opts_t o;
    memset(&o, 0, sizeof o);
    o.market_dir = DIR "/market";
    o.trades_path = DIR "/trades.csv";
    o.tickers = tickers;
    o.n_tickers = 2;
    o.extra_features = extras;
    o.n_extra_features = 2;
    o.log = log;
    return o;
}

static int write_inputs(void)
{
    return fx_clean_dir(DIR) || fx_clean_dir(DIR "/market") ||
           fx_write(DIR "/market/Raw_Market_data_09-17-2014.csv", market1) ||
           fx_write(DIR "/market/Raw_Market_data_01-05-2015.csv", market2) ||
           fx_write(DIR "/market/notes.txt", "not a CSV: ignored\n") || fx_write(DIR "/trades.csv", trades);
}

static void check_market(const dataset_t *ds)
{
    static const long long ts[14] = {D1,       D1 + 1,   D1 + 2, D1 + 3, D1 + 4, D1 + 6, D2 + 60,
                                     D2 + 120, D2 + 180, D1,     D1 + 5, D1 + 7, D2,     D2 + 10};
    static const double price[14] = {10.00, 10.10, 10.20, 10.30, 10.41, 10.50, 11.00,
                                     11.20, 11.30, 20.00, 20.50, 1.0,   21.00, 21.50};
    CHECK_EQ_I64(14, ds->n_prices);
    CHECK_EQ_I64(2, ds->n_tickers);
    CHECK_STR("SOXL", ds->tickers[0]);
    CHECK_STR("IONQ", ds->tickers[1]);
    CHECK_EQ_I64(0, ds->ticker_begin[0]);
    CHECK_EQ_I64(9, ds->ticker_end[0]);
    CHECK_EQ_I64(9, ds->ticker_begin[1]);
    CHECK_EQ_I64(14, ds->ticker_end[1]);
    for (int i = 0; i < 14 && ds->n_prices == 14; i++) {
        CHECK_EQ_I64(ts[i], ds->ts[i]);
        CHECK_EQ_F64((float)price[i], ds->price[i]); /* SPEC: (float)strtod */
    }
    if (ds->n_prices == 14) {
        CHECK(ds->price[11] == 1.0f);
        CHECK(strtof(HALFWAY_TEXT, NULL) != 1.0f); /* what a strtof reader would have kept */
    }
    CHECK_EQ_I64(11 + 5, ds->market_rows_read);
    CHECK_EQ_I64(1, ds->market_duplicates);
    CHECK_EQ_I64(1, ds->market_files_unsorted);
}

static void check_trades(const dataset_t *ds)
{
    /* Dataset order: SOXL by entry (T1, T12, T2, T11, T3), then IONQ (T10, T8, T9). */
    static const long long id[8] = {101, 112, 102, 111, 103, 110, 108, 109};
    static const long long row[8] = {2, 14, 3, 13, 4, 12, 10, 11};
    static const int tick[8] = {0, 0, 0, 0, 0, 1, 1, 1};
    static const long long entry[8] = {D1, D1 + 1, D1 + 5, D2 + 30, D2 + 90, D1, D2, D2};
    static const long long exit_[8] = {D1 + 3, D1 + 1, D1 + 6, D2 + 180, D2 + 120, D1 + 7, D2 + 10, D2 + 5};
    static const long long start[8] = {0, 1, 5, 6, 7, 9, 12, 12};
    static const long long end[8] = {4, 2, 6, 9, 8, 12, 14, 13};
    static const double eprice[8] = {10.00, 10.10, 10.45, 10.90, 11.10, 20.00, 21.00, 21.00};
    static const double pct[8] = {3.0, 0, 0.48, 3.67, 0.9, -95, 2.38, -0.1};
    static const double vol_pct[8] = {0.5, 1.6, 0.6, 1.5, 0.7, 1.4, 1.2, 1.3};
    static const double adx7[8] = {23, 56, 26, 53, 29, 50, 44, 47};
    static const double exit_price[8] = {10.30, 10.10, 10.50, 11.30, 11.20, 1.00, 21.50, 21.00};
    CHECK_EQ_I64(8, ds->n_trades);
    CHECK_EQ_I64(12, ds->trades_read);
    CHECK_EQ_I64(1, ds->trades_other_ticker);
    CHECK_EQ_I64(1, ds->drops[DROP_NO_MARKET_DAY]);
    CHECK_EQ_I64(1, ds->drops[DROP_EMPTY_PATH]);
    CHECK_EQ_I64(1, ds->drops[DROP_NON_FINITE]);
    /* 7 standard features (all present) then the one extra that is not standard. */
    CHECK_EQ_I64(8, ds->n_features);
    if (ds->n_features == 8) {
        CHECK_STR("Entry Volatility Percent", ds->feature_names[0]);
        CHECK_STR("Entry Adx7", ds->feature_names[4]);
        CHECK_STR("Trade Best Exit Percent", ds->feature_names[6]);
        CHECK_STR("Exit Price", ds->feature_names[7]);
    }
    for (int j = 0; j < 8 && ds->n_trades == 8 && ds->n_features == 8; j++) {
        CHECK_EQ_I64(id[j], ds->trade_id[j]);
        CHECK_EQ_I64(row[j], ds->source_row[j]);
        CHECK_EQ_I64(tick[j], ds->ticker[j]);
        CHECK_EQ_I64(entry[j], ds->entry_ts[j]);
        CHECK_EQ_I64(exit_[j], ds->exit_ts[j]);
        CHECK_EQ_I64(start[j], ds->start[j]);
        CHECK_EQ_I64(end[j], ds->end[j]);
        CHECK_EQ_F64(eprice[j], ds->entry_price[j]);
        CHECK_EQ_F64(pct[j], ds->pct_change[j]);
        CHECK_EQ_F64(vol_pct[j], ds->features[0 * 8 + j]); /* feature-major */
        CHECK_EQ_F64(adx7[j], ds->features[4 * 8 + j]);
        CHECK_EQ_F64(exit_price[j], ds->features[7 * 8 + j]);
    }
}

static void check_provenance(const dataset_t *ds)
{
    uint64_t fp = 0;
    ingest_opts_t o = golden_opts(NULL);
    ev_error err;
    CHECK_EQ_I64(3, ds->n_sources);
    if (ds->n_sources == 3) {
        /* Chronological, not name order. */
        CHECK_STR(DIR "/market/Raw_Market_data_09-17-2014.csv", ds->sources[0].path);
        CHECK_STR(DIR "/market/Raw_Market_data_01-05-2015.csv", ds->sources[1].path);
        CHECK_STR(DIR "/trades.csv", ds->sources[2].path);
        CHECK_STR("market", ds->sources[0].kind);
        CHECK_STR("trades", ds->sources[2].kind);
        CHECK_EQ_I64(11, ds->sources[0].rows);
        CHECK_EQ_I64(5, ds->sources[1].rows);
        CHECK_EQ_I64(12, ds->sources[2].rows);
        CHECK_EQ_I64((long long)strlen(market1), ds->sources[0].size);
        CHECK_EQ_I64((long long)strlen(trades), ds->sources[2].size);
    }
    CHECK_CONTAINS(ds->tool_version, "evolve ");
    CHECK(ds->created_utc && strlen(ds->created_utc) == 20);
    CHECK(ds->content_hash == dataset_content_hash(ds));
    CHECK(ingest_fingerprint(&o, &fp, &err) == EV_OK);
    CHECK(fp == ds->input_fingerprint);
    o.strict = 1; /* every option is part of the fingerprint */
    CHECK(ingest_fingerprint(&o, &fp, &err) == EV_OK);
    CHECK(fp != ds->input_fingerprint);
}

static void test_golden(void)
{
    FILE *log = tmpfile();
    ingest_opts_t o = golden_opts(log);
    dataset_t ds;
    ev_error err;
    char *text;
    ev_status st = ingest_build(&o, &ds, &err);
    if (st != EV_OK) {
        fprintf(stderr, "ingest_build: %s\n", err.msg);
        CHECK(0);
        return;
    }
    check_market(&ds);
    check_trades(&ds);
    check_provenance(&ds);
    text = fx_slurp(log);
    CHECK_CONTAINS(text, "Raw_Market_data_09-17-2014.csv: 1 row(s) of kept tickers out of time order");
    CHECK_CONTAINS(text, DIR "/trades.csv:5: trade dropped (no_market_day)");
    CHECK_CONTAINS(text, DIR "/trades.csv:6: trade dropped (empty_path): no IONQ price");
    CHECK_CONTAINS(text, DIR "/trades.csv:7: trade dropped (non_finite): column 'Entry Adx14'");
    free(text);
    fclose(log);

    /* The summary printed for the trader. */
    log = tmpfile();
    ingest_print_summary(&ds, log);
    text = fx_slurp(log);
    CHECK_CONTAINS(text, "8 trade(s) kept, 3 dropped: no_market_day 1 empty_path 1 non_finite 1");
    CHECK_CONTAINS(text, "prices kept: SOXL 9 IONQ 5");
    CHECK_CONTAINS(text, "1 duplicate second(s)");
    free(text);
    fclose(log);

#ifdef _OPENMP
    { /* One thread or several: the same dataset. */
        dataset_t one;
        int threads = omp_get_max_threads();
        omp_set_num_threads(1);
        o.log = NULL;
        CHECK(ingest_build(&o, &one, &err) == EV_OK);
        CHECK(one.content_hash == ds.content_hash);
        dataset_free(&one);
        omp_set_num_threads(threads);
    }
#endif
    dataset_free(&ds);
}

static void test_strict(void)
{
    ingest_opts_t o = golden_opts(NULL);
    dataset_t ds;
    ev_error err;
    o.strict = 1;
    CHECK(ingest_build(&o, &ds, &err) == EV_EDATA);
    /* The first drop in file order is T4 on line 5. */
    CHECK_CONTAINS(err.msg, DIR "/trades.csv:5: trade dropped (no_market_day)");
    CHECK_CONTAINS(err.msg, "Raw_Market_data_09-18-2014.csv");
    CHECK(ds.price == NULL && ds.n_trades == 0); /* nothing half-built is left */
}

/* No Trade Id column: the data row number stands in; no feature column. */
static void test_minimal_log(void)
{
    static const char minimal[] =
        "Ticker,Date,Entry Time,Exit Time,Entry Price,Trade Percent Change\n"
        "IONQ,01/05/2015,09:30:00,09:30:10,21,1.5\n"
        "MARA,01/05/2015,09:30:00,09:30:10,5,1\n"
        "SOXL,01/05/2015,09:31:00,09:31:00,11,-2\n";
    ingest_opts_t o = golden_opts(NULL);
    dataset_t ds;
    ev_error err;
    o.trades_path = DIR "/minimal.csv";
    o.n_extra_features = 0;
    CHECK(fx_write(DIR "/minimal.csv", minimal) == 0);
    if (ingest_build(&o, &ds, &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK(0);
        return;
    }
    CHECK_EQ_I64(0, ds.n_features);
    CHECK_EQ_I64(2, ds.n_trades);
    if (ds.n_trades == 2) {
        CHECK_EQ_I64(3, ds.trade_id[0]); /* SOXL first (id 0): the 3rd data row */
        CHECK_EQ_I64(6, ds.start[0]);
        CHECK_EQ_I64(7, ds.end[0]);
        CHECK_EQ_I64(1, ds.trade_id[1]);
        CHECK_EQ_I64(12, ds.start[1]);
        CHECK_EQ_I64(14, ds.end[1]);
    }
    dataset_free(&ds);
}

int main(void)
{
    if (write_inputs() != 0)
        return 1;
    test_golden();
    test_strict();
    test_minimal_log();
    return check_exit();
}
