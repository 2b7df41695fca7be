/* One text for the strategy table's entries (signals/strategy.h) of the
 * strategies in signals/: their parts are parallel by name (P_params_t,
 * P_series_t, P_trade_t, P_features_t; P_params_put/feasible, P_config_base,
 * P_features_create/free/series/find/bytes/clear/computed, P_backtest), so
 * one template serves them all. A strategy's file writes
 *
 *   STRATEGY_ENTRY_STATE(P)          the state (config, bars, gene binding,
 *                                    store, base genome), open, pin, close, n_bars,
 *                                    fingerprint, a genome's parameters
 *   static int64_t P_max_trades(const void *state) { ... }   its trade rule's bound
 *   STRATEGY_ENTRY_OPS(P, "type", STRATEGY_DEVICE_X, P_SLOTS)
 *                                    prepare, outcomes (pnl in percent of the
 *                                    entry), the store's bytes/clear/count,
 *                                    the device's view (P_series_slots/bind,
 *                                    P_series_slot_bytes), and
 *                                    `const strategy_ops_t P_strategy_ops`
 */
#ifndef EVOLVE_SIGNALS_STRATEGY_ENTRY_H
#define EVOLVE_SIGNALS_STRATEGY_ENTRY_H

#include <stdlib.h>
#include <string.h>

#include "signals/bars.h"
#include "signals/se_config.h"
#include "signals/strategy.h"
#include "signals/strategy_hd.h"

