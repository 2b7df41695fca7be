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
        k += (size_t)snprintf(buf + k, n - k, "%s%.*s", i ? "|" : "", (int)row->fields[i].n, row->fields[i].p);
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
        {2, "SOXL|1.5|a,b"}, {4, "IONQ||say \"hi\""}, {6, "||"}, {7, "MARA|2|two\r\nlines"},
        {9, "X||"},          {10, "LAST|3|end"},
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
        int col = -2;
        /* the BOM and spaces are not in the name */
        CHECK(csv_optional_column(r, "Ticker", &col, &err) == EV_OK && col == 0);
        CHECK(csv_optional_column(r, " Ticker", &col, &err) == EV_OK && col == 0);
        CHECK(csv_optional_column(r, "Note", &col, &err) == EV_OK && col == 2);
        CHECK(csv_optional_column(r, "ticker", &col, &err) == EV_OK && col == -1); /* exact */
        CHECK_STR("Price", csv_column_name(r, 1));
        csv_close(r);
    }
}

static void test_errors(void)
{
    csv_reader_t *r = NULL;
    const csv_row_t *row;
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
    CHECK(csv_next(r, &row, &err) == EV_EPARSE);
    CHECK_CONTAINS(err.msg, DIR
                   "/short.csv:2: the row has 2 field(s); expected 3, as many as the "
                   "header (line 1) has");
    csv_close(r);

    CHECK(fx_write(DIR "/long_row.csv", "A,B\n1,2\n1,2,3\n") == 0);
    CHECK(csv_open(DIR "/long_row.csv", 0, &r, &err) == EV_OK);
    CHECK(csv_next(r, &row, &err) == EV_OK && row);
    CHECK(csv_next(r, &row, &err) == EV_EPARSE);
    CHECK_CONTAINS(err.msg, DIR "/long_row.csv:3: the row has 3 field(s); expected 2");
    csv_close(r);
}

/* A column read twice is an error; the hints for a column that looks missing. */
static void test_header_names(void)
{
    csv_reader_t *r;
    ev_error err;
    int col;
    CHECK(fx_write(DIR "/dup.csv", "Ticker,Price,Time,Price\nA,1,09:30:00,2\n") == 0);
    CHECK(csv_open(DIR "/dup.csv", 0, &r, &err) == EV_OK);
    CHECK(csv_require_column(r, "Ticker", &col, &err) == EV_OK && col == 0);
    CHECK(csv_require_column(r, "Price", &col, &err) == EV_EPARSE);
    CHECK_CONTAINS(err.msg, DIR "/dup.csv:1: the header has column 'Price' twice (fields 2 and 4)");
    CHECK(csv_optional_column(r, "Price", &col, &err) == EV_EPARSE);
    csv_close(r);

    CHECK(fx_write(DIR "/case.csv", "ticker,PRICE\nA,1\n") == 0);
    CHECK(csv_open(DIR "/case.csv", 0, &r, &err) == EV_OK);
    CHECK(csv_require_column(r, "Price", &col, &err) == EV_EPARSE);
    CHECK_CONTAINS(err.msg, "no column 'Price'");
    CHECK_CONTAINS(err.msg, "(the header has 'PRICE': column names are case-sensitive)");
    csv_close(r);

    CHECK(fx_write(DIR "/semi.csv", "Ticker;Price\nA;1\n") == 0);
    CHECK(csv_open(DIR "/semi.csv", 0, &r, &err) == EV_OK);
    CHECK(csv_require_column(r, "Price", &col, &err) == EV_EPARSE);
    CHECK_CONTAINS(err.msg, "(the header has no ',' but has ';': expected comma-separated values)");
    csv_close(r);

    CHECK(fx_write(DIR "/tab.csv", "Ticker\tPrice\nA\t1\n") == 0);
    CHECK(csv_open(DIR "/tab.csv", 0, &r, &err) == EV_OK);
    CHECK(csv_require_column(r, "Price", &col, &err) == EV_EPARSE);
    CHECK_CONTAINS(err.msg, "(the header has no ',' but has tabs: expected comma-separated values)");
    csv_close(r);
}

/* Trailing commas (as spreadsheets write them) on the header or the rows are
 * not fields. */
static void test_trailing_commas(void)
{
    static const want_row_t want[] = {{2, "1|2"}, {3, "3|4"}, {4, "5|"}};
    CHECK(fx_write(DIR "/commas.csv", "A,B,,\n1,2\n3,4,,\n5,, \n") == 0);
    expect_rows(DIR "/commas.csv", 0, want, 3);
}

/* Writes n bytes (NULs included) to path; returns 0 on success. */
static int write_bytes(const char *path, const char *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    if (fwrite(bytes, 1, n, f) != n) {
        fclose(f);
        return -1;
    }
    return fclose(f);
}

/* Reads every row of a file that must fail; the error's message must hold
 * each of want[] (NULL-terminated). */
