#include "fitness/lattice.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"

const char *const param_role_names[PARAM_ROLES + 1] = {"filter", "target",    "stop",     "strategy",
                                                       "trail",  "breakeven", "max_hold", NULL};

const char *param_role_name(param_role r)
{
    return r >= 0 && r < PARAM_ROLES ? param_role_names[r] : "filter";
}

const int32_t *lattice_role_slot_of(const lattice_t *lat, param_role r)
{
    switch (r) {
    case PARAM_TARGET: return &lat->target_param;
    case PARAM_STOP: return &lat->stop_param;
    case PARAM_TRAIL: return &lat->trail_param;
    case PARAM_BREAKEVEN: return &lat->breakeven_param;
    case PARAM_MAX_HOLD: return &lat->hold_param;
    default: return NULL;
    }
}

int32_t *lattice_role_slot(lattice_t *lat, param_role r)
{
    /* the same slot, writable: its offset in lat */
    const int32_t *slot = lattice_role_slot_of(lat, r);
    return slot ? (int32_t *)(void *)((char *)lat + ((const char *)slot - (const char *)lat)) : NULL;
}

void lattice_slots_clear(lattice_t *lat)
{
    for (int r = 0; r < PARAM_ROLES; r++) {
        int32_t *slot = lattice_role_slot(lat, (param_role)r);
        if (slot)
            *slot = -1;
    }
}

int lattice_has_more_exits(const lattice_t *lat)
{
    return lat->trail_param >= 0 || lat->breakeven_param >= 0 || lat->hold_param >= 0;
}

/* The largest max_hold: a year of seconds (entry time + h stays far inside int64). */
#define MAX_HOLD_S 31622400.0

int param_role_can_off(param_role r)
{
    return r == PARAM_TRAIL || r == PARAM_BREAKEVEN || r == PARAM_MAX_HOLD;
}

int param_has_off(const param_t *p)
{
    return param_role_can_off(p->role) && p->n_values && p->values[p->n_values - 1] == HUGE_VAL;
}

void lattice_exits_off(const lattice_t *lat, uint16_t *genes)
{
    for (int32_t k = 0; k < lat->n_params; k++)
        if (param_has_off(&lat->params[k]))
            genes[k] = (uint16_t)(lat->params[k].n_values - 1);
}

const char *param_value_problem(const param_t *p, double v)
{
    if (v == HUGE_VAL && param_role_can_off(p->role))
        return NULL; /* off (SPEC sec. 4.1) */
    switch (p->role) {
    case PARAM_TARGET: return v > 0 ? NULL : "a target is a take-profit percent > 0";
    case PARAM_STOP: return v < 0 ? NULL : "a stop is a stop-loss percent < 0";
    case PARAM_TRAIL: return v > 0 ? NULL : "a trail is a percent > 0 below the running maximum";
    case PARAM_BREAKEVEN: return v > 0 ? NULL : "a breakeven is a gain percent > 0 that moves the stop to the entry";
    case PARAM_MAX_HOLD:
        return v >= 0 && v <= MAX_HOLD_S && v == floor(v)
                   ? NULL
                   : "a max_hold is whole seconds >= 0 (at most a year, 31622400)";
    default: return NULL;
    }
}

void lattice_free(lattice_t *lat)
{
    if (!lat)
        return;
    for (int32_t k = 0; k < lat->n_params; k++) {
        param_t *p = &lat->params[k];
        free(p->name);
        free(p->feature);
        free(p->values);
        if (p->value_text)
            for (uint32_t i = 0; i < p->n_values; i++)
                free(p->value_text[i]);
        free(p->value_text);
    }
    free(lat->params);
    memset(lat, 0, sizeof *lat);
}

static ev_status check_param(const lattice_t *lat, int32_t k, ev_error *err)
{
    const param_t *p = &lat->params[k];
    if (p->n_values == 0)
        return ev_fail(err, EV_ECONFIG, "parameter '%s': the lattice is empty (expected at least one value)", p->name);
    if (p->n_values > EV_MAX_VALUES)
        return ev_fail(err, EV_ECONFIG, "parameter '%s': %u values, at most %d are supported", p->name, p->n_values,
                       EV_MAX_VALUES);
    for (int32_t j = 0; j < k; j++)
        if (strcmp(lat->params[j].name, p->name) == 0)
            return ev_fail(err, EV_ECONFIG, "parameter '%s' is declared twice", p->name);
    if (p->role == PARAM_FILTER && (!p->feature || !p->feature[0]))
        return ev_fail(err, EV_ECONFIG, "parameter '%s': a filter needs a 'feature' (a trade-log column)", p->name);
    for (uint32_t i = 0; i < p->n_values; i++) {
        double v = p->values[i];
        if (v == HUGE_VAL && param_role_can_off(p->role) && i + 1 < p->n_values)
            return ev_fail(err, EV_ECONFIG, "parameter '%s': off is its last value (the loosest), found it at %u",
                           p->name, i + 1);
        if ((v != v || v - v != 0) && !(v == HUGE_VAL && param_role_can_off(p->role)))
            return ev_fail(err, EV_ECONFIG, "parameter '%s': value %u is not a finite number", p->name, i + 1);
        if (i > 0 && !(v > p->values[i - 1]))
            return ev_fail(err, EV_ECONFIG,
                           "parameter '%s': values must be strictly increasing, but value %u (%s) follows %s", p->name,
                           i + 1, p->value_text ? p->value_text[i] : "?", p->value_text ? p->value_text[i - 1] : "?");
        if (param_value_problem(p, v))
            return ev_fail(err, EV_ECONFIG, "parameter '%s': %s, got %s", p->name, param_value_problem(p, v),
                           p->value_text ? p->value_text[i] : "?");
    }
    return EV_OK;
}

