#include "signals/se_ops.h"

#include "signals/features.h"
#include "signals/se_config.h"
#include "signals/se_params.h"
#include "signals/strategy_entry.h"
#include "signals/strategy_trades_entry.h"

STRATEGY_ENTRY_STATE(se)

/* A trade spans at least two bars (entry after its signal, exit after its
 * entry) and the next one enters after the last one's exit. */
static int64_t se_max_trades(const void *state)
{
    return se_n_bars(state) / 2 + 1;
}

STRATEGY_ENTRY_TRADES(se)

STRATEGY_ENTRY_OPS(se, "seller_exhaustion")
