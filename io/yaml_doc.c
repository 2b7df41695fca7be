/* Generic YAML-tree reading with schema checks and positioned errors; see
 * yaml_doc.h. Knows nothing about evolve's schema. */
#include "io/yaml_doc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"
#include "io/decimal.h"

/* ---- loading ------------------------------------------------------------ */

/* 1-based line/column of a byte offset (libyaml's reader errors, such as
 * invalid UTF-8, report only an offset). */
static void offset_position(const char *text, size_t len, size_t offset, size_t *line, size_t *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < offset && i < len; i++) {
        if (text[i] == '\n')
            (*line)++, *col = 1;
        else
            (*col)++;
    }
}

static ev_status parser_fail(const char *file, const char *text, size_t len, const yaml_parser_t *p, ev_error *err)
{
    size_t line, col;
    char context[256] = "";
    if (p->error == YAML_MEMORY_ERROR)
        return ev_fail(err, EV_ENOMEM, "%s: out of memory parsing the YAML", file);
    if (p->error == YAML_READER_ERROR) {
        offset_position(text, len, p->problem_offset, &line, &col);
        if (p->problem_value != -1)
            return ev_fail(err, EV_EPARSE, "%s:%zu:%zu: YAML syntax error: %s (byte 0x%02x)", file, line, col,
                           p->problem ? p->problem : "unreadable text", (unsigned)p->problem_value & 0xffu);
        return ev_fail(err, EV_EPARSE, "%s:%zu:%zu: YAML syntax error: %s", file, line, col,
                       p->problem ? p->problem : "unreadable text");
    }
    if (p->context)
        snprintf(context, sizeof context, " (%s at line %zu, column %zu)", p->context, (size_t)p->context_mark.line + 1,
                 (size_t)p->context_mark.column + 1);
    return ev_fail(err, EV_EPARSE, "%s:%zu:%zu: YAML syntax error: %s%s", file, (size_t)p->problem_mark.line + 1,
                   (size_t)p->problem_mark.column + 1, p->problem ? p->problem : "invalid YAML", context);
}

/* A config nests about five levels; libyaml's scanner checks every open
 * level at each token, so a file of 100,000 '[' would take minutes to load. */
#define YDOC_MAX_DEPTH 64

/* Refuses nesting deeper than YDOC_MAX_DEPTH, walking the events (which stop
 * there) before the document is built. A syntax error stops the walk
 * quietly: the load reports it. */
static ev_status check_depth(const char *file, const char *text, size_t len, ev_error *err)
{
    yaml_parser_t p;
    yaml_event_t ev;
    int depth = 0, done = 0;
    ev_status st = EV_OK;
    if (!yaml_parser_initialize(&p))
        return ev_fail(err, EV_ENOMEM, "%s: out of memory starting the YAML parser", file);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    while (!done && st == EV_OK && yaml_parser_parse(&p, &ev)) {
        if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
            if (++depth > YDOC_MAX_DEPTH)
                st = ev_fail(err, EV_ECONFIG, "%s:%zu:%zu: nested deeper than %d levels; a config needs a few", file,
                             (size_t)ev.start_mark.line + 1, (size_t)ev.start_mark.column + 1, YDOC_MAX_DEPTH);
        } else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) {
            depth--;
        }
        done = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    return st;
}

