/* The indicator-signal strategies behind one small interface, so the search
 * engine (GA, grid, validate, resume, run file) evaluates any of them the same
 * way: a table of {name, open, prepare a genome, its trade outcomes, ...}.
 * A new strategy is one entry of strategy_table (signals/strategy.c).
 *
 * A genome is one gene per lattice parameter (role strategy); the strategy
 * binds the parameters by name when it opens. Its fitness is the config's
 * objective (SPEC sec. 5: total_return, compound, sharpe, profit_factor,
 * calmar, min_trades, max_drawdown_pct) over its trades, each trade's outcome
 * being its pnl in percent of its entry price (costs included), quantised to
 * micro-percent like a trade-log outcome (fitness/accum.h), within the same
 * bound (+-1e5 %, io/ingest.h: no sum can overflow). A genome whose
 * constraints fail (seller_exhaustion: ema_slow > ema_fast) is infeasible.
 *
 * Indicator series are computed once per distinct (indicator, length) and
 * shared by every genome of a batch (the seeds' "group by unique parameter
 * value"); the store is bounded: past its budget it is emptied between two
 * chunks of a batch, never in the middle of one. */
#ifndef EVOLVE_SIGNALS_STRATEGY_H
#define EVOLVE_SIGNALS_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/baseline.h"
#include "fitness/lattice.h"
#include "fitness/objective_cfg.h"
#include "fitness/ranked.h"
#include "fitness/validation.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A trade as the `trades` op lists it. */
typedef struct {
    double pct;                  /* its outcome in percent, as `outcomes` gives it */
    int64_t entry_bar, exit_bar; /* indices into the bars */
    int32_t reason;              /* the strategy's exit reason (SE_*, ATC_SIGNAL) */
    int32_t pad_;
} strategy_trade_t;

/* One strategy type. `state` is the strategy's own (opaque here). */
typedef struct {
    const char *name; /* strategy.type */
    /* Reads the strategy block of the config at config_path (bars, costs,
     * and any key of its own), loads the bars and binds every lattice
     * parameter by its name; errors name the file, the key and what was
     * expected. The lattice (io/config.c) holds the parameters' value counts
     * and texts; a parameter listed by names (an enumeration) has the values
     * 0, 1, ... there, so a strategy reads its values from its own reader. */
    ev_status (*open)(const char *config_path, const lattice_t *lat, void **state, ev_error *err);
    void (*close)(void *state);
    /* Pins every gene to one value, point[k] for lattice parameter k (the
     * config's baseline: as config_load read it, fitness/baseline.h): gene
     * 0 of each then backtests that point, on the lattice or not. A value
     * that breaks the type's rules (whole bars, docs/signals-spec.md's constraints)
     * is EV_ECONFIG naming the file and the key. */
    ev_status (*pin)(void *state, const double *point, ev_error *err);
    /* Bars read, and a fingerprint of them (a resumed run must see the same). */
    int64_t (*n_bars)(const void *state);
    uint64_t (*fingerprint)(const void *state);
    /* The bars' timestamps [n_bars] (their days split a validation:). */
    const int64_t *(*bar_ts)(const void *state);
    /* The most trades one genome can make, and the scratch bytes one thread
     * needs for `outcomes`. */
    int64_t (*max_trades)(const void *state);
    size_t (*scratch_bytes)(const void *state);
    /* Serial: the genome's constraints (*feasible) and, when they hold, its
     * indicator series made ready (each distinct one computed once). */
    ev_status (*prepare)(void *state, const uint16_t *genes, int *feasible, ev_error *err);
    /* Thread-safe once the genome is prepared: its trades' outcomes in
     * percent, in trade order, into pct[max_trades], and each trade's entry
     * bar (an index into the bars) into bar[max_trades]; returns the count. */
    int64_t (*outcomes)(const void *state, const uint16_t *genes, double *pct, int64_t *bar, void *scratch);
    /* Host only, once the genome is prepared: the same trades whole (outcome,
     * bars, exit reason), into t[max_trades]; returns the count. For the
     * reported genomes (strategy_genome_outcomes), never the search. */
    int64_t (*trades)(const void *state, const uint16_t *genes, strategy_trade_t *t, void *scratch);
    /* Bytes held by cached series; drop them all (between chunks). */
    uint64_t (*cache_bytes)(const void *state);
    void (*cache_clear)(void *state);
    /* Distinct series computed so far (a series computed again after a
     * clear counts again). */
    int64_t (*series_computed)(const void *state);
    /* ---- The device's view (signals/strategy_pack.h, kernels/): which
     * EV_HD backtest the strategy's genomes run (STRATEGY_DEVICE_*), its
     * series as n_slots buffers (slot k: slot_bytes(state, k) bytes), and
     * its materialised parameters (params_bytes bytes). */
    int32_t device_kind;
    int32_t n_slots;
    size_t params_bytes;
    uint64_t (*slot_bytes)(const void *state, int32_t k);
    /* A prepared genome's slots (host addresses in the store: genomes that
     * read the same series get the same address) and parameters; 0 when it
     * was not prepared. */
    int (*device_view)(const void *state, const uint16_t *genes, const void **slots, void *params);
    /* `outcomes` over a view: the series bound from slots (any copy of the
     * store's buffers) and the parameters device_view gave. Thread-safe. */
    int64_t (*view_outcomes)(const void *state, const void *const *slots, const void *params, double *pct, int64_t *bar,
                             void *scratch);
} strategy_ops_t;

