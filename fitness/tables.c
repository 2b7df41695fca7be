#include "fitness/tables.h"

#include <stdlib.h>
#include <string.h>

#include "fitness/more_exits.h"
#include "fitness/objective_prep.h"

uint16_t tables_cell(const param_t *prm, double x)
{
    /* Values are strictly increasing: binary search for the first value the
     * feature does not pass. min: passes v iff x >= v; max: iff x <= v. */
    uint32_t lo = 0, hi = prm->n_values;
    if (prm->dir == FILTER_MIN) {
        while (lo < hi) { /* count of v <= x */
            uint32_t mid = lo + (hi - lo) / 2;
            if (prm->values[mid] <= x)
                lo = mid + 1;
            else
                hi = mid;
        }
        return (uint16_t)lo;
    }
    while (lo < hi) { /* first v >= x; count of v >= x is n - that */
        uint32_t mid = lo + (hi - lo) / 2;
        if (prm->values[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint16_t)(prm->n_values - lo);
}

void tables_layout(fit_tables_t *v, const fit_problem_t *p)
{
    const lattice_t *lat = p->lat;
    memset(v, 0, sizeof *v);
    v->n_trades = p->ds->n_trades;
    v->target_param = lat->target_param;
    v->stop_param = lat->stop_param;
    v->n_targets = lat->target_param >= 0 ? (int32_t)lat->params[lat->target_param].n_values : 0;
    v->n_stops = lat->stop_param >= 0 ? (int32_t)lat->params[lat->stop_param].n_values : 0;
    {
        const int32_t slot[MORE_EXITS] = {lat->breakeven_param, lat->trail_param, lat->hold_param};
        for (int r = 0; r < MORE_EXITS; r++) {
            v->more[r].param = slot[r];
            v->more[r].n = slot[r] >= 0 ? (int32_t)lat->params[slot[r]].n_values : 0;
            v->more_exits |= slot[r] >= 0;
        }
    }
    v->fill_price = p->obj_cfg.fill == FILL_PRICE;
    v->need_lf = p->obj.need_log;
    v->obj = p->obj;
    if (p->fold && p->agg != AGG_ALL) {
        v->agg = p->agg;
        v->n_folds = p->n_folds;
    }
    for (int32_t k = 0; k < lat->n_params; k++) {
        const param_t *prm = &lat->params[k];
        if (prm->role != PARAM_FILTER)
            continue;
        v->filter_param[v->n_filters] = k;
        v->filter_mirror[v->n_filters] = prm->dir == FILTER_MAX;
        v->filter_n[v->n_filters] = prm->n_values;
        v->n_filters++;
    }
}

static void *alloc_array(size_t n, size_t size, int *failed)
{
    void *p = malloc((n ? n : 1) * size);
    if (!p)
        *failed = 1;
    return p;
}

void tables_level_outcomes(int64_t *q, const param_t *prm, double cost)
{
    for (uint32_t i = 0; i < prm->n_values; i++)
        q[i] = outcome_quantise(prm->values[i], cost);
}

/* SPEC sec. 4.1's exits of the trade at equity position jj (dataset index j). */
static void build_more(tables_host_t *t, const fit_problem_t *p, int64_t jj, int64_t j)
{
    const dataset_t *ds = p->ds;
    const float *path = ds->price + ds->start[j];
    const int64_t len = ds->end[j] - ds->start[j];
    const double e = ds->entry_price[j], cost = p->obj_cfg.cost_pct;
    const int fill_price = p->obj_cfg.fill == FILL_PRICE;
    for (int r = 0; r < MORE_EXITS; r++) {
        const tables_more_t *m = &t->view.more[r];
        int32_t *hit;
        int64_t *q;
        const double *values;
        if (m->param < 0)
            continue;
        hit = t->more_hit[r] + jj * m->n;
        q = t->more_q[r] + jj * m->n;
        values = p->lat->params[m->param].values;
        if (r == MORE_TRAIL)
            more_trail(path, len, e, values, m->n, fill_price, cost, hit, q);
        else if (r == MORE_BREAKEVEN)
            more_breakeven(path, len, e, values, m->n, fill_price, cost, hit, q);
        else
            more_hold(path, ds->ts + ds->start[j], len, ds->entry_ts[j], e, values, m->n, cost, hit, q);
    }
}

/* Cells, hits and fill-price outcomes of the trade at equity position jj. */
static void build_trade(tables_host_t *t, const fit_problem_t *p, int64_t jj, float *t_levels, float *s_levels)
{
    const dataset_t *ds = p->ds;
    const lattice_t *lat = p->lat;
    const fit_tables_t *v = &t->view;
    int64_t j = p->order[jj];

    for (int32_t f = 0; f < v->n_filters; f++) {
        const param_t *prm = &lat->params[v->filter_param[f]];
        t->cells[jj * v->n_filters + f] =
            tables_cell(prm, ds->features[(int64_t)prm->feature_index * ds->n_trades + j]);
    }
    tables_trade_hits(v, jj, ds->price + ds->start[j], ds->end[j] - ds->start[j], ds->entry_price[j], ds->pct_change[j],
                      p->obj_cfg.cost_pct, v->n_targets ? lat->params[v->target_param].values : NULL,
                      v->n_stops ? lat->params[v->stop_param].values : NULL, t_levels, s_levels, t->hit_t, t->hit_s,
                      t->q_t, t->q_s, t->q_log);
    if (v->more_exits)
        build_more(t, p, jj, j);
}

static void log_factors(int64_t *lf, const int64_t *q, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        lf[i] = outcome_log_factor(q[i]);
}

ev_status tables_build(tables_host_t *t, const fit_problem_t *p, ev_error *err)
{
    fit_tables_t *v = &t->view;
    int64_t n;
    int failed = 0;
    memset(t, 0, sizeof *t);
    tables_layout(v, p);
    n = v->n_trades;
    t->q_t_len = v->fill_price ? n * v->n_targets : v->n_targets;
    t->q_s_len = v->fill_price ? n * v->n_stops : v->n_stops;
    t->cells = (uint16_t *)alloc_array((size_t)(n * v->n_filters), sizeof *t->cells, &failed);
    t->hit_t = (int32_t *)alloc_array((size_t)(n * v->n_targets), sizeof *t->hit_t, &failed);
    t->hit_s = (int32_t *)alloc_array((size_t)(n * v->n_stops), sizeof *t->hit_s, &failed);
    t->q_t = (int64_t *)alloc_array((size_t)t->q_t_len, sizeof *t->q_t, &failed);
    t->q_s = (int64_t *)alloc_array((size_t)t->q_s_len, sizeof *t->q_s, &failed);
    t->q_log = (int64_t *)alloc_array((size_t)n, sizeof *t->q_log, &failed);
    if (v->need_lf) {
        t->lf_t = (int64_t *)alloc_array((size_t)t->q_t_len, sizeof *t->lf_t, &failed);
        t->lf_s = (int64_t *)alloc_array((size_t)t->q_s_len, sizeof *t->lf_s, &failed);
        t->lf_log = (int64_t *)alloc_array((size_t)n, sizeof *t->lf_log, &failed);
    }
    if (v->agg != AGG_ALL)
        t->fold = (uint8_t *)alloc_array((size_t)n, 1, &failed);
    for (int r = 0; r < MORE_EXITS; r++)
        if (v->more[r].param >= 0) {
            size_t cells = (size_t)n * (size_t)v->more[r].n;
            t->more_hit[r] = (int32_t *)alloc_array(cells, sizeof *t->more_hit[r], &failed);
            t->more_q[r] = (int64_t *)alloc_array(cells, sizeof *t->more_q[r], &failed);
            if (v->need_lf)
                t->more_lf[r] = (int64_t *)alloc_array(cells, sizeof *t->more_lf[r], &failed);
        }
    if (failed) {
        tables_free(t);
        return ev_fail(err, EV_ENOMEM, "out of memory building first-hit tables for %lld trades", (long long)n);
    }
    for (int64_t jj = 0; t->fold && jj < n; jj++)
        t->fold[jj] = p->fold[p->order[jj]];
    if (!v->fill_price) {
        if (v->n_targets)
            tables_level_outcomes(t->q_t, &p->lat->params[v->target_param], p->obj_cfg.cost_pct);
        if (v->n_stops)
            tables_level_outcomes(t->q_s, &p->lat->params[v->stop_param], p->obj_cfg.cost_pct);
    }
#pragma omp parallel
    {
        float *tl = (float *)malloc(((size_t)v->n_targets + 1) * sizeof *tl);
        float *sl = (float *)malloc(((size_t)v->n_stops + 1) * sizeof *sl);
        int ok = tl && sl;
        if (!ok) {
#pragma omp atomic write
            failed = 1;
        }
        /* Every thread must reach the worksharing loop, even one without
         * scratch, or the others wait at its barrier for ever. */
#pragma omp for schedule(dynamic, 256)
        for (int64_t jj = 0; jj < n; jj++)
            if (ok)
                build_trade(t, p, jj, tl, sl);
        free(tl);
        free(sl);
    }
    if (failed) {
        tables_free(t);
        return ev_fail(err, EV_ENOMEM, "out of memory building first-hit tables");
    }
    if (v->need_lf) {
        log_factors(t->lf_t, t->q_t, t->q_t_len);
        log_factors(t->lf_s, t->q_s, t->q_s_len);
        log_factors(t->lf_log, t->q_log, n);
        for (int r = 0; r < MORE_EXITS; r++)
            if (t->more_lf[r])
                log_factors(t->more_lf[r], t->more_q[r], n * v->more[r].n);
    }
    for (int r = 0; r < MORE_EXITS; r++) {
        v->more[r].hit = t->more_hit[r];
        v->more[r].q = t->more_q[r];
        v->more[r].lf = t->more_lf[r];
    }
    v->cells = t->cells;
    v->hit_t = t->hit_t;
    v->hit_s = t->hit_s;
    v->q_t = t->q_t;
    v->q_s = t->q_s;
    v->q_log = t->q_log;
    v->lf_t = t->lf_t;
    v->lf_s = t->lf_s;
    v->lf_log = t->lf_log;
    v->fold = t->fold;
    return EV_OK;
}

void tables_free(tables_host_t *t)
{
    free(t->cells);
    free(t->hit_t);
    free(t->hit_s);
    free(t->q_t);
    free(t->q_s);
    free(t->q_log);
    free(t->lf_t);
    free(t->lf_s);
    free(t->lf_log);
    free(t->fold);
    for (int r = 0; r < MORE_EXITS; r++) {
        free(t->more_hit[r]);
        free(t->more_q[r]);
        free(t->more_lf[r]);
    }
    memset(t, 0, sizeof *t);
}
