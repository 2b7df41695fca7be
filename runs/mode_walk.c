#include "runs/mode_walk.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_walk.h"
#include "runs/run_output.h"
#include "runs/walk_side.h"
#include "common/platform.h"
#include "fitness/validation.h"
#include "io/json_summary.h"
#include "io/json_walk.h"
#include "io/timeparse.h"

/* The configured search on w's open days: its top-1 into *best (found: 0
 * when nothing is feasible). */
static ev_status search(session_t *s, const run_args_t *a, walk_side_t *w, ranked_genome_t *best, int *found,
                        uint64_t *evaluated, ev_error *err)
{
    ranked_genome_t *ranked = NULL;
    topk_t top;
    ev_status st;
    *found = 0;
    if (a->grid) {
        grid_opts_t go;
        grid_stats_t gs;
        memset(&go, 0, sizeof go);
        go.evaluator = (evaluator_kind)a->evaluator;
        go.batch = a->batch ? a->batch : s->cfg.grid_batch;
        if ((st = topk_init(&top, 1, err)) != EV_OK)
            return st;
        st = grid_run(s->ops, w->b, w->p, &go, &top, &gs, err);
        *evaluated += gs.evaluated;
    } else {
        ga_run_opts_t o;
        ga_result_t res;
        memset(&o, 0, sizeof o);
        memset(&res, 0, sizeof res);
        o.seed = s->cfg.seed;
        o.top = s->cfg.top;
        o.tables = w->tables;
        o.ls_batch = s->strategy != NULL; /* a strategy has no tables: batch sweeps */
        st = ga_run(s->ops, w->b, w->p, &s->cfg.ga, &o, &res, err);
        if (st == EV_OK && res.reason == GA_STOP_INTERRUPTED)
            st = ev_fail(err, EV_EINTR, "walk-forward interrupted (a walk-forward run is not resumable)");
        top = res.hof; /* moved */
        memset(&res.hof, 0, sizeof res.hof);
        *evaluated += res.evaluations;
        ga_result_free(&res);
    }
    if (st == EV_OK && top.n && !(ranked = topk_ranked_new(&top, &w->p->shape)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    if (st == EV_OK && top.n) {
        *best = ranked[0];
        *found = 1;
    }
    free(ranked);
    topk_free(&top);
    return st;
}

void walk_day_text(int64_t day, char *buf, size_t n)
{
    int64_t y;
    int m, d;
    time_civil_from_days(day, &y, &m, &d);
    snprintf(buf, n, "%04lld-%02d-%02d", (long long)y, m, d);
}

/* The side a session's windows are on (runs/walk_side.h). */
static const walk_side_ops_t *side_ops(const session_t *s)
{
    return s->strategy ? &walk_strategy_ops : &walk_span_ops;
}

/* The baselines each test window gets: log and loosest (a trade log's) and
 * the config's `baseline:` where given. */
static void base_kinds(const session_t *s, const walk_side_ops_t *ops, wf_result_t *r)
{
    r->n_base = 0;
    for (int32_t kind = 0; ops->baseline && kind < BASELINE_KINDS; kind++)
        if (kind == BASELINE_TRADER ? s->cfg.baseline.present : !s->strategy)
            r->base_kind[r->n_base++] = kind;
}

/* Window i's baselines on its open test days. */
static ev_status window_baselines(walk_side_t *w, const session_t *s, wf_result_t *r, int32_t i, ev_error *err)
{
    ev_status st = EV_OK;
    for (int32_t j = 0; j < r->n_base && st == EV_OK; j++) {
        const int32_t kind = r->base_kind[j];
        const size_t at = (size_t)i * (size_t)r->n_base + (size_t)j;
        baseline_point_t b;
        if (kind == BASELINE_TRADER)
            b = s->cfg.baseline;
        else
            baseline_point(&s->cfg.lattice, kind, &b);
        if ((st = w->ops->baseline(w, s, &b, j, &r->base[at], &r->base_value[at], err)) != EV_OK)
            ev_error_prefix(err, "baseline %s: ", baseline_name(kind));
    }
    return st;
}

/* loosest is reported only where it differs from log (as in the other
 * modes): dropped when they agree on every test window. */
static void drop_loosest(wf_result_t *r)
{
    const int32_t n = r->n_base;
    if (n < 2 || r->base_kind[1] != BASELINE_LOOSEST)
        return;
    for (int32_t w = 0; w < r->n; w++) {
        const size_t log = (size_t)w * (size_t)n;
        if (memcmp(&r->base[log], &r->base[log + 1], sizeof *r->base) != 0 ||
            r->base_value[log] != r->base_value[log + 1])
            return;
    }
    for (int32_t w = 0; w < r->n; w++)
        for (int32_t j = 0; j < n - 1; j++) {
            const size_t to = (size_t)w * (size_t)(n - 1) + (size_t)j,
                         from = (size_t)w * (size_t)n + (size_t)(j ? j + 1 : 0);
            r->base[to] = r->base[from];
            r->base_value[to] = r->base_value[from];
        }
    for (int32_t j = 1; j < n - 1; j++) {
        r->base_kind[j] = r->base_kind[j + 1];
        r->base_chained[j] = r->base_chained[j + 1];
        r->base_chained_value[j] = r->base_chained_value[j + 1];
    }
    r->n_base = n - 1;
}

/* Every window: search the train days, score the winner on the test days,
 * chain the test trades. */
static ev_status walk(session_t *s, const run_args_t *a, wf_result_t *r, ev_error *err)
{
    walk_side_t w;
    ev_error ignored; /* finish after a failure: the first error stands */
    ev_status st = EV_OK, fst;
    walk_side_init(&w, side_ops(s));
    for (int32_t i = 0; i < r->n && st == EV_OK; i++) {
        const wf_window_t *win = &r->win[i];
        int found = 0;
        char first[16];
        if ((st = w.ops->open(&w, s, r->days, win->train_begin, win->train_end, 1, err)) == EV_OK &&
            (st = search(s, a, &w, &r->winner[i], &found, &r->evaluated, err)) == EV_OK && !found) {
            walk_day_text(r->days[win->train_begin], first, sizeof first);
            st = ev_fail(err, EV_EDATA,
                         "%s: walk-forward window %d (train from %s, %u days): no feasible genome; lower "
                         "objective.min_trades or lengthen train_days",
                         s->cfg.path, i + 1, first, r->train_days);
        }
        if (st == EV_OK)
            st = w.ops->score(&w, s, &r->winner[i], &r->train_value[i], NULL, err);
        w.ops->close(&w, s);
        if (st != EV_OK)
            break;
        r->test[i] = r->winner[i];
        if ((st = w.ops->open(&w, s, r->days, win->test_begin, win->test_end, 0, err)) == EV_OK &&
            (st = w.ops->score(&w, s, &r->test[i], &r->test_value[i], &r->test_stats[i], err)) == EV_OK &&
            (st = window_baselines(&w, s, r, i, err)) == EV_OK)
            st = w.ops->chain(&w, s, r->test[i].genes, err);
        w.ops->close(&w, s);
        if (st == EV_OK) {
            walk_side_window_done(&w, s, &r->test[i].r);
            run_note(a->report, "walk-forward: window %d of %d done\n", i + 1, r->n);
        }
    }
    if (st == EV_OK && (st = walk_side_chained(&w, s, r, err)) == EV_OK)
        drop_loosest(r); /* after the chains: they are held by the kinds before the drop */
    walk_side_free(&w);
    fst = w.ops->finish(&w, s, st == EV_OK ? err : &ignored);
    return st == EV_OK ? fst : st;
}

ev_status run_walk_check(const config_t *cfg, ev_error *err)
{
    const validation_cfg_t *v = &cfg->validation;
    if (!v->wf_train)
        return ev_fail(err, EV_EUSAGE,
                       "%s: --walk-forward needs validation.walk_forward: {train_days, test_days, step_days} "
                       "(docs/config.md)",
                       cfg->path);
    if (v->holdout != HOLDOUT_NONE || v->folds > 1 || v->fold_by != FOLD_BY_SHUFFLE ||
        cfg->objective.aggregate != AGG_ALL)
        return ev_fail(err, EV_ECONFIG,
                       "%s: --walk-forward tests each window on the days after it: drop validation.holdout, "
                       "folds / fold_by and objective.aggregate for it",
                       cfg->path);
    return EV_OK;
}

/* The trading days: the entry days of a trade log's trades, the days a
 * strategy's bars fall on. */
static ev_status walk_days(const session_t *s, wf_result_t *r, ev_error *err)
{
    const strategy_ops_t *so = s->strategy ? strategy_ops(s->strategy) : NULL;
    if (so)
        return val_days_of(so->bar_ts(strategy_state(s->strategy)), so->n_bars(strategy_state(s->strategy)), &r->days,
                           &r->n_days, err);
    return val_days(&s->ds, &r->days, &r->n_days, err);
}

ev_status run_mode_walk_forward(session_t *s, const run_args_t *a, double t0, ev_error *err)
{
    const validation_cfg_t *v = &s->cfg.validation;
    const char *search_name = a->grid ? "grid" : "ga";
    wf_result_t r;
    run_file_t rf;
    double t_walk = 0;
    ev_status st;
    memset(&r, 0, sizeof r);
    if ((st = run_walk_check(&s->cfg, err)) != EV_OK)
        return st;
    r.train_days = v->wf_train;
    r.test_days = v->wf_test;
    r.step_days = v->wf_step;
    base_kinds(s, side_ops(s), &r);
    if ((st = walk_days(s, &r, err)) != EV_OK ||
        (st = wf_windows(r.n_days, r.train_days, r.test_days, r.step_days, &r.win, &r.n, err)) != EV_OK ||
        (st = wf_result_alloc(&r, r.n, err)) != EV_OK) {
        ev_error_prefix(err, "%s: ", s->cfg.path);
        wf_result_free(&r);
        return st;
    }
    /* the file first: an unwritable output fails before the searches */
    if ((st = run_output_create_temp(&rf, s, "walk_forward", s->cfg.output, NULL, err)) != EV_OK) {
        wf_result_free(&r);
        return st;
    }
    t_walk = plat_now();
    st = walk(s, a, &r, err);
    t_walk = plat_now() - t_walk;
    if (st == EV_OK && (st = run_file_write_walk_forward(&rf, &r, search_name, err)) == EV_OK &&
        (st = run_file_attr_str(&rf, "/", "status", "complete", err)) == EV_OK)
        st = run_output_commit(&rf, s->cfg.output, 0, err);
    else
        run_output_discard(&rf);
    if (st == EV_OK) {
        run_table_t t = {RUN_TABLE_WALK, &s->cfg, NULL, NULL, NULL, &r, search_name};
        run_table(a->report, &t);
    }
    if (st == EV_OK && a->json) {
        run_summary_t sum;
        reported_t none;
        memset(&none, 0, sizeof none);
        run_output_summary(&sum, s, "walk_forward", NULL, NULL, t0);
        sum.evaluated = r.evaluated;
        sum.seconds_search = t_walk; /* every window: tables, search, scoring */
        if (!(sum.extra = json_walk_forward(&s->cfg, &r, search_name)))
            st = ev_fail(err, EV_ENOMEM, "out of memory");
        if (st == EV_OK)
            st = json_summary_write(a->json, &sum, &s->cfg, &s->ds, &none, err);
        cJSON_Delete((cJSON *)sum.extra);
    }
    wf_result_free(&r);
    return st;
}
