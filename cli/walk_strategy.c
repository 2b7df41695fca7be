/* A walk-forward window of a strategy (cli/walk_side.h): the bars are never
 * cut (indicators run over all of them); the window's days are the only
 * in-sample part of a split, so every other day's trades count nowhere
 * (strategy_set_split, the one place that decides). The chain's trades are
 * kept in w->own (a trade_list_t) for their trader statistics. */
#include <stdlib.h>
#include <string.h>

#include "cli/session_strategy.h"
#include "cli/walk_side.h"
#include "signals/strategy_trades.h"

/* The chain's trades, every test window's in order. */
typedef struct {
    kept_trade_t *k;
    int64_t n;
} trade_list_t;

static ev_status strategy_side_open(walk_side_t *w, session_t *s, const int64_t *days, int32_t begin, int32_t end,
                                    int search, ev_error *err)
{
    val_split_t split;
    ev_status st;
    (void)search; /* the session's backend searches whatever split is set */
    if (!w->own && !(w->own = calloc(1, sizeof(trade_list_t))))
        return ev_fail(err, EV_ENOMEM, "out of memory");
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
    st = strategy_set_split(s->strategy, &split, AGG_ALL, err);
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

static ev_status strategy_side_chain(walk_side_t *w, const session_t *s, const uint16_t *genes, ev_error *err)
{
    trade_list_t *o = (trade_list_t *)w->own;
    kept_trade_t *k, *grown = NULL;
    int32_t *part;
    int64_t n;
    ev_status st = strategy_genome_kept(s->strategy, genes, &k, &part, &n, err);
    if (st == EV_OK && !(grown = (kept_trade_t *)realloc(o->k, ((size_t)(o->n + n) + 1) * sizeof *grown)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    if (grown)
        o->k = grown;
    for (int64_t j = 0; st == EV_OK && j < n; j++)
        if (part[j] != VAL_HOLDOUT) {
            o->k[o->n++] = k[j];
            walk_side_push(w, s, k[j].q);
        }
    free(k);
    free(part);
    return st;
}

static void strategy_side_close(walk_side_t *w, session_t *s)
{
    (void)w;
    (void)s;
}

/* The chain's trader statistics; the session's own split again (every other
 * mode's view of the bars). */
static ev_status strategy_side_finish(walk_side_t *w, session_t *s, wf_result_t *r, ev_error *err)
{
    trade_list_t *o = (trade_list_t *)w->own;
    ev_status st = r && o ? trade_stats_of(o->k, o->n, &r->chained_stats, err) : EV_OK;
    if (o)
        free(o->k);
    free(o);
    w->own = NULL;
    return st == EV_OK ? strategy_set_split(s->strategy, &s->split, s->cfg.objective.aggregate, err) : st;
}

const walk_side_ops_t walk_strategy_ops = {
    .open = strategy_side_open,
    .score = strategy_side_score,
    .chain = strategy_side_chain,
    .close = strategy_side_close,
    .finish = strategy_side_finish,
};
