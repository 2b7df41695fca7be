/* The config's `parameters:` list -> lattice_t (SPEC sec. 3).
 *
 * Every check that can point at a YAML node is made here, so its message has
 * the line and column; lattice_finish then re-checks the finished lattice (a
 * second line of defence, and the place that computes its size). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"
#include "io/config_internal.h"
#include "io/decimal.h"

static const char *const param_keys[] = {"name", "role", "feature", "direction", "values", "range", NULL};
static const char *const range_keys[] = {"start", "stop", "step", "off", NULL};
static const char *const *const role_names = param_role_names;
static const char *const dir_names[] = {"min", "max", NULL}; /* filter_dir order */

/* Sizes the value arrays; n_values is set at once so that lattice_free
 * releases whatever a later failure leaves half-filled. */
static ev_status alloc_values(param_t *p, uint32_t n, const char *file, ev_error *err)
{
    p->values = (double *)calloc(n, sizeof *p->values);
    p->value_text = (char **)calloc(n, sizeof *p->value_text);
    if (!p->values || !p->value_text)
        return ev_fail(err, EV_ENOMEM, "%s: out of memory for the lattice", file);
    p->n_values = n;
    return EV_OK;
}

ev_status config_check_level(const ydoc_t *d, const yaml_node_t *at, const char *path, const param_t *p,
                             const char *what, double v, ev_error *err)
{
    const int percent =
        p->role == PARAM_TARGET || p->role == PARAM_STOP || p->role == PARAM_TRAIL || p->role == PARAM_BREAKEVEN;
    if (param_value_problem(p, v))
        return ydoc_fail(d, err, at, path, "parameter '%s': %s, %s", p->name, param_value_problem(p, v), what);
    if (percent && !(fabs(v) <= CONFIG_PCT_MAX))
        return ydoc_fail(d, err, at, path, "parameter '%s': a %s percent is at most %g in size, %s", p->name,
                         role_names[p->role], CONFIG_PCT_MAX, what);
    return EV_OK;
}

/* A strategy parameter listed by names (atc's robustness: [Narrow, Medium,
 * Wide]): an enumeration whose value i is i, its names as value texts; the
 * strategy checks the names (signals/strategy.h). */
static ev_status parse_names_as_values(ydoc_t *d, const yaml_node_t *seq, const char *path, param_t *p, ev_error *err)
{
    char ipath[YDOC_PATH_MAX];
    ev_status st;
    for (uint32_t i = 0; i < p->n_values; i++) {
        yaml_node_t *item = ydoc_item(d, seq, i);
        ydoc_path_index(ipath, path, i);
        if (ydoc_number_text(item))
            return ydoc_expected(d, item, ipath, "a name, as the list's first value is (not a number)", err);
        if ((st = ydoc_get_string(d, item, ipath, &p->value_text[i], err)) != EV_OK)
            return st;
        p->values[i] = (double)i;
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(p->value_text[j], p->value_text[i]))
                return ydoc_fail(d, err, item, ipath, "parameter '%s': '%s' is listed twice", p->name,
                                 p->value_text[i]);
    }
    return EV_OK;
}

/* 1 when a list item is the plain word off. */
static int off_item(const yaml_node_t *item)
{
    const char *text = ydoc_plain(item);
    return text && !strcmp(text, "off");
}

/* Appends off (+inf, the last value: SPEC sec. 4.1) to p's n_values - 1 numbers. */
static ev_status put_off(param_t *p, const char *file, ev_error *err)
{
    p->values[p->n_values - 1] = HUGE_VAL;
    if (!(p->value_text[p->n_values - 1] = ev_strdup("off")))
        return ev_fail(err, EV_ENOMEM, "%s: out of memory for the lattice", file);
    return EV_OK;
}

/* An exit's `off` in a list: at most once, written first or last (it is held
 * last, the loosest). Its position in seq, or -1 when there is none. */
