/* A walk-forward window of a strategy (runs/walk_side.h): the bars are never
 * cut (indicators run over all of them); the window's days are the only
 * in-sample part of a split, so every other day's trades count nowhere
 * (strategy_set_split, the one place that decides), for the session's
 * strategy and its baseline's alike (session_strategy_split). */
#include <stdlib.h>
#include <string.h>

#include "runs/session_strategy.h"
#include "runs/session_strategy_validation.h"
#include "fitness/objective_prep.h"
#include "runs/walk_side.h"
#include "signals/strategy_trades.h"

static ev_status strategy_side_open(walk_side_t *w, session_t *s, const int64_t *days, int32_t begin, int32_t end,
                                    int search, ev_error *err)
{
    val_split_t split;
    ev_status st;
    (void)search; /* the session's backend searches whatever split is set */
    memset(&split, 0, sizeof split);
    split.n_days = end - begin;
    split.n_folds = 1;
    split.day = (int64_t *)malloc(((size_t)split.n_days + 1) * sizeof *split.day);
    split.part = (int32_t *)calloc((size_t)split.n_days + 1, sizeof *split.part);
    if (!split.day || !split.part) {
        val_split_free(&split);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    memcpy(split.day, days + begin, (size_t)split.n_days * sizeof *split.day);
    st = session_strategy_split(s, &split, AGG_ALL, err);
    val_split_free(&split);
    w->b = s->backend;
    w->p = &s->prob;
    w->tables = &s->tables.view;
    return st;
}

static ev_status strategy_side_score(walk_side_t *w, const session_t *s, ranked_genome_t *g, double *value,
                                     trade_stats_t *stats, ev_error *err)
{
    ev_status st = strategy_evaluate(s->strategy, g->genes, 1, &g->r, err);
    (void)w;
    g->key = rank_key(g->r);
    if (st == EV_OK && stats)
        st = strategy_genome_stats(s->strategy, g->genes, stats, NULL, err);
    return st == EV_OK ? session_strategy_values(s, g, 1, value, err) : st;
}

/* The open days' kept trades of strategy strat under genes onto the winners'
 * chain (j < 0) or baseline j's. */
static ev_status strategy_side_kept(walk_side_t *w, const session_t *s, strategy_t *strat, const uint16_t *genes,
                                    int32_t j, ev_error *err)
{
    kept_trade_t *k;
    int32_t *part;
    int64_t n;
    ev_status st = strategy_genome_kept(strat, genes, &k, &part, &n, err);
    for (int64_t i = 0; st == EV_OK && i < n; i++)
        if (part[i] != VAL_HOLDOUT) {
            if (j < 0)
                st = walk_side_push(w, s, &k[i], err);
            else
                walk_side_push_base(w, s, j, &k[i]);
        }
    free(k);
    free(part);
    return st;
}

/* The config's baseline: on the open days: the session's pinned strategy
 * (s->base_strategy, its split the window's) scored by the objective out of
 * sample; b is that point. */
static ev_status strategy_side_baseline(walk_side_t *w, const session_t *s, const baseline_point_t *b, int32_t j,
                                        eval_result_t *r, double *value, ev_error *err)
{
    const objective_cfg_t obj = walk_side_out_of_sample(s);
    objective_prep_t prep;
    strategy_score_t sc;
    session_t v = *s;
    ranked_genome_t e;
    ev_status st;
    (void)b;
    if (!s->base_strategy)
        return ev_fail(err, EV_EINTERNAL, "a strategy's baseline without its pinned strategy");
    memset(&e, 0, sizeof e);
    objective_prepare(&prep, &obj);
    sc.prep = &prep;
    sc.agg = AGG_ALL;
    v.strategy = s->base_strategy;
    if ((st = strategy_evaluate_as(v.strategy, e.genes, 1, &sc, &e.r, err)) == EV_OK)
        st = session_strategy_values(&v, &e, 1, value, err);
    *r = e.r;
    return st == EV_OK ? strategy_side_kept(w, s, s->base_strategy, e.genes, j, err) : st;
}

static ev_status strategy_side_chain(walk_side_t *w, const session_t *s, const uint16_t *genes, ev_error *err)
{
    return strategy_side_kept(w, s, s->strategy, genes, -1, err);
}

static void strategy_side_close(walk_side_t *w, session_t *s)
{
    (void)w;
    (void)s;
}

/* The session's own split again (every other mode's view of the bars). */
static ev_status strategy_side_finish(walk_side_t *w, session_t *s, ev_error *err)
{
    (void)w;
    return session_strategy_split(s, &s->split, s->cfg.objective.aggregate, err);
}

const walk_side_ops_t walk_strategy_ops = {
    .open = strategy_side_open,
    .score = strategy_side_score,
    .baseline = strategy_side_baseline,
    .chain = strategy_side_chain,
    .close = strategy_side_close,
    .finish = strategy_side_finish,
};
