/* The config's `baseline:` block: the trader's current settings, one value
 * per parameter named (fitness/baseline.h). Any value its role allows, on the
 * lattice or not. A trade-log config's parameter left out does not apply (no
 * filter, no such exit, as an exit's `off` says); a strategy config's baseline gives every parameter
 * of its lattice (a strategy has no "off"), its wholeness and constraints
 * checked by the strategy when it is backtested (signals/strategy.h). */
#include <math.h>

#include "io/config_internal.h"

/* A named parameter (atc's robustness): one of the names its values list,
 * recorded as its index there, as a winner's value is. */
static ev_status named_value(const ymap_t *m, const param_t *p, double *v, ev_error *err)
{
    yaml_node_t *n = ymap_get(m, p->name);
    const char *text = n && n->type == YAML_SCALAR_NODE ? ydoc_text(n) : NULL;
    char path[YDOC_PATH_MAX], list[256];
    size_t used = 0;
    for (uint32_t i = 0; text && i < p->n_values; i++)
        if (!strcmp(text, p->value_text[i])) {
            *v = (double)i;
            return EV_OK;
        }
    list[0] = '\0';
    for (uint32_t i = 0; i < p->n_values && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", p->value_text[i]);
    ymap_path(m, p->name, path);
    return ydoc_fail(m->doc, err, n, path, "expected one of the names parameter '%s' lists: %s", p->name, list);
}

/* One parameter's value into b (k: its position). */
static ev_status parse_value(const ymap_t *m, const param_t *p, int strategy, baseline_point_t *b, int32_t k,
                             ev_error *err)
{
    const ybounds_t any = {-INFINITY, INFINITY, 0, 0};
    yaml_node_t *n = ymap_get(m, p->name);
    char path[YDOC_PATH_MAX];
    ev_status st;
    if (!n) {
        if (!strategy)
            return EV_OK;
        return ymap_missing(m, p->name,
                            "the value traded today (a strategy config's baseline gives every parameter of its "
                            "lattice)",
                            err);
    }
    if (param_role_can_off(p->role) && ydoc_plain(n) && !strcmp(ydoc_plain(n), "off")) {
        b->value[k] = HUGE_VAL; /* off: as if left out (SPEC sec. 4.1), shown as off */
        st = EV_OK;
    } else if (param_is_named(p))
        st = named_value(m, p, &b->value[k], err);
    else if ((st = ymap_number(m, p->name, any, &b->value[k], err)) == EV_OK) {
        ymap_path(m, p->name, path);
        if (!isfinite(b->value[k]))
            return ydoc_fail(m->doc, err, n, path, "expected a finite number");
        if (!strategy)
            st = config_check_level(m->doc, n, path, p, "in baseline", b->value[k], err);
    }
    b->set[k] = st == EV_OK;
    return st;
}

ev_status config_parse_baseline(const ymap_t *root, const lattice_t *lat, int strategy, baseline_point_t *b,
                                ev_error *err)
{
    const char *names[EV_MAX_PARAMS + 1];
    ymap_t m;
    int present = 0;
    ev_status st;
    if (!ymap_get(root, "baseline"))
        return EV_OK;
    for (int32_t k = 0; k < lat->n_params; k++)
        names[k] = lat->params[k].name;
    names[lat->n_params] = NULL;
    if ((st = ymap_submap(root, "baseline", names, &m, &present, err)) != EV_OK || !present)
        return st;
    b->present = 1;
    for (int32_t k = 0; k < lat->n_params && st == EV_OK; k++)
        st = parse_value(&m, &lat->params[k], strategy, b, k, err);
    return st;
}
