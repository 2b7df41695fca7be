#include "io/ingest_fields.h"

#include <float.h>
#include <string.h>

/* Characters of a bad value quoted in a message. */
#define QUOTE_MAX 40

int ingest_price_ok(double v)
{
    return v >= FLT_MIN && v <= FLT_MAX;
}

int ingest_ticker_id(csv_field_t f, const char *const *tickers, int32_t n_tickers)
{
    f = csv_trim(f);
    /* strncmp stops at the ticker's NUL; then the lengths must agree. Safe
     * only because a field never holds a NUL (the reader refuses them): one
     * would stop strncmp early and tickers[i][f.n] would read past the name.
     * Runs on every market row, so no strlen. */
    for (int32_t i = 0; i < n_tickers; i++)
        if (strncmp(tickers[i], f.p, f.n) == 0 && tickers[i][f.n] == '\0')
            return (int)i;
    return -1;
}

ev_status ingest_field_error(const csv_reader_t *r, const csv_row_t *row, int col, const char *expected, ev_error *err)
{
    char shown[4 * QUOTE_MAX + 4];
    return ev_fail(err, EV_EPARSE, "%s:%lld: column '%s': expected %s, got '%s'", csv_path(r), (long long)row->line,
                   csv_column_name(r, col), expected, csv_quote(csv_trim(row->fields[col]), QUOTE_MAX, shown));
}

ev_status ingest_field_double(const csv_reader_t *r, const csv_row_t *row, int col, const char *expected, double *v,
                              num_result *res, ev_error *err)
{
    csv_field_t f = row->fields[col];
    *res = num_parse_double(f.p, f.n, v);
    if (*res == NUM_MALFORMED)
        return ingest_field_error(r, row, col, expected, err);
    if (*res == NUM_OUT_OF_RANGE)
        return ingest_field_error(r, row, col, "a number of magnitude below 1.8e308 (this one is out of range)", err);
    return EV_OK;
}
