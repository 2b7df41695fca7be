#include "signals/strategy.h"

#include <stdlib.h>
#include <string.h>

#include "common/parallel.h"
#include "common/platform.h"
#include "fitness/fold_accum.h"
#include "fitness/objective_prep.h"
#include "io/ingest.h"
#include "signals/atc_ops.h"
#include "signals/se_ops.h"

const strategy_ops_t *const strategy_table[] = {&se_strategy_ops, &atc_strategy_ops, NULL};

struct strategy {
    const strategy_ops_t *ops;
    void *state;
    objective_cfg_t obj_cfg;
    objective_prep_t obj;
    int32_t n_params;
    int32_t *bar_part; /* strategy_set_split: the part of each bar's day; NULL: every trade counts, fold 0 */
    int32_t n_folds, agg;
    uint64_t budget;
    double prepare_s, backtest_s;
};

const strategy_ops_t *strategy_find(const char *name)
{
    for (int i = 0; name && strategy_table[i]; i++)
        if (!strcmp(strategy_table[i]->name, name))
            return strategy_table[i];
    return NULL;
}

ev_status strategy_open(const char *type, const char *config_path, const lattice_t *lat, const objective_cfg_t *obj,
                        strategy_t **out, ev_error *err)
{
    const strategy_ops_t *ops = strategy_find(type);
    strategy_t *s;
    ev_status st;
    *out = NULL;
    if (!ops) {
        char known[256] = "";
        size_t used = 0;
        for (int i = 0; strategy_table[i] && used < sizeof known; i++)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", strategy_table[i]->name);
        return ev_fail(err, EV_ECONFIG, "%s: strategy.type: '%s' is not an available strategy; expected one of: %s",
                       config_path, type ? type : "", known);
    }
    if (!(s = (strategy_t *)calloc(1, sizeof *s)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    s->ops = ops;
    s->obj_cfg = *obj;
    objective_prepare(&s->obj, obj);
    s->n_params = lat->n_params;
    s->budget = STRATEGY_CACHE_BUDGET;
    if ((st = ops->open(config_path, lat, &s->state, err)) != EV_OK) {
        free(s);
        return st;
    }
    *out = s;
    return EV_OK;
}

ev_status strategy_open_pinned(const char *type, const char *config_path, const lattice_t *lat,
                               const objective_cfg_t *obj, const baseline_point_t *b, strategy_t **out, ev_error *err)
{
    ev_status st = strategy_open(type, config_path, lat, obj, out, err);
    for (int32_t k = 0; st == EV_OK && k < lat->n_params; k++)
        if (!b->set[k])
            st = ev_fail(err, EV_EINTERNAL, "%s: baseline.%s is not set", config_path, lat->params[k].name);
    if (st == EV_OK)
        st = (*out)->ops->pin((*out)->state, b->value, err);
    if (st != EV_OK && *out) {
        strategy_close(*out);
        *out = NULL;
    }
    return st;
}

void strategy_close(strategy_t *s)
{
    if (!s)
        return;
    s->ops->close(s->state);
    free(s->bar_part);
    free(s);
}

ev_status strategy_set_split(strategy_t *s, const val_split_t *split, int32_t agg, ev_error *err)
{
    const int64_t n = s->ops->n_bars(s->state);
    const int64_t *ts = s->ops->bar_ts(s->state);
    int32_t *part = (int32_t *)malloc(((size_t)n + 1) * sizeof *part);
    if (!part)
        return ev_fail(err, EV_ENOMEM, "out of memory splitting the bars' days");
    for (int64_t k = 0; k < n; k++)
        part[k] = val_ts_part(split, ts[k]);
    free(s->bar_part);
    s->bar_part = part;
    s->n_folds = split->n_folds;
    s->agg = agg;
    return EV_OK;
}

const strategy_ops_t *strategy_ops(const strategy_t *s)
{
    return s->ops;
}

void *strategy_state(strategy_t *s)
{
    return s->state;
}

void strategy_set_cache_budget(strategy_t *s, uint64_t bytes)
{
    s->budget = bytes;
}

void strategy_timing(const strategy_t *s, double *prepare_s, double *backtest_s)
{
    *prepare_s = s->prepare_s;
    *backtest_s = s->backtest_s;
}

int64_t strategy_outcome_q(double pct, double cost_pct)
{
    const double at = pct > INGEST_MAX_ABS_PCT    ? INGEST_MAX_ABS_PCT
                      : pct < -INGEST_MAX_ABS_PCT ? -INGEST_MAX_ABS_PCT
                                                  : pct;
    return outcome_quantise(at, cost_pct);
}

/* The part of a trade entered at bar (strategy_set_split). */
static int32_t trade_part(const strategy_t *s, int64_t bar)
{
    return s->bar_part ? s->bar_part[bar] : 0;
}

/* The fitness of trades pct[n] entered at bar[n] (NULL: no split) by prep:
 * the in-sample trades' sums, whole or per fold (agg). */
static eval_result_t score(const strategy_t *s, const double *pct, const int64_t *bar, int64_t n, double cost_pct,
                           const objective_prep_t *prep, int32_t agg)
{
    accum_t all, fold[EV_AGG_MAX_FOLDS];
    const int folds = agg != AGG_ALL && s && s->n_folds >= 1 && s->n_folds <= EV_AGG_MAX_FOLDS;
    accum_init(&all);
    for (int32_t f = 0; folds && f < s->n_folds; f++)
        accum_init(&fold[f]);
    for (int64_t k = 0; k < n; k++) {
        const int32_t part = bar && s ? trade_part(s, bar[k]) : 0;
        int64_t q, lf;
        if (part == VAL_HOLDOUT)
            continue;
        q = strategy_outcome_q(pct[k], cost_pct);
        lf = prep->need_log ? outcome_log_factor(q) : 0;
        accum_add(&all, prep, q, lf);
        if (folds)
            accum_add(&fold[part], prep, q, lf);
    }
    return folds ? fold_aggregate(fold, s->n_folds, agg, prep) : accum_finish(&all, prep);
}

eval_result_t strategy_fitness(const double *pct, int64_t n, const objective_cfg_t *cfg, const objective_prep_t *prep)
{
    return score(NULL, pct, NULL, n, cfg->cost_pct, prep, AGG_ALL);
}

eval_result_t strategy_result(const strategy_t *s, const strategy_score_t *sc, const double *pct, const int64_t *bar,
                              int64_t n)
{
    const strategy_score_t own = {&s->obj, s->agg};
    if (!sc)
        sc = &own;
    return score(s, pct, bar, n, s->obj_cfg.cost_pct, sc->prep, sc->agg);
}

int32_t strategy_n_params(const strategy_t *s)
{
    return s->n_params;
}

static eval_result_t infeasible(void)
{
    eval_result_t r;
    memset(&r, 0, sizeof r);
    return r;
}

/* One genome's genes out of the SoA batch. */
static void genome_at(const uint16_t *genes, uint64_t n, int32_t np, uint64_t i, uint16_t *g)
{
    for (int32_t k = 0; k < np; k++)
        g[k] = genes[(uint64_t)k * n + i];
}

/* Genomes [from, to) of the batch, all prepared: the backtests in parallel. */
static ev_status run_chunk(void *ctx, strategy_t *s, const strategy_score_t *sc, const uint16_t *genes, uint64_t n,
                           uint64_t from, uint64_t to, const uint8_t *feasible, eval_result_t *out, ev_error *err)
{
    const int64_t cap = s->ops->max_trades(s->state);
    const size_t scratch = s->ops->scratch_bytes(s->state);
    const double work = (double)(to - from) * (double)s->ops->n_bars(s->state);
    int failed = 0;
    (void)ctx;
    (void)work;
#ifdef _OPENMP
#pragma omp parallel if (work >= EV_PARALLEL_MIN_WORK)
#endif
    {
        double *pct = (double *)malloc((size_t)(cap > 0 ? cap : 1) * sizeof *pct);
        int64_t *bar = (int64_t *)malloc((size_t)(cap > 0 ? cap : 1) * sizeof *bar);
        void *scr = malloc(scratch ? scratch : 1);
        if (!pct || !bar || !scr) {
#ifdef _OPENMP
#pragma omp atomic write
#endif
            failed = 1;
        }
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 4)
#endif
        for (int64_t i = (int64_t)from; i < (int64_t)to; i++) {
            uint16_t g[EV_MAX_PARAMS];
            int64_t k;
            if (!pct || !bar || !scr)
                continue;
            if (!feasible[i - (int64_t)from]) {
                out[i] = infeasible();
                continue;
            }
            genome_at(genes, n, s->n_params, (uint64_t)i, g);
            k = s->ops->outcomes(s->state, g, pct, bar, scr);
            out[i] = strategy_result(s, sc, pct, bar, k);
        }
        free(pct);
        free(bar);
        free(scr);
    }
    return failed ? ev_fail(err, EV_ENOMEM, "out of memory for the backtest scratch") : EV_OK;
}

/* prepare, its wall time counted as indicators */
static ev_status timed_prepare(strategy_t *s, const uint16_t *g, int *ok, ev_error *err)
{
    const double t = plat_now();
    ev_status st = s->ops->prepare(s->state, g, ok, err);
    s->prepare_s += plat_now() - t;
    return st;
}

/* The chunk's runner, its wall time counted as backtests */
typedef struct {
    strategy_chunk_fn fn;
    void *ctx;
    const strategy_score_t *sc;
} chunk_runner_t;

static ev_status timed_chunk(strategy_t *s, const chunk_runner_t *run, const uint16_t *genes, uint64_t n, uint64_t from,
                             uint64_t to, const uint8_t *feasible, eval_result_t *out, ev_error *err)
{
    const double t = plat_now();
    ev_status st = run->fn(run->ctx, s, run->sc, genes, n, from, to, feasible, out, err);
    s->backtest_s += plat_now() - t;
    return st;
}

ev_status strategy_evaluate(strategy_t *s, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err)
{
    return strategy_evaluate_with(s, NULL, genes, n, run_chunk, NULL, out, err);
}

ev_status strategy_evaluate_as(strategy_t *s, const uint16_t *genes, uint64_t n, const strategy_score_t *sc,
                               eval_result_t *out, ev_error *err)
{
    return strategy_evaluate_with(s, sc, genes, n, run_chunk, NULL, out, err);
}

ev_status strategy_evaluate_with(strategy_t *s, const strategy_score_t *sc, const uint16_t *genes, uint64_t n,
                                 strategy_chunk_fn chunk, void *ctx, eval_result_t *out, ev_error *err)
{
    const strategy_score_t own = {&s->obj, s->agg};
    const chunk_runner_t run = {chunk, ctx, sc ? sc : &own};
    uint8_t *feasible = (uint8_t *)malloc(n ? n : 1); /* [i - from]: genome i's constraints hold */
    uint64_t from = 0;
    ev_status st = EV_OK;
    if (!feasible)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (uint64_t i = 0; i < n && st == EV_OK; i++) {
        uint16_t g[EV_MAX_PARAMS];
        int ok = 0;
        genome_at(genes, n, s->n_params, i, g);
        st = timed_prepare(s, g, &ok, err);
        if (st == EV_OK && i > from && s->ops->cache_bytes(s->state) > s->budget) {
            /* over budget: finish the chunk before i with what it prepared,
             * then start afresh with genome i */
            st = timed_chunk(s, &run, genes, n, from, i, feasible, out, err);
            s->ops->cache_clear(s->state);
            from = i;
            if (st == EV_OK)
                st = timed_prepare(s, g, &ok, err);
        }
        feasible[i - from] = (uint8_t)ok;
    }
    if (st == EV_OK)
        st = timed_chunk(s, &run, genes, n, from, n, feasible, out, err);
    free(feasible);
    return st;
}

/* One genome's trades *t and their quantised outcomes *q (both malloc'ed):
 * one backtest. */
static ev_status genome_trades(strategy_t *s, const uint16_t *genes, strategy_trade_t **t, int64_t **q, int64_t *n,
                               int *feasible, ev_error *err)
{
    const size_t cap = (size_t)(s->ops->max_trades(s->state) > 0 ? s->ops->max_trades(s->state) : 1);
    void *scr;
    ev_status st;
    *t = NULL;
    *q = NULL;
    *n = 0;
    if ((st = s->ops->prepare(s->state, genes, feasible, err)) != EV_OK || !*feasible)
        return st;
    scr = malloc(s->ops->scratch_bytes(s->state) + 1);
    *t = (strategy_trade_t *)malloc(cap * sizeof **t);
    *q = (int64_t *)malloc(cap * sizeof **q);
    if (!scr || !*t || !*q) {
        free(scr);
        free(*t);
        free(*q);
        *t = NULL;
        *q = NULL;
        return ev_fail(err, EV_ENOMEM, "out of memory for a genome's trades");
    }
    *n = s->ops->trades(s->state, genes, *t, scr);
    for (int64_t k = 0; k < *n; k++)
        (*q)[k] = strategy_outcome_q((*t)[k].pct, s->obj_cfg.cost_pct);
    free(scr);
    return EV_OK;
}

ev_status strategy_genome_outcomes(strategy_t *s, const uint16_t *genes, int64_t **q, int32_t **part,
                                   strategy_trade_t **t, int64_t *n, int *feasible, ev_error *err)
{
    strategy_trade_t *tr;
    ev_status st = genome_trades(s, genes, &tr, q, n, feasible, err);
    if (part)
        *part = NULL;
    if (st == EV_OK && part && !(*part = (int32_t *)malloc(((size_t)*n + 1) * sizeof **part))) {
        free(*q);
        *q = NULL;
        st = ev_fail(err, EV_ENOMEM, "out of memory for a genome's trades");
    }
    for (int64_t k = 0; st == EV_OK && part && k < *n; k++)
        (*part)[k] = trade_part(s, tr[k].entry_bar);
    if (st == EV_OK && t) {
        *t = tr;
        return EV_OK;
    }
    free(tr);
    return st;
}

ev_status strategy_block_sums(strategy_t *s, const ranked_genome_t *e, uint32_t m, const int32_t *bar_block,
                              int32_t s_blocks, accum_t *a, ev_error *err)
{
    ev_status st = EV_OK;
    for (uint32_t i = 0; i < m && st == EV_OK; i++) {
        strategy_trade_t *t;
        int64_t *q, n;
        int feasible;
        for (int32_t b = 0; b < s_blocks; b++)
            accum_init(&a[(size_t)i * (size_t)s_blocks + (size_t)b]);
        if ((st = genome_trades(s, e[i].genes, &t, &q, &n, &feasible, err)) != EV_OK)
            break;
        for (int64_t k = 0; k < n; k++) {
            const int32_t b = bar_block[t[k].entry_bar];
            if (b >= 0)
                accum_add(&a[(size_t)i * (size_t)s_blocks + (size_t)b], &s->obj, q[k],
                          s->obj.need_log ? outcome_log_factor(q[k]) : 0);
        }
        free(q);
        free(t);
    }
    return st;
}
