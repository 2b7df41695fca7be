/* The `trades` op of a strategy table entry (signals/strategy.h), beside
 * signals/strategy_entry.h's parts: a strategy's file writes
 * STRATEGY_ENTRY_TRADES(P) after its P_max_trades and before
 * STRATEGY_ENTRY_OPS(P, "type"). The same backtest as `outcomes`, its trades
 * read for their bars and exits; only the reported genomes run it. */
#ifndef EVOLVE_SIGNALS_STRATEGY_TRADES_ENTRY_H
#define EVOLVE_SIGNALS_STRATEGY_TRADES_ENTRY_H

#include "signals/strategy.h"

#define STRATEGY_ENTRY_TRADES(P)                                                                              \
    static int64_t P##_trades(const void *state, const uint16_t *genes, strategy_trade_t *out, void *scratch) \
    {                                                                                                         \
        const P##_entry_t *s = (const P##_entry_t *)state;                                                    \
        P##_trade_t *t = (P##_trade_t *)scratch;                                                              \
        P##_series_t ser;                                                                                     \
        P##_params_t p;                                                                                       \
        int64_t n = 0;                                                                                        \
        P##_genome_params(s, genes, &p);                                                                      \
        if (P##_features_find(s->feat, &p, &ser)) /* else not prepared: no trades, as outcomes */             \
            n = P##_backtest(&ser, &p, t, P##_max_trades(state));                                             \
        for (int64_t k = 0; k < n; k++) {                                                                     \
            out[k].entry_bar = t[k].entry_bar;                                                                \
            out[k].exit_bar = t[k].exit_bar;                                                                  \
            out[k].reason = t[k].reason;                                                                      \
            out[k].pad_ = 0;                                                                                  \
        }                                                                                                     \
        return n;                                                                                             \
    }

#endif