/* The EV_HD backtests a device runs (strategy_ops_t.device_kind). */
enum { STRATEGY_DEVICE_SE = 0, STRATEGY_DEVICE_ATC = 1 };

typedef struct strategy strategy_t;

/* The registered strategies, NULL-terminated, and one by name (NULL when none). */
extern const strategy_ops_t *const strategy_table[];
const strategy_ops_t *strategy_find(const char *name);

/* Default budget of the series store: past it the store is emptied between
 * chunks of a batch (docs/signals.md "Memory"). */
#define STRATEGY_CACHE_BUDGET ((uint64_t)1 << 30)

/* Opens strategy `type` on the config at config_path with its lattice and
 * objective. An unknown type names the key and the known ones. */
ev_status strategy_open(const char *type, const char *config_path, const lattice_t *lat, const objective_cfg_t *obj,
                        strategy_t **out, ev_error *err);
void strategy_close(strategy_t *s);

/* strategy_open pinned at the config's baseline point b (every parameter
 * set, as config_load requires for a strategy): a strategy of one genome,
 * genes all 0 (strategy_ops_t.pin). */
ev_status strategy_open_pinned(const char *type, const char *config_path, const lattice_t *lat,
                               const objective_cfg_t *obj, const baseline_point_t *b, strategy_t **out, ev_error *err);

const strategy_ops_t *strategy_ops(const strategy_t *s);
void *strategy_state(strategy_t *s);
/* A smaller budget (tests, benchmarks); 0 keeps nothing between genomes. */
void strategy_set_cache_budget(strategy_t *s, uint64_t bytes);

/* A validation: split of the bars' days (fitness/validation.h): from now on
 * a trade counts by the part of its entry bar's day (val_ts_part): holdout
 * trades are left out of every fitness, and with agg != AGG_ALL the fitness
 * is that fold statistic over split->n_folds folds (fitness/fold_accum.h).
 * The one place that decides which of a strategy's trades count. */
ev_status strategy_set_split(strategy_t *s, const val_split_t *split, int32_t agg, ev_error *err);

/* How a batch's trades become fitness: the objective (prep; cost_pct stays
 * the config's) and the fold statistic (agg) over the split's parts. */
typedef struct {
    const objective_prep_t *prep;
    int32_t agg;
} strategy_score_t;