static void expect_error(const char *path, size_t chunk, const char *const *want)
{
    csv_reader_t *r;
    const csv_row_t *row = NULL;
    ev_error err;
    ev_status st = csv_open(path, chunk, &r, &err);
    while (st == EV_OK && (st = csv_next(r, &row, &err)) == EV_OK && row)
        ;
    csv_close(r); /* NULL when csv_open failed */
    CHECK(st == EV_EPARSE);
    for (; st != EV_OK && *want; want++)
        CHECK_CONTAINS(err.msg, *want);
}

/* NUL bytes (a ticker "SOXL\0..." once overflowed the ticker lookup) and
 * UTF-16 files are refused with the line; CR CR LF parses, CR-only and LF CR
 * line ends are errors, not rows with a CR in a field. */
static void test_bytes(void)
{
    static const want_row_t crcrlf[] = {{2, "SOXL|1"}, {3, "IONQ|2"}};
    static const char nul[] = "Ticker,Price\nSOXL,1\nSOXL\0XXXXXXXXXXXX,2\n";
    static const char utf16[] = "T\0i\0c\0k\0e\0r\0,\0P\0\n\0";
    static const char *const want_nul[] = {DIR "/nulbyte.csv:3: byte 5: a NUL byte; expected text", NULL};
    static const char *const want_utf16[] = {DIR "/utf16.csv:1: byte 2: a NUL byte",
                                             "looks like UTF-16: save it as UTF-8", NULL};
    static const char *const want_bom[] = {DIR "/bom16.csv: starts with a UTF-16 byte-order mark", NULL};
    static const char *const want_cr[] = {DIR "/cr.csv:1: byte 13: a carriage return (CR)",
                                          "expected lines ending in LF or CRLF", NULL};
    static const char *const want_lfcr[] = {DIR "/lfcr.csv:2: byte 1: a carriage return", NULL};
    static const char *const want_quoted[] = {DIR "/quoted.csv:3: byte 2: a NUL byte", NULL};
    /* not nul.csv: NUL.* is the null device on Windows (scripts/windows-check.sh runs this there) */
    CHECK(write_bytes(DIR "/nulbyte.csv", nul, sizeof nul - 1) == 0);
    CHECK(write_bytes(DIR "/utf16.csv", utf16, sizeof utf16 - 1) == 0);
    CHECK(fx_write(DIR "/bom16.csv", "\xFF\xFET\0,\0") == 0);
    CHECK(fx_write(DIR "/cr.csv", "Ticker,Price\rSOXL,1\rIONQ,2\r") == 0);
    CHECK(fx_write(DIR "/lfcr.csv", "Ticker,Price\n\rSOXL,1\n\rIONQ,2\n\r") == 0);
    CHECK(write_bytes(DIR "/quoted.csv", "A,B\n\"x\ny\0\",1\n", 14) == 0);
    CHECK(fx_write(DIR "/crcrlf.csv", "Ticker,Price\r\r\nSOXL,1\r\r\nIONQ,2\r\r\n") == 0);
    for (size_t chunk = 0; chunk <= 5; chunk++) {
        expect_error(DIR "/nulbyte.csv", chunk, want_nul);
        expect_error(DIR "/utf16.csv", chunk, want_utf16);
        expect_error(DIR "/bom16.csv", chunk, want_bom);
        expect_error(DIR "/cr.csv", chunk, want_cr);
        expect_error(DIR "/lfcr.csv", chunk, want_lfcr);
        expect_error(DIR "/quoted.csv", chunk, want_quoted);
        expect_rows(DIR "/crcrlf.csv", chunk, crcrlf, 2);
    }
}

/* "H\n", then a row of n 'x's, then tail: a file with one long row (malloc'ed). */
static char *one_long_row(size_t n, const char *tail)
{
    char *text = (char *)malloc(2 + n + strlen(tail) + 1);
    if (!text) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    strcpy(text, "H\n");
    memset(text + 2, 'x', n);
    strcpy(text + 2 + n, tail);
    return text;
}

/* A row far longer than the buffer grows it. */
static void test_long_row(void)
{
    size_t n = 10000;
    char *text = one_long_row(n, "\nlast\n");
    csv_reader_t *r;
    const csv_row_t *row;
    ev_error err;
    CHECK(fx_write(DIR "/long.csv", text) == 0);
    CHECK(csv_open(DIR "/long.csv", 7, &r, &err) == EV_OK);
    CHECK(csv_next(r, &row, &err) == EV_OK && row && row->fields[0].n == n);
    CHECK(csv_next(r, &row, &err) == EV_OK && row && row->line == 3 && row->fields[0].n == 4);
    CHECK(csv_next(r, &row, &err) == EV_OK && row == NULL);
    CHECK_EQ_I64((long long)strlen(text), csv_bytes_read(r));
    csv_close(r);
    free(text);
}

/* A row of more than CSV_MAX_ROW_BYTES (a file without line ends) is an
 * error naming its line, whatever the chunk size; one of the limit reads. */
