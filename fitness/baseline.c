#include "fitness/baseline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/shortest.h"
#include "common/strutil.h"

const char *baseline_name(int32_t kind)
{
    static const char *const names[BASELINE_KINDS] = {"log", "loosest", "baseline"};
    return kind >= 0 && kind < BASELINE_KINDS ? names[kind] : "?";
}

int32_t baseline_kind_of(const char *name)
{
    for (int32_t k = 0; k < BASELINE_KINDS; k++)
        if (strcmp(name, baseline_name(k)) == 0)
            return k;
    return -1;
}

void baseline_point(const lattice_t *lat, int32_t kind, baseline_point_t *b)
{
    memset(b, 0, sizeof *b);
    b->present = 1;
    if (kind != BASELINE_LOOSEST)
        return;
    for (int32_t k = 0; k < lat->n_params; k++) {
        const param_t *p = &lat->params[k];
        b->set[k] = 1;
        /* a max filter's last value keeps the most; an exit that can be off is
         * loosest at its last value: off when the lattice has it, else the
         * widest trail, the highest breakeven, the longest hold */
        const int last = (p->role == PARAM_FILTER && p->dir == FILTER_MAX) || param_role_can_off(p->role);
        b->value[k] = last ? p->values[p->n_values - 1] : p->values[0];
    }
}

/* The shortest text that reads back as v; "off" for an exit's off. */
static char *value_text(double v)
{
    char buf[EV_SHORTEST_MAX];
    return ev_strdup(v == HUGE_VAL ? "off" : ev_shortest(buf, sizeof buf, v));
}

static ev_status copy_param(param_t *dst, const param_t *src, double v)
{
    dst->name = ev_strdup(src->name);
    dst->role = src->role;
    dst->dir = src->dir;
    dst->feature = src->feature ? ev_strdup(src->feature) : NULL;
    dst->feature_index = -1;
    dst->n_values = 1;
    dst->values = (double *)malloc(sizeof *dst->values);
    dst->value_text = (char **)calloc(1, sizeof *dst->value_text);
    if (!dst->name || (src->feature && !dst->feature) || !dst->values || !dst->value_text ||
        !(dst->value_text[0] = value_text(v)))
        return EV_ENOMEM;
    dst->values[0] = v;
    return EV_OK;
}

ev_status baseline_lattice(lattice_t *out, const lattice_t *lat, const baseline_point_t *b, ev_error *err)
{
    memset(out, 0, sizeof *out);
    out->params = (param_t *)calloc((size_t)lat->n_params + 1, sizeof *out->params);
    if (!out->params)
        return ev_fail(err, EV_ENOMEM, "out of memory building a baseline");
    for (int32_t k = 0; k < lat->n_params; k++) {
        if (!b->set[k])
            continue;
        if (copy_param(&out->params[out->n_params++], &lat->params[k], b->value[k]) != EV_OK) {
            lattice_free(out);
            return ev_fail(err, EV_ENOMEM, "out of memory building a baseline");
        }
    }
    if (out->n_params > 0)
        return lattice_finish(out, err);
    lattice_slots_clear(out); /* no parameter: the log as it is */
    out->size = 1;
    out->size_fits = 1;
    return EV_OK;
}

int32_t baseline_versus(const int32_t *kind, uint32_t n)
{
    static const int32_t first[2] = {BASELINE_LOG, BASELINE_TRADER};
    for (int k = 0; k < 2; k++)
        for (uint32_t j = 0; j < n; j++)
            if (kind[j] == first[k])
                return (int32_t)j;
    return n ? 0 : -1;
}
