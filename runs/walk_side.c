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
}

void walk_side_free(walk_side_t *w)
{
    free(w->k);
    w->k = NULL;
    w->n_k = w->cap_k = 0;
}

ev_status walk_side_push(walk_side_t *w, const session_t *s, const kept_trade_t *k, ev_error *err)
{
    const int64_t q = k->q;
    if (w->n_k == w->cap_k) {
        const int64_t cap = w->cap_k ? 2 * w->cap_k : 256;
        kept_trade_t *grown = (kept_trade_t *)realloc(w->k, (size_t)cap * sizeof *grown);
        if (!grown)
            return ev_fail(err, EV_ENOMEM, "out of memory");
        w->k = grown;
        w->cap_k = cap;
    }
    w->k[w->n_k++] = *k;
    const int64_t lf = s->prob.obj.need_log ? outcome_log_factor(q) : 0;
    accum_add(&w->acc, &s->prob.obj, q, lf);
    accum_add(&w->win, &s->prob.obj, q, lf);
    w->prod = q <= EV_RUIN_Q ? 0.0 : w->prod * (1.0 + (double)q / 1e8);
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

ev_status walk_side_chained(const walk_side_t *w, const session_t *s, wf_result_t *r, ev_error *err)
{
    const objective_prep_t o = out_of_sample(s);
    r->chained = accum_finish(&w->acc, &o);
    r->chained_value = objective_display(&s->cfg.objective, r->chained.fitness);
    if (s->cfg.objective.kind == OBJ_COMPOUND && r->chained.feasible)
        r->chained_value = w->prod == 0.0 ? -100.0 : (w->prod - 1.0) * 100.0;
    ev_status st = trade_stats_of(w->k, w->n_k, &r->chained_stats, err);
    r->chained_stats.more_exits = lattice_has_more_exits(&s->cfg.lattice);
    return st;
}
