#include "fitness/reported.h"

#include <stdlib.h>
#include <string.h>

#include "fitness/objective_prep.h"

/* (prod(1 + q_j / 1e8) - 1) * 100 over the kept trades in dataset order:
 * q_j / 1e8 is o_j / 100 rounded once. at[j]: trade j's row in the tables. */
static double compound_value(const fit_tables_t *t, const int64_t *at, const uint16_t *genes)
{
    tables_genome_t g;
    double prod = 1.0;
    tables_genome(t, genes, &g);
    for (int64_t j = 0; j < t->n_trades; j++) {
        int64_t q, lf;
        if (!tables_kept(t, at[j], &g))
            continue;
        tables_outcome(t, at[j], &g.x, &q, &lf);
        if (q <= EV_RUIN_Q)
            return -100.0;
        prod *= 1.0 + (double)q / 1e8;
    }
    return (prod - 1.0) * 100.0;
}

/* Every genome's trader statistics (fitness/trade_stats.h) on p. */
static ev_status stats_make(reported_t *r, const fit_problem_t *p, const fit_tables_t *t, ev_error *err)
{
    ev_status st = EV_OK;
    if (!(r->stats = (trade_stats_t *)calloc((size_t)r->n + 1, sizeof *r->stats)))
        return ev_fail(err, EV_ENOMEM, "out of memory computing trade statistics");
    for (uint32_t i = 0; i < r->n && st == EV_OK; i++) {
        kept_trade_t *k;
        int64_t n;
        if ((st = kept_trades(p, t, r->e[i].genes, &k, &n, err)) == EV_OK)
            st = trade_stats_of(k, n, &r->stats[i], err);
        r->stats[i].more_exits = t->more_exits;
        free(k);
    }
    return st;
}

ev_status reported_make(reported_t *r, const fit_problem_t *p, const fit_tables_t *t, const ranked_genome_t *e,
                        uint32_t n, ev_error *err)
{
    /* A fold statistic of compound ranks and reads as log growth (objective_display). */
    int compound = p->obj_cfg.kind == OBJ_COMPOUND && p->obj_cfg.aggregate == AGG_ALL;
    int64_t *at = NULL;
    ev_status st;
    r->e = e;
    r->n = n;
    r->val = NULL;
    r->split = NULL;
    r->own_e = NULL;
    r->stats = NULL;
    r->base = NULL;
    r->strat = NULL;
    r->n_strat = 0;
    r->more = NULL;
    r->more_rank = NULL;
    r->basin = NULL;
    r->peaks = NULL;
    r->value = (double *)malloc((n ? n : 1) * sizeof *r->value);
    if (compound && n)
        at = (int64_t *)malloc(((size_t)t->n_trades + 1) * sizeof *at);
    if (!r->value || (compound && n && !at)) {
        free(at);
        reported_free(r);
        return ev_fail(err, EV_ENOMEM, "out of memory computing the reported values");
    }
    for (int64_t jj = 0; at && jj < t->n_trades; jj++)
        at[p->order[jj]] = jj;
    for (uint32_t i = 0; i < n; i++)
        r->value[i] = compound && e[i].r.feasible ? compound_value(t, at, e[i].genes)
                                                  : objective_display(&p->obj_cfg, e[i].r.fitness);
    free(at);
    if ((st = stats_make(r, p, t, err)) != EV_OK)
        reported_free(r);
    return st;
}

void reported_free(reported_t *r)
{
    free(r->value);
    r->value = NULL;
    free(r->stats);
    r->stats = NULL;
    free(r->strat);
    r->strat = NULL;
    if (r->val) {
        val_rows_free(r->val);
        free(r->val);
        r->val = NULL;
    }
    r->split = NULL;
    free(r->own_e);
    r->own_e = NULL;
    if (r->base) {
        for (uint32_t i = 0; i < r->base->n; i++)
            reported_free(&r->base->rep[i]);
        free(r->base);
        r->base = NULL;
    }
    if (r->more) {
        reported_free(r->more);
        free(r->more);
        r->more = NULL;
    }
    free(r->more_rank);
    r->more_rank = NULL;
    free(r->basin);
    r->basin = NULL;
    if (r->peaks) {
        reported_free(r->peaks);
        free(r->peaks);
        r->peaks = NULL;
    }
    r->n = 0;
}

void reported_base_diff(const reported_t *top, uint32_t i, double *fitness, double *trades, double *win_rate,
                        double *max_drawdown)
{
    const reported_t *b = &top->base->rep[i];
    *fitness = top->value[0] - b->value[0];
    *trades = (double)top->e[0].r.trades - (double)b->e[0].r.trades;
    *win_rate = top->stats[0].win_rate - b->stats[0].win_rate;
    *max_drawdown = top->stats[0].max_drawdown - b->stats[0].max_drawdown;
}

ev_status reported_strategies(reported_t *r, const fit_problem_t *p, const fit_tables_t *t, ev_error *err)
{
    free(r->strat);
    r->strat = (strat_entry_t *)malloc((r->n ? r->n : 1) * sizeof *r->strat);
    if (!r->strat)
        return ev_fail(err, EV_ENOMEM, "out of memory grouping the reported genomes into strategies");
    strat_group(t, &p->shape, r->e, r->n, r->strat, &r->n_strat);
    return EV_OK;
}

ev_status reported_more(reported_t *r, const fit_problem_t *p, const fit_tables_t *t, const ranked_genome_t *e,
                        const uint32_t *rank, uint32_t n, ev_error *err)
{
    reported_t *m = (reported_t *)calloc(1, sizeof *m);
    ranked_genome_t *own = (ranked_genome_t *)malloc((n ? n : 1) * sizeof *own);
    uint32_t *rk = (uint32_t *)malloc((n ? n : 1) * sizeof *rk);
    ev_status st;
    if (!m || !own || !rk) {
        free(m);
        free(own);
        free(rk);
        return ev_fail(err, EV_ENOMEM, "out of memory for the strategies below the top list");
    }
    memcpy(own, e, n * sizeof *own);
    memcpy(rk, rank, n * sizeof *rk);
    if ((st = reported_make(m, p, t, own, n, err)) == EV_OK)
        st = reported_strategies(m, p, t, err);
    m->own_e = own; /* reported_free frees it from here on */
    if (st != EV_OK) {
        reported_free(m);
        free(m);
        free(rk);
        return st;
    }
    r->more = m;
    r->more_rank = rk;
    return EV_OK;
}
