#include "io/csv_reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "common/strutil.h"

struct csv_reader {
    FILE *f;
    char *path;
    char *buf; /* unconsumed bytes are buf[beg, end) */
    size_t cap, beg, end;
    size_t chunk; /* bytes per fread */
    int eof;
    int64_t line;  /* line number of buf[beg] */
    int64_t bytes; /* read so far */
    int64_t rows;  /* data rows handed out */
    csv_field_t *fields;
    size_t n_fields, fields_cap;
    csv_row_t row;
    char **header;
    size_t n_header;
    int64_t header_line;
};

/* States of the row-end scan of a line that holds a quote (RFC 4180: a quote
 * opens a quoted field only at the start of a field). */
enum { ST_START, ST_UNQUOTED, ST_QUOTED, ST_AFTER_QUOTE };

static ev_status row_too_long(const csv_reader_t *r, ev_error *err)
{
    return ev_fail(err, EV_EPARSE,
                   "%s:%lld: a row of more than %zu bytes; expected rows of at most 1 MiB ending in "
                   "LF or CRLF (is this a CSV file?)",
                   r->path, (long long)r->line, CSV_MAX_ROW_BYTES);
}

static ev_status fill(csv_reader_t *r, ev_error *err)
{
    size_t want, got;
    if (r->beg > 0) {
        memmove(r->buf, r->buf + r->beg, r->end - r->beg);
        r->end -= r->beg;
        r->beg = 0;
    }
    if (r->end > CSV_MAX_ROW_BYTES) /* buf holds one incomplete row */
        return row_too_long(r, err);
    if (r->end == r->cap) { /* a row longer than the buffer */
        char *grown = (char *)realloc(r->buf, r->cap * 2);
        if (!grown)
            return ev_fail(err, EV_ENOMEM, "%s: out of memory reading a %zu-byte row", r->path, r->cap);
        r->buf = grown;
        r->cap *= 2;
    }
    want = r->cap - r->end;
    if (want > r->chunk)
        want = r->chunk;
    got = fread(r->buf + r->end, 1, want, r->f);
    r->end += got;
    r->bytes += (int64_t)got;
    if (got < want) {
        if (ferror(r->f))
            return ev_fail(err, EV_EIO, "%s: cannot read the file: %s", r->path, strerror(errno));
        r->eof = 1;
    }
    return EV_OK;
}

static ev_status push_field(csv_reader_t *r, const char *p, size_t n, ev_error *err)
{
    if (r->n_fields == r->fields_cap) {
        size_t ncap = r->fields_cap ? r->fields_cap * 2 : 32;
        csv_field_t *grown = (csv_field_t *)realloc(r->fields, ncap * sizeof *grown);
        if (!grown)
            return ev_fail(err, EV_ENOMEM, "%s: out of memory splitting a row", r->path);
        r->fields = grown;
        r->fields_cap = ncap;
    }
    r->fields[r->n_fields].p = p;
    r->fields[r->n_fields].n = n;
    r->n_fields++;
    return EV_OK;
}

/* Finds the end of a row that holds a quote, a CR or a NUL, following the
 * quoting rules. Returns 1 with *len (bytes before the row's '\n' or the end
 * of data), *lines (newlines the row spans, its own included) and *bad (the
 * offset of the first NUL byte or CR outside quotes, or SIZE_MAX), 0 when
 * more data is needed, -1 when the file ends inside a quoted field. */
