#include "io/json_cells.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fitness/objective_prep.h"
#include "io/json_verdict.h"
#include "io/timeparse.h"

/* A day number as YYYY-MM-DD in buf. */
static const char *day_text(char *buf, size_t size, int64_t day)
{
    int64_t y;
    int m, d;
    time_civil_from_days(day, &y, &m, &d);
    snprintf(buf, size, "%04lld-%02d-%02d", (long long)y, m, d);
    return buf;
}

cJSON *jnum(jctx *c, cJSON *obj, const char *key, double v)
{
    cJSON *n = json_add_number(obj, key, v);
    c->failed |= n == NULL;
    return n;
}

void jstr(jctx *c, cJSON *obj, const char *key, const char *v)
{
    c->failed |= cJSON_AddStringToObject(obj, key, v ? v : "") == NULL;
}

/* JSON numbers are doubles: 64-bit counts above 2^53 would lose digits, so
 * those are written as strings. */
void jcount(jctx *c, cJSON *obj, const char *key, uint64_t v)
{
    if (v <= (UINT64_C(1) << 53)) {
        jnum(c, obj, key, (double)v);
    } else {
        char buf[32];
        snprintf(buf, sizeof buf, "%" PRIu64, v);
        jstr(c, obj, key, buf);
    }
}

void jfitness(jctx *c, cJSON *obj, const char *key, double v)
{
    c->failed |= json_add_fitness(obj, key, v) == NULL;
}

/* A lattice value: a number, or "off" for an exit's off (SPEC sec. 4.1). */
void jvalue(jctx *c, cJSON *obj, const param_t *p, double v)
{
    if (v == HUGE_VAL && param_role_can_off(p->role))
        jstr(c, obj, p->name, "off");
    else
        jnum(c, obj, p->name, v);
}

/* key: false and, beside it, why (key "feasible": "infeasible": "zero
 * variance"; "test_feasible": "test_infeasible"). */
void jinfeasible(jctx *c, cJSON *obj, const char *key, eval_result_t r)
{
    const char *why = c->obj ? objective_infeasible_why(c->obj, r) : NULL;
    char name[64];
    const size_t stem = strlen(key) - strlen("feasible"); /* every key ends in "feasible" */
    c->failed |= cJSON_AddBoolToObject(obj, key, 0) == NULL;
    snprintf(name, sizeof name, "%.*sinfeasible", (int)stem, key);
    if (why)
        jstr(c, obj, name, why);
}

cJSON *jchild(jctx *c, cJSON *obj, const char *key, int array)
{
    cJSON *o = array ? cJSON_AddArrayToObject(obj, key) : cJSON_AddObjectToObject(obj, key);
    c->failed |= o == NULL;
    return o;
}

void jcell(jctx *c, cJSON *obj, const char *key, const val_cell_t *v)
{
    cJSON *o = key ? jchild(c, obj, key, 0) : obj;
    if (!o)
        return;
    jfitness(c, o, "fitness", v->value);
    jcount(c, o, "trades", (uint64_t)v->r.trades);
    if (!v->r.feasible)
        jinfeasible(c, o, "feasible", v->r);
}

/* "verdict" (io/json_verdict.h) of v, as verdict_of_* made it (made: its status). */
void jverdict(jctx *c, cJSON *root, verdict_t *v, ev_status made)
{
    cJSON *o = made == EV_OK ? (cJSON *)json_verdict(v) : NULL;
    if (!o || !cJSON_AddItemToObject(root, "verdict", o)) {
        cJSON_Delete(o);
        c->failed = 1;
    }
    if (made == EV_OK)
        verdict_free(v);
}

/* A top row's trader statistics (fitness/trade_stats.h): counts as numbers,
 * infinities as "inf" / "-inf", undefined figures (no trade) as null. */
void jstats(jctx *c, cJSON *item, const char *key, const trade_stats_t *st)
{
    cJSON *o = jchild(c, item, key, 0);
    for (int f = 0; o && f < TRADE_STAT_FIELDS; f++) {
        double v = trade_stat_get(st, f);
        if (!trade_stat_shown(st, f))
            continue;
        if (v == v)
            jfitness(c, o, trade_stat_fields[f].name, v);
        else
            c->failed |= cJSON_AddNullToObject(o, trade_stat_fields[f].name) == NULL;
    }
}

/* A window's span of days: {"first", "last" (YYYY-MM-DD), "trading_days"}. */
void jspan(jctx *c, cJSON *obj, const char *key, const int64_t *days, int32_t begin, int32_t end)
{
    cJSON *o = jchild(c, obj, key, 0);
    const char *names[2] = {"first", "last"};
    int64_t at[2] = {days[begin], days[end - 1]};
    for (int i = 0; o && i < 2; i++) {
        char buf[32];
        jstr(c, o, names[i], day_text(buf, sizeof buf, at[i]));
    }
    if (o)
        jnum(c, o, "trading_days", (double)(end - begin));
}

void jday(jctx *c, cJSON *arr, int64_t day)
{
    char buf[32];
    cJSON *str = cJSON_CreateString(day_text(buf, sizeof buf, day));
    if (!str || !cJSON_AddItemToArray(arr, str)) {
        cJSON_Delete(str);
        c->failed = 1;
    }
}

cJSON *jpush(jctx *c, cJSON *arr)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(arr, o)) {
        cJSON_Delete(o);
        c->failed = 1;
        return NULL;
    }
    return o;
}
