/* Validation of reported genomes on days the search did not see (the config's
 * `validation:` block, docs/config.md): a holdout of trading days and day
 * folds of the in-sample days.
 *
 * A trade belongs to the trading day of its entry: day = floor(entry_ts /
 * 86400), entry_ts being wall-clock seconds (SPEC sec. 1). The split assigns
 * every day of the dataset one part: the holdout (VAL_HOLDOUT) or an
 * in-sample fold 0..n_folds-1 (fold 0 when folds are off). The search runs on
 * the in-sample trades only (dataset_subset); each reported genome is then
 * scored per part on the whole dataset's first-hit tables, with the same
 * exact integer sums (accum.h) the search uses, so the in-sample fitness
 * equals the search's bit for bit. */
#ifndef EVOLVE_VALIDATION_H
#define EVOLVE_VALIDATION_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/dsr.h"
#include "fitness/plateau.h"
#include "fitness/dataset.h"
#include "fitness/problem.h"
#include "fitness/ranked.h"
#include "fitness/tables.h"
#include "fitness/trade_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VAL_HOLDOUT (-1)
/* The most folds (folds: K, or the calendar blocks of fold_by). */
#define VAL_MAX_FOLDS 1024

typedef enum { HOLDOUT_NONE = 0, HOLDOUT_SHARE, HOLDOUT_LAST, HOLDOUT_DAYS } holdout_kind;
typedef enum { FOLD_BY_SHUFFLE = 0, FOLD_BY_WEEK, FOLD_BY_MONTH } fold_by_kind;
/* The order of a reported list: the search's fitness, or the plateau mean
 * (higher first; ties keep the fitness order). */
typedef enum { RANK_BY_FITNESS = 0, RANK_BY_PLATEAU } rank_by_kind;

/* The `validation:` block as read (io/config_validation.c). */
typedef struct {
    int32_t enabled;      /* the block is present */
    int32_t holdout;      /* holdout_kind */
    double share;         /* HOLDOUT_SHARE: share of the days, in (0, 1) */
    uint32_t last;        /* HOLDOUT_LAST: the last N days */
    int64_t *days;        /* HOLDOUT_DAYS: day numbers (days since 1970-01-01), owned */
    int32_t n_days;       /* of days */
    uint32_t folds;       /* folds: K (0 or 1: none); with fold_by week|month, ignored */
    int32_t fold_by;      /* fold_by_kind */
    int32_t rank_by;      /* rank_by_kind */
    uint32_t pbo_genomes; /* PBO candidates: the search's best M (grid; 0: no PBO); default 1000 */
    uint32_t pbo_blocks;  /* PBO day blocks S (even, 2..16); default 16 */
    /* walk_forward: {train_days, test_days, step_days} (fitness/walk_forward.h);
     * wf_train 0: none. step_days defaults to test_days. */
    uint32_t wf_train, wf_test, wf_step;
    /* validation.min_trades: the fewest kept trades that make the holdout or a
     * fold feasible in the reported statistics; -1: objective.min_trades. */
    int64_t min_trades;
} validation_cfg_t;

void validation_cfg_free(validation_cfg_t *v);

/* The day of a timestamp: floor(ts / 86400). */
int64_t val_day_of(int64_t ts);

/* The distinct days of ts[n_ts], ascending: *days[*n_days], a new array
 * (free it). val_days: those of ds's trades' entries. */
ev_status val_days_of(const int64_t *ts, int64_t n_ts, int64_t **days, int32_t *n_days, ev_error *err);
ev_status val_days(const dataset_t *ds, int64_t **days, int32_t *n_days, ev_error *err);

/* The parts of a dataset's days. */
typedef struct {
    int32_t n_days;
    int64_t *day;      /* the distinct entry days of the trades, ascending */
    int32_t *part;     /* per day: VAL_HOLDOUT or a fold */
    int32_t n_folds;   /* in-sample folds (1 when folds are off) */
    int32_t has_folds; /* folds were asked for */
    int32_t n_holdout; /* days in the holdout */
} val_split_t;

/* Assigns the days of ds's trades to parts, drawing with seed (holdout
 * share, shuffled folds). Fails when a listed holdout day has no trade, when
 * the holdout would take every day, or when fewer in-sample days than folds
 * are left. */
ev_status val_split_make(val_split_t *s, const validation_cfg_t *cfg, const dataset_t *ds, uint64_t seed,
                         ev_error *err);
/* The same over the days of ts[n_ts] (a strategy's bars); unit completes an
 * unlisted holdout day's message ("no bar of the data falls"). */