static int scan_quoted_row(const char *s, size_t avail, int eof, size_t *len, int64_t *lines, size_t *bad)
{
    int st = ST_START;
    int64_t nl = 0;
    *bad = SIZE_MAX;
    for (size_t i = 0; i < avail; i++) {
        char c = s[i];
        if (*bad == SIZE_MAX && (c == '\0' || (c == '\r' && st != ST_QUOTED)))
            *bad = i;
        switch (st) {
        case ST_START:
        case ST_UNQUOTED:
            if (c == '\n') {
                *len = i;
                *lines = nl + 1;
                return 1;
            }
            st = c == ',' ? ST_START : (st == ST_START && c == '"') ? ST_QUOTED : ST_UNQUOTED;
            break;
        case ST_QUOTED:
            if (c == '"')
                st = ST_AFTER_QUOTE;
            else if (c == '\n')
                nl++;
            break;
        case ST_AFTER_QUOTE:
            if (c == '\n') {
                *len = i;
                *lines = nl + 1;
                return 1;
            }
            st = c == '"' ? ST_QUOTED : c == ',' ? ST_START : ST_AFTER_QUOTE;
            break;
        }
    }
    if (!eof)
        return 0;
    if (st == ST_QUOTED)
        return -1;
    *len = avail;
    *lines = nl + 1;
    return 1;
}

/* Word-at-a-time byte search (little-endian GCC/Clang): the comma scan of
 * market rows is most of the reader's time. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CSV_SWAR 1
#define SWAR_ONES 0x0101010101010101ULL
#define SWAR_LOW7 0x7F7F7F7F7F7F7F7FULL

/* 0x80 in each byte of v that equals c, 0 elsewhere (exact, no carries). */
static uint64_t swar_match(uint64_t v, unsigned char c)
{
    uint64_t t = v ^ (SWAR_ONES * c);
    return ~(((t & SWAR_LOW7) + SWAR_LOW7) | t | SWAR_LOW7);
}
#endif

/* Splits a row of plain fields: the hot path of market files. Returns 1 when
 * split, 0 when the row holds a quote, a CR or a NUL (the caller takes the
 * careful path), -1 when out of memory. */
static int split_plain(csv_reader_t *r, const char *s, size_t n, ev_error *err)
{
    const char *f = s, *p = s, *e = s + n;
#ifdef CSV_SWAR
    for (; e - p >= 8; p += 8) {
        uint64_t v, commas;
        memcpy(&v, p, 8);
        if (swar_match(v, '"') | swar_match(v, '\r') | swar_match(v, '\0'))
            return 0;
        for (commas = swar_match(v, ','); commas; commas &= commas - 1) {
            const char *c = p + (__builtin_ctzll(commas) >> 3);
            if (push_field(r, f, (size_t)(c - f), err) != EV_OK)
                return -1;
            f = c + 1;
        }
    }
#endif
    for (; p < e; p++) {
        if (*p == '"' || *p == '\r' || *p == '\0')
            return 0;
        if (*p == ',') {
            if (push_field(r, f, (size_t)(p - f), err) != EV_OK)
                return -1;
            f = p + 1;
        }
    }
    return push_field(r, f, (size_t)(e - f), err) == EV_OK ? 1 : -1;
}

/* Splits a row with quotes, unescaping quoted fields in place ("" -> "). */
static ev_status split_quoted(csv_reader_t *r, char *s, size_t n, int64_t line, ev_error *err)
{
    char *p = s, *e = s + n;
    ev_status st;
    for (;;) {
        if (p < e && *p == '"') {
            char *q = p + 1, *w = p + 1;
            while (q < e) {
                if (*q == '"') {
                    if (q + 1 < e && q[1] == '"') {
                        *w++ = '"';
                        q += 2;
                        continue;
                    }
                    break;
                }
                *w++ = *q++;
            }
            if ((st = push_field(r, p + 1, (size_t)(w - (p + 1)), err)) != EV_OK)
                return st;
            q++; /* the closing quote */
            while (q < e && (*q == ' ' || *q == '\t'))
                q++;
            if (q >= e)
                return EV_OK;
            if (*q != ',') {
                char shown[8];
                csv_field_t c = {q, 1};
                return ev_fail(err, EV_EPARSE,
                               "%s:%lld: field %zu: unexpected '%s' after a closing quote; expected "
                               "',' or the end of the row",
                               r->path, (long long)line, r->n_fields, csv_quote(c, 1, shown));
            }
            p = q + 1;
        } else {
            char *f = p;
            while (p < e && *p != ',')
                p++;
            if ((st = push_field(r, f, (size_t)(p - f), err)) != EV_OK)
                return st;
            if (p >= e)
                return EV_OK;
            p++;
        }
    }
}