static void test_row_limit(void)
{
    static const char *const want[] = {DIR "/huge.csv:2: a row of more than 1048576 bytes", NULL};
    char *huge = one_long_row(CSV_MAX_ROW_BYTES + 1, "\n"), *limit = one_long_row(CSV_MAX_ROW_BYTES, "\n");
    csv_reader_t *r;
    const csv_row_t *row;
    ev_error err;
    CHECK(fx_write(DIR "/huge.csv", huge) == 0);
    expect_error(DIR "/huge.csv", 0, want);
    expect_error(DIR "/huge.csv", 4096, want);
    CHECK(fx_write(DIR "/limit.csv", limit) == 0);
    CHECK(csv_open(DIR "/limit.csv", 4096, &r, &err) == EV_OK);
    CHECK(csv_next(r, &row, &err) == EV_OK && row && row->fields[0].n == CSV_MAX_ROW_BYTES);
    csv_close(r);
    free(huge);
    free(limit);
}

/* ---- fuzz: random rows -> CSV text -> the reader -> the same rows ------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(rng_state >> 33) % n;
}

#define FUZZ_ROWS 300
#define FUZZ_MAX_FIELDS 12
#define FUZZ_MAX_LEN 24

typedef struct {
    int n;
    char text[FUZZ_MAX_FIELDS][2 * FUZZ_MAX_LEN + 2];
    long long line;
} fuzz_row_t;

/* One random row appended to buf (quoted fields may hold , " CR LF); its
 * fields as they must be read back go to row. Returns the new length. */
static size_t fuzz_row(char *buf, size_t k, int width, fuzz_row_t *row, long long *line)
{
    static const char plain[] = "abcXYZ019 .-_";
    static const char any[] = "ab ,\"\n\r.9";
    row->n = width;
    row->line = *line;
    for (int f = 0; f < row->n; f++) {
        int quoted = rnd(3) == 0, len = (int)rnd(FUZZ_MAX_LEN);
        char *t = row->text[f];
        if (f)
            buf[k++] = ',';
        if (quoted)
            buf[k++] = '"';
        for (int i = 0; i < len; i++) {
            char c = quoted ? any[rnd(sizeof any - 1)] : plain[rnd(sizeof plain - 1)];
            *t++ = c;
            if (c == '"')
                buf[k++] = '"';
            if (c == '\n')
                (*line)++;
            buf[k++] = c;
        }
        *t = '\0';
        if (quoted)
            buf[k++] = '"';
    }
    /* A row of one blank field would be a blank line (skipped): make it text. */
    if (row->n == 1 && strspn(row->text[0], " ") == strlen(row->text[0])) {
        strcpy(row->text[0] + strlen(row->text[0]), "z");
        if (buf[k - 1] == '"') {
            buf[k - 1] = 'z';
            buf[k++] = '"';
        } else {
            buf[k++] = 'z';
        }
    }
    if (rnd(2))
        buf[k++] = '\r';
    buf[k++] = '\n';
    (*line)++;
    return k;
}

static void test_fuzz(void)
{
    for (int round = 0; round < 20; round++) {
        static fuzz_row_t rows[FUZZ_ROWS];
        static char buf[FUZZ_ROWS * FUZZ_MAX_FIELDS * (2 * FUZZ_MAX_LEN + 4) + 64];
        long long line = 2;
        int width = 1 + (int)rnd(FUZZ_MAX_FIELDS); /* every row as wide as the header */
        size_t k = (size_t)sprintf(buf, "%sh0", round % 2 ? "\xEF\xBB\xBF" : "");
        size_t chunk = round < 10 ? 1 + rnd(64) : 0;
        csv_reader_t *r;
        const csv_row_t *got;
        ev_error err;
        int n = 0, bad = 0;
        for (int i = 1; i < width; i++)
            k += (size_t)sprintf(buf + k, ",h%d", i);
        buf[k++] = '\n';
        for (int i = 0; i < FUZZ_ROWS; i++) {
            if (rnd(10) == 0) { /* a blank line now and then */
                buf[k++] = '\n';
                line++;
            }
            k = fuzz_row(buf, k, width, &rows[i], &line);
        }
        if (round % 3 == 0)
            k -= buf[k - 2] == '\r' ? 2 : 1; /* no final line end */
        buf[k] = '\0';
        if (fx_write(DIR "/fuzz.csv", buf) != 0 || csv_open(DIR "/fuzz.csv", chunk, &r, &err)) {
            CHECK(0);
            return;
        }
        while (!bad && csv_next(r, &got, &err) == EV_OK && got) {
            const fuzz_row_t *want = &rows[n++];
            bad = n > FUZZ_ROWS || got->line != want->line || (int)got->n_fields != want->n;
            for (int f = 0; !bad && f < want->n; f++)
                bad = got->fields[f].n != strlen(want->text[f]) ||
                      memcmp(got->fields[f].p, want->text[f], got->fields[f].n) != 0;
            if (bad)
                fprintf(stderr, "fuzz round %d (chunk %zu): row %d (line %lld) differs\n", round, chunk, n, want->line);
        }
        CHECK(!bad);
        CHECK_EQ_I64(FUZZ_ROWS, n);
        csv_close(r);
    }
}

int main(void)
{
    if (fx_clean_dir(DIR) != 0)
        return 1;
    test_formats();
    test_errors();
    test_trailing_commas();
    test_header_names();
    test_long_row();
    test_row_limit();
    test_bytes();
    test_fuzz();
    return check_exit();
}
