/* `evolve trades CONFIG` for a trade-log config: the kept trades of one
 * point of the config's parameters (the trader's own settings: --set values,
 * or the config's baseline:) over the config's whole dataset, each with its
 * exit and part (in-sample fold, or VAL_HOLDOUT from the config's split):
 * what `evolve trades RUN.h5 --rank N` lists for a run's genome. */
#ifndef EVOLVE_TRADES_LOG_H
#define EVOLVE_TRADES_LOG_H

#include <stdint.h>
#include <stdio.h>

#include "common/status.h"
#include "fitness/baseline.h"
#include "fitness/tables.h"
#include "fitness/trade_stats.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    dataset_t ds; /* the whole dataset */
    lattice_t lat;
    fit_problem_t p;
    tables_host_t tables;
    kept_trade_t *k; /* [n], equity order */
    int64_t n;
    int32_t *part; /* [n]: VAL_HOLDOUT, else the in-sample fold (0 without folds) */
    int has_holdout;
} trades_log_t;

/* Parses "NAME=VALUE" into pt: NAME a parameter of cfg's lattice, VALUE a
 * number its role allows (as in baseline:); errors name the option. */
ev_status trades_log_set(baseline_point_t *pt, const config_t *cfg, const char *set, ev_error *err);

/* The trades of pt on cfg's dataset (obtained as a run would: cached or
 * ingested, notes on log). A parameter pt does not set does not apply. */
ev_status trades_log_load(trades_log_t *t, config_t *cfg, const baseline_point_t *pt, FILE *log, ev_error *err);
void trades_log_free(trades_log_t *t);

#ifdef __cplusplus
}
#endif
#endif