/* Fitness of n genomes given as SoA genes (gene k of genome i at
 * genes[k * n + i]) by the config's objective and the split's fold
 * statistic; OpenMP across the genomes of a chunk. The result does not
 * depend on the thread count or the budget. */
ev_status strategy_evaluate(strategy_t *s, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err);
/* The same scored by another objective and fold statistic (on the CPU). */
ev_status strategy_evaluate_as(strategy_t *s, const uint16_t *genes, uint64_t n, const strategy_score_t *sc,
                               eval_result_t *out, ev_error *err);

/* A trade's outcome pct (strategy_trade_pct: pnl in percent of the entry
 * price) as the fitness counts it: bounded by ingest's +-1e5 % (bars of any
 * positive prices could give more, and no sum may overflow: io/ingest.h),
 * less cost_pct, in micro-percent (outcome_quantise). */
int64_t strategy_outcome_q(double pct, double cost_pct);

/* One genome's fitness from its trades' outcomes in percent (quantised as
 * fitness/accum.h does): the one definition strategy_evaluate uses. */
eval_result_t strategy_fitness(const double *pct, int64_t n, const objective_cfg_t *cfg, const objective_prep_t *prep);

/* What every evaluator of s (the CPU's, the device's) makes of a genome's
 * trades: outcomes pct[n] entered at bar[n], the holdout's left out, scored
 * by sc (NULL: the config's objective and the split's fold statistic). */
eval_result_t strategy_result(const strategy_t *s, const strategy_score_t *sc, const double *pct, const int64_t *bar,
                              int64_t n);

/* The lattice parameters (genes per genome). */
int32_t strategy_n_params(const strategy_t *s);

/* What runs the backtests of genomes [from, to) of a batch of n (SoA genes),
 * all prepared (feasible[i - from]: genome i's constraints hold), into
 * out[from, to): the CPU's (OpenMP) in strategy_evaluate; a device's in
 * strategy_evaluate_with. */
typedef ev_status (*strategy_chunk_fn)(void *ctx, strategy_t *s, const strategy_score_t *sc, const uint16_t *genes,
                                       uint64_t n, uint64_t from, uint64_t to, const uint8_t *feasible,
                                       eval_result_t *out, ev_error *err);

/* strategy_evaluate with the chunks' backtests run by `chunk` and scored by
 * sc (NULL: as strategy_evaluate): the same preparing, chunking and store
 * budget on the host. */
ev_status strategy_evaluate_with(strategy_t *s, const strategy_score_t *sc, const uint16_t *genes, uint64_t n,
                                 strategy_chunk_fn chunk, void *ctx, eval_result_t *out, ev_error *err);

/* One genome's quantised outcomes (micro-percent, costs subtracted), in
 * trade order, from one host backtest: *q malloc'ed (free it), *n; *feasible
 * 0 when a constraint fails. Each NULL when not wanted, else malloc'ed (free
 * it): part, each trade's part (its entry day's under strategy_set_split,
 * else 0); t, the trades themselves (bars and exits). */
ev_status strategy_genome_outcomes(strategy_t *s, const uint16_t *genes, int64_t **q, int32_t **part,
                                   strategy_trade_t **t, int64_t *n, int *feasible, ev_error *err);

/* The PBO's sums (fitness/pbo.h): candidate i's in-sample trades by the
 * block of their entry bar, bar_block[bar] (-1: none), into
 * a[i * s_blocks + b], scored by the config's objective. */
ev_status strategy_block_sums(strategy_t *s, const ranked_genome_t *e, uint32_t m, const int32_t *bar_block,
                              int32_t s_blocks, accum_t *a, ev_error *err);

/* Thread-count-independent timing split of the last strategy_evaluate calls:
 * seconds preparing (indicators) and seconds in the backtest loops (wall). */
void strategy_timing(const strategy_t *s, double *prepare_s, double *backtest_s);

#ifdef __cplusplus
}
#endif
#endif
