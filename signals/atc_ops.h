/* Strategy atc as an entry of the strategy table (signals/strategy.h): its
 * config (signals/se_config.h, type atc), bars, shared store of cross states
 * and growth tables (signals/atc_features.h) and backtest
 * (signals/atc_strategy.h). */
#ifndef EVOLVE_SIGNALS_ATC_OPS_H
#define EVOLVE_SIGNALS_ATC_OPS_H

#include "signals/strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const strategy_ops_t atc_strategy_ops;

#ifdef __cplusplus
}
#endif
#endif