static ev_status find_off(ydoc_t *d, const yaml_node_t *seq, const char *path, const param_t *p, long *at,
                          ev_error *err)
{
    char ipath[YDOC_PATH_MAX];
    size_t n = ydoc_length(seq);
    *at = -1;
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *item = ydoc_item(d, seq, i);
        if (!off_item(item))
            continue;
        ydoc_path_index(ipath, path, i);
        if (!param_role_can_off(p->role))
            return ydoc_fail(d, err, item, ipath,
                             "parameter '%s': off is a value of trail, breakeven and max_hold only, not of a %s "
                             "(a filter's \"no filter\" is its loosest value, such as 0)",
                             p->name, role_names[p->role]);
        if (*at >= 0)
            return ydoc_fail(d, err, item, ipath, "parameter '%s': off is listed twice", p->name);
        if (i != 0 && i + 1 != n)
            return ydoc_fail(d, err, item, ipath,
                             "parameter '%s': off goes first or last in the list (it is the loosest value), found "
                             "it at position %zu of %zu",
                             p->name, i + 1, n);
        *at = (long)i;
    }
    return EV_OK;
}

static ev_status parse_values(ydoc_t *d, const yaml_node_t *seq, const char *path, param_t *p, ev_error *err)
{
    char ipath[YDOC_PATH_MAX], what[96];
    long off_at;
    size_t n;
    ev_status st = ydoc_get_sequence(d, seq, path, "numbers, strictly increasing", err);
    if (st != EV_OK)
        return st;
    n = ydoc_length(seq);
    if (n == 0)
        return ydoc_fail(d, err, seq, path, "parameter '%s': expected at least one value, found an empty list",
                         p->name);
    if (n > EV_MAX_VALUES)
        return ydoc_fail(d, err, seq, path, "parameter '%s': expected at most %d values, found %zu", p->name,
                         EV_MAX_VALUES, n);
    if ((st = alloc_values(p, (uint32_t)n, d->file, err)) != EV_OK)
        return st;
    if (p->role == PARAM_STRATEGY && ydoc_plain(ydoc_item(d, seq, 0)) && !ydoc_number_text(ydoc_item(d, seq, 0)))
        return parse_names_as_values(d, seq, path, p, err);
    if ((st = find_off(d, seq, path, p, &off_at, err)) != EV_OK)
        return st;
    for (size_t i = 0, at = 0; i < n; i++) {
        yaml_node_t *item = ydoc_item(d, seq, i);
        if ((long)i == off_at)
            continue;
        ydoc_path_index(ipath, path, i);
        /* The double is strtod of the text as typed (SPEC sec. 3). */
        if ((st = ydoc_get_number(d, item, ipath, &p->values[at], err)) != EV_OK)
            return st;
        if (!(p->value_text[at] = ev_strdup(ydoc_number_text(item))))
            return ev_fail(err, EV_ENOMEM, "%s: out of memory for the lattice", d->file);
        snprintf(what, sizeof what, "found %s", p->value_text[at]);
        if ((st = config_check_level(d, item, ipath, p, what, p->values[at], err)) != EV_OK)
            return st;
        if (at > 0 && !(p->values[at] > p->values[at - 1]))
            return ydoc_fail(d, err, item, ipath,
                             "parameter '%s': values must be strictly increasing, found %s after %s", p->name,
                             p->value_text[at], p->value_text[at - 1]);
        at++;
    }
    return off_at >= 0 ? put_off(p, d->file, err) : EV_OK;
}

/* range.start/stop/step: a number, parsed exactly. */
static ev_status range_number(const ymap_t *m, const char *key, yaml_node_t **node, decimal_t *out, ev_error *err)
{
    char path[YDOC_PATH_MAX];
    double unused;
    decimal_err de;
    ev_status st;
    *node = ymap_get(m, key);
    if (!*node)
        return ymap_missing(m, key, "a number (range needs start, stop and step)", err);
    ymap_path(m, key, path);
    if ((st = ydoc_get_number(m->doc, *node, path, &unused, err)) != EV_OK)
        return st;
    de = decimal_parse(ydoc_number_text(*node), out);
    if (de != DECIMAL_OK)
        return ydoc_fail(m->doc, err, *node, path, "expected an exact decimal number, found %s (%s)",
                         ydoc_number_text(*node), decimal_err_str(de));
    return EV_OK;
}

