#include "fitness/tables.h"

#include <stdlib.h>
#include <string.h>

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
    v->fill_price = p->obj_cfg.fill == FILL_PRICE;
    v->need_lf = p->obj.need_log;
    v->obj = p->obj;
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

/* Fill-level outcomes are the same for every trade: one entry per level. */
static void fill_level_outcomes(int64_t *q, const param_t *prm, double cost)
{
    for (uint32_t i = 0; i < prm->n_values; i++)
        q[i] = outcome_quantise(prm->values[i], cost);
}

/* Cells, hits and fill-price outcomes of the trade at equity position jj. */
static void build_trade(tables_host_t *t, const fit_problem_t *p, int64_t jj, float *t_levels, float *s_levels)
{
    const dataset_t *ds = p->ds;
    const lattice_t *lat = p->lat;
    const fit_tables_t *v = &t->view;
    int64_t j = p->order[jj];
    double e = ds->entry_price[j];
    const float *path = ds->price + ds->start[j];
    int64_t len = ds->end[j] - ds->start[j];
    int32_t nt = v->n_targets, ns = v->n_stops;
    int32_t *ht = t->hit_t + jj * nt, *hs = t->hit_s + jj * ns;

    for (int32_t f = 0; f < v->n_filters; f++) {
        const param_t *prm = &lat->params[v->filter_param[f]];
        t->cells[jj * v->n_filters + f] = tables_cell(prm, ds->features[(int64_t)prm->feature_index * ds->n_trades + j]);
    }
    for (int32_t i = 0; i < nt; i++)
        t_levels[i] = level_price(e, lat->params[v->target_param].values[i]);
    for (int32_t i = 0; i < ns; i++)
        s_levels[i] = level_price(e, lat->params[v->stop_param].values[i]);
    hits_scan(path, len, t_levels, nt, s_levels, ns, ht, hs);
    t->q_log[jj] = outcome_quantise(ds->pct_change[j], p->obj_cfg.cost_pct);
    if (!v->fill_price)
        return;
    for (int32_t i = 0; i < nt; i++)
        t->q_t[jj * nt + i] =
            ht[i] == EV_NO_HIT ? 0 : outcome_quantise(((double)path[ht[i]] / e - 1.0) * 100.0, p->obj_cfg.cost_pct);
    for (int32_t i = 0; i < ns; i++)
        t->q_s[jj * ns + i] =
            hs[i] == EV_NO_HIT ? 0 : outcome_quantise(((double)path[hs[i]] / e - 1.0) * 100.0, p->obj_cfg.cost_pct);
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
    if (failed) {
        tables_free(t);
        return ev_fail(err, EV_ENOMEM, "out of memory building first-hit tables for %lld trades", (long long)n);
    }
    if (!v->fill_price) {
        if (v->n_targets)
            fill_level_outcomes(t->q_t, &p->lat->params[v->target_param], p->obj_cfg.cost_pct);
        if (v->n_stops)
            fill_level_outcomes(t->q_s, &p->lat->params[v->stop_param], p->obj_cfg.cost_pct);
    }
#pragma omp parallel
    {
        float *tl = (float *)malloc(((size_t)v->n_targets + 1) * sizeof *tl);
        float *sl = (float *)malloc(((size_t)v->n_stops + 1) * sizeof *sl);
        if (!tl || !sl) {
#pragma omp atomic write
            failed = 1;
        } else {
#pragma omp for schedule(dynamic, 256)
            for (int64_t jj = 0; jj < n; jj++)
                build_trade(t, p, jj, tl, sl);
        }
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
    memset(t, 0, sizeof *t);
}
