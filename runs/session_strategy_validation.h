/* A strategy's validation: block (docs/signals.md "Validation"): the days
 * of its bars split as a trade log's days are (fitness/validation.h), the
 * backtest kept on every bar, its trades counted by their entry bar's day
 * (strategy_set_split), and every reported genome scored per part with the
 * rows' one arithmetic (val_row_fill). */
#ifndef EVOLVE_SESSION_STRATEGY_VALIDATION_H
#define EVOLVE_SESSION_STRATEGY_VALIDATION_H

#include <stdio.h>

#include "runs/session.h"
#include "common/status.h"
#include "fitness/reported.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Without a validation: block, objective.aggregate is refused as for trade
 * logs. */
ev_status strategy_validation_refuse(const session_t *s, ev_error *err);

/* After the strategy is open: splits the bars' days with the config's seed,
 * narrows the strategy's fitness to them and estimates the Sharpe ratio's
 * variance over the lattice (not for a walk-forward: NaN). opts->log: a line
 * on the split, or NULL. */
ev_status strategy_validation_open(session_t *s, const session_opts_t *opts, ev_error *err);

/* strategy_set_split on the session's strategy and its baseline's
 * (s->base_strategy): their trades always count on the same days. */
ev_status session_strategy_split(session_t *s, const val_split_t *split, int32_t agg, ev_error *err);

/* Scores r's genomes per part, with plateau, into r->val. */
ev_status strategy_validation_rows(const session_t *s, reported_t *r, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
