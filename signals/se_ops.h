/* Strategy seller_exhaustion as an entry of the strategy table
 * (signals/strategy.h): its config (signals/se_config.h), bars and shared
 * indicator store (signals/features.h) and backtest (signals/se_strategy.h). */
#ifndef EVOLVE_SIGNALS_SE_OPS_H
#define EVOLVE_SIGNALS_SE_OPS_H

#include "signals/strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const strategy_ops_t se_strategy_ops;

#ifdef __cplusplus
}
#endif
#endif