ev_status val_split_of(val_split_t *s, const validation_cfg_t *cfg, const int64_t *ts, int64_t n_ts, const char *unit,
                       uint64_t seed, ev_error *err);
void val_split_free(val_split_t *s);

/* The part of the day of timestamp ts (VAL_HOLDOUT for a day not split), and
 * of trade j of ds (its entry's). */
int32_t val_ts_part(const val_split_t *s, int64_t ts);
/* The index in s->day of the day of ts, -1 when not there. */
int32_t val_day_index(const val_split_t *s, int64_t ts);
int32_t val_trade_part(const val_split_t *s, const dataset_t *ds, int64_t j);

/* One genome on one set of trades. */
typedef struct {
    eval_result_t r; /* exact, from accum_finish */
    double value;    /* objective_display(r.fitness) */
    int64_t sum;     /* sum of q (micro-percent): > 0 is a profitable part */
} val_cell_t;

/* One reported genome on every part. */
typedef struct {
    val_cell_t in_sample, out_of_sample;
    eval_result_t search;    /* what the search ranks by: in_sample.r, or the fold statistic (objective.aggregate) */
    val_cell_t *fold;        /* [n_folds], into val_rows_t's storage */
    double worst_fold;       /* the lowest fold value, feasible or not (the tables mark it when a fold is not) */
    double fold_profitable;  /* share of folds with a positive sum */
    plateau_t plateau;       /* the lattice neighbours on the search's own fitness (session_validation_rows) */
    trade_moments_t moments; /* of the in-sample kept trades' outcomes (the deflated Sharpe ratio's inputs) */
    trade_stats_t oos_stats; /* trader statistics on the holdout days (session_validation_rows) */
} val_row_t;

typedef struct {
    uint32_t n;
    int32_t n_folds;
    val_row_t *row;    /* [n] */
    val_cell_t *cells; /* [n * n_folds] */
    double var_sr;     /* variance of the per-trade Sharpe ratio over evaluated genomes (sharpe_variance) */
    uint64_t var_sr_points;
    double pbo;          /* the probability of backtest overfitting (fitness/pbo.h), NaN: not computed */
    uint64_t pbo_combos; /* the CSCV choices it counts */
    uint32_t pbo_genomes, pbo_blocks;
    double trials;      /* the DSR's N for the terminal table, set by the mode once known (0: unknown) */
    int64_t min_trades; /* of the holdout and the folds (validation.min_trades); -1: the objective's */
} val_rows_t;

/* One kept trade of a reported genome: its outcome (micro-percent), log
 * factor (accum.h) and part. */
typedef struct {
    int64_t q, lf;
    int32_t part, pad_;
} val_trade_t;

/* out's storage for n genomes on n_folds folds (val_rows_free); min_trades:
 * the holdout's and the folds' (validation_cfg_t). */
ev_status val_rows_alloc(val_rows_t *out, int32_t n_folds, uint32_t n, int64_t min_trades, ev_error *err);

/* Row i of v from a genome's kept trades tr[m] in the order the search sums
 * them (p: the objective; the holdout and the folds feasible by
 * v->min_trades); ctr: the same trades in the order compound's product takes
 * them (NULL: tr's). The one arithmetic of every row. */
ev_status val_row_fill(val_rows_t *v, uint32_t i, const fit_problem_t *p, const val_trade_t *tr, int64_t m,
                       const val_trade_t *ctr, ev_error *err);

/* Scores e[n] on every part. p/t: the problem and tables of the WHOLE
 * dataset (rows in p->order); trade_part[j]: the part of trade j (dataset
 * order); min_trades as val_rows_alloc's. */
ev_status val_rows_make(val_rows_t *out, const fit_problem_t *p, const fit_tables_t *t, const int32_t *trade_part,
                        int32_t n_folds, const ranked_genome_t *e, uint32_t n, int64_t min_trades, ev_error *err);
void val_rows_free(val_rows_t *v);

/* The objective that judges v's holdout and folds: obj with v's min_trades
 * (validation.min_trades) where set, so their "infeasible" reasons and the
 * footnotes name the rule that applied. */
objective_cfg_t val_part_objective(const objective_cfg_t *obj, const val_rows_t *v);

/* A new dataset holding the trades of src whose keep[j] is set (dataset
 * order kept), with the market prices, features, names and provenance of
 * src copied. */
ev_status dataset_subset(dataset_t *dst, const dataset_t *src, const uint8_t *keep, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