static ev_status range_fail(const ymap_t *m, decimal_range_err re, const decimal_range_t *r, yaml_node_t *const n[3],
                            const param_t *p, ev_error *err)
{
    const char *start = ydoc_number_text(n[0]), *stop = ydoc_number_text(n[1]), *step = ydoc_number_text(n[2]);
    char path[YDOC_PATH_MAX];
    switch (re) {
    case DECIMAL_RANGE_STEP_NOT_POSITIVE:
        ymap_path(m, "step", path);
        return ydoc_fail(m->doc, err, n[2], path, "parameter '%s': expected a step > 0, found %s", p->name, step);
    case DECIMAL_RANGE_REVERSED:
        ymap_path(m, "stop", path);
        return ydoc_fail(m->doc, err, n[1], path, "parameter '%s': expected stop >= start (%s), found %s", p->name,
                         start, stop);
    case DECIMAL_RANGE_NOT_MULTIPLE:
        ymap_path(m, "step", path);
        return ydoc_fail(m->doc, err, n[2], path,
                         "parameter '%s': step %s does not divide the range %s .. %s (stop - start must be a "
                         "whole number of steps)",
                         p->name, step, start, stop);
    case DECIMAL_RANGE_TOO_MANY:
        return ydoc_fail(m->doc, err, m->node, m->path,
                         "parameter '%s': expected at most %d values, found a range of %llu%s", p->name, EV_MAX_VALUES,
                         (unsigned long long)r->count, r->count == UINT64_MAX ? " or more" : "");
    default:
        return ydoc_fail(m->doc, err, m->node, m->path,
                         "parameter '%s': start %s, stop %s and step %s are too far apart in scale to be counted "
                         "exactly in 64 bits",
                         p->name, start, stop, step);
    }
}

/* range.off: true adds off after the range's numbers (trail, breakeven and
 * max_hold only). */
static ev_status range_off(const ymap_t *m, const param_t *p, int *off, ev_error *err)
{
    char path[YDOC_PATH_MAX];
    ev_status st;
    *off = 0;
    if (!ymap_get(m, "off"))
        return EV_OK;
    if ((st = ymap_bool(m, "off", off, err)) != EV_OK)
        return st;
    if (*off && !param_role_can_off(p->role)) {
        ymap_path(m, "off", path);
        return ydoc_fail(m->doc, err, ymap_get(m, "off"), path,
                         "parameter '%s': off is a value of trail, breakeven and max_hold only, not of a %s", p->name,
                         role_names[p->role]);
    }
    return EV_OK;
}