ev_status ydoc_load(ydoc_t *d, const char *file, const char *text, size_t len, ev_error *err)
{
    yaml_parser_t parser;
    yaml_document_t extra;
    ev_status st = EV_OK;
    memset(d, 0, sizeof *d);
    d->file = file;
    if ((st = check_depth(file, text, len, err)) != EV_OK)
        return st;
    if (!yaml_parser_initialize(&parser))
        return ev_fail(err, EV_ENOMEM, "%s: out of memory starting the YAML parser", file);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &d->doc)) {
        st = parser_fail(file, text, len, &parser, err);
        yaml_parser_delete(&parser);
        return st;
    }
    d->loaded = 1;
    /* A config is one document: a second one would be silently ignored. */
    if (!yaml_parser_load(&parser, &extra)) {
        st = parser_fail(file, text, len, &parser, err);
    } else {
        yaml_node_t *root2 = yaml_document_get_root_node(&extra);
        if (root2)
            st = ev_fail(err, EV_ECONFIG,
                         "%s:%zu:%zu: a second YAML document starts here; a config is a single document", file,
                         (size_t)root2->start_mark.line + 1, (size_t)root2->start_mark.column + 1);
        yaml_document_delete(&extra);
    }
    yaml_parser_delete(&parser);
    if (st != EV_OK)
        ydoc_free(d);
    return st;
}

void ydoc_free(ydoc_t *d)
{
    if (d && d->loaded)
        yaml_document_delete(&d->doc);
    if (d)
        d->loaded = 0;
}

yaml_node_t *ydoc_root(ydoc_t *d)
{
    return d->loaded ? yaml_document_get_root_node(&d->doc) : NULL;
}

/* Node ids are 1-based positions in the document's node stack. */
yaml_node_t *ydoc_node(const ydoc_t *d, int id)
{
    if (id < 1 || id > d->doc.nodes.top - d->doc.nodes.start)
        return NULL;
    return d->doc.nodes.start + id - 1;
}

/* ---- messages ----------------------------------------------------------- */

