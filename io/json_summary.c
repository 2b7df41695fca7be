#include "io/json_summary.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "fitness/accum.h"
#include "io/json_cells.h"

/* A top row's validation (fitness/validation.h): in and out of sample, the
 * folds, the worst fold and the share of profitable folds. */
static void row_validation(jctx *c, cJSON *item, const reported_t *top, uint32_t i, double trials)
{
    const val_row_t *r = &top->val->row[i];
    const objective_cfg_t part_obj = val_part_objective(c->obj, top->val);
    jctx part = {0, &part_obj}; /* the holdout and the folds: validation.min_trades */
    cJSON *arr;
    jcell(c, item, "in_sample", &r->in_sample);
    jcell(&part, item, "out_of_sample", &r->out_of_sample);
    c->failed |= part.failed;
    if (top->split->n_holdout > 0)
        jstats(c, item, "out_of_sample_stats", &r->oos_stats);
    {
        double d = trials >= 1.0 ? deflated_sharpe(&r->moments, trials, top->val->var_sr) : NAN;
        cJSON *m;
        if (d == d)
            jnum(c, item, "deflated_sharpe", d);
        else
            c->failed |= cJSON_AddNullToObject(item, "deflated_sharpe") == NULL;
        m = jchild(c, item, "trade_moments", 0);
        if (m) {
            jnum(c, m, "sharpe", r->moments.sharpe);
            jnum(c, m, "skewness", r->moments.skew);
            jnum(c, m, "kurtosis", r->moments.kurt);
            jcount(c, m, "trades", (uint64_t)r->moments.n);
        }
    }
    arr = jchild(c, item, "plateau", 0);
    if (arr) {
        jfitness(c, arr, "mean", r->plateau.mean);
        jfitness(c, arr, "worst", r->plateau.worst);
        jnum(c, arr, "neighbours", (double)r->plateau.n);
        jnum(c, arr, "feasible", (double)r->plateau.feasible);
    }
    if (!top->split->has_folds)
        return;
    arr = jchild(c, item, "folds", 1);
    for (int32_t f = 0; arr && f < top->val->n_folds; f++) {
        cJSON *o = jpush(c, arr);
        if (!o)
            break;
        jcell(&part, o, NULL, &r->fold[f]);
    }
    c->failed |= part.failed;
    jfitness(c, item, "worst_fold", r->worst_fold);
    for (int32_t f = 0; f < top->val->n_folds; f++)
        if (!r->fold[f].r.feasible) { /* the value stays the lowest one, as every table prints it */
            c->failed |= cJSON_AddBoolToObject(item, "worst_fold_feasible", 0) == NULL;
            break;
        }
    jnum(c, item, "fold_profitable_share", r->fold_profitable);
}

/* The deflated Sharpe ratio's N for the top rows: the count their search
 * evaluated (--validate's top is its grid's, not its GA's), as the run file
 * keeps it. */
static double top_trials(const run_summary_t *s, const reported_t *top)
{
    if (top->val && top->val->trials >= 1.0)
        return top->val->trials;
    return (double)(s->has_ga ? s->unique_evaluations : s->evaluated);
}

/* "validation": {"holdout_days": [...], "folds": [[...], ...], "trials": N}. */
static void add_validation(jctx *c, cJSON *root, const run_summary_t *s, const reported_t *top)
{
    const val_split_t *sp = top->split;
    cJSON *o = jchild(c, root, "validation", 0), *arr;
    if (!o)
        return;
    arr = jchild(c, o, "holdout_days", 1);
    for (int32_t i = 0; arr && i < sp->n_days; i++)
        if (sp->part[i] == VAL_HOLDOUT)
            jday(c, arr, sp->day[i]);
    arr = jchild(c, o, "in_sample_days", 1);
    for (int32_t i = 0; arr && i < sp->n_days; i++)
        if (sp->part[i] != VAL_HOLDOUT)
            jday(c, arr, sp->day[i]);
    if (sp->has_folds) {
        arr = jchild(c, o, "folds", 1);
        for (int32_t f = 0; arr && f < sp->n_folds; f++) {
            cJSON *days = cJSON_CreateArray();
            if (!days || !cJSON_AddItemToArray(arr, days)) {
                cJSON_Delete(days);
                c->failed = 1;
                break;
            }
            for (int32_t i = 0; i < sp->n_days; i++)
                if (sp->part[i] == f)
                    jday(c, days, sp->day[i]);
        }
    }
    jcount(c, o, "trials", (uint64_t)top_trials(s, top));
    jnum(c, o, "sharpe_variance", top->val->var_sr);
    if (top->val->pbo == top->val->pbo) {
        jnum(c, o, "pbo", top->val->pbo);
        jnum(c, o, "pbo_genomes", (double)top->val->pbo_genomes);
        jnum(c, o, "pbo_blocks", (double)top->val->pbo_blocks);
        jcount(c, o, "pbo_combinations", top->val->pbo_combos);
    } else {
        c->failed |= cJSON_AddNullToObject(o, "pbo") == NULL;
    }
    jcount(c, o, "sharpe_variance_points", top->val->var_sr_points);
}

