/* The trade-log half of ingest (SPEC sec. 1-2): all_trade_logs.csv -> the
 * kept trades with their price paths (start/end into the market arrays),
 * features, and the drop counts. */
#ifndef EVOLVE_TRADES_INGEST_H
#define EVOLVE_TRADES_INGEST_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/dataset.h"
#include "io/ingest.h"
#include "io/market_ingest.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The open trade log, between its header check and its rows. */
typedef struct trades_log trades_log_t;

/* Opens the trade log and checks its header (required columns, requested
 * features): done before the market files are read, so a wrong column name
 * is reported at once. */
ev_status trades_open(const ingest_opts_t *opts, trades_log_t **out, ev_error *err);
void trades_close(trades_log_t *t);

/* Reads the rows. Needs the market part of ds (prices, ts, ticker ranges)
 * and the market days; fills every trade field of ds, the features, drops,
 * trades_read and trades_other_ticker. *rows: the log's data rows. */
ev_status trades_ingest(trades_log_t *t, const market_files_t *days, dataset_t *ds, int64_t *rows, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
