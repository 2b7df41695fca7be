#include "runs/trades_log.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/validation.h"
#include "io/dataset_source.h"

ev_status trades_log_set(baseline_point_t *pt, const config_t *cfg, const char *set, ev_error *err)
{
    const lattice_t *lat = &cfg->lattice;
    const char *eq = strchr(set, '='), *why;
    char *end = NULL, names[1024];
    double v;
    if (!eq)
        return ev_fail(err, EV_EUSAGE, "--set: expected NAME=VALUE, got '%s'", set);
    for (int32_t k = 0; k < lat->n_params; k++) {
        const param_t *p = &lat->params[k];
        if (strlen(p->name) != (size_t)(eq - set) || strncmp(p->name, set, (size_t)(eq - set)) != 0)
            continue;
        if (param_role_can_off(p->role) && !strcmp(eq + 1, "off")) {
            v = HUGE_VAL; /* off: as in baseline:, as if left out (SPEC sec. 4.1), shown as off */
        } else {
            v = strtod(eq + 1, &end);
            if (end == eq + 1 || *end || !isfinite(v))
                return ev_fail(err, EV_EUSAGE, "--set %s: expected a finite number%s, got '%s'", p->name,
                               param_role_can_off(p->role) ? " or off" : "", eq + 1);
        }
        if ((why = param_value_problem(p, v)) != NULL)
            return ev_fail(err, EV_EUSAGE, "--set %s=%s: %s", p->name, eq + 1, why);
        pt->present = 1;
        pt->set[k] = 1;
        pt->value[k] = v;
        return EV_OK;
    }
    lattice_names_text(lat, names, sizeof names);
    return ev_fail(err, EV_EUSAGE, "--set %.*s: %s has no parameter of that name; its parameters: %s", (int)(eq - set),
                   set, cfg->path, names);
}

/* Each kept trade's part from the config's split (all in-sample without a
 * validation: block). */
static ev_status parts(trades_log_t *t, const config_t *cfg, ev_error *err)
{
    val_split_t split;
    ev_status st = EV_OK;
    if (!(t->part = (int32_t *)calloc((size_t)t->n + 1, sizeof *t->part)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    if (!cfg->validation.enabled)
        return EV_OK;
    memset(&split, 0, sizeof split);
    if ((st = val_split_make(&split, &cfg->validation, &t->ds, cfg->seed, err)) != EV_OK)
        return st;
    for (int64_t i = 0; i < t->n; i++) {
        t->part[i] = val_trade_part(&split, &t->ds, t->k[i].trade);
        t->has_holdout |= t->part[i] == VAL_HOLDOUT;
    }
    val_split_free(&split);
    return EV_OK;
}

ev_status trades_log_load(trades_log_t *t, config_t *cfg, const baseline_point_t *pt, FILE *log, ev_error *err)
{
    static const uint16_t genes[EV_MAX_PARAMS] = {0}; /* the one point of its own lattice */
    ev_status st;
    memset(t, 0, sizeof *t);
    if ((st = dataset_obtain(cfg, &t->ds, log, err)) != EV_OK ||
        (st = baseline_lattice(&t->lat, &cfg->lattice, pt, err)) != EV_OK)
        return st;
    if ((st = lattice_bind(&t->lat, &t->ds, err)) != EV_OK) {
        ev_error_prefix(err, "%s: ", cfg->path);
        return st;
    }
    if ((st = problem_init(&t->p, &t->ds, &t->lat, &cfg->objective, err)) != EV_OK ||
        (st = tables_build(&t->tables, &t->p, err)) != EV_OK ||
        (st = kept_trades(&t->p, &t->tables.view, genes, &t->k, &t->n, err)) != EV_OK)
        return st;
    return parts(t, cfg, err);
}

void trades_log_free(trades_log_t *t)
{
    free(t->k);
    free(t->part);
    tables_free(&t->tables);
    problem_free(&t->p);
    lattice_free(&t->lat);
    dataset_free(&t->ds);
    memset(t, 0, sizeof *t);
}
