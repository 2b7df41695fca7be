/* The config's `baseline:` block: the trader's current settings, one number
 * per parameter named (fitness/baseline.h). Any value its role allows, on the
 * lattice or not; a parameter left out does not apply. */
#include <math.h>

#include "io/config_internal.h"

ev_status config_parse_baseline(const ymap_t *root, const lattice_t *lat, int strategy, baseline_point_t *b,
                                ev_error *err)
{
    const char *names[EV_MAX_PARAMS + 1];
    const ybounds_t any = {-INFINITY, INFINITY, 0, 0};
    char path[YDOC_PATH_MAX];
    ymap_t m;
    int present = 0;
    ev_status st;
    if (!ymap_get(root, "baseline"))
        return EV_OK;
    if (strategy) {
        ymap_path(root, "baseline", path);
        return ydoc_fail(root->doc, err, ymap_key(root, "baseline"), path,
                         "a strategy config has no baselines (trade-log configs only; docs/config.md "
                         "`baseline` says why, and how `evolve trades --bars ... --set` backtests your settings)");
    }
    for (int32_t k = 0; k < lat->n_params; k++)
        names[k] = lat->params[k].name;
    names[lat->n_params] = NULL;
    if ((st = ymap_submap(root, "baseline", names, &m, &present, err)) != EV_OK || !present)
        return st;
    b->present = 1;
    for (int32_t k = 0; k < lat->n_params; k++) {
        const param_t *p = &lat->params[k];
        yaml_node_t *n = ymap_get(&m, p->name);
        if (!n)
            continue;
        if ((st = ymap_number(&m, p->name, any, &b->value[k], err)) != EV_OK)
            return st;
        ymap_path(&m, p->name, path);
        if (!isfinite(b->value[k]))
            return ydoc_fail(m.doc, err, n, path, "expected a finite number");
        if ((st = config_check_level(m.doc, n, path, p, "in baseline", b->value[k], err)) != EV_OK)
            return st;
        b->set[k] = 1;
    }
    return EV_OK;
}
