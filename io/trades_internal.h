/* Shared between trades_ingest.c (reading the log) and trades_place.c
 * (drops, price paths, order). Not part of the public API. */
#ifndef EVOLVE_TRADES_INTERNAL_H
#define EVOLVE_TRADES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "fitness/dataset.h"
#include "io/ingest.h"
#include "io/market_ingest.h"

/* bad_value codes besides feature indexes (>= 0). */
#define TRADE_VALUE_NONE (-1)
#define TRADE_VALUE_ENTRY_PRICE (-2)
#define TRADE_VALUE_PCT_CHANGE (-3)

/* One row of a kept ticker, as read (before drops). */
typedef struct {
    int32_t ticker;
    int32_t bad_value; /* first empty/NaN/inf value: a TRADE_VALUE_* or a feature index */
    int64_t trade_id;
    int64_t source_row; /* 1-based line in the log */
    int64_t entry_ts, exit_ts;
    double entry_price, pct_change;
} trade_rec_t;

typedef struct {
    const char *path; /* the trade log, for messages */
    trade_rec_t *rec; /* [n], file order */
    double *feat;     /* [n][n_features], row-major while reading */
    size_t n, cap;
    int32_t n_features;
    char **feature_names; /* [n_features], owned until moved into the dataset */
} trade_list_t;

/* Classifies every read trade (drops in SPEC order: non_finite, then
 * no_market_day, then empty_path), finds the kept trades' paths, orders them
 * by (ticker, entry ts, file order) and fills the trade part of ds. Moves
 * feature_names into ds. */
ev_status trades_place(const ingest_opts_t *opts, const market_files_t *days, trade_list_t *list, dataset_t *ds,
                       ev_error *err);

#endif