static ev_status parse_range(ydoc_t *d, yaml_node_t *node, const char *path, param_t *p, ev_error *err)
{
    ymap_t m;
    yaml_node_t *n[3];
    decimal_t start, stop, step;
    decimal_range_t r;
    decimal_range_err re;
    char text[DECIMAL_TEXT_MAX], what[96], vpath[YDOC_PATH_MAX];
    int off = 0;
    ev_status st;
    if ((st = ymap_open(&m, d, node, path, range_keys, err)) != EV_OK ||
        (st = range_number(&m, "start", &n[0], &start, err)) != EV_OK ||
        (st = range_number(&m, "stop", &n[1], &stop, err)) != EV_OK ||
        (st = range_number(&m, "step", &n[2], &step, err)) != EV_OK)
        return st;
    if ((st = range_off(&m, p, &off, err)) != EV_OK)
        return st;
    if ((re = decimal_range_init(&r, start, stop, step, EV_MAX_VALUES - (uint64_t)off)) != DECIMAL_RANGE_OK)
        return range_fail(&m, re, &r, n, p, err);
    if ((st = alloc_values(p, (uint32_t)r.count + (uint32_t)off, d->file, err)) != EV_OK)
        return st;
    if (off && (st = put_off(p, d->file, err)) != EV_OK)
        return st;
    for (uint32_t i = 0; i < (uint32_t)r.count; i++) {
        /* start + i*step as an exact decimal, written out, then read as a
         * double: exactly what typing the list would give. */
        decimal_format(decimal_range_at(&r, i), text);
        p->values[i] = strtod(text, NULL);
        if (!(p->value_text[i] = ev_strdup(text)))
            return ev_fail(err, EV_ENOMEM, "%s: out of memory for the lattice", d->file);
        if (!isfinite(p->values[i]))
            return ydoc_fail(d, err, node, path, "parameter '%s': value %s is beyond the range of a double", p->name,
                             text);
        if (i > 0 && !(p->values[i] > p->values[i - 1]))
            return ydoc_fail(d, err, node, path,
                             "parameter '%s': values %s and %s round to the same double; use a coarser step", p->name,
                             p->value_text[i - 1], text);
    }
    /* The range is increasing: a positive level's first value decides its
     * sign and its last its size, a stop's the other way round; a max_hold's
     * step decides its wholeness (each value is checked). */
    if (p->role == PARAM_MAX_HOLD)
        for (uint32_t i = 0; i < (uint32_t)r.count; i++)
            if (param_value_problem(p, p->values[i]))
                return ydoc_fail(d, err, node, path, "parameter '%s': %s, but the range holds %s", p->name,
                                 param_value_problem(p, p->values[i]), p->value_text[i]);
    if (p->role != PARAM_TARGET && p->role != PARAM_STOP && p->role != PARAM_TRAIL && p->role != PARAM_BREAKEVEN)
        return EV_OK;
    for (int i = 0; i < 2; i++) {
        int end = p->role != PARAM_STOP ? i : 1 - i;
        const char *key = end ? "stop" : "start";
        uint32_t at = end ? (uint32_t)r.count - 1 : 0;
        ymap_path(&m, key, vpath);
        snprintf(what, sizeof what, "but the range %s at %s", end ? "ends" : "starts", p->value_text[at]);
        if ((st = config_check_level(d, n[end], vpath, p, what, p->values[at], err)) != EV_OK)
            return st;
    }
    return EV_OK;
}

/* name, role and the role's one-of rules (duplicates, one target, one stop).
 * A strategy config's parameters all have role strategy (its default); a
 * trade-log config's never do. */
static ev_status parse_identity(const ymap_t *m, lattice_t *lat, int32_t k, int strategy, ev_error *err)
{
    param_t *p = &lat->params[k];
    yaml_node_t *name = ymap_get(m, "name"), *role_key;
    char path[YDOC_PATH_MAX];
    int role = strategy ? PARAM_STRATEGY : PARAM_FILTER;
    int32_t *slot;
    ev_status st;
    if (!name)
        return ymap_missing(m, "name", "a unique parameter name", err);
    ymap_path(m, "name", path);
    if ((st = ydoc_get_string(m->doc, name, path, &p->name, err)) != EV_OK)
        return st;
    for (int32_t j = 0; j < k; j++)
        if (strcmp(lat->params[j].name, p->name) == 0)
            return ydoc_fail(m->doc, err, name, path, "parameter name '%s' is already used by parameters[%d]", p->name,
                             (int)j);
    if ((st = ymap_choice(m, "role", role_names, &role, err)) != EV_OK)
        return st;
    p->role = (param_role)role;
    if (strategy != (p->role == PARAM_STRATEGY)) {
        ymap_path(m, "role", path);
        return ydoc_fail(m->doc, err, ymap_get(m, "role"), path,
                         strategy ? "parameter '%s': a strategy config's parameters have role strategy, not %s"
                                  : "parameter '%s': role %s belongs to strategy configs (a strategy: block)",
                         p->name, role_names[role]);
    }
    slot = lattice_role_slot(lat, p->role);
    if (!slot)
        return EV_OK;
    if (*slot >= 0) {
        role_key = ymap_get(m, "role");
        ymap_path(m, "role", path);
        return ydoc_fail(m->doc, err, role_key, path,
                         "parameters '%s' and '%s' both have role %s; at most one %s is allowed",
                         lat->params[*slot].name, p->name, role_names[role], role_names[role]);
    }
    *slot = k;
    return EV_OK;
}