/* The line end's CRs: one for CRLF, more where a CRLF file was converted
 * again (CR CR LF). */
static size_t strip_crs(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == '\r')
        len--;
    return len;
}

/* The error for s[bad], a NUL byte or a CR that does not end the line, in a
 * row of n bytes starting at line `line`. */
static ev_status bad_byte(const csv_reader_t *r, const char *s, size_t n, size_t bad, ev_error *err)
{
    int64_t line = r->line;
    size_t line_start = 0, nuls = 0;
    for (size_t i = 0; i < bad; i++)
        if (s[i] == '\n') {
            line++;
            line_start = i + 1;
        }
    if (s[bad] == '\r')
        return ev_fail(err, EV_EPARSE,
                       "%s:%lld: byte %zu: a carriage return (CR) that does not end the line; "
                       "expected lines ending in LF or CRLF (convert a file with CR-only or LF CR "
                       "line ends)",
                       r->path, (long long)line, bad - line_start + 1);
    for (size_t i = 0; i < n; i++)
        nuls += s[i] == '\0';
    return ev_fail(err, EV_EPARSE, "%s:%lld: byte %zu: a NUL byte; expected text%s", r->path, (long long)line,
                   bad - line_start + 1, 3 * nuls >= n ? " (the file looks like UTF-16: save it as UTF-8)" : "");
}

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return 0;
    return 1;
}

/* The next non-blank row into r->fields / r->row; *got = 0 at the end. */
static ev_status read_row(csv_reader_t *r, int *got, ev_error *err)
{
    for (;;) {
        char *s = r->buf + r->beg;
        size_t avail = r->end - r->beg, len, consumed;
        int64_t lines = 1;
        const char *nl = (const char *)memchr(s, '\n', avail);
        int split;
        ev_status st;
        if (!nl && !r->eof) {
            if ((st = fill(r, err)) != EV_OK)
                return st;
            continue;
        }
        if (!nl && avail == 0) {
            *got = 0;
            return EV_OK;
        }
        len = nl ? (size_t)(nl - s) : avail;
        if (len > CSV_MAX_ROW_BYTES)
            return row_too_long(r, err);
        consumed = nl ? len + 1 : len;
        len = strip_crs(s, len);
        if (is_blank(s, len)) {
            r->beg += consumed;
            r->line += lines;
            continue;
        }
        r->n_fields = 0;
        split = split_plain(r, s, len, err);
        if (split < 0)
            return EV_ENOMEM;
        if (split == 0) { /* a quote (the row may run over several lines), a CR or a NUL */
            size_t bad;
            int found = scan_quoted_row(s, avail, r->eof, &len, &lines, &bad);
            if (found == 0) {
                if ((st = fill(r, err)) != EV_OK)
                    return st;
                continue;
            }
            if (found < 0)
                return ev_fail(err, EV_EPARSE, "%s:%lld: a quoted field is never closed; expected a closing '\"'",
                               r->path, (long long)r->line);
            if (len > CSV_MAX_ROW_BYTES)
                return row_too_long(r, err);
            consumed = len < avail ? len + 1 : len;
            len = strip_crs(s, len);
            /* NULs would cut names short; a lone CR is a line end not split on. */
            if (bad < len)
                return bad_byte(r, s, len, bad, err);
            r->n_fields = 0;
            if ((st = split_quoted(r, s, len, r->line, err)) != EV_OK)
                return st;
        }
        r->row.fields = r->fields;
        r->row.n_fields = r->n_fields;
        r->row.line = r->line;
        r->beg += consumed;
        r->line += lines;
        *got = 1;
        return EV_OK;
    }
}

