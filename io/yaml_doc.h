/* A schema-checking layer over libyaml's document API, independent of what
 * the document means: load a document, walk mappings whose keys are checked
 * against an allowed list (unknown and duplicate keys are errors), and read
 * typed values. Every error reads
 *
 *     FILE:LINE:COLUMN: key 'path.to.key': expected ..., found ...
 *
 * with the 1-based position of the offending node (libcyaml style).
 *
 * Scalars follow a strict subset of the YAML 1.2 core schema: a *plain*
 * (unquoted) scalar is null ("", "~", "null"), a boolean (true/false, any of
 * the three capitalisations YAML 1.2 allows), an integer ([+-]digits) or a
 * number (decimal_is_number); anything else, and every quoted scalar, is a
 * string. Strings accept any non-null scalar ("name: 42" is the name "42").
 * Mappings: yaml_map.h. */
#ifndef EVOLVE_YAML_DOC_H
#define EVOLVE_YAML_DOC_H

#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define YDOC_PATH_MAX 256 /* longest key path kept for messages (longer ones are cut) */

typedef struct {
    yaml_document_t doc;
    int loaded;       /* doc must be deleted */
    const char *file; /* borrowed: the name messages start with */
} ydoc_t;

/* Parses exactly one YAML document from text[0..len). Syntax errors carry
 * libyaml's problem position (EV_EPARSE); a second document is an error. On
 * failure nothing is left to free. */
ev_status ydoc_load(ydoc_t *d, const char *file, const char *text, size_t len, ev_error *err);
void ydoc_free(ydoc_t *d);

/* The root node, NULL for an empty document. */
yaml_node_t *ydoc_root(ydoc_t *d);

/* Formats "FILE:LINE:COLUMN: key 'path': <fmt...>" (the key part only when
 * path is non-empty; the position only when at is non-NULL); returns EV_ECONFIG. */
ev_status ydoc_fail(const ydoc_t *d, ev_error *err, const yaml_node_t *at, const char *path, const char *fmt, ...)
    EV_PRINTF(5, 6);

/* What a node is, for "found ...": "a mapping", "a list", "null", "the
 * boolean true", "the number 12.5", "the string 'abc'", "the quoted string '3'". */
void ydoc_describe(const yaml_node_t *n, char *buf, size_t size);

int ydoc_is_null(const yaml_node_t *n);
/* The text of a plain scalar, else NULL. */
const char *ydoc_plain(const yaml_node_t *n);
/* The text of a number (plain scalar matching decimal_is_number), else NULL. */
const char *ydoc_number_text(const yaml_node_t *n);

/* parent + "." + key, or parent + "[i]" (0-based), into buf[YDOC_PATH_MAX]. */
void ydoc_path_key(char *buf, const char *parent, const char *key);
void ydoc_path_index(char *buf, const char *parent, size_t i);

/* The node with a given id (1-based, as mappings and sequences store them). */
yaml_node_t *ydoc_node(const ydoc_t *d, int id);
/* The text of any scalar, else NULL. */
const char *ydoc_text(const yaml_node_t *n);
/* EV_ECONFIG naming path when scalar n holds a NUL byte: libyaml decodes the
 * escapes \0, \x00 and \u0000 of a double-quoted scalar to one, and the C
 * string would silently end there. EV_OK for anything else. */
ev_status ydoc_check_text(const ydoc_t *d, const yaml_node_t *n, const char *path, ev_error *err);

/* "expected <expected>, found <ydoc_describe(n)>" at n; returns EV_ECONFIG. */
ev_status ydoc_expected(const ydoc_t *d, const yaml_node_t *n, const char *path, const char *expected, ev_error *err);

/* Bounds of a number; an infinite bound is no bound. */
typedef struct {
    double lo, hi;
    int lo_open, hi_open; /* 1: the bound itself is excluded */
} ybounds_t;

/* Typed reads of one node; `path` names it in messages. */
ev_status ydoc_get_string(const ydoc_t *d, const yaml_node_t *n, const char *path, char **out, ev_error *err);
ev_status ydoc_get_number(const ydoc_t *d, const yaml_node_t *n, const char *path, double *out, ev_error *err);
ev_status ydoc_get_number_in(const ydoc_t *d, const yaml_node_t *n, const char *path, ybounds_t b, double *out,
                             ev_error *err);
ev_status ydoc_get_uint(const ydoc_t *d, const yaml_node_t *n, const char *path, uint64_t lo, uint64_t hi,
                        uint64_t *out, ev_error *err);
ev_status ydoc_get_bool(const ydoc_t *d, const yaml_node_t *n, const char *path, int *out, ev_error *err);
/* A list; `expected` completes "expected a list of ..." in the message. */
ev_status ydoc_get_sequence(const ydoc_t *d, const yaml_node_t *n, const char *path, const char *expected,
                            ev_error *err);
/* The i-th item of a sequence node. */
yaml_node_t *ydoc_item(ydoc_t *d, const yaml_node_t *seq, size_t i);
size_t ydoc_length(const yaml_node_t *seq);

#ifdef __cplusplus
}
#endif
#endif