/* feature and direction belong to filters only. */
static ev_status parse_filter_keys(const ymap_t *m, param_t *p, ev_error *err)
{
    static const char *const keys[] = {"feature", "direction"};
    char path[YDOC_PATH_MAX];
    int dir = FILTER_MIN;
    ev_status st;
    if (p->role != PARAM_FILTER) {
        for (int i = 0; i < 2; i++)
            if (ymap_key(m, keys[i])) {
                ymap_path(m, keys[i], path);
                return ydoc_fail(m->doc, err, ymap_key(m, keys[i]), path,
                                 "parameter '%s' has role %s, which takes no '%s' (only filters do)", p->name,
                                 role_names[p->role], keys[i]);
            }
        return EV_OK;
    }
    if (!ymap_get(m, "feature"))
        return ymap_missing(m, "feature", "the trade-log column this filter reads (e.g. Entry Adx14)", err);
    if ((st = ymap_string(m, "feature", &p->feature, NULL, err)) != EV_OK ||
        (st = ymap_choice(m, "direction", dir_names, &dir, err)) != EV_OK)
        return st;
    p->dir = (filter_dir)dir;
    return EV_OK;
}

static ev_status parse_param(ydoc_t *d, yaml_node_t *node, const char *path, lattice_t *lat, int32_t k, int strategy,
                             ev_error *err)
{
    ymap_t m;
    param_t *p = &lat->params[k];
    yaml_node_t *values, *range;
    char vpath[YDOC_PATH_MAX];
    ev_status st;
    p->feature_index = -1;
    if ((st = ymap_open(&m, d, node, path, param_keys, err)) != EV_OK ||
        (st = parse_identity(&m, lat, k, strategy, err)) != EV_OK || (st = parse_filter_keys(&m, p, err)) != EV_OK)
        return st;
    values = ymap_get(&m, "values");
    range = ymap_get(&m, "range");
    if (values && range) {
        ymap_path(&m, "range", vpath);
        return ydoc_fail(d, err, ymap_key(&m, "range"), vpath,
                         "parameter '%s': give either 'values' or 'range', not both", p->name);
    }
    if (!values && !range)
        return ymap_missing(&m, "values", "a list of values, or a range: {start, stop, step}", err);
    ymap_path(&m, values ? "values" : "range", vpath);
    return values ? parse_values(d, values, vpath, p, err) : parse_range(d, range, vpath, p, err);
}

ev_status config_parse_parameters(const ymap_t *root, lattice_t *lat, int strategy, ev_error *err)
{
    ydoc_t *d = root->doc;
    yaml_node_t *seq = ymap_get(root, "parameters");
    char ipath[YDOC_PATH_MAX];
    size_t n;
    ev_status st;
    if (!seq)
        return ymap_missing(root, "parameters", "a list of parameters ({name, feature, values or range})", err);
    if ((st = ydoc_get_sequence(d, seq, "parameters", "parameters ({name, feature, values or range})", err)))
        return st;
    n = ydoc_length(seq);
    if (n == 0)
        return ydoc_fail(d, err, seq, "parameters", "expected at least one parameter, found an empty list");
    if (n > EV_MAX_PARAMS)
        return ydoc_fail(d, err, ydoc_item(d, seq, EV_MAX_PARAMS), "parameters",
                         "expected at most %d parameters, found %zu", EV_MAX_PARAMS, n);
    lat->params = (param_t *)calloc(n, sizeof *lat->params);
    if (!lat->params)
        return ev_fail(err, EV_ENOMEM, "%s: out of memory for the lattice", d->file);
    lat->n_params = (int32_t)n;
    lattice_slots_clear(lat);
    for (size_t i = 0; i < n; i++) {
        ydoc_path_index(ipath, "parameters", i);
        if ((st = parse_param(d, ydoc_item(d, seq, i), ipath, lat, (int32_t)i, strategy, err)) != EV_OK)
            return st;
    }
    if ((st = lattice_finish(lat, err)) != EV_OK)
        ev_error_prefix(err, "%s: ", d->file);
    return st;
}