ev_status ydoc_fail(const ydoc_t *d, ev_error *err, const yaml_node_t *at, const char *path, const char *fmt, ...)
{
    char where[YDOC_PATH_MAX + 64] = "", shown_where[YDOC_PATH_MAX + 64];
    char what[EV_ERROR_MSG_MAX], shown_what[EV_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (path && path[0])
        snprintf(where, sizeof where, "key '%s': ", path);
    /* keys, names and values quoted (YAML escapes such as "\e", a quote cut
       inside a UTF-8 character): no raw byte, no line break of theirs */
    ev_show_text(shown_where, sizeof shown_where, where, 0);
    ev_show_text(shown_what, sizeof shown_what, what, 0);
    if (at)
        return ev_fail(err, EV_ECONFIG, "%s:%zu:%zu: %s%s", d->file, (size_t)at->start_mark.line + 1,
                       (size_t)at->start_mark.column + 1, shown_where, shown_what);
    return ev_fail(err, EV_ECONFIG, "%s: %s%s", d->file, shown_where, shown_what);
}

const char *ydoc_text(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

ev_status ydoc_check_text(const ydoc_t *d, const yaml_node_t *n, const char *path, ev_error *err)
{
    const char *s = ydoc_text(n);
    if (!s || strlen(s) == n->data.scalar.length)
        return EV_OK;
    return ydoc_fail(d, err, n, path,
                     "expected text without NUL characters, found a NUL (a \\0, \\x00 or \\u0000 escape) after "
                     "'%.40s'",
                     s);
}

const char *ydoc_plain(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? ydoc_text(n) : NULL;
}

static int is_one_of(const char *s, const char *const *list)
{
    for (; s && *list; list++)
        if (strcmp(s, *list) == 0)
            return 1;
    return 0;
}

int ydoc_is_null(const yaml_node_t *n)
{
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL", NULL};
    return is_one_of(ydoc_plain(n), nulls);
}

/* -1 when not a boolean, else 0 / 1. */
static int bool_value(const yaml_node_t *n)
{
    static const char *const yes[] = {"true", "True", "TRUE", NULL};
    static const char *const no[] = {"false", "False", "FALSE", NULL};
    const char *s = ydoc_plain(n);
    return is_one_of(s, yes) ? 1 : is_one_of(s, no) ? 0 : -1;
}

const char *ydoc_number_text(const yaml_node_t *n)
{
    const char *s = ydoc_plain(n);
    return s && decimal_is_number(s) ? s : NULL;
}

void ydoc_describe(const yaml_node_t *n, char *buf, size_t size)
{
    char shown[48];
    const char *s = ydoc_text(n);
    if (!n || n->type == YAML_NO_NODE)
        snprintf(buf, size, "nothing");
    else if (n->type == YAML_MAPPING_NODE)
        snprintf(buf, size, "a mapping");
    else if (n->type == YAML_SEQUENCE_NODE)
        snprintf(buf, size, "a list");
    else if (ydoc_is_null(n))
        snprintf(buf, size, "null (an empty value)");
    else {
        /* Long or multi-line scalars are cut: the position says where they are. */
        size_t k = 0;
        for (; s[k] && s[k] != '\n' && k + 4 < sizeof shown; k++)
            shown[k] = s[k];
        if (s[k])
            shown[k++] = '.', shown[k++] = '.', shown[k++] = '.';
        shown[k] = '\0';
        if (bool_value(n) >= 0)
            snprintf(buf, size, "the boolean %s", shown);
        else if (ydoc_number_text(n))
            snprintf(buf, size, "the number %s", shown);
        else if (ydoc_plain(n))
            snprintf(buf, size, "the string '%s'", shown);
        else
            snprintf(buf, size, "the quoted string '%s'", shown);
    }
}

/* Appends s to buf[YDOC_PATH_MAX] at *used, cutting what does not fit (a
 * message with a shortened path beats no message). */
static void path_append(char *buf, size_t *used, const char *s)
{
    size_t n = strlen(s);
    if (*used + n >= YDOC_PATH_MAX)
        n = YDOC_PATH_MAX - 1 - *used;
    memcpy(buf + *used, s, n);
    *used += n;
    buf[*used] = '\0';
}

void ydoc_path_key(char *buf, const char *parent, const char *key)
{
    size_t used = 0;
    buf[0] = '\0';
    if (parent && parent[0]) {
        path_append(buf, &used, parent);
        path_append(buf, &used, ".");
    }
    path_append(buf, &used, key);
}

void ydoc_path_index(char *buf, const char *parent, size_t i)
{
    char index[32];
    size_t used = 0;
    buf[0] = '\0';
    snprintf(index, sizeof index, "[%zu]", i);
    path_append(buf, &used, parent ? parent : "");
    path_append(buf, &used, index);
}

/* ---- typed reads of a node ---------------------------------------------- */

ev_status ydoc_expected(const ydoc_t *d, const yaml_node_t *n, const char *path, const char *expected, ev_error *err)
{
    char found[96];
    ydoc_describe(n, found, sizeof found);
    return ydoc_fail(d, err, n, path, "expected %s, found %s", expected, found);
}

ev_status ydoc_get_string(const ydoc_t *d, const yaml_node_t *n, const char *path, char **out, ev_error *err)
{
    const char *s = ydoc_text(n);
    ev_status st;
    if (!s || ydoc_is_null(n) || !s[0])
        return ydoc_expected(d, n, path, "a non-empty string", err);
    if ((st = ydoc_check_text(d, n, path, err)) != EV_OK)
        return st;
    if (!(*out = ev_strdup(s)))
        return ev_fail(err, EV_ENOMEM, "out of memory reading %s", d->file);
    return EV_OK;
}

static void bounds_text(ybounds_t b, char *buf, size_t size)
{
    int has_lo = isfinite(b.lo), has_hi = isfinite(b.hi);
    if (has_lo && has_hi)
        snprintf(buf, size, "a number %s %g and %s %g", b.lo_open ? ">" : ">=", b.lo, b.hi_open ? "<" : "<=", b.hi);
    else if (has_lo)
        snprintf(buf, size, "a number %s %g", b.lo_open ? ">" : ">=", b.lo);
    else if (has_hi)
        snprintf(buf, size, "a number %s %g", b.hi_open ? "<" : "<=", b.hi);
    else
        snprintf(buf, size, "a number");
}

ev_status ydoc_get_number_in(const ydoc_t *d, const yaml_node_t *n, const char *path, ybounds_t b, double *out,
                             ev_error *err)
{
    char expected[96];
    const char *s = ydoc_number_text(n);
    double v;
    bounds_text(b, expected, sizeof expected);
    if (!s)
        return ydoc_expected(d, n, path, expected, err);
    v = strtod(s, NULL);
    if (!isfinite(v))
        return ydoc_fail(d, err, n, path, "expected %s, found %s (beyond the range of a double)", expected, s);
    if ((isfinite(b.lo) && (b.lo_open ? !(v > b.lo) : !(v >= b.lo))) ||
        (isfinite(b.hi) && (b.hi_open ? !(v < b.hi) : !(v <= b.hi))))
        return ydoc_fail(d, err, n, path, "expected %s, found %s", expected, s);
    *out = v;
    return EV_OK;
}

ev_status ydoc_get_number(const ydoc_t *d, const yaml_node_t *n, const char *path, double *out, ev_error *err)
{
    ybounds_t none = {-HUGE_VAL, HUGE_VAL, 0, 0};
    return ydoc_get_number_in(d, n, path, none, out, err);
}

ev_status ydoc_get_uint(const ydoc_t *d, const yaml_node_t *n, const char *path, uint64_t lo, uint64_t hi,
                        uint64_t *out, ev_error *err)
{
    const char *s = ydoc_plain(n), *p = s;
    char expected[96];
    uint64_t v = 0;
    int neg = 0, too_big = 0, digits = 0;
    if (p && (*p == '+' || *p == '-'))
        neg = *p++ == '-';
    for (; p && *p >= '0' && *p <= '9'; p++, digits++) {
        unsigned digit = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - digit) / 10)
            too_big = 1;
        else
            v = v * 10 + digit;
    }
    /* Within a type's range the message gives the lower bound only (the
     * upper is the type's); beyond it, both. */
    int type_max = hi == UINT64_MAX || hi == (uint64_t)INT64_MAX || hi == UINT32_MAX;
    if (type_max && !too_big && v <= hi && lo == 0)
        snprintf(expected, sizeof expected, "a non-negative integer");
    else if (type_max && !too_big && v <= hi)
        snprintf(expected, sizeof expected, "an integer >= %llu", (unsigned long long)lo);
    else
        snprintf(expected, sizeof expected, "an integer from %llu to %llu", (unsigned long long)lo,
                 (unsigned long long)hi);
    if (!s || digits == 0 || *p)
        return ydoc_expected(d, n, path, expected, err);
    if (neg && v != 0)
        return ydoc_fail(d, err, n, path, "expected %s, found %s", expected, s);
    if (too_big || v < lo || v > hi)
        return ydoc_fail(d, err, n, path, "expected %s, found %s", expected, s);
    *out = v;
    return EV_OK;
}

ev_status ydoc_get_bool(const ydoc_t *d, const yaml_node_t *n, const char *path, int *out, ev_error *err)
{
    int b = bool_value(n);
    if (b < 0)
        return ydoc_expected(d, n, path, "true or false", err);
    *out = b;
    return EV_OK;
}

ev_status ydoc_get_sequence(const ydoc_t *d, const yaml_node_t *n, const char *path, const char *expected,
                            ev_error *err)
{
    char what[160];
    if (n && n->type == YAML_SEQUENCE_NODE)
        return EV_OK;
    snprintf(what, sizeof what, "a list of %s", expected);
    return ydoc_expected(d, n, path, what, err);
}

size_t ydoc_length(const yaml_node_t *seq)
{
    return (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

yaml_node_t *ydoc_item(ydoc_t *d, const yaml_node_t *seq, size_t i)
{
    return ydoc_node(d, seq->data.sequence.items.start[i]);
}
