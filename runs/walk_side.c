#include "runs/walk_side.h"

#include <stdlib.h>
#include <string.h>

#include "fitness/objective_prep.h"

void walk_side_init(walk_side_t *w, const walk_side_ops_t *ops)
{
    memset(w, 0, sizeof *w);
    w->ops = ops;
    accum_init(&w->acc);
    accum_init(&w->win);
    w->prod = 1.0;
    for (int32_t j = 0; j < BASELINE_KINDS; j++) {
        accum_init(&w->base_acc[j]);
        w->base_prod[j] = 1.0;
    }
}

/* q (its log factor lf) onto a chain: its sums and its compound product (0 on ruin). */
static void chain_add(accum_t *acc, double *prod, const session_t *s, int64_t q, int64_t lf)
{
    accum_add(acc, &s->prob.obj, q, lf);
    *prod = q <= EV_RUIN_Q ? 0.0 : *prod * (1.0 + (double)q / 1e8);
}

static int64_t log_factor(const session_t *s, int64_t q)
{
    return s->prob.obj.need_log ? outcome_log_factor(q) : 0;
}

void walk_side_push_base(walk_side_t *w, const session_t *s, int32_t j, const kept_trade_t *k)
{
    chain_add(&w->base_acc[j], &w->base_prod[j], s, k->q, log_factor(s, k->q));
}

void walk_side_free(walk_side_t *w)
{
    free(w->k);
    w->k = NULL;
    w->n_k = w->cap_k = 0;
}

ev_status walk_side_push(walk_side_t *w, const session_t *s, const kept_trade_t *k, ev_error *err)
{
    const int64_t q = k->q, lf = log_factor(s, q);
    if (w->n_k == w->cap_k) {
        const int64_t cap = w->cap_k ? 2 * w->cap_k : 256;
        kept_trade_t *grown = (kept_trade_t *)realloc(w->k, (size_t)cap * sizeof *grown);
        if (!grown)
            return ev_fail(err, EV_ENOMEM, "out of memory");
        w->k = grown;
        w->cap_k = cap;
    }
    w->k[w->n_k++] = *k;
    chain_add(&w->acc, &w->prod, s, q, lf);
    accum_add(&w->win, &s->prob.obj, q, lf);
    return EV_OK;
}

/* Out of sample: the objective with validation.min_trades where set. */
static objective_prep_t out_of_sample(const session_t *s)
{
    objective_prep_t o = s->prob.obj;
    if (s->cfg.validation.min_trades >= 0)
        o.min_trades = s->cfg.validation.min_trades;
    return o;
}

objective_cfg_t walk_side_out_of_sample(const session_t *s)
{
    objective_cfg_t o = s->cfg.objective;
    if (s->cfg.validation.min_trades >= 0)
        o.min_trades = s->cfg.validation.min_trades;
    return o;
}

void walk_side_window_done(walk_side_t *w, const session_t *s, eval_result_t *r)
{
    const objective_prep_t o = out_of_sample(s);
    r->feasible = accum_finish(&w->win, &o).feasible;
    accum_init(&w->win);
}

/* A chain's result and its value as reported (compound: the product's). */
static double chain_finish(const accum_t *acc, double prod, const session_t *s, eval_result_t *r)
{
    const objective_prep_t o = out_of_sample(s);
    *r = accum_finish(acc, &o);
    if (s->cfg.objective.kind == OBJ_COMPOUND && r->feasible)
        return prod == 0.0 ? -100.0 : (prod - 1.0) * 100.0;
    return objective_display(&s->cfg.objective, r->fitness);
}

ev_status walk_side_chained(const walk_side_t *w, const session_t *s, wf_result_t *r, ev_error *err)
{
    r->chained_value = chain_finish(&w->acc, w->prod, s, &r->chained);
    for (int32_t j = 0; j < r->n_base; j++)
        r->base_chained_value[j] = chain_finish(&w->base_acc[j], w->base_prod[j], s, &r->base_chained[j]);
    ev_status st = trade_stats_of(w->k, w->n_k, &r->chained_stats, err);
    r->chained_stats.more_exits = lattice_has_more_exits(&s->cfg.lattice);
    return st;
}
