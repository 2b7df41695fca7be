#include "signals/atc_ops.h"

#include "signals/atc_config.h"
#include "signals/atc_features.h"
#include "signals/atc_params.h"
#include "signals/strategy_entry.h"
#include "signals/strategy_trades_entry.h"

STRATEGY_ENTRY_STATE(atc)

/* A trade enters at the open after its signal and exits at a later open, where
 * the next one enters: at most one trade per bar. */
static int64_t atc_max_trades(const void *state)
{
    return atc_n_bars(state) + 1;
}

STRATEGY_ENTRY_TRADES(atc)

STRATEGY_ENTRY_OPS(atc, "atc")