/* trials: the deflated Sharpe ratio's N (< 1: unknown, written as null). */
static cJSON *top_array(jctx *c, const config_t *cfg, const reported_t *top, double trials)
{
    cJSON *arr = cJSON_CreateArray();
    c->failed |= arr == NULL;
    for (uint32_t i = 0; arr && i < top->n; i++) {
        const ranked_genome_t *e = &top->e[i];
        cJSON *item = jpush(c, arr), *values;
        if (!item)
            break;
        jnum(c, item, "rank", (double)(i + 1));
        if (e->index != UINT64_MAX)
            jcount(c, item, "index", e->index);
        values = jchild(c, item, "values", 0);
        for (int32_t k = 0; values && k < cfg->lattice.n_params; k++)
            jvalue(c, values, &cfg->lattice.params[k], cfg->lattice.params[k].values[e->genes[k]]);
        jfitness(c, item, "fitness", top->value[i]);
        jcount(c, item, "trades", (uint64_t)e->r.trades);
        if (top->stats)
            jstats(c, item, "stats", &top->stats[i]);
        if (top->val)
            row_validation(c, item, top, i, trials);
    }
    return arr;
}

static void add_top(jctx *c, cJSON *root, const config_t *cfg, const reported_t *top, double trials)
{
    cJSON *arr = top_array(c, cfg, top, trials);
    if (arr && !cJSON_AddItemToObject(root, "top", arr)) {
        cJSON_Delete(arr);
        c->failed = 1;
    }
}

/* "lattice_edges": [{"parameter", "value", "edge": "lowest"|"highest"}], the
 * genes of a feasible rank 1 on an edge of their lattice (lattice_edge);
 * absent when none is. */
static void add_edges(jctx *c, cJSON *root, const config_t *cfg, const reported_t *top)
{
    cJSON *arr = NULL;
    if (top->n == 0 || !top->e[0].r.feasible)
        return;
    for (int32_t k = 0; k < cfg->lattice.n_params; k++) {
        const param_t *p = &cfg->lattice.params[k];
        const uint16_t g = top->e[0].genes[k];
        const int edge = lattice_edge(p, g);
        cJSON *o;
        if (!edge || (!arr && !(arr = jchild(c, root, "lattice_edges", 1))))
            continue;
        if (!(o = jpush(c, arr)))
            return;
        jstr(c, o, "parameter", p->name);
        jnum(c, o, "value", p->values[g]);
        jstr(c, o, "edge", edge < 0 ? "lowest" : "highest");
    }
}

void *json_summary_top(const config_t *cfg, const reported_t *top)
{
    jctx c = {0, &cfg->objective};
    cJSON *arr = top_array(&c, cfg, top, 0.0);
    if (c.failed) {
        cJSON_Delete(arr);
        return NULL;
    }
    return arr;
}

/* One "strategies" item: the strategy of r's entry i, whose best genome is
 * at `rank` of the ranking; "ranks": its genomes in r's list (none for
 * the strategies below the list). */
static void add_strategy(jctx *c, cJSON *arr, const config_t *cfg, const reported_t *r, uint32_t i, uint32_t rank,
                         int in_list)
{
    const strat_entry_t *st = &r->strat[i];
    cJSON *item = jpush(c, arr), *o, *ranks;
    if (!item)
        return;
    jnum(c, item, "rank", (double)rank);
    ranks = jchild(c, item, "ranks", 1);
    for (uint32_t j = i; in_list && ranks && j < r->n; j++) {
        cJSON *x = r->strat[j].cls == st->cls ? json_number((double)(j + 1)) : NULL;
        if (x && !cJSON_AddItemToArray(ranks, x)) {
            cJSON_Delete(x);
            c->failed = 1;
        }
    }
    jfitness(c, item, "fitness", r->value[i]);
    jcount(c, item, "trades", (uint64_t)r->e[i].r.trades);
    if (st->genomes) /* of the candidates grouped (fitness/reported_groups.h) */
        jcount(c, item, "genomes", st->genomes);
    if (r->basin) /* report.diverse: its best genome's basin, numbered as the table's */
        jcount(c, item, "basin", (uint64_t)r->basin[i] + 1);
    o = jchild(c, item, "values", 0);
    for (int32_t k = 0; o && k < cfg->lattice.n_params; k++)
        jvalue(c, o, &cfg->lattice.params[k], cfg->lattice.params[k].values[r->e[i].genes[k]]);
    o = jchild(c, item, "ranges", 0);
    for (int32_t k = 0; o && k < cfg->lattice.n_params; k++) {
        const param_t *p = &cfg->lattice.params[k];
        cJSON *pair = jchild(c, o, p->name, 1);
        for (int end = 0; pair && end < 2; end++) {
            const double v = p->values[end ? st->hi[k] : st->lo[k]];
            cJSON *x = v == HUGE_VAL ? cJSON_CreateString("off") : json_number(v); /* an exit's off */
            if (!x || !cJSON_AddItemToArray(pair, x)) {
                cJSON_Delete(x);
                c->failed = 1;
            }
        }
    }
}

