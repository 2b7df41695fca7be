/* Mappings read against a list of allowed keys; see yaml_map.h. */
#include "io/yaml_map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_one_of(const char *s, const char *const *list)
{
    for (; s && *list; list++)
        if (strcmp(s, *list) == 0)
            return 1;
    return 0;
}

static void join_names(const char *const *names, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; names[i] && used + 1 < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", names[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

ev_status ymap_open(ymap_t *m, ydoc_t *d, yaml_node_t *node, const char *path, const char *const *allowed,
                    ev_error *err)
{
    char keys[512], what[600];
    yaml_node_pair_t *pairs, *end;
    memset(m, 0, sizeof *m);
    m->doc = d;
    m->node = node;
    snprintf(m->path, sizeof m->path, "%s", path ? path : "");
    join_names(allowed, keys, sizeof keys);
    if (!node || node->type != YAML_MAPPING_NODE) {
        snprintf(what, sizeof what, "a mapping with the keys %s", keys);
        return ydoc_expected(d, node, m->path, what, err);
    }
    pairs = node->data.mapping.pairs.start;
    end = node->data.mapping.pairs.top;
    for (yaml_node_pair_t *p = pairs; p < end; p++) {
        yaml_node_t *k = ydoc_node(d, p->key);
        const char *name = ydoc_text(k);
        char kpath[YDOC_PATH_MAX];
        ev_status st;
        if (!name)
            return ydoc_expected(d, k, m->path, "a key name", err);
        ydoc_path_key(kpath, m->path, name);
        if ((st = ydoc_check_text(d, k, kpath, err)) != EV_OK)
            return st;
        if (!is_one_of(name, allowed))
            return ydoc_fail(d, err, k, kpath, "unknown key; the keys allowed here are: %s", keys);
        for (yaml_node_pair_t *q = pairs; q < p; q++) {
            yaml_node_t *k0 = ydoc_node(d, q->key);
            if (strcmp(ydoc_text(k0), name) == 0)
                return ydoc_fail(d, err, k, kpath, "duplicate key (first given at line %zu, column %zu)",
                                 (size_t)k0->start_mark.line + 1, (size_t)k0->start_mark.column + 1);
        }
    }
    return EV_OK;
}

static const yaml_node_pair_t *find_pair(const ymap_t *m, const char *key)
{
    for (const yaml_node_pair_t *p = m->node->data.mapping.pairs.start; p < m->node->data.mapping.pairs.top; p++)
        if (strcmp(ydoc_text(ydoc_node(m->doc, p->key)), key) == 0)
            return p;
    return NULL;
}

yaml_node_t *ymap_get(const ymap_t *m, const char *key)
{
    const yaml_node_pair_t *p = find_pair(m, key);
    return p ? ydoc_node(m->doc, p->value) : NULL;
}

yaml_node_t *ymap_key(const ymap_t *m, const char *key)
{
    const yaml_node_pair_t *p = find_pair(m, key);
    return p ? ydoc_node(m->doc, p->key) : NULL;
}

void ymap_path(const ymap_t *m, const char *key, char *buf)
{
    ydoc_path_key(buf, m->path, key);
}

ev_status ymap_missing(const ymap_t *m, const char *key, const char *expected, ev_error *err)
{
    char path[YDOC_PATH_MAX];
    ymap_path(m, key, path);
    return ydoc_fail(m->doc, err, m->node, path, "required key is missing; expected %s", expected);
}

/* The value node of an optional key, with its path written to path[YDOC_PATH_MAX];
 * NULL when the key is absent (then *present, when asked for, is 0 and the
 * caller keeps its default). */
static yaml_node_t *lookup(const ymap_t *m, const char *key, char *path, int *present)
{
    yaml_node_t *n = ymap_get(m, key);
    if (present)
        *present = n != NULL;
    if (n)
        ymap_path(m, key, path);
    return n;
}

ev_status ymap_string(const ymap_t *m, const char *key, char **out, int *present, ev_error *err)
{
    char path[YDOC_PATH_MAX];
    yaml_node_t *n = lookup(m, key, path, present);
    if (!n)
        return EV_OK;
    free(*out); /* replace a default */
    *out = NULL;
    return ydoc_get_string(m->doc, n, path, out, err);
}

ev_status ymap_bool(const ymap_t *m, const char *key, int *out, ev_error *err)
{
    char path[YDOC_PATH_MAX];
    yaml_node_t *n = lookup(m, key, path, NULL);
    return n ? ydoc_get_bool(m->doc, n, path, out, err) : EV_OK;
}

ev_status ymap_uint(const ymap_t *m, const char *key, uint64_t lo, uint64_t hi, uint64_t *out, ev_error *err)
{
    char path[YDOC_PATH_MAX];
    yaml_node_t *n = lookup(m, key, path, NULL);
    return n ? ydoc_get_uint(m->doc, n, path, lo, hi, out, err) : EV_OK;
}

ev_status ymap_u32(const ymap_t *m, const char *key, uint32_t lo, uint32_t hi, uint32_t *out, ev_error *err)
{
    uint64_t v = *out;
    ev_status st = ymap_uint(m, key, lo, hi, &v, err);
    if (st == EV_OK)
        *out = (uint32_t)v;
    return st;
}

ev_status ymap_number(const ymap_t *m, const char *key, ybounds_t b, double *out, ev_error *err)
{
    char path[YDOC_PATH_MAX];
    yaml_node_t *n = lookup(m, key, path, NULL);
    return n ? ydoc_get_number_in(m->doc, n, path, b, out, err) : EV_OK;
}

ev_status ymap_choice(const ymap_t *m, const char *key, const char *const *names, int *out, ev_error *err)
{
    char path[YDOC_PATH_MAX], list[256], expected[300];
    yaml_node_t *n = ymap_get(m, key);
    const char *s = ydoc_text(n);
    ev_status st;
    if (!n)
        return EV_OK;
    ymap_path(m, key, path);
    if ((st = ydoc_check_text(m->doc, n, path, err)) != EV_OK)
        return st;
    for (int i = 0; s && names[i]; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            return EV_OK;
        }
    join_names(names, list, sizeof list);
    snprintf(expected, sizeof expected, "one of %s", list);
    return ydoc_expected(m->doc, n, path, expected, err);
}

ev_status ymap_submap(const ymap_t *m, const char *key, const char *const *allowed, ymap_t *child, int *present,
                      ev_error *err)
{
    char path[YDOC_PATH_MAX];
    yaml_node_t *n = lookup(m, key, path, present);
    return n ? ymap_open(child, m->doc, n, path, allowed, err) : EV_OK;
}
