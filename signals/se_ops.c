#include "signals/se_ops.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "signals/features.h"
#include "signals/se_config.h"
#include "signals/se_params.h"

typedef struct {
    se_config_t cfg;
    bars_t bars;
    se_features_t *feat;
    se_params_t base;                    /* SIGNALS.md's defaults with the config's costs */
    int32_t n_genes;                     /* the lattice's parameters */
    int32_t which[EV_MAX_PARAMS];        /* gene k -> se_param_names index */
    const double *values[EV_MAX_PARAMS]; /* gene k's values as this strategy read them (cfg.params) */
} se_state_t;

static void se_close(void *state)
{
    se_state_t *s = (se_state_t *)state;
    if (!s)
        return;
    se_features_free(s->feat);
    bars_free(&s->bars);
    se_config_free(&s->cfg);
    free(s);
}

static ev_status se_open(const char *config_path, const lattice_t *lat, void **state, ev_error *err)
{
    se_state_t *s = (se_state_t *)calloc(1, sizeof *s);
    ev_status st;
    *state = NULL;
    if (!s)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    /* the strategy block and the parameter names, with line-exact messages */
    if ((st = se_config_load(config_path, &s->cfg, err)) != EV_OK) {
        free(s);
        return st;
    }
    /* gene k is the lattice's parameter k, bound by name to the same list as
     * se_config_load read it (the one text, so the same values) */
    s->n_genes = lat->n_params;
    for (int32_t k = 0; k < lat->n_params; k++) {
        const se_lattice_param_t *cp = NULL;
        for (int32_t j = 0; j < s->cfg.n_params; j++)
            if (!strcmp(lat->params[k].name, se_param_names[s->cfg.params[j].which]))
                cp = &s->cfg.params[j];
        if (!cp || cp->n_values != lat->params[k].n_values) {
            se_close(s);
            return ev_fail(err, EV_EINTERNAL, "%s: parameter '%s' is not the strategy's lattice parameter", config_path,
                           lat->params[k].name);
        }
        s->which[k] = cp->which;
        s->values[k] = cp->values;
    }
    se_config_base(&s->cfg, &s->base);
    if ((st = se_config_load_bars(&s->cfg, &s->bars, err)) != EV_OK ||
        (st = se_features_create(&s->bars, &s->feat, err)) != EV_OK) {
        se_close(s);
        return st;
    }
    *state = s;
    return EV_OK;
}

static void genome_params(const se_state_t *s, const uint16_t *genes, se_params_t *p)
{
    *p = s->base;
    for (int32_t k = 0; k < s->n_genes; k++)
        se_params_put(p, s->which[k], s->values[k][genes[k]]);
}

static int64_t se_n_bars(const void *state)
{
    return ((const se_state_t *)state)->bars.n;
}

static uint64_t se_fingerprint(const void *state)
{
    const bars_t *b = &((const se_state_t *)state)->bars;
    const size_t n = (size_t)b->n;
    XXH64_state_t *h = XXH64_createState();
    uint64_t out = 0;
    if (!h)
        return 0;
    XXH64_reset(h, 0);
    XXH64_update(h, b->ts, n * sizeof *b->ts);
    XXH64_update(h, b->open, n * sizeof(double));
    XXH64_update(h, b->high, n * sizeof(double));
    XXH64_update(h, b->low, n * sizeof(double));
    XXH64_update(h, b->close, n * sizeof(double));
    XXH64_update(h, b->volume, n * sizeof(double));
    out = XXH64_digest(h);
    XXH64_freeState(h);
    return out;
}

/* A trade spans at least two bars (entry after its signal, exit after its
 * entry) and the next one enters after the last one's exit. */
static int64_t se_max_trades(const void *state)
{
    return se_n_bars(state) / 2 + 1;
}

static size_t se_scratch_bytes(const void *state)
{
    return (size_t)se_max_trades(state) * sizeof(se_trade_t);
}

static ev_status se_prepare(void *state, const uint16_t *genes, int *feasible, ev_error *err)
{
    se_state_t *s = (se_state_t *)state;
    se_params_t p;
    se_series_t ser;
    genome_params(s, genes, &p);
    *feasible = se_params_feasible(&p);
    return *feasible ? se_features_series(s->feat, &p, &ser, err) : EV_OK;
}

static int64_t se_outcomes(const void *state, const uint16_t *genes, double *pct, void *scratch)
{
    const se_state_t *s = (const se_state_t *)state;
    se_trade_t *t = (se_trade_t *)scratch;
    se_params_t p;
    se_series_t ser;
    int64_t n;
    genome_params(s, genes, &p);
    if (!se_features_find(s->feat, &p, &ser))
        return 0; /* not prepared: a caller's bug, answered with no trades */
    n = se_backtest(&ser, &p, t, se_max_trades(state));
    for (int64_t k = 0; k < n; k++)
        pct[k] = t[k].pnl / t[k].entry * 100.0;
    return n;
}

static uint64_t se_cache_bytes(const void *state)
{
    return se_features_bytes(((const se_state_t *)state)->feat);
}

static void se_cache_clear(void *state)
{
    se_features_clear(((se_state_t *)state)->feat);
}

static int64_t se_series_computed(const void *state)
{
    return se_features_computed(((const se_state_t *)state)->feat);
}

const strategy_ops_t se_strategy_ops = {
    .name = "seller_exhaustion",
    .open = se_open,
    .close = se_close,
    .n_bars = se_n_bars,
    .fingerprint = se_fingerprint,
    .max_trades = se_max_trades,
    .scratch_bytes = se_scratch_bytes,
    .prepare = se_prepare,
    .outcomes = se_outcomes,
    .cache_bytes = se_cache_bytes,
    .cache_clear = se_cache_clear,
    .series_computed = se_series_computed,
};
