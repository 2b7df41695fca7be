#include "runs/session_strategy_validation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runs/session_validation.h"
#include "fitness/dsr.h"
#include "fitness/objective_prep.h"
#include "fitness/plateau.h"
#include "signals/strategy_trades.h"

ev_status strategy_validation_refuse(const session_t *s, ev_error *err)
{
    if (s->cfg.validation.enabled || s->cfg.objective.aggregate == AGG_ALL)
        return EV_OK;
    return ev_fail(err, EV_ECONFIG, "%s: objective.aggregate needs a validation: block with folds", s->cfg.path);
}

ev_status session_strategy_split(session_t *s, const val_split_t *split, int32_t agg, ev_error *err)
{
    ev_status st = strategy_set_split(s->strategy, split, agg, err);
    if (st == EV_OK && s->base_strategy)
        st = strategy_set_split(s->base_strategy, split, agg, err);
    return st;
}

/* The Sharpe ratio's variance over a sample of the lattice, each point
 * backtested on the in-sample days (fitness/dsr.h's parts). */
static ev_status sharpe_sample(session_t *s, ev_error *err)
{
    const fit_problem_t *p = &s->prob;
    const uint64_t n = sharpe_sample_count(p, SESSION_SHARPE_SAMPLE);
    const int32_t np = p->lat->n_params;
    uint16_t *genes = (uint16_t *)calloc((size_t)n * (size_t)np + 1, sizeof *genes);
    eval_result_t *r = (eval_result_t *)malloc(((size_t)n + 1) * sizeof *r);
    objective_prep_t prep = p->obj;
    const strategy_score_t sc = {&prep, AGG_ALL}; /* prep: the sample's objective, below */
    ev_status st = EV_OK;
    if (!genes || !r)
        st = ev_fail(err, EV_ENOMEM, "out of memory sampling the lattice's Sharpe ratios");
    for (uint64_t i = 0; st == EV_OK && i < n; i++) {
        uint16_t g[EV_MAX_PARAMS];
        sharpe_sample_genome(p, SESSION_SHARPE_SAMPLE, s->cfg.seed, i, g);
        for (int32_t k = 0; k < np; k++)
            genes[(uint64_t)k * n + i] = g[k];
    }
    sharpe_sample_objective(&prep);
    if (st == EV_OK && (st = strategy_evaluate_as(s->strategy, genes, n, &sc, r, err)) == EV_OK)
        s->var_sr = sharpe_variance_of(r, n, &s->var_sr_points);
    free(genes);
    free(r);
    return st;
}

ev_status strategy_validation_open(session_t *s, const session_opts_t *opts, ev_error *err)
{
    const strategy_ops_t *so = strategy_ops(s->strategy);
    const void *state = strategy_state(s->strategy);
    ev_status st;
    if (!s->cfg.validation.enabled)
        return EV_OK;
    s->validating = 1; /* the PBO of grid and GA runs (runs/session_validation.c) */
    s->pbo = NAN;
    if ((st = val_split_of(&s->split, &s->cfg.validation, so->bar_ts(state), so->n_bars(state),
                           "no bar of the data falls", s->cfg.seed, err)) != EV_OK) {
        ev_error_prefix(err, "%s: ", s->cfg.path);
        return st;
    }
    if ((st = session_validation_check_folds(s, err)) != EV_OK ||
        (st = session_strategy_split(s, &s->split, s->cfg.objective.aggregate, err)) != EV_OK)
        return st;
    if (s->split.has_folds)
        run_note(opts->report, "validation: %d days of bars: %d held out, %d in-sample in %d folds\n", s->split.n_days,
                 s->split.n_holdout, s->split.n_days - s->split.n_holdout, s->split.n_folds);
    else
        run_note(opts->report, "validation: %d days of bars: %d held out, %d in-sample\n", s->split.n_days,
                 s->split.n_holdout, s->split.n_days - s->split.n_holdout);
    /* the DSR's variance: thousands of backtests that a walk-forward, which
       reports no row, never reads */
    if (opts->walk_forward) {
        s->var_sr = NAN;
        return EV_OK;
    }
    return sharpe_sample(s, err);
}

