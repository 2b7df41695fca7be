/* evolve trades' outputs: the trades file and the metrics file of every genome, whole or not at all. */
#ifndef EVOLVE_TRADES_WRITE_H
#define EVOLVE_TRADES_WRITE_H

#include <stdint.h>

#include "common/status.h"
#include "runs/trades_kinds.h"
#include "signals/bars.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Backtests the genomes gs[n_gs] of strategy k on b and writes every trade
 * to csv (and each genome's metrics row to metrics, NULL: none) under
 * temporary names, renamed into place when complete; cost_pct: the config's
 * objective.cost_pct, taken from each outcome_pct. *total: the trades;
 * *store_out: the indicator store made (k->store_free it, also on failure). */
ev_status trades_write_all(const trades_kind_t *k, const bars_t *b, double cost_pct, const char *csv,
                           const char *metrics, const char *gs, int64_t n_gs, int64_t *total, void **store_out,
                           ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
