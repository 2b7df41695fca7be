/* A streaming CSV reader for the trader's files (market days, trade logs).
 *
 * Reads the file in large chunks (never the whole file) and hands out one row
 * at a time as (pointer, length) fields that point into its buffer: nothing is
 * copied or converted, so a caller pays only for the fields it looks at.
 * Handles a UTF-8 BOM, LF, CRLF (and CR CR LF) line ends, quoted fields ("a,b",
 * "" escapes, line breaks inside quotes), empty fields, a missing final
 * newline; blank lines are skipped. The first non-blank row is the header.
 * A NUL byte anywhere, a CR outside quotes that does not end a line (CR-only
 * or LF CR line ends) and a UTF-16 byte-order mark are errors, so a field
 * never holds a NUL. */
#ifndef EVOLVE_CSV_READER_H
#define EVOLVE_CSV_READER_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes per fread; rows longer than this grow the buffer. */
#define CSV_DEFAULT_CHUNK ((size_t)4 << 20)
/* The longest row read (the trader's rows are ~200 bytes): a file without
 * line ends is an error, not a buffer the size of the file. */
#define CSV_MAX_ROW_BYTES ((size_t)1 << 20)

typedef struct {
    const char *p; /* not NUL-terminated; valid until the next csv_next */
    size_t n;
} csv_field_t;

typedef struct {
    const csv_field_t *fields;
    size_t n_fields;
    int64_t line; /* 1-based line number of the row's first character */
} csv_row_t;

typedef struct csv_reader csv_reader_t;

/* Opens path and reads its header row. chunk: bytes per read (0 = default;
 * tests use tiny values so rows straddle chunk edges). A file without any
 * row is an error ("expected a header row"). */
ev_status csv_open(const char *path, size_t chunk, csv_reader_t **out, ev_error *err);
void csv_close(csv_reader_t *r);

/* The next data row, or *row = NULL at the end of the file. The row and its
 * fields stay valid until the next call. A row has exactly as many fields as
 * the header (trailing empty fields beyond it are cut off, and trailing empty
 * header names do not count); any other count is an error naming the line. */
ev_status csv_next(csv_reader_t *r, const csv_row_t **row, ev_error *err);

/* Column index of a header name (exact match after trimming spaces), or -1
 * when absent. A name the header has twice is an error naming both fields. */
ev_status csv_optional_column(const csv_reader_t *r, const char *name, int *col, ev_error *err);

/* Like csv_optional_column, but a missing column is an error naming the file
 * and the column, with a hint when the header has the name in other letter
 * case or seems split by ';' or tabs. */
ev_status csv_require_column(const csv_reader_t *r, const char *name, int *col, ev_error *err);

const char *csv_path(const csv_reader_t *r);
const char *csv_column_name(const csv_reader_t *r, int col); /* "" when out of range */
int64_t csv_data_rows(const csv_reader_t *r);                /* data rows handed out so far */
int64_t csv_bytes_read(const csv_reader_t *r);               /* bytes read from the file so far */

/* Text of a field for a message: at most `max` bytes of it, bytes outside
 * printable ASCII written as \xNN (a terminal shows no raw bytes of a broken
 * file), "..." when cut short. buf holds at least 4 * max + 4 bytes. */
const char *csv_quote(csv_field_t f, size_t max, char *buf);

/* Removes leading and trailing spaces and tabs. */
csv_field_t csv_trim(csv_field_t f);

#ifdef __cplusplus
}
#endif
#endif