int32_t lattice_gene_outside(const lattice_t *lat, const uint16_t *genes)
{
    for (int32_t k = 0; k < lat->n_params; k++)
        if (genes[k] >= lat->params[k].n_values)
            return k;
    return -1;
}

ev_status lattice_finish(lattice_t *lat, ev_error *err)
{
    ev_status st;
    if (lat->n_params == 0)
        return ev_fail(err, EV_ECONFIG, "'parameters' is empty: declare at least one parameter");
    if (lat->n_params > EV_MAX_PARAMS)
        return ev_fail(err, EV_ECONFIG, "%d parameters declared, at most %d are supported", lat->n_params,
                       EV_MAX_PARAMS);
    lattice_slots_clear(lat);
    lat->size = 1;
    lat->size_fits = 1;
    for (int32_t k = 0; k < lat->n_params; k++) {
        param_t *p = &lat->params[k];
        if ((st = check_param(lat, k, err)) != EV_OK)
            return st;
        {
            int32_t *slot = lattice_role_slot(lat, p->role);
            if (slot && *slot >= 0)
                return ev_fail(err, EV_ECONFIG, "parameters '%s' and '%s' both have role %s; at most one is allowed",
                               lat->params[*slot].name, p->name, param_role_name(p->role));
            if (slot)
                *slot = k;
        }
        p->feature_index = -1;
        if (lat->size_fits && lat->size > (UINT64_C(1) << 63) / p->n_values)
            lat->size_fits = 0;
        else if (lat->size_fits)
            lat->size *= p->n_values;
        if (lat->size_fits && lat->size >= (UINT64_C(1) << 63))
            lat->size_fits = 0;
    }
    if (!lat->size_fits)
        lat->size = 0;
    return EV_OK;
}

ev_status lattice_bind(lattice_t *lat, const dataset_t *ds, ev_error *err)
{
    for (int32_t k = 0; k < lat->n_params; k++) {
        param_t *p = &lat->params[k];
        if (p->role != PARAM_FILTER)
            continue;
        p->feature_index = dataset_feature_index(ds, p->feature);
        if (p->feature_index < 0) {
            char list[1024] = "";
            size_t used = 0;
            for (int32_t f = 0; f < ds->n_features && used + 8 < sizeof list; f++)
                used +=
                    (size_t)snprintf(list + used, sizeof list - used, "%s'%s'", f ? ", " : "", ds->feature_names[f]);
            return ev_fail(err, EV_ECONFIG, "parameter '%s': feature '%s' is not in the dataset (it has: %s)", p->name,
                           p->feature, ds->n_features ? list : "no features");
        }
    }
    return EV_OK;
}

int param_is_named(const param_t *p)
{
    const char *text = p->value_text && p->n_values ? p->value_text[0] : NULL;
    char *end = NULL;
    if (!text || param_role_can_off(p->role)) /* an exit's "off" is a value, not a name */
        return 0;
    strtod(text, &end);
    return end == text || *end; /* a name, not a number */
}

void lattice_names_text(const lattice_t *lat, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int32_t k = 0; k < lat->n_params && used < n; k++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", k ? ", " : "", lat->params[k].name);
}

int lattice_edge(const param_t *p, uint16_t gene)
{
    /* off is no edge (nothing lies beyond "never"); the numbers before it
     * are judged among themselves */
    const uint32_t n = p->n_values - (param_has_off(p) ? 1u : 0u);
    if (n < 3 || gene >= n || (gene != 0 && gene + 1u != n))
        return 0;
    if (p->role == PARAM_FILTER && (gene == 0) == (p->dir == FILTER_MIN)) /* its loose end */
        return 0;
    if (param_is_named(p)) /* an enumeration: nothing lies beyond it */
        return 0;
    return gene == 0 ? -1 : 1;
}
