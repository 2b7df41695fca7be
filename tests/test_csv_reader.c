/* The streaming CSV reader: CRLF, BOM, quotes, empty fields, blank lines, no
 * final newline, rows straddling chunk edges, header lookup, and errors. */
#include <stdlib.h>
#include <string.h>

#include "io/csv_reader.h"
#include "tests/check.h"
#include "tests/fixture_files.h"

#define DIR "tmp_csv_reader"

/* One expected row: line number and fields joined by '|'. */
typedef struct {
    long long line;
    const char *joined;
} want_row_t;

static void join_fields(const csv_row_t *row, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < row->n_fields && k + 1 < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%.*s", i ? "|" : "", (int)row->fields[i].n,
                              row->fields[i].p);
}

/* Reads path with the given chunk size and checks every row. */
static void expect_rows(const char *path, size_t chunk, const want_row_t *want, size_t n_want)
{
    csv_reader_t *r;
    const csv_row_t *row;
    ev_error err;
    size_t k = 0;
    char got[512];
    if (csv_open(path, chunk, &r, &err) != EV_OK) {
        fprintf(stderr, "chunk %zu: %s\n", chunk, err.msg);
        CHECK(0);
        return;
    }
    while (csv_next(r, &row, &err) == EV_OK && row) {
        join_fields(row, got, sizeof got);
        if (k < n_want) {
            if (strcmp(want[k].joined, got) != 0 || want[k].line != row->line)
                fprintf(stderr, "chunk %zu, row %zu:\n", chunk, k);
            CHECK_STR(want[k].joined, got);
            CHECK_EQ_I64(want[k].line, row->line);
        }
        k++;
    }
    CHECK_EQ_I64(n_want, k);
    CHECK_EQ_I64(n_want, csv_data_rows(r));
    csv_close(r);
}

static void test_formats(void)
{
    /* BOM, CRLF, quotes with commas, "" escapes and a line break, empty
     * fields, a blank line (with spaces), and no final newline. */
    static const char text[] =
        "\xEF\xBB\xBF"
        " Ticker ,Price,Note\r\n"
        "SOXL,1.5,\"a,b\"\r\n"
        "\r\n"
        "IONQ,,\"say \"\"hi\"\"\"\r\n"
        "   \r\n"
        ",,\r\n"
        "MARA,2,\"two\r\nlines\"\r\n"
        "X,\"\",\"\"  \n"
        "LAST,3,end";
    static const want_row_t want[] = {
        {2, "SOXL|1.5|a,b"},      {4, "IONQ||say \"hi\""},     {6, "||"},
        {7, "MARA|2|two\r\nlines"}, {9, "X||"},                {10, "LAST|3|end"},
    };
    size_t nw = sizeof want / sizeof want[0];
    csv_reader_t *r;
    ev_error err;
    CHECK(fx_write(DIR "/formats.csv", text) == 0);
    expect_rows(DIR "/formats.csv", 0, want, nw);
    /* Every tiny buffer size: rows, the BOM and quotes straddle chunk edges. */
    for (size_t chunk = 1; chunk <= 17; chunk++)
        expect_rows(DIR "/formats.csv", chunk, want, nw);

    CHECK(csv_open(DIR "/formats.csv", 0, &r, &err) == EV_OK);
    if (r) {
        CHECK_EQ_I64(0, csv_column(r, "Ticker")); /* the BOM and spaces are not in the name */
        CHECK_EQ_I64(0, csv_column(r, " Ticker"));
        CHECK_EQ_I64(2, csv_column(r, "Note"));
        CHECK_EQ_I64(-1, csv_column(r, "ticker")); /* exact match */
        CHECK_STR("Price", csv_column_name(r, 1));
        csv_close(r);
    }
}

static void test_errors(void)
{
    csv_reader_t *r = NULL;
    const csv_row_t *row;
    csv_field_t f;
    ev_error err;
    int col;

    CHECK(fx_write(DIR "/empty.csv", "\n  \r\n") == 0);
    CHECK(csv_open(DIR "/empty.csv", 0, &r, &err) == EV_EPARSE);
    CHECK_CONTAINS(err.msg, DIR "/empty.csv");
    CHECK_CONTAINS(err.msg, "expected a header row");

    CHECK(csv_open(DIR "/missing.csv", 0, &r, &err) == EV_EIO);
    CHECK_CONTAINS(err.msg, DIR "/missing.csv");

    CHECK(fx_write(DIR "/unclosed.csv", "A,B\n1,2\n3,\"open\n4,5\n") == 0);
    CHECK(csv_open(DIR "/unclosed.csv", 4, &r, &err) == EV_OK);
    CHECK(csv_next(r, &row, &err) == EV_OK && row && row->line == 2);
    CHECK(csv_next(r, &row, &err) == EV_EPARSE);
    CHECK_CONTAINS(err.msg, DIR "/unclosed.csv:3:");
    CHECK_CONTAINS(err.msg, "never closed");
    csv_close(r);

    CHECK(fx_write(DIR "/after.csv", "A,B\n\"x\"y,2\n") == 0);
    CHECK(csv_open(DIR "/after.csv", 0, &r, &err) == EV_OK);
    CHECK(csv_next(r, &row, &err) == EV_EPARSE);
    CHECK_CONTAINS(err.msg, DIR "/after.csv:2: field 1: unexpected 'y'");
    csv_close(r);

    CHECK(fx_write(DIR "/short.csv", "Ticker,Price,Time\nSOXL,1.0\n") == 0);
    CHECK(csv_open(DIR "/short.csv", 0, &r, &err) == EV_OK);
    CHECK(csv_require_column(r, "Time", &col, &err) == EV_OK && col == 2);
    CHECK(csv_require_column(r, "Volume", &col, &err) == EV_EPARSE);
    CHECK_CONTAINS(err.msg, DIR "/short.csv:1: the header has no column 'Volume'");
    CHECK(csv_next(r, &row, &err) == EV_OK && row);
    if (row) {
        CHECK(csv_get(r, row, 1, &f, &err) == EV_OK && f.n == 3 && memcmp(f.p, "1.0", 3) == 0);
        CHECK(csv_get(r, row, 2, &f, &err) == EV_EPARSE);
        CHECK_CONTAINS(err.msg, DIR "/short.csv:2: column 'Time' (field 3) is missing");
    }
    csv_close(r);
}

/* A row far longer than the buffer grows it. */
static void test_long_row(void)
{
    size_t n = 10000;
    char *text = (char *)malloc(n + 32);
    csv_reader_t *r;
    const csv_row_t *row;
    ev_error err;
    strcpy(text, "H\n");
    memset(text + 2, 'x', n);
    strcpy(text + 2 + n, "\nlast\n");
    CHECK(fx_write(DIR "/long.csv", text) == 0);
    CHECK(csv_open(DIR "/long.csv", 7, &r, &err) == EV_OK);
    CHECK(csv_next(r, &row, &err) == EV_OK && row && row->fields[0].n == n);
    CHECK(csv_next(r, &row, &err) == EV_OK && row && row->line == 3 && row->fields[0].n == 4);
    CHECK(csv_next(r, &row, &err) == EV_OK && row == NULL);
    CHECK_EQ_I64((long long)strlen(text), csv_bytes_read(r));
    csv_close(r);
    free(text);
}

int main(void)
{
    if (fx_clean_dir(DIR) != 0)
        return 1;
    test_formats();
    test_errors();
    test_long_row();
    return check_exit();
}
