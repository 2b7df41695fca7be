/* The market half of ingest (SPEC sec. 1-2): a directory of
 * Raw_Market_data_MM-DD-YYYY.csv files -> the kept tickers' prices, one
 * float32 array sorted by (ticker id, timestamp). */
#ifndef EVOLVE_MARKET_INGEST_H
#define EVOLVE_MARKET_INGEST_H

#include <stdint.h>
#include <stdio.h>

#include "common/status.h"
#include "fitness/dataset.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char *path;   /* market_dir/name */
    int64_t day;  /* the name's date, days since 1970-01-01 */
    int64_t size; /* bytes */
    int64_t mtime_ns;
} market_file_t;

typedef struct {
    market_file_t *files; /* chronological (by the name's date, not by name) */
    size_t n;
} market_files_t;

/* Lists the market files of dir. A *.csv whose name is not exactly
 * Raw_Market_data_MM-DD-YYYY.csv with a real date is an error naming it;
 * other files are ignored; no market file at all is an error. Stats every
 * file (sizes and mtimes for provenance and the fingerprint), reads none. */
ev_status market_list_files(const char *dir, market_files_t *out, ev_error *err);
void market_files_free(market_files_t *m);

/* 1 when there is a market file for the day (days since 1970-01-01). */
int market_files_has_day(const market_files_t *m, int64_t day);

/* Reads every file (in parallel when OpenMP is on; the result is the same as
 * a serial read) and fills ds->n_prices, price, ts, ticker_begin/end,
 * market_rows_read, market_duplicates, market_files_unsorted. rows[i]: data
 * rows of file i. ds->n_tickers/tickers are not touched. Rows out of time
 * order are sorted (stable) and reported on log; a second seen twice for a
 * ticker keeps the last row. */
ev_status market_ingest(const market_files_t *files, const char *const *tickers, int32_t n_tickers, FILE *log,
                        dataset_t *ds, int64_t *rows, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
