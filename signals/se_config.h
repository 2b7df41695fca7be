/* A strategy config (docs/signals.md "Config"): YAML with
 *
 *   strategy:
 *     type: seller_exhaustion
 *     bars: {csv: FILE, symbol: S}              # or {market_dir: DIR, ticker: T, timeframe: 1m}
 *     costs: {fee_bp: 5, slippage_bp: 5}
 *   parameters:                                 # SIGNALS.md's names, lattices as in docs/config.md
 *     - {name: ema_fast, range: {start: 8, stop: 32, step: 4}}
 *     - {name: vol_z, values: [1.0, 1.5, 2.0]}
 *
 * Read by `evolve trades CONFIG` and by the strategy's table entry
 * (signals/se_ops.c) for the GA, grid and validate, whose search keys
 * (objective, ga, top, ...) io/config.c reads. Relative paths are resolved
 * against the config's directory. */
#ifndef EVOLVE_SIGNALS_SE_CONFIG_H
#define EVOLVE_SIGNALS_SE_CONFIG_H

#include <stdint.h>

#include "common/status.h"
#include "signals/bars.h"
#include "signals/se_strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SE_LATTICE_PARAMS 10 /* ema_fast .. max_hold: fee_bp and slippage_bp are costs, not genes */

typedef struct {
    int which; /* index into se_param_names */
    uint32_t n_values;
    double *values;    /* strictly increasing */
    char **value_text; /* as typed or written out from a range */
} se_lattice_param_t;

typedef struct {
    char *path;
    char *bars_csv, *symbol;                   /* bars: {csv, symbol} */
    char *market_dir, *ticker, *timeframe_txt; /* or bars: {market_dir, ticker, timeframe} */
    int32_t timeframe;                         /* seconds */
    double fee_bp, slippage_bp;                /* costs (default 5 and 5) */
    int32_t n_params;
    se_lattice_param_t params[SE_LATTICE_PARAMS];
} se_config_t;

/* 1 when path reads as YAML whose root has a `strategy` key with a type other
 * than trade_log (so a command can say what runs it); 0 otherwise, errors
 * included (the normal loader reports them). */
int se_config_is_strategy(const char *path);

ev_status se_config_load(const char *path, se_config_t *c, ev_error *err);
void se_config_free(se_config_t *c);

ev_status se_config_load_bars(const se_config_t *c, bars_t *b, ev_error *err);

/* SIGNALS.md's defaults with the config's costs: the genome before --set. */
void se_config_base(const se_config_t *c, se_params_t *p);

/* A genome against the config: each lattice parameter's value must be on its
 * lattice (the error lists the values), and ema_slow > ema_fast (else the
 * genome is infeasible). EV_EUSAGE otherwise. */
ev_status se_config_check(const se_config_t *c, const se_params_t *p, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