#define STRATEGY_ENTRY_STATE(P)                                                                           \
    typedef struct {                                                                                      \
        se_config_bound_t b; /* the config, the bars, the genes' binding */                               \
        P##_features_t *feat;                                                                             \
        P##_params_t base; /* docs/signals-spec.md's defaults with the config's fixed settings */         \
    } P##_entry_t;                                                                                        \
    static void P##_close(void *state)                                                                    \
    {                                                                                                     \
        P##_entry_t *s = (P##_entry_t *)state;                                                            \
        if (!s)                                                                                           \
            return;                                                                                       \
        P##_features_free(s->feat);                                                                       \
        se_config_close_bound(&s->b);                                                                     \
        free(s);                                                                                          \
    }                                                                                                     \
    static ev_status P##_open(const char *config_path, const lattice_t *lat, void **state, ev_error *err) \
    {                                                                                                     \
        P##_entry_t *s = (P##_entry_t *)calloc(1, sizeof *s);                                             \
        ev_status st;                                                                                     \
        *state = NULL;                                                                                    \
        if (!s)                                                                                           \
            return ev_fail(err, EV_ENOMEM, "out of memory");                                              \
        if ((st = se_config_open_bound(config_path, lat, &s->b, err)) != EV_OK) {                         \
            free(s);                                                                                      \
            return st;                                                                                    \
        }                                                                                                 \
        P##_config_base(&s->b.cfg, &s->base);                                                             \
        if ((st = P##_features_create(&s->b.bars, &s->feat, err)) != EV_OK) {                             \
            P##_close(s);                                                                                 \
            return st;                                                                                    \
        }                                                                                                 \
        *state = s;                                                                                       \
        return EV_OK;                                                                                     \
    }                                                                                                     \
    static void P##_genome_params(const P##_entry_t *s, const uint16_t *genes, P##_params_t *p)           \
    {                                                                                                     \
        *p = s->base;                                                                                     \
        for (int32_t k = 0; k < s->b.n_genes; k++)                                                        \
            P##_params_put(p, s->b.which[k], s->b.values[k][genes[k]]);                                   \
    }                                                                                                     \
    /* every gene pinned to the config's baseline: (se_config_pin), which must be feasible */             \
    static ev_status P##_pin(void *state, const double *point, ev_error *err)                             \
    {                                                                                                     \
        static const uint16_t genes[EV_MAX_PARAMS] = {0};                                                 \
        P##_entry_t *s = (P##_entry_t *)state;                                                            \
        P##_params_t p;                                                                                   \
        ev_status st = se_config_pin(&s->b, point, err);                                                  \
        if (st != EV_OK)                                                                                  \
            return st;                                                                                    \
        P##_genome_params(s, genes, &p);                                                                  \
        if ((st = P##_params_check(&p, err)) != EV_OK)                                                    \
            ev_error_prefix(err, "%s: key 'baseline': ", s->b.cfg.path);                                  \
        return st == EV_OK ? EV_OK : EV_ECONFIG;                                                          \
    }                                                                                                     \
    static int64_t P##_n_bars(const void *state)                                                          \
    {                                                                                                     \
        return ((const P##_entry_t *)state)->b.bars.n;                                                    \
    }                                                                                                     \
    static uint64_t P##_fingerprint(const void *state)                                                    \
    {                                                                                                     \
        return bars_fingerprint(&((const P##_entry_t *)state)->b.bars);                                   \
    }                                                                                                     \
    static const int64_t *P##_bar_ts(const void *state)                                                   \
    {                                                                                                     \
        return ((const P##_entry_t *)state)->b.bars.ts;                                                   \
    }

#define STRATEGY_ENTRY_OPS(P, NAME, KIND, SLOTS)                                                                    \
    static size_t P##_scratch_bytes(const void *state)                                                              \
    {                                                                                                               \
        return (size_t)P##_max_trades(state) * sizeof(P##_trade_t);                                                 \
    }                                                                                                               \
    static ev_status P##_prepare(void *state, const uint16_t *genes, int *feasible, ev_error *err)                  \
    {                                                                                                               \
        P##_entry_t *s = (P##_entry_t *)state;                                                                      \
        P##_params_t p;                                                                                             \
        P##_series_t ser;                                                                                           \
        P##_genome_params(s, genes, &p);                                                                            \
        *feasible = P##_params_feasible(&p);                                                                        \
        return *feasible ? P##_features_series(s->feat, &p, &ser, err) : EV_OK;                                     \
    }                                                                                                               \
    /* each trade's pnl in percent of its entry (an atc short's pnl is its gain) and entry bar */                   \
    static int64_t P##_trades_pct(const void *state, const P##_series_t *ser, const P##_params_t *p, double *pct,   \
                                  int64_t *bar, void *scratch)                                                      \
    {                                                                                                               \
        P##_trade_t *t = (P##_trade_t *)scratch;                                                                    \
        const int64_t n = P##_backtest(ser, p, t, P##_max_trades(state));                                           \
        for (int64_t k = 0; k < n; k++) {                                                                           \
            pct[k] = strategy_trade_pct(t[k].pnl, t[k].entry);                                                      \
            bar[k] = t[k].entry_bar;                                                                                \
        }                                                                                                           \
        return n;                                                                                                   \
    }                                                                                                               \
    /* a prepared genome's parameters and series (0: not prepared) */                                               \
    static int P##_genome_series(const void *state, const uint16_t *genes, P##_params_t *p, P##_series_t *ser)      \
    {                                                                                                               \
        const P##_entry_t *s = (const P##_entry_t *)state;                                                          \
        P##_genome_params(s, genes, p);                                                                             \
        return P##_features_find(s->feat, p, ser);                                                                  \
    }                                                                                                               \
    static int64_t P##_outcomes(const void *state, const uint16_t *genes, double *pct, int64_t *bar, void *scratch) \
    {                                                                                                               \
        P##_params_t p;                                                                                             \
        P##_series_t ser;                                                                                           \
        if (!P##_genome_series(state, genes, &p, &ser))                                                             \
            return 0; /* not prepared: a caller's bug, answered with no trades */                                   \
        return P##_trades_pct(state, &ser, &p, pct, bar, scratch);                                                  \
    }                                                                                                               \
    /* the same backtest's trades whole: the reported genomes' outcomes, bars and exits */                          \
    static int64_t P##_trades(const void *state, const uint16_t *genes, strategy_trade_t *out, void *scratch)       \
    {                                                                                                               \
        P##_trade_t *t = (P##_trade_t *)scratch;                                                                    \
        P##_params_t p;                                                                                             \
        P##_series_t ser;                                                                                           \
        int64_t n;                                                                                                  \
        if (!P##_genome_series(state, genes, &p, &ser))                                                             \
            return 0; /* not prepared: no trades, as outcomes */                                                    \
        n = P##_backtest(&ser, &p, t, P##_max_trades(state));                                                       \
        for (int64_t k = 0; k < n; k++) {                                                                           \
            out[k].pct = strategy_trade_pct(t[k].pnl, t[k].entry);                                                  \
            out[k].entry_bar = t[k].entry_bar;                                                                      \
            out[k].exit_bar = t[k].exit_bar;                                                                        \
            out[k].reason = t[k].reason;                                                                            \
            out[k].pad_ = 0;                                                                                        \
        }                                                                                                           \
        return n;                                                                                                   \
    }                                                                                                               \
    static uint64_t P##_slot_bytes(const void *state, int32_t k)                                                    \
    {                                                                                                               \
        return P##_series_slot_bytes(k, P##_n_bars(state));                                                         \
    }                                                                                                               \
    static int P##_device_view(const void *state, const uint16_t *genes, const void **slots, void *params)          \
    {                                                                                                               \
        P##_params_t p;                                                                                             \
        P##_series_t ser;                                                                                           \
        if (!P##_genome_series(state, genes, &p, &ser))                                                             \
            return 0;                                                                                               \
        P##_series_slots(&ser, slots);                                                                              \
        memcpy(params, &p, sizeof p);                                                                               \
        return 1;                                                                                                   \
    }                                                                                                               \
    static int64_t P##_view_outcomes(const void *state, const void *const *slots, const void *params, double *pct,  \
                                     int64_t *bar, void *scratch)                                                   \
    {                                                                                                               \
        P##_params_t p;                                                                                             \
        P##_series_t ser;                                                                                           \
        memcpy(&p, params, sizeof p);                                                                               \
        P##_series_bind(&ser, P##_n_bars(state), slots);                                                            \
        return P##_trades_pct(state, &ser, &p, pct, bar, scratch);                                                  \
    }                                                                                                               \
    static uint64_t P##_cache_bytes(const void *state)                                                              \
    {                                                                                                               \
        return P##_features_bytes(((const P##_entry_t *)state)->feat);                                              \
    }                                                                                                               \
    static void P##_cache_clear(void *state)                                                                        \
    {                                                                                                               \
        P##_features_clear(((P##_entry_t *)state)->feat);                                                           \
    }                                                                                                               \
    static int64_t P##_series_computed(const void *state)                                                           \
    {                                                                                                               \
        return P##_features_computed(((const P##_entry_t *)state)->feat);                                           \
    }                                                                                                               \
    const strategy_ops_t P##_strategy_ops = {                                                                       \
        .name = NAME,                                                                                               \
        .open = P##_open,                                                                                           \
        .pin = P##_pin,                                                                                             \
        .close = P##_close,                                                                                         \
        .n_bars = P##_n_bars,                                                                                       \
        .fingerprint = P##_fingerprint,                                                                             \
        .bar_ts = P##_bar_ts,                                                                                       \
        .max_trades = P##_max_trades,                                                                               \
        .scratch_bytes = P##_scratch_bytes,                                                                         \
        .prepare = P##_prepare,                                                                                     \
        .outcomes = P##_outcomes,                                                                                   \
        .trades = P##_trades,                                                                                       \
        .cache_bytes = P##_cache_bytes,                                                                             \
        .cache_clear = P##_cache_clear,                                                                             \
        .series_computed = P##_series_computed,                                                                     \
        .device_kind = KIND,                                                                                        \
        .n_slots = SLOTS,                                                                                           \
        .params_bytes = sizeof(P##_params_t),                                                                       \
        .slot_bytes = P##_slot_bytes,                                                                               \
        .device_view = P##_device_view,                                                                             \
        .view_outcomes = P##_view_outcomes,                                                                         \
    };

#endif
