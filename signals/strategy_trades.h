/* A reported genome's trades as the trader statistics read them
 * (fitness/trade_stats.h): each with the quantised outcome its fitness sums
 * (strategy_genome_outcomes), its entry and exit bars' timestamps (seconds)
 * and its exit as one of exit_reason (docs/signals.md "Trader statistics"):
 *   tp -> target; stop, stop_gap -> stop; time, signal -> logged
 * (logged: the strategy's own rule closed it at a bar's price, no level hit).
 * One backtest per genome on the host: for the tens of genomes a run reports. */
#ifndef EVOLVE_SIGNALS_STRATEGY_TRADES_H
#define EVOLVE_SIGNALS_STRATEGY_TRADES_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/trade_stats.h"
#include "signals/strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A strategy's exit reason (SE_*, ATC_SIGNAL) as an exit_reason. */
int32_t strategy_exit_reason(int32_t reason);

/* genes' trades in trade order: *out and *part (each trade's part under
 * strategy_set_split, else 0) malloc'd (free them), *n. An infeasible genome
 * has none. */
ev_status strategy_genome_kept(strategy_t *s, const uint16_t *genes, kept_trade_t **out, int32_t **part, int64_t *n,
                               ev_error *err);

/* genes' statistics over the trades that count (not VAL_HOLDOUT) into
 * counted, and over the holdout's into holdout; either may be NULL. */
ev_status strategy_genome_stats(strategy_t *s, const uint16_t *genes, trade_stats_t *counted, trade_stats_t *holdout,
                                ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
