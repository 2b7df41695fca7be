/* Mappings of a YAML document read against a schema: the keys are checked
 * against an allowed list (an unknown or duplicate key is an error naming it
 * and its position), then read by name with typed, bounded getters that keep
 * defaults for absent keys. Messages as in yaml_doc.h. */
#ifndef EVOLVE_YAML_MAP_H
#define EVOLVE_YAML_MAP_H

#include "io/yaml_doc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A mapping being read: its node, its key path and its document. */
typedef struct {
    ydoc_t *doc;
    yaml_node_t *node;
    char path[YDOC_PATH_MAX];
} ymap_t;

/* Checks that node is a mapping whose keys are scalars, unique, and listed in
 * allowed (NULL-terminated); an unknown key's message lists the allowed ones. */
ev_status ymap_open(ymap_t *m, ydoc_t *d, yaml_node_t *node, const char *path, const char *const *allowed,
                    ev_error *err);

/* The value / key node of a key, NULL when absent. */
yaml_node_t *ymap_get(const ymap_t *m, const char *key);
yaml_node_t *ymap_key(const ymap_t *m, const char *key);
/* m->path + "." + key into buf[YDOC_PATH_MAX]. */
void ymap_path(const ymap_t *m, const char *key, char *buf);
/* "key 'path.key': required key is missing; expected <expected>", at the mapping. */
ev_status ymap_missing(const ymap_t *m, const char *key, const char *expected, ev_error *err);

/* Optional typed keys: when the key is absent, *out is left as it is (the
 * default) and EV_OK is returned; *present (if non-NULL) says which. */
ev_status ymap_string(const ymap_t *m, const char *key, char **out, int *present, ev_error *err);
ev_status ymap_bool(const ymap_t *m, const char *key, int *out, ev_error *err);
ev_status ymap_uint(const ymap_t *m, const char *key, uint64_t lo, uint64_t hi, uint64_t *out, ev_error *err);
ev_status ymap_u32(const ymap_t *m, const char *key, uint32_t lo, uint32_t hi, uint32_t *out, ev_error *err);
/* A number within bounds (ybounds_t, yaml_doc.h). */
ev_status ymap_number(const ymap_t *m, const char *key, ybounds_t b, double *out, ev_error *err);

/* One of names (NULL-terminated); *out is its position. */
ev_status ymap_choice(const ymap_t *m, const char *key, const char *const *names, int *out, ev_error *err);

/* A nested mapping (checked as ymap_open); *present = 0 and child untouched when absent. */
ev_status ymap_submap(const ymap_t *m, const char *key, const char *const *allowed, ymap_t *child, int *present,
                      ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
