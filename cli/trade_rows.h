/* The rows evolve trades lists for a trade log (a run's genome, or a
 * config's own settings): one per kept trade, in equity order, with its exit,
 * outcome, cumulative result and part, as a terminal table or CSV. */
#ifndef EVOLVE_TRADE_ROWS_H
#define EVOLVE_TRADE_ROWS_H

#include <stdint.h>
#include <stdio.h>

#include "common/status.h"
#include "fitness/dataset.h"
#include "fitness/trade_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TRADE_ROWS_CSV_HEADER \
    "n,ticker,trade_id,entry_time,entry_price,exit_time,exit_reason,outcome_pct,cumulative_pct,part\n"

typedef struct {
    const dataset_t *ds;
    const kept_trade_t *k; /* [n] */
    int64_t n;
    const int32_t *part; /* [n]: VAL_HOLDOUT or an in-sample fold */
} trade_rows_t;

/* The rows as CSV (csv) or a terminal table, header first. */
void trade_rows_print(FILE *f, const trade_rows_t *rows, int csv);

/* The rows as CSV in path, written under a temporary name and renamed. */
ev_status trade_rows_write_csv(const char *path, const trade_rows_t *rows, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
