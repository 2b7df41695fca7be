/* session_open for a strategy config (config_t.strategy_type): the bars and
 * the strategy instead of a dataset and first-hit tables, the strategy
 * backend (runs/backend_strategy.h) instead of a registered one, and the
 * reported values from the genomes' own trades. */
#ifndef EVOLVE_SESSION_STRATEGY_H
#define EVOLVE_SESSION_STRATEGY_H

#include "runs/session.h"

#ifdef __cplusplus
extern "C" {
#endif

ev_status session_strategy_open(session_t *s, const session_opts_t *opts, ev_error *err);
void session_strategy_close(session_t *s);

/* One line on log: series computed and held, the time in indicators against
 * the backtest loops, and the scratch memory per thread (bench/RESULTS.md). */
void session_strategy_note(const session_t *s, const run_reporter_t *rep);

/* reported_t for e[n]: objective_display of each fitness, and for compound
 * (prod(1 + o/100) - 1) * 100 over the genome's trades, as reported_make does
 * over kept trades; each genome's trader statistics over the trades that
 * count (signals/strategy_trades.h). */
ev_status session_strategy_reported(const session_t *s, const ranked_genome_t *e, uint32_t n, reported_t *r,
                                    ev_error *err);
/* Only those values, into value[n], over the trades that count now
 * (strategy_set_split). */
ev_status session_strategy_values(const session_t *s, const ranked_genome_t *e, uint32_t n, double *value,
                                  ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