/* "strategies": the top list once per strategy (fitness/strategy_class.h),
 * then the strategies below it (reported_more): [{"rank" of its best genome,
 * "ranks" (all of its genomes in the list), "fitness", "trades", "genomes"
 * (of the candidates), "basin" (report.diverse), "values", "ranges": {gene:
 * [low, high]}}]. */
static void add_strategies(jctx *c, cJSON *root, const config_t *cfg, const reported_t *top)
{
    cJSON *arr = jchild(c, root, "strategies", 1);
    for (uint32_t i = 0; arr && i < top->n; i++)
        if (top->strat[i].first)
            add_strategy(c, arr, cfg, top, i, i + 1, 1);
    for (uint32_t i = 0; arr && top->more && i < top->more->n; i++)
        add_strategy(c, arr, cfg, top->more, i, top->more_rank[i], 0);
}

/* "baselines": [{"name", "values" (the parameters it sets), "fitness",
 * "trades", "stats", the validation parts as a top row's, "vs_best": rank 1
 * less it}] (fitness/baseline.h). */
static void add_baselines(jctx *c, cJSON *root, const config_t *cfg, const reported_t *top)
{
    const reported_base_t *b = top->base;
    cJSON *arr = jchild(c, root, "baselines", 1);
    for (uint32_t i = 0; arr && i < b->n; i++) {
        const reported_t *r = &b->rep[i];
        cJSON *item = jpush(c, arr), *o;
        if (!item)
            break;
        jstr(c, item, "name", baseline_name(b->kind[i]));
        o = jchild(c, item, "values", 0);
        for (int32_t k = 0; o && k < cfg->lattice.n_params; k++)
            if (b->point[i].set[k])
                jvalue(c, o, &cfg->lattice.params[k], b->point[i].value[k]);
        jfitness(c, item, "fitness", r->value[0]);
        jcount(c, item, "trades", (uint64_t)r->e[0].r.trades);
        if (r->e[0].r.feasible)
            c->failed |= cJSON_AddBoolToObject(item, "feasible", 1) == NULL;
        else
            jinfeasible(c, item, "feasible", r->e[0].r);
        jstats(c, item, "stats", &r->stats[0]);
        if (r->val)
            row_validation(c, item, r, 0, 0.0);
        if (top->n && (o = jchild(c, item, "vs_best", 0)) != NULL) {
            double df, dt, dw, dd;
            reported_base_diff(top, i, &df, &dt, &dw, &dd);
            jfitness(c, o, "fitness", df);
            jnum(c, o, "trades", dt);
            jfitness(c, o, "win_rate", dw);
            jfitness(c, o, "max_drawdown", dd);
        }
    }
}