/* Row i from genome e's trades, each with the part of its entry day. */
static ev_status row_of(const session_t *s, val_rows_t *v, uint32_t i, const ranked_genome_t *e, ev_error *err)
{
    int64_t *q, n;
    int32_t *part;
    int feasible;
    val_trade_t *tr;
    ev_status st = strategy_genome_outcomes(s->strategy, e->genes, &q, &part, NULL, &n, &feasible, err);
    if (st != EV_OK)
        return st;
    if (!(tr = (val_trade_t *)calloc((size_t)n + 1, sizeof *tr))) {
        st = ev_fail(err, EV_ENOMEM, "out of memory scoring the reported genomes per part");
    } else {
        for (int64_t k = 0; k < n; k++) {
            tr[k].q = q[k];
            tr[k].lf = outcome_log_factor(q[k]);
            tr[k].part = part[k];
        }
        st = val_row_fill(v, i, &s->prob, tr, n, NULL, err);
    }
    if (st == EV_OK && !feasible) /* a failed constraint: no part is feasible, as the search saw it */
        v->row[i].search = e->r;
    free(tr);
    free(q);
    free(part);
    return st;
}

/* Each genome's lattice neighbours backtested in one batch, on the search's
 * own fitness (fitness/plateau.h's parts). */
static ev_status plateaus(const session_t *s, const reported_t *r, val_rows_t *v, ev_error *err)
{
    const int32_t np = s->prob.lat->n_params;
    const uint64_t cap = (uint64_t)r->n * PLATEAU_MAX;
    uint16_t(*nb)[EV_MAX_PARAMS] = (uint16_t(*)[EV_MAX_PARAMS])malloc((size_t)(cap + 1) * sizeof *nb);
    uint16_t *genes = (uint16_t *)malloc((size_t)(cap * (uint64_t)np + 1) * sizeof *genes);
    eval_result_t *res = (eval_result_t *)malloc((size_t)(cap + 1) * sizeof *res);
    int32_t *count = (int32_t *)malloc(((size_t)r->n + 1) * sizeof *count);
    uint64_t m = 0;
    ev_status st = EV_OK;
    if (!nb || !genes || !res || !count)
        st = ev_fail(err, EV_ENOMEM, "out of memory scoring the plateaus");
    for (uint32_t i = 0; st == EV_OK && i < r->n; i++) {
        count[i] = plateau_neighbours(s->prob.lat, r->e[i].genes, nb + m);
        m += (uint64_t)count[i];
    }
    for (uint64_t j = 0; st == EV_OK && j < m; j++)
        for (int32_t k = 0; k < np; k++)
            genes[(uint64_t)k * m + j] = nb[j][k];
    if (st == EV_OK && (st = strategy_evaluate(s->strategy, genes, m, res, err)) == EV_OK)
        for (uint32_t i = 0, at = 0; i < r->n; at += (uint32_t)count[i], i++)
            plateau_of(&s->prob, res + at, count[i], &v->row[i].plateau);
    free(nb);
    free(genes);
    free(res);
    free(count);
    return st;
}

ev_status strategy_validation_rows(const session_t *s, reported_t *r, ev_error *err)
{
    val_rows_t *v = (val_rows_t *)calloc(1, sizeof *v);
    ev_status st;
    if (!v)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    st = val_rows_alloc(v, s->split.n_folds, r->n, s->cfg.validation.min_trades, err);
    for (uint32_t i = 0; st == EV_OK && i < r->n; i++)
        if ((st = row_of(s, v, i, &r->e[i], err)) == EV_OK && s->split.n_holdout > 0)
            st = strategy_genome_stats(s->strategy, r->e[i].genes, NULL, &v->row[i].oos_stats, err);
    if (st == EV_OK)
        st = plateaus(s, r, v, err);
    if (st != EV_OK) {
        val_rows_free(v);
        free(v);
        return st;
    }
    return session_validation_attach(s, r, v, err);
}
