/* io/csv_reader on any bytes: the whole file read with the default chunk and
 * again with a tiny one (rows then straddle chunk edges) must give the same
 * rows, fields and error; every row has the same field count; no field holds
 * a NUL; line numbers increase; csv_quote and csv_trim keep their promises. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "io/csv_reader.h"

typedef struct {
    uint8_t *p;
    size_t n, cap;
} fz_buf_t;

static void put(fz_buf_t *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = (b->n + n) * 2 + 256;
        uint8_t *g = (uint8_t *)realloc(b->p, cap);
        FZ_ASSERT(g, "out of memory");
        b->p = g;
        b->cap = cap;
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void check_field(csv_field_t f)
{
    char q[4 * 16 + 4];
    csv_field_t t = csv_trim(f);
    size_t ql;
    FZ_ASSERT(memchr(f.p, 0, f.n) == NULL, "a field holds a NUL");
    FZ_ASSERT(t.p >= f.p && t.p + t.n <= f.p + f.n, "csv_trim left the field");
    FZ_ASSERT(t.n == 0 || (t.p[0] != ' ' && t.p[0] != '\t' && t.p[t.n - 1] != ' ' && t.p[t.n - 1] != '\t'),
              "csv_trim left a space");
    csv_quote(f, 16, q);
    ql = strlen(q);
    FZ_ASSERT(ql <= 4 * 16 + 3, "csv_quote wrote %zu bytes", ql);
    for (size_t i = 0; i < ql; i++)
        FZ_ASSERT(q[i] >= 0x20 && q[i] < 0x7f, "csv_quote wrote the raw byte 0x%02x", (unsigned)(unsigned char)q[i]);
}

/* Reads path with the given chunk into out (every row and field, then the
 * final status and message). */
static void read_all(const char *path, size_t chunk, fz_buf_t *out)
{
    csv_reader_t *r = NULL;
    const csv_row_t *row;
    ev_error err;
    ev_status st;
    int64_t last_line = 0, rows = 0;
    size_t width = 0;
    fz_err_reset(&err);
    st = csv_open(path, chunk, &r, &err);
    fz_check_status(st, &err, "csv_open");
    if (st == EV_OK) {
        const char *names[] = {"Ticker", "Price", "Time", "Date", "Trade Percent Change"};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            int col = -2;
            ev_status cs;
            fz_err_reset(&err);
            cs = csv_require_column(r, names[i], &col, &err);
            fz_check_status(cs, &err, "csv_require_column");
            FZ_ASSERT(cs != EV_OK || (col >= 0 && strcmp(csv_column_name(r, col), names[i]) == 0),
                      "column %s at %d is '%s'", names[i], col, csv_column_name(r, col));
            put(out, &cs, sizeof cs);
            put(out, &col, sizeof col);
        }
        fz_err_reset(&err);
        while ((st = csv_next(r, &row, &err)) == EV_OK && row) {
            FZ_ASSERT(row->line > last_line, "line %lld after line %lld", (long long)row->line, (long long)last_line);
            FZ_ASSERT(width == 0 || row->n_fields == width, "a row of %zu fields after rows of %zu", row->n_fields,
                      width);
            FZ_ASSERT(row->n_fields >= 1, "a row without fields");
            width = row->n_fields;
            last_line = row->line;
            rows++;
            put(out, &row->line, sizeof row->line);
            put(out, &row->n_fields, sizeof row->n_fields);
            for (size_t i = 0; i < row->n_fields; i++) {
                check_field(row->fields[i]);
                put(out, &row->fields[i].n, sizeof row->fields[i].n);
                put(out, row->fields[i].p, row->fields[i].n);
            }
        }
        fz_check_status(st, &err, "csv_next");
        FZ_ASSERT(csv_data_rows(r) == rows, "csv_data_rows %lld, %lld rows handed out", (long long)csv_data_rows(r),
                  (long long)rows);
        csv_close(r);
    }
    put(out, &st, sizeof st);
    if (st != EV_OK)
        put(out, err.msg, strlen(err.msg));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_path(0, "in.csv");
    fz_buf_t a = {NULL, 0, 0}, b = {NULL, 0, 0};
    /* A tiny chunk from the input's length: 1..61 bytes. */
    size_t chunk = 1 + size % 61;
    fz_write(path, data, size);
    read_all(path, 0, &a);
    read_all(path, chunk, &b);
    FZ_ASSERT(a.n == b.n && memcmp(a.p, b.p, a.n) == 0, "chunk %zu reads differently from the default chunk", chunk);
    free(a.p);
    free(b.p);
    return 0;
}