static cJSON *build(jctx *c, const run_summary_t *s, const config_t *cfg, const dataset_t *ds, const reported_t *top)
{
    cJSON *root = cJSON_CreateObject(), *o;
    char hash[32];
    if (!root) {
        c->failed = 1;
        return NULL;
    }
    jstr(c, root, "mode", s->mode);
    jstr(c, root, "backend", s->backend);
    jstr(c, root, "device", s->device);
    if (s->evaluator)
        jstr(c, root, "evaluator", s->evaluator);
    jstr(c, root, "config", cfg->path);
    jstr(c, root, "objective", objective_name((objective_kind)cfg->objective.kind));
    jcount(c, root, "seed", cfg->seed);
    if (cfg->lattice.size_fits)
        jcount(c, root, "lattice_size", cfg->lattice.size);
    else
        jstr(c, root, "lattice_size", ">= 2^63");
    jcount(c, root, "evaluated", s->evaluated);
    if (s->has_ga) {
        jcount(c, root, "unique_evaluations", s->unique_evaluations);
        jcount(c, root, "ls_evaluations", s->ls_evaluations);
        jcount(c, root, "restarts", s->restarts);
        if (cfg->ga.restart_stall) { /* how sure (docs/ga.md "Restarts") */
            jcount(c, root, "searches", (uint64_t)s->restarts + 1);
            jcount(c, root, "searches_in_best", s->searches_best);
        }
        if (s->basin_best) { /* how many basins the hall of fame spans (docs/ga.md "Basins") */
            cJSON *ranks = jchild(c, root, "basin_ranks", 1);
            jcount(c, root, "basins", s->n_basins);
            for (uint32_t i = 0; ranks && i < s->n_basins; i++) {
                cJSON *x = json_number((double)s->basin_best[i] + 1);
                if (!x || !cJSON_AddItemToArray(ranks, x)) {
                    cJSON_Delete(x);
                    c->failed = 1;
                }
            }
        }
        jnum(c, root, "generations", (double)s->generations);
        jstr(c, root, "termination", s->termination);
        if (cfg->lattice.size_fits)
            jnum(c, root, "lattice_share_evaluated", (double)s->unique_evaluations / (double)cfg->lattice.size);
    }
    jcount(c, root, "trades_kept", (uint64_t)ds->n_trades);
    o = jchild(c, root, "drops", 0);
    for (int r = 0; o && r < DROP_REASON_COUNT; r++)
        jcount(c, o, drop_reason_name((drop_reason)r), (uint64_t)ds->drops[r]);
    o = jchild(c, root, "dataset", 0);
    if (o) {
        snprintf(hash, sizeof hash, "%016" PRIx64, ds->content_hash);
        jstr(c, o, "path", cfg->dataset_path);
        jstr(c, o, "content_hash", hash);
    }
    if (cfg->strategy_type) /* a strategy config: content_hash is its bars' fingerprint */
        jstr(c, root, "strategy", cfg->strategy_type);
    add_top(c, root, cfg, top, top_trials(s, top));
    if (top->strat)
        add_strategies(c, root, cfg, top);
    add_edges(c, root, cfg, top);
    if (top->val && top->split)
        add_validation(c, root, s, top);
    if (top->base)
        add_baselines(c, root, cfg, top);
    if (strcmp(s->mode, "walk_forward") != 0) { /* a walk's is in its extra (json_walk_forward) */
        verdict_t v; /* deflated by the top rows' own trials, as their DSR column and the run file's verdict */
        jverdict(c, root, &v, verdict_of_list(&v, top, top_trials(s, top), NULL));
    }
    o = jchild(c, root, "seconds", 0);
    if (o) {
        jnum(c, o, "load", s->seconds_load);
        jnum(c, o, "tables", s->seconds_tables);
        jnum(c, o, "search", s->seconds_search);
        jnum(c, o, "total", s->seconds_total);
    }
    if (s->extra) {
        cJSON *extra = (cJSON *)s->extra, *item = extra->child;
        while (item) {
            cJSON *dup = cJSON_Duplicate(item, 1);
            if (!dup || !cJSON_AddItemToObject(root, item->string, dup)) {
                cJSON_Delete(dup);
                c->failed = 1;
            }
            item = item->next;
        }
    }
    return root;
}

ev_status json_summary_write(const char *path, const run_summary_t *s, const config_t *cfg, const dataset_t *ds,
                             const reported_t *top, ev_error *err)
{
    jctx c = {0, &cfg->objective};
    cJSON *root = build(&c, s, cfg, ds, top);
    char *text = (!c.failed && root) ? cJSON_Print(root) : NULL;
    char *tmp = plat_temp_name(path);
    FILE *f;
    ev_status st = EV_OK;
    cJSON_Delete(root);
    if (!text || !tmp) {
        free(text);
        free(tmp);
        return ev_fail(err, EV_ENOMEM, "%s: out of memory building the JSON summary", path);
    }
    f = fopen(tmp, "wb");
    if (!f) {
        st = ev_fail(err, EV_EIO, "%s: cannot write the JSON summary (is the directory writable?)", path);
    } else {
        int e;
        fputs(text, f);
        fputc('\n', f);
        e = plat_fclose_written(f);
        if (e)
            st = ev_fail(err, EV_EIO, "%s: cannot write the JSON summary: %s", path, strerror(e));
        else
            st = plat_rename_replace(tmp, path, err);
    }
    if (st != EV_OK)
        plat_remove(tmp);
    free(tmp);
    free(text);
    return st;
}
