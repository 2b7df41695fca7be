/* A strategy config (docs/signals.md "Config"): YAML with
 *
 *   strategy:
 *     type: seller_exhaustion                   # or atc
 *     bars: {csv: FILE, symbol: S}              # or {market_dir: DIR, ticker: T, timeframe: 1m}
 *     costs: {fee_bp: 5, slippage_bp: 5}
 *     pine: {hma_as_sma: false, pine_sticky_a: false, python_cut: false}   # atc only
 *     session: {flat_at_close: false}           # true: no position held overnight
 *   parameters:                                 # docs/signals-spec.md's names, lattices as in docs/config.md
 *     - {name: ema_fast, range: {start: 8, stop: 32, step: 4}}
 *     - {name: vol_z, values: [1.0, 1.5, 2.0]}
 *     - {name: robustness, values: [Narrow, Medium, Wide]}   # atc: names, kept as 0, 1, 2
 *
 * Read by `evolve trades CONFIG` and by the strategy's table entry
 * (signals/se_ops.c) for the GA, grid and validate, whose search keys
 * (objective, ga, top, ...) io/config.c reads. Relative paths are resolved
 * against the config's directory. */
#ifndef EVOLVE_SIGNALS_SE_CONFIG_H
#define EVOLVE_SIGNALS_SE_CONFIG_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/lattice.h"
#include "signals/bars.h"
#include "signals/se_strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SE_LATTICE_PARAMS 10   /* ema_fast .. max_hold: fee_bp and slippage_bp are costs, not genes */
#define STRATEGY_MAX_PARAMS 19 /* the most of any type: atc's ATC_LATTICE_PARAMS */

enum { STRATEGY_SELLER_EXHAUSTION = 0, STRATEGY_ATC = 2 }; /* strategy.type, as listed */

typedef struct {
    int which; /* index into the type's names: se_param_names, atc_param_names */
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
    int type;                                  /* STRATEGY_SELLER_EXHAUSTION or STRATEGY_ATC */
    int32_t pine[3];                           /* atc: hma_as_sma, pine_sticky_a, python_cut */
    int32_t flat_at_close;                     /* session: {flat_at_close} (default 0: held overnight) */
    int32_t n_params;
    se_lattice_param_t params[STRATEGY_MAX_PARAMS];
} se_config_t;

/* 1 when path reads as YAML whose root has a `strategy` key with a type other
 * than trade_log (so a command can say what runs it); 0 otherwise, errors
 * included (the normal loader reports them). */
int se_config_is_strategy(const char *path);

ev_status se_config_load(const char *path, se_config_t *c, ev_error *err);
void se_config_free(se_config_t *c);

ev_status se_config_load_bars(const se_config_t *c, bars_t *b, ev_error *err);

/* docs/signals-spec.md's defaults with the config's costs: the genome before --set. */
void se_config_base(const se_config_t *c, se_params_t *p);

/* A genome against the config: each lattice parameter's value must be on its
 * lattice (the error lists the values), and ema_slow > ema_fast (else the
 * genome is infeasible). EV_EUSAGE otherwise. */
ev_status se_config_check(const se_config_t *c, const se_params_t *p, ev_error *err);

/* What a strategy's entry of the search (signals/strategy.h) holds of its
 * config: the config, its bars, and gene k bound to the lattice's parameter k
 * (io/config.c read the same parameters: list): which[k] is its index in the
 * type's names, values[k] its values as this reader read them (so a gene's
 * value is one text, read once). */
typedef struct {
    se_config_t cfg;
    bars_t bars;
    int32_t n_genes;
    int32_t which[EV_MAX_PARAMS];
    const double *values[EV_MAX_PARAMS];
    double pinned[EV_MAX_PARAMS]; /* se_config_pin: each gene's one value */
} se_config_bound_t;

/* Loads the config at path, binds the lattice's parameters by name and loads
 * the bars; on failure nothing is held. A lattice parameter that is not one
 * of the config's is EV_EINTERNAL. */
ev_status se_config_open_bound(const char *path, const lattice_t *lat, se_config_bound_t *b, ev_error *err);
void se_config_close_bound(se_config_bound_t *b);

/* Pins gene k to point[k] (the config's baseline:, as config_load read it:
 * a number, or for a parameter listed by names its index in that list), so
 * that gene 0 of every parameter means the point, on the lattice or not. A
 * value that breaks its parameter's rule (whole bars) is EV_ECONFIG naming
 * the file and the key baseline.NAME. */
ev_status se_config_pin(se_config_bound_t *b, const double *point, ev_error *err);

/* The lattice half of a check, for any type: get(genome, which) is lattice
 * parameter `which`'s value (an enumeration's index). */
ev_status se_config_check_lattice(const se_config_t *c, double (*get)(const void *genome, int which),
                                  const void *genome, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
