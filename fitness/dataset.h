/* The prepared dataset of SPEC sec. 2, in host memory.
 *
 * Built once by io/ingest from the trader's CSVs (or read back from its HDF5
 * file by io/dataset_h5); read-only afterwards. Every array is owned by the
 * dataset and released by dataset_free. */
#ifndef EVOLVE_DATASET_H
#define EVOLVE_DATASET_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why a trade of a kept ticker was not used (SPEC sec. 2). */
typedef enum {
    DROP_NO_MARKET_DAY = 0, /* no market file for the trade's entry date */
    DROP_EMPTY_PATH,        /* no price of its ticker in [entry time, exit time] */
    DROP_NON_FINITE,        /* entry price, percent change or a feature is empty, NaN or inf */
    DROP_REASON_COUNT
} drop_reason;

/* Stable names used on the terminal, in JSON and in HDF5 ("no_market_day", ...). */
const char *drop_reason_name(drop_reason r);

/* One input file the dataset was built from. */
typedef struct {
    char *path;       /* as given (relative to the working directory) */
    char *kind;       /* "market" or "trades" */
    int64_t size;     /* bytes */
    int64_t mtime_ns; /* modification time */
    int64_t rows;     /* data rows read (header excluded) */
} dataset_source_t;

typedef struct {
    /* Kept tickers in configured order; a ticker id is its position here. */
    int32_t n_tickers;
    char **tickers;

    /* Market prices of the kept tickers, sorted by (ticker, timestamp).
     * price: float32[n_prices] ((float)strtod of the CSV text)
     * ts:    int64[n_prices], seconds since 1970-01-01 of the wall-clock time
     * ticker_begin/end: int64[n_tickers], the [begin, end) range of each ticker */
    int64_t n_prices;
    float *price;
    int64_t *ts;
    int64_t *ticker_begin;
    int64_t *ticker_end;

    /* Kept trades in dataset order: ticker id, then entry time, then file order.
     * Every array is [n_trades]. start/end: the price path is price[start:end). */
    int64_t n_trades;
    int32_t *ticker;
    int64_t *trade_id;   /* the log's "Trade Id" (or its data row number when absent) */
    int64_t *source_row; /* 1-based line number in the trade log, for messages */
    int64_t *entry_ts;
    int64_t *exit_ts;
    int64_t *start;
    int64_t *end;
    double *entry_price; /* "Entry Price" as a double */
    double *pct_change;  /* "Trade Percent Change": the logged result, percent */

    /* Filterable features, each parsed from the CSV text as a double.
     * features: double[n_features * n_trades], feature-major
     * (feature f of trade j is features[f * n_trades + j]). Names are the log's
     * column names ("Entry Volatility Percent", ...). */
    int32_t n_features;
    char **feature_names;
    double *features;

    /* Trades dropped per reason (SPEC sec. 2) and other counts worth reporting. */
    int64_t drops[DROP_REASON_COUNT];
    int64_t trades_read;           /* data rows of the trade log */
    int64_t trades_other_ticker;   /* rows of tickers not configured (skipped, not a drop) */
    int64_t market_rows_read;      /* data rows of all market files */
    int64_t market_duplicates;     /* same ticker and second twice: the last row was kept */
    int64_t market_files_unsorted; /* files whose rows were out of time order (sorted) */

    /* Provenance (SPEC sec. 2): inputs, tool version, time of ingest, and
     * fingerprints: input_fingerprint identifies the inputs and ingest options
     * (names, sizes, mtimes), content_hash the arrays above (XXH64). */
    int32_t n_sources;
    dataset_source_t *sources;
    char *tool_version;
    char *created_utc;
    uint64_t input_fingerprint;
    uint64_t content_hash;
} dataset_t;

void dataset_free(dataset_t *ds);

/* Index of a feature by name, or -1. */
int dataset_feature_index(const dataset_t *ds, const char *name);

/* XXH64 over every array that fitness depends on (prices, timestamps, ranges,
 * trades, features), in a fixed order. */
uint64_t dataset_content_hash(const dataset_t *ds);

#ifdef __cplusplus
}
#endif
#endif
