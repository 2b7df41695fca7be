/* Ingest (SPEC sec. 2): the trader's market CSVs and trade log -> dataset_t.
 * Streams the CSVs, keeps only the configured tickers and the needed columns. */
#ifndef EVOLVE_INGEST_H
#define EVOLVE_INGEST_H

#include <stdint.h>
#include <stdio.h>

#include "common/status.h"
#include "fitness/dataset.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *market_dir;     /* directory of Raw_Market_data_MM-DD-YYYY.csv */
    const char *trades_path;    /* all_trade_logs.csv */
    const char *const *tickers; /* kept tickers, in id order */
    int32_t n_tickers;
    const char *const *extra_features; /* trade-log columns kept beyond the standard ones */
    int32_t n_extra_features;
    int strict; /* any drop is an error */
    FILE *log;  /* warnings and the summary go here (NULL: silent) */
} ingest_opts_t;

/* Fitness sums outcomes as int64 micro-percent (fitness/accum.h, SPEC sec. 5),
 * and a drawdown spans up to twice the largest sum. With every outcome the log
 * or a price path can give within +-1e5 % (1e11 micro-percent), a cost of at
 * most 100 % (CONFIG_COST_MAX) and at most 4.6e7 trades,
 * 2 * 4.6e7 * (1e11 + 1e8) < 2^63: no sum can overflow. */
#define INGEST_MAX_ABS_PCT 1e5
#define INGEST_MAX_TRADES 46000000

/* The standard feature columns kept when present in the trade log. */
extern const char *const ingest_standard_features[];
extern const int ingest_n_standard_features;

ev_status ingest_build(const ingest_opts_t *opts, dataset_t *out, ev_error *err);

/* The content key of the inputs (market file names and bytes, the trade
 * log's bytes) and the options (tickers, features, strict): the name of the
 * dataset's cache file (io/ingest_key.h). Reads every input. */
ev_status ingest_fingerprint(const ingest_opts_t *opts, uint64_t *fp, ev_error *err);

/* Prints trades kept, drops per reason, prices per ticker. */
void ingest_print_summary(const dataset_t *ds, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
