#include "io/json_walk.h"

#include <cjson/cJSON.h>

#include "fitness/baseline.h"
#include "io/json_cells.h"

/* A test window's or the chain's "baselines": [{"name", "fitness", "trades",
 * "feasible"}] from value[j] and res[j] (runs/mode_walk.c). */
static void walk_baselines(jctx *c, cJSON *item, const wf_result_t *r, const double *value, const eval_result_t *res)
{
    cJSON *arr = r->n_base ? jchild(c, item, "baselines", 1) : NULL;
    for (int32_t j = 0; arr && j < r->n_base; j++) {
        cJSON *b = jpush(c, arr);
        if (!b)
            break;
        jstr(c, b, "name", baseline_name(r->base_kind[j]));
        jfitness(c, b, "fitness", value[j]);
        jcount(c, b, "trades", (uint64_t)res[j].trades);
        if (res[j].feasible)
            c->failed |= cJSON_AddBoolToObject(b, "feasible", 1) == NULL;
        else
            jinfeasible(c, b, "feasible", res[j]);
    }
}

void *json_walk_forward(const config_t *cfg, const wf_result_t *r, const char *search)
{
    jctx c = {0, &cfg->objective};
    cJSON *root = cJSON_CreateObject(), *o = root ? jchild(&c, root, "walk_forward", 0) : NULL;
    cJSON *arr = o ? jchild(&c, o, "windows", 1) : NULL, *ch;
    c.failed |= root == NULL;
    if (o) {
        jstr(&c, o, "search", search);
        jnum(&c, o, "train_days", r->train_days);
        jnum(&c, o, "test_days", r->test_days);
        jnum(&c, o, "step_days", r->step_days);
        jcount(&c, o, "evaluated", r->evaluated);
    }
    for (int32_t w = 0; arr && w < r->n; w++) {
        const wf_window_t *win = &r->win[w];
        cJSON *item = jpush(&c, arr), *values;
        if (!item)
            break;
        jnum(&c, item, "window", (double)(w + 1));
        jspan(&c, item, "train", r->days, win->train_begin, win->train_end);
        jspan(&c, item, "test", r->days, win->test_begin, win->test_end);
        if (r->winner[w].index != UINT64_MAX)
            jcount(&c, item, "index", r->winner[w].index);
        values = jchild(&c, item, "values", 0);
        for (int32_t k = 0; values && k < cfg->lattice.n_params; k++)
            jvalue(&c, values, &cfg->lattice.params[k], cfg->lattice.params[k].values[r->winner[w].genes[k]]);
        jfitness(&c, item, "train_fitness", r->train_value[w]);
        jcount(&c, item, "train_trades", (uint64_t)r->winner[w].r.trades);
        jfitness(&c, item, "test_fitness", r->test_value[w]);
        jcount(&c, item, "test_trades", (uint64_t)r->test[w].r.trades);
        if (!r->test[w].r.feasible)
            jinfeasible(&c, item, "test_feasible", r->test[w].r);
        jstats(&c, item, "test_stats", &r->test_stats[w]);
        walk_baselines(&c, item, r, &r->base_value[(size_t)w * (size_t)r->n_base],
                       &r->base[(size_t)w * (size_t)r->n_base]);
    }
    ch = o ? jchild(&c, o, "chained", 0) : NULL;
    if (ch) {
        jspan(&c, ch, "test", r->days, r->win[0].test_begin, r->win[r->n - 1].test_end);
        jfitness(&c, ch, "fitness", r->chained_value);
        jcount(&c, ch, "trades", (uint64_t)r->chained.trades);
        if (!r->chained.feasible)
            jinfeasible(&c, ch, "feasible", r->chained);
        jstats(&c, ch, "stats", &r->chained_stats);
        walk_baselines(&c, ch, r, r->base_chained_value, r->base_chained);
    }
    if (root) {
        verdict_t v;
        jverdict(&c, root, &v, verdict_of_wf(&v, r, NULL));
    }
    if (c.failed) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}
