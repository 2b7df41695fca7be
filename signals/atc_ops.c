#include "signals/atc_ops.h"

#include <stdlib.h>

#include "signals/atc_config.h"
#include "signals/atc_features.h"
#include "signals/atc_params.h"

typedef struct {
    se_config_t cfg;
    bars_t bars;
    atc_features_t *feat;
    atc_params_t base;                   /* SIGNALS.md's defaults with the config's costs and Pine flags */
    int32_t n_genes;                     /* the lattice's parameters */
    int32_t which[EV_MAX_PARAMS];        /* gene k -> atc_param_names index */
    const double *values[EV_MAX_PARAMS]; /* gene k's values as se_config_load read them */
} atc_search_t;

static void atc_close(void *state)
{
    atc_search_t *s = (atc_search_t *)state;
    if (!s)
        return;
    atc_features_free(s->feat);
    bars_free(&s->bars);
    se_config_free(&s->cfg);
    free(s);
}

static ev_status atc_open(const char *config_path, const lattice_t *lat, void **state, ev_error *err)
{
    atc_search_t *s = (atc_search_t *)calloc(1, sizeof *s);
    ev_status st;
    *state = NULL;
    if (!s)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    if ((st = se_config_load(config_path, &s->cfg, err)) != EV_OK) {
        free(s);
        return st;
    }
    s->n_genes = lat->n_params;
    if ((st = se_config_bind(&s->cfg, lat, s->which, s->values, err)) != EV_OK) {
        atc_close(s);
        return st;
    }
    atc_config_base(&s->cfg, &s->base);
    if ((st = se_config_load_bars(&s->cfg, &s->bars, err)) != EV_OK ||
        (st = atc_features_create(&s->bars, &s->feat, err)) != EV_OK) {
        atc_close(s);
        return st;
    }
    *state = s;
    return EV_OK;
}

static void genome_params(const atc_search_t *s, const uint16_t *genes, atc_params_t *p)
{
    *p = s->base;
    for (int32_t k = 0; k < s->n_genes; k++)
        atc_params_put(p, s->which[k], s->values[k][genes[k]]);
}

static int64_t atc_n_bars(const void *state)
{
    return ((const atc_search_t *)state)->bars.n;
}

static uint64_t atc_fingerprint(const void *state)
{
    return bars_fingerprint(&((const atc_search_t *)state)->bars);
}

/* A trade enters at the open after its signal and exits at a later open, where
 * the next one enters: at most one trade per bar. */
static int64_t atc_max_trades(const void *state)
{
    return atc_n_bars(state) + 1;
}

static size_t atc_scratch_bytes(const void *state)
{
    return (size_t)atc_max_trades(state) * sizeof(atc_trade_t);
}

static ev_status atc_prepare(void *state, const uint16_t *genes, int *feasible, ev_error *err)
{
    atc_search_t *s = (atc_search_t *)state;
    atc_params_t p;
    atc_series_t ser;
    genome_params(s, genes, &p);
    *feasible = atc_params_feasible(&p);
    return *feasible ? atc_features_series(s->feat, &p, &ser, err) : EV_OK;
}

static int64_t atc_outcomes(const void *state, const uint16_t *genes, double *pct, void *scratch)
{
    const atc_search_t *s = (const atc_search_t *)state;
    atc_trade_t *t = (atc_trade_t *)scratch;
    atc_params_t p;
    atc_series_t ser;
    int64_t n;
    genome_params(s, genes, &p);
    if (!atc_features_find(s->feat, &p, &ser))
        return 0; /* not prepared: a caller's bug, answered with no trades */
    n = atc_backtest(&ser, &p, t, atc_max_trades(state));
    for (int64_t k = 0; k < n; k++)
        pct[k] = t[k].pnl / t[k].entry * 100.0; /* a short's pnl is already its gain */
    return n;
}

static uint64_t atc_cache_bytes(const void *state)
{
    return atc_features_bytes(((const atc_search_t *)state)->feat);
}

static void atc_cache_clear(void *state)
{
    atc_features_clear(((atc_search_t *)state)->feat);
}

static int64_t atc_series_computed(const void *state)
{
    return atc_features_computed(((const atc_search_t *)state)->feat);
}

const strategy_ops_t atc_strategy_ops = {
    .name = "atc",
    .open = atc_open,
    .close = atc_close,
    .n_bars = atc_n_bars,
    .fingerprint = atc_fingerprint,
    .max_trades = atc_max_trades,
    .scratch_bytes = atc_scratch_bytes,
    .prepare = atc_prepare,
    .outcomes = atc_outcomes,
    .cache_bytes = atc_cache_bytes,
    .cache_clear = atc_cache_clear,
    .series_computed = atc_series_computed,
};