const char *csv_quote(csv_field_t f, size_t max, char *buf)
{
    size_t k = 0;
    for (size_t i = 0; i < f.n && i < max; i++) {
        unsigned char c = (unsigned char)f.p[i];
        if (c >= 0x20 && c < 0x7f)
            buf[k++] = (char)c;
        else
            k += (size_t)sprintf(buf + k, "\\x%02X", c);
    }
    strcpy(buf + k, f.n > max ? "..." : "");
    return buf;
}

csv_field_t csv_trim(csv_field_t f)
{
    while (f.n && (f.p[0] == ' ' || f.p[0] == '\t')) {
        f.p++;
        f.n--;
    }
    while (f.n && (f.p[f.n - 1] == ' ' || f.p[f.n - 1] == '\t'))
        f.n--;
    return f;
}

static ev_status read_header(csv_reader_t *r, ev_error *err)
{
    int got;
    ev_status st = read_row(r, &got, err);
    if (st != EV_OK)
        return st;
    if (!got)
        return ev_fail(err, EV_EPARSE, "%s: the file is empty; expected a header row", r->path);
    r->header_line = r->row.line;
    while (r->n_fields > 1 && csv_trim(r->fields[r->n_fields - 1]).n == 0)
        r->n_fields--; /* trailing commas name no column */
    r->header = (char **)calloc(r->n_fields, sizeof *r->header);
    if (!r->header)
        return ev_fail(err, EV_ENOMEM, "%s: out of memory reading the header", r->path);
    r->n_header = r->n_fields;
    for (size_t i = 0; i < r->n_fields; i++) {
        csv_field_t f = csv_trim(r->fields[i]);
        r->header[i] = (char *)malloc(f.n + 1);
        if (!r->header[i])
            return ev_fail(err, EV_ENOMEM, "%s: out of memory reading the header", r->path);
        memcpy(r->header[i], f.p, f.n);
        r->header[i][f.n] = '\0';
    }
    return EV_OK;
}

ev_status csv_open(const char *path, size_t chunk, csv_reader_t **out, ev_error *err)
{
    csv_reader_t *r = (csv_reader_t *)calloc(1, sizeof *r);
    ev_status st = EV_OK;
    *out = NULL;
    if (!r)
        return ev_fail(err, EV_ENOMEM, "%s: out of memory", path);
    r->chunk = chunk ? chunk : CSV_DEFAULT_CHUNK;
    r->cap = r->chunk;
    r->line = 1;
    r->path = ev_strdup(path);
    r->buf = (char *)malloc(r->cap);
    if (!r->path || !r->buf) {
        csv_close(r);
        return ev_fail(err, EV_ENOMEM, "%s: out of memory", path);
    }
    if (!(r->f = plat_open_input(path, "a CSV file", err))) {
        csv_close(r);
        return EV_EIO;
    }
    /* Enough bytes to see a byte-order mark, however small the chunk. */
    while (st == EV_OK && !r->eof && r->end < 3)
        st = fill(r, err);
    if (st == EV_OK && r->end >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0)
        r->beg = 3;
    if (st == EV_OK && r->end >= 2 && (memcmp(r->buf, "\xFF\xFE", 2) == 0 || memcmp(r->buf, "\xFE\xFF", 2) == 0))
        st = ev_fail(err, EV_EPARSE,
                     "%s: starts with a UTF-16 byte-order mark; expected a UTF-8 "
                     "(or ASCII) CSV file: save it as UTF-8",
                     path);
    if (st == EV_OK)
        st = read_header(r, err);
    if (st != EV_OK) {
        csv_close(r);
        return st;
    }
    *out = r;
    return EV_OK;
}

void csv_close(csv_reader_t *r)
{
    if (!r)
        return;
    if (r->f)
        fclose(r->f);
    for (size_t i = 0; i < r->n_header; i++)
        free(r->header[i]);
    free(r->header);
    free(r->fields);
    free(r->buf);
    free(r->path);
    free(r);
}

