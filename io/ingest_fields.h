/* Field-level helpers shared by the market and trade-log ingest: ticker
 * lookup and typed fields with the error message every bad value gets
 * ("FILE:LINE: column 'NAME': expected ..., got '...'"). */
#ifndef EVOLVE_INGEST_FIELDS_H
#define EVOLVE_INGEST_FIELDS_H

#include <stdint.h>

#include "common/status.h"
#include "io/csv_reader.h"
#include "io/numparse.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Prices (market and entry) must be normal float32 numbers: the market's are
 * stored as float32 and a trade's stop/target levels are float32 multiples of
 * its entry price, so a smaller price would become 0 (or lose its digits). */
#define INGEST_PRICE_RANGE "within the float32 range, 1.2e-38 to 3.4e38"
int ingest_price_ok(double v);

/* Position of the (trimmed) field in tickers, or -1. */
int ingest_ticker_id(csv_field_t f, const char *const *tickers, int32_t n_tickers);

/* The error for a bad value: names the file, line, column and what was
 * expected, and quotes (a prefix of) the text found. */
ev_status ingest_field_error(const csv_reader_t *r, const csv_row_t *row, int col, const char *expected, ev_error *err);

/* A number column: text that is not a number is an error (`expected` says
 * what was wanted), as is a number beyond the double range ("out of range");
 * an empty, NaN or inf value is returned in *res for the caller to judge. */
ev_status ingest_field_double(const csv_reader_t *r, const csv_row_t *row, int col, const char *expected, double *v,
                              num_result *res, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
