#include "io/json_verdict.h"

#include <cjson/cJSON.h>
#include <math.h>

#include "io/json_number.h"

/* A number, "inf" / "-inf", or null (NaN); 0 when out of memory. */
static int put_num(cJSON *o, const char *key, double v)
{
    if (v != v)
        return cJSON_AddNullToObject(o, key) != NULL;
    if (isinf(v))
        return cJSON_AddStringToObject(o, key, v > 0 ? "inf" : "-inf") != NULL;
    return json_add_number(o, key, v) != NULL;
}

static cJSON *side(cJSON *parent, const char *key, const verdict_side_t *s)
{
    cJSON *o = cJSON_AddObjectToObject(parent, key);
    if (!o || !json_add_fitness(o, "fitness", s->value) || !json_add_number(o, "trades", (double)s->trades) ||
        !cJSON_AddBoolToObject(o, "feasible", s->feasible))
        return NULL;
    return o;
}

static int part(cJSON *arr, const verdict_t *v, uint32_t p)
{
    char name[64];
    cJSON *item = cJSON_CreateObject(), *bases;
    if (!item || !cJSON_AddItemToArray(arr, item)) {
        cJSON_Delete(item);
        return 0;
    }
    verdict_part_name(name, sizeof name, &v->part[p]);
    if (!cJSON_AddStringToObject(item, "part", name) || !side(item, "rank1", &v->best[p]) ||
        !(bases = cJSON_AddObjectToObject(item, "baselines")))
        return 0;
    for (uint32_t j = 0; j < v->n_base; j++) {
        cJSON *b = side(bases, baseline_name(v->kind[j]), &v->base[(size_t)j * v->n_parts + p]);
        if (!b || !json_add_fitness(b, "difference", verdict_diff(v, j, p)))
            return 0;
    }
    return 1;
}

void *json_verdict(const verdict_t *v)
{
    cJSON *o = cJSON_CreateObject(), *arr;
    int ok = o && cJSON_AddStringToObject(o, "headline", v->headline) && put_num(o, "dsr", v->dsr) &&
             put_num(o, "dsr_z", v->dsr_z) && cJSON_AddStringToObject(o, "dsr_reading", v->dsr_text) &&
             put_num(o, "pbo", v->pbo) && cJSON_AddStringToObject(o, "pbo_reading", v->pbo_text) &&
             put_num(o, "trials", v->trials) && (arr = cJSON_AddArrayToObject(o, "parts")) != NULL;
    for (uint32_t p = 0; ok && p < v->n_parts; p++)
        ok = part(arr, v, p);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}