/* A data row has as many fields as the header; trailing empty fields beyond
 * it (a spreadsheet's trailing commas) are cut off. */
static ev_status check_width(csv_reader_t *r, ev_error *err)
{
    size_t n = r->n_fields;
    while (n > r->n_header && csv_trim(r->fields[n - 1]).n == 0)
        n--;
    if (n != r->n_header)
        return ev_fail(err, EV_EPARSE,
                       "%s:%lld: the row has %zu field(s); expected %zu, as many as the header "
                       "(line %lld) has",
                       r->path, (long long)r->row.line, n, r->n_header, (long long)r->header_line);
    r->row.n_fields = n;
    return EV_OK;
}

ev_status csv_next(csv_reader_t *r, const csv_row_t **row, ev_error *err)
{
    int got;
    ev_status st;
    *row = NULL;
    if ((st = read_row(r, &got, err)) != EV_OK)
        return st;
    if (got && (st = check_width(r, err)) != EV_OK)
        return st;
    if (got) {
        r->rows++;
        *row = &r->row;
    }
    return EV_OK;
}

static int lower(char c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* 1 when a header name is want, exactly or (fold) ignoring ASCII case. */
static int name_is(const char *name, csv_field_t want, int fold)
{
    size_t i = 0;
    for (; i < want.n && name[i]; i++)
        if (name[i] != want.p[i] && !(fold && lower(name[i]) == lower(want.p[i])))
            return 0;
    return i == want.n && name[i] == '\0';
}

ev_status csv_optional_column(const csv_reader_t *r, const char *name, int *col, ev_error *err)
{
    csv_field_t want = {name, strlen(name)};
    want = csv_trim(want);
    *col = -1;
    for (size_t i = 0; i < r->n_header; i++) {
        if (!name_is(r->header[i], want, 0))
            continue;
        if (*col >= 0) /* which of the two would be read is a guess */
            return ev_fail(err, EV_EPARSE,
                           "%s:%lld: the header has column '%s' twice (fields %d "
                           "and %zu); expected each column name once",
                           r->path, (long long)r->header_line, name, *col + 1, i + 1);
        *col = (int)i;
    }
    return EV_OK;
}

/* Why a column may look missing: its name in other letter case, or a header
 * split on another separator. "" when no reason is seen. */
static void missing_hint(const csv_reader_t *r, const char *name, char *buf, size_t n)
{
    csv_field_t want = {name, strlen(name)};
    want = csv_trim(want);
    buf[0] = '\0';
    for (size_t i = 0; i < r->n_header; i++)
        if (name_is(r->header[i], want, 1)) {
            snprintf(buf, n, " (the header has '%s': column names are case-sensitive)", r->header[i]);
            return;
        }
    if (r->n_header == 1 && strchr(r->header[0], ';'))
        snprintf(buf, n, " (the header has no ',' but has ';': expected comma-separated values)");
    else if (r->n_header == 1 && strchr(r->header[0], '\t'))
        snprintf(buf, n, " (the header has no ',' but has tabs: expected comma-separated values)");
}

ev_status csv_require_column(const csv_reader_t *r, const char *name, int *col, ev_error *err)
{
    char hint[160];
    ev_status st = csv_optional_column(r, name, col, err);
    if (st != EV_OK || *col >= 0)
        return st;
    missing_hint(r, name, hint, sizeof hint);
    return ev_fail(err, EV_EPARSE,
                   "%s:%lld: the header has no column '%s'; expected it among "
                   "the column names of the first row%s",
                   r->path, (long long)r->header_line, name, hint);
}

const char *csv_path(const csv_reader_t *r)
{
    return r->path;
}

const char *csv_column_name(const csv_reader_t *r, int col)
{
    return col >= 0 && (size_t)col < r->n_header ? r->header[col] : "";
}

int64_t csv_data_rows(const csv_reader_t *r)
{
    return r->rows;
}

int64_t csv_bytes_read(const csv_reader_t *r)
{
    return r->bytes;
}
