#include "cli/mode_walk.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_walk.h"
#include "cli/run_output.h"
#include "common/platform.h"
#include "fitness/objective_prep.h"
#include "fitness/validation.h"
#include "io/json_summary.h"
#include "io/timeparse.h"

/* The trades of a span of days as a problem of its own: its dataset, problem,
 * tables, and (to search it) a backend opened on them. */
typedef struct {
    dataset_t ds;
    fit_problem_t p;
    tables_host_t t;
    backend_t *b;
    int64_t *map; /* [ds.n_trades]: each trade's index in the session's dataset */
} span_t;

static void span_close(span_t *sp, const session_t *s)
{
    if (sp->b)
        s->ops->close(sp->b);
    tables_free(&sp->t);
    problem_free(&sp->p);
    dataset_free(&sp->ds);
    free(sp->map);
    memset(sp, 0, sizeof *sp);
}

/* Days [first, last] of the session's dataset; search: open a backend. */
static ev_status span_open(span_t *sp, session_t *s, int64_t first, int64_t last, int search, ev_error *err)
{
    const dataset_t *ds = &s->ds;
    uint8_t *keep = (uint8_t *)malloc((size_t)ds->n_trades + 1);
    ev_status st;
    memset(sp, 0, sizeof *sp);
    if (!keep || !(sp->map = (int64_t *)malloc(((size_t)ds->n_trades + 1) * sizeof *sp->map))) {
        free(keep);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    for (int64_t j = 0, k = 0; j < ds->n_trades; j++) {
        int64_t d = val_day_of(ds->entry_ts[j]);
        keep[j] = d >= first && d <= last;
        if (keep[j])
            sp->map[k++] = j;
    }
    st = dataset_subset(&sp->ds, ds, keep, err);
    free(keep);
    if (st == EV_OK && (st = lattice_bind(&s->cfg.lattice, &sp->ds, err)) == EV_OK &&
        (st = problem_init(&sp->p, &sp->ds, &s->cfg.lattice, &s->cfg.objective, err)) == EV_OK &&
        (st = tables_build(&sp->t, &sp->p, err)) == EV_OK && search)
        st = s->ops->open(&sp->b, &sp->p, &sp->t, err);
    return st;
}

/* The configured search on sp: its top-1 into *best (found: 0 when nothing
 * is feasible). */
static ev_status search(session_t *s, const run_args_t *a, span_t *sp, ranked_genome_t *best, int *found,
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
        st = grid_run(s->ops, sp->b, &sp->p, &go, &top, &gs, err);
        *evaluated += gs.evaluated;
    } else {
        ga_run_opts_t o;
        ga_result_t res;
        memset(&o, 0, sizeof o);
        memset(&res, 0, sizeof res);
        o.seed = s->cfg.seed;
        o.top = s->cfg.top;
        o.tables = &sp->t.view;
        st = ga_run(s->ops, sp->b, &sp->p, &s->cfg.ga, &o, &res, err);
        if (st == EV_OK && res.reason == GA_STOP_INTERRUPTED)
            st = ev_fail(err, EV_EINTR, "walk-forward interrupted (a walk-forward run is not resumable)");
        top = res.hof; /* moved */
        memset(&res.hof, 0, sizeof res.hof);
        *evaluated += res.evaluations;
        ga_result_free(&res);
    }
    if (st == EV_OK && top.n && !(ranked = topk_ranked_new(&top, &sp->p.shape)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    if (st == EV_OK && top.n) {
        *best = ranked[0];
        *found = 1;
    }
    free(ranked);
    topk_free(&top);
    return st;
}

/* genes' value on sp as reported (fitness/reported.h), its result and
 * trader statistics. */
static ev_status score(const span_t *sp, ranked_genome_t *g, double *value, trade_stats_t *stats, ev_error *err)
{
    reported_t rep;
    ev_status st;
    g->r = tables_eval(&sp->t.view, g->genes);
    g->key = rank_key(g->r);
    if ((st = reported_make(&rep, &sp->p, &sp->t.view, g, 1, err)) != EV_OK)
        return st;
    *value = rep.value[0];
    if (stats)
        *stats = rep.stats[0];
    reported_free(&rep);
    return EV_OK;
}

/* The test span's kept trades under the window's winner, appended to the
 * chain (indices into the session's dataset) and its sums. */
typedef struct {
    kept_trade_t *k;
    int64_t n;
    accum_t acc;
    double prod; /* compound: prod(1 + q / 1e8), 0 on ruin */
} chain_t;

static ev_status chain_add(chain_t *c, const session_t *s, const span_t *sp, const uint16_t *genes, ev_error *err)
{
    kept_trade_t *k, *grown;
    int64_t n;
    ev_status st = kept_trades(&sp->p, &sp->t.view, genes, &k, &n, err);
    if (st != EV_OK)
        return st;
    if (!(grown = (kept_trade_t *)realloc(c->k, ((size_t)(c->n + n) + 1) * sizeof *grown))) {
        free(k);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    c->k = grown;
    for (int64_t i = 0; i < n; i++) {
        int64_t q = k[i].q;
        c->k[c->n] = k[i];
        c->k[c->n++].trade = sp->map[k[i].trade];
        accum_add(&c->acc, &s->prob.obj, q, s->prob.obj.need_log ? outcome_log_factor(q) : 0);
        c->prod = q <= EV_RUIN_Q ? 0.0 : c->prod * (1.0 + (double)q / 1e8);
    }
    free(k);
    return EV_OK;
}

static void day_text(int64_t day, char *buf, size_t n)
{
    int64_t y;
    int m, d;
    time_civil_from_days(day, &y, &m, &d);
    snprintf(buf, n, "%04lld-%02d-%02d", (long long)y, m, d);
}

static void print_table(FILE *out, const session_t *s, const wf_result_t *r, const char *search_name)
{
    const lattice_t *lat = &s->cfg.lattice;
    const char *obj = objective_name((objective_kind)s->cfg.objective.kind);
    char a[16], b[16], c[16], d[16];
    fprintf(out, "walk-forward (%s): %d trading days, train %u, test %u, step %u: %d windows\n", search_name, r->n_days,
            r->train_days, r->test_days, r->step_days, r->n);
    fprintf(out, "window  train                   test                  ");
    for (int32_t k = 0; k < lat->n_params; k++)
        fprintf(out, "  %10s", lat->params[k].name);
    fprintf(out, "  %12s  trades  %12s  trades\n", "train", "test");
    for (int32_t w = 0; w < r->n; w++) {
        const wf_window_t *win = &r->win[w];
        day_text(r->days[win->train_begin], a, sizeof a);
        day_text(r->days[win->train_end - 1], b, sizeof b);
        day_text(r->days[win->test_begin], c, sizeof c);
        day_text(r->days[win->test_end - 1], d, sizeof d);
        fprintf(out, "%6d  %s..%s  %s..%s", w + 1, a, b, c, d);
        for (int32_t k = 0; k < lat->n_params; k++)
            fprintf(out, "  %10s", lat->params[k].value_text[r->winner[w].genes[k]]);
        fprintf(out, "  %12.6f  %6lld  %12.6f  %6lld%s\n", r->train_value[w], (long long)r->winner[w].r.trades,
                r->test_value[w], (long long)r->test[w].r.trades, r->test[w].r.feasible ? "" : "  infeasible");
    }
    day_text(r->days[r->win[0].test_begin], a, sizeof a);
    day_text(r->days[r->win[r->n - 1].test_end - 1], b, sizeof b);
    fprintf(out, "chained out-of-sample %s..%s: %s %.6f, %lld trades%s\n", a, b, obj, r->chained_value,
            (long long)r->chained.trades, r->chained.feasible ? "" : " (infeasible)");
}

/* Every window: search the train days, score the winner on the test days,
 * chain the test trades. */
static ev_status walk(session_t *s, const run_args_t *a, wf_result_t *r, FILE *log, ev_error *err)
{
    chain_t c;
    ev_status st = EV_OK;
    memset(&c, 0, sizeof c);
    accum_init(&c.acc);
    c.prod = 1.0;
    for (int32_t w = 0; w < r->n && st == EV_OK; w++) {
        const wf_window_t *win = &r->win[w];
        span_t train, test;
        int found = 0;
        char first[16];
        if ((st = span_open(&train, s, r->days[win->train_begin], r->days[win->train_end - 1], 1, err)) == EV_OK &&
            (st = search(s, a, &train, &r->winner[w], &found, &r->evaluated, err)) == EV_OK && !found) {
            day_text(r->days[win->train_begin], first, sizeof first);
            st = ev_fail(err, EV_EDATA,
                         "%s: walk-forward window %d (train from %s, %u days): no feasible genome; lower "
                         "objective.min_trades or lengthen train_days",
                         s->cfg.path, w + 1, first, r->train_days);
        }
        if (st == EV_OK)
            st = score(&train, &r->winner[w], &r->train_value[w], NULL, err);
        span_close(&train, s);
        if (st != EV_OK)
            break;
        r->test[w] = r->winner[w];
        if ((st = span_open(&test, s, r->days[win->test_begin], r->days[win->test_end - 1], 0, err)) == EV_OK &&
            (st = score(&test, &r->test[w], &r->test_value[w], &r->test_stats[w], err)) == EV_OK)
            st = chain_add(&c, s, &test, r->test[w].genes, err);
        span_close(&test, s);
        if (log && st == EV_OK)
            fprintf(log, "walk-forward: window %d of %d done\n", w + 1, r->n);
    }
    if (st == EV_OK) {
        r->chained = accum_finish(&c.acc, &s->prob.obj);
        r->chained_value = objective_display(&s->cfg.objective, r->chained.fitness);
        if (s->cfg.objective.kind == OBJ_COMPOUND && r->chained.feasible)
            r->chained_value = c.prod == 0.0 ? -100.0 : (c.prod - 1.0) * 100.0;
        st = trade_stats_of(c.k, c.n, &s->ds, &r->chained_stats, err);
    }
    free(c.k);
    /* the session's problem is bound to its own dataset again */
    if (st == EV_OK)
        st = lattice_bind(&s->cfg.lattice, &s->ds, err);
    return st;
}

static ev_status refuse_mixed(const session_t *s, ev_error *err)
{
    const validation_cfg_t *v = &s->cfg.validation;
    if (s->strategy)
        return ev_fail(err, EV_EUSAGE,
                       "%s: --walk-forward re-optimises a trade-log config (data:) per window; a strategy config "
                       "(strategy:) has no walk-forward yet",
                       s->cfg.path);
    if (!v->wf_train)
        return ev_fail(err, EV_EUSAGE,
                       "%s: --walk-forward needs validation.walk_forward: {train_days, test_days, step_days} "
                       "(docs/config.md)",
                       s->cfg.path);
    if (v->holdout != HOLDOUT_NONE || v->folds > 1 || v->fold_by != FOLD_BY_SHUFFLE ||
        s->cfg.objective.aggregate != AGG_ALL)
        return ev_fail(err, EV_ECONFIG,
                       "%s: --walk-forward tests each window on the days after it: drop validation.holdout, "
                       "folds / fold_by and objective.aggregate for it",
                       s->cfg.path);
    return EV_OK;
}

ev_status run_mode_walk_forward(session_t *s, const run_args_t *a, double t0, ev_error *err)
{
    const validation_cfg_t *v = &s->cfg.validation;
    const char *search_name = a->grid ? "grid" : "ga";
    FILE *log = a->quiet ? NULL : stderr;
    wf_result_t r;
    run_file_t rf;
    double t_walk = 0;
    ev_status st;
    memset(&r, 0, sizeof r);
    if ((st = refuse_mixed(s, err)) != EV_OK)
        return st;
    r.train_days = v->wf_train;
    r.test_days = v->wf_test;
    r.step_days = v->wf_step;
    if ((st = val_days(&s->ds, &r.days, &r.n_days, err)) != EV_OK ||
        (st = wf_windows(r.n_days, r.train_days, r.test_days, r.step_days, &r.win, &r.n, err)) != EV_OK ||
        (st = wf_result_alloc(&r, r.n, err)) != EV_OK) {
        ev_error_prefix(err, "%s: ", s->cfg.path);
        wf_result_free(&r);
        return st;
    }
    /* the file first: an unwritable output fails before the searches */
    if ((st = run_output_create_temp(&rf, s, "walk_forward", s->cfg.output, err)) != EV_OK) {
        wf_result_free(&r);
        return st;
    }
    t_walk = plat_now();
    st = walk(s, a, &r, log, err);
    t_walk = plat_now() - t_walk;
    if (st == EV_OK && (st = run_file_write_walk_forward(&rf, &r, search_name, err)) == EV_OK &&
        (st = run_file_attr_str(&rf, "/", "status", "complete", err)) == EV_OK)
        st = run_output_commit(&rf, s->cfg.output, 0, err);
    else
        run_output_discard(&rf);
    if (st == EV_OK && !a->no_table)
        print_table(stdout, s, &r, search_name);
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
