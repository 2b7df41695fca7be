/* What a trader compares strategies by (vectorbt's stats()), for one genome:
 * its kept trades, each with the exit it took, and statistics over them.
 *
 * Outcomes are the quantised ones the fitness sums (SPEC sec. 5: q micro-
 * percent, after costs), read off the first-hit tables, which give SPEC
 * sec. 4's outcomes bit for bit. Nothing is annualised: every figure is per
 * trade or over the trades (docs/config.md "Trader statistics"). */
#ifndef EVOLVE_TRADE_STATS_H
#define EVOLVE_TRADE_STATS_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/problem.h"
#include "fitness/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* tables_first_exit's codes; the last three are SPEC sec. 4.1's exits. */
typedef enum {
    EXIT_LOGGED = 0,
    EXIT_TARGET = 1,
    EXIT_STOP = 2,
    EXIT_BREAKEVEN = 3,
    EXIT_TRAIL = 4,
    EXIT_TIME = 5,
    EXIT_REASONS = 6
} exit_reason;

/* "logged", "target", "stop", "breakeven", "trail", "time". */
const char *exit_reason_name(int32_t reason);

/* One kept trade: what the statistics read, a trade log's or a strategy's
 * (signals/strategy_trades.h). */
typedef struct {
    int64_t trade;    /* dataset index (a strategy's: the trade's number) */
    int64_t q;        /* outcome, micro-percent, after costs */
    int64_t entry_ts; /* the entry second */
    int64_t exit_ts;  /* the hit second (target, stop), else the log's exit time */
    int32_t reason;   /* exit_reason */
    int32_t pad_;
} kept_trade_t;

/* The trades genes keeps on p (t: p's tables), in equity order (p->order);
 * *out is malloc'd (free it), *n its length. */
ev_status kept_trades(const fit_problem_t *p, const fit_tables_t *t, const uint16_t *genes, kept_trade_t **out,
                      int64_t *n, ev_error *err);

typedef struct {
    int64_t trades, wins, losses; /* wins: q > 0, losses: q < 0 */
    int64_t exits[EXIT_REASONS];  /* by exit_reason */
    double total_return;          /* sum of outcomes, percent */
    double win_rate;              /* wins / trades */
    double profit_factor;         /* sum of wins / |sum of losses|; no losses: +inf (NaN without wins) */
    double expectancy;            /* mean outcome, percent per trade */
    double max_drawdown;          /* percent points, on the additive equity curve from 0 (SPEC sec. 5) */
    double sharpe;                /* mean / sample sd per trade (0: < 2 trades or sd 0, as trade_moments) */
    double sortino;               /* mean / sqrt(mean of min(o, 0)^2); no loss: +inf (NaN when mean <= 0) */
    double avg_hold_s;            /* mean of exit time - entry time, seconds */
    double best, worst;           /* the best and worst outcome, percent */
    int32_t more_exits;           /* 1: the lattice has SPEC sec. 4.1's exits, so their counts are shown */
    int32_t pad_;
} trade_stats_t;

/* Statistics of k[n] (equity order); NaN where undefined (no trade). */
ev_status trade_stats_of(const kept_trade_t *k, int64_t n, trade_stats_t *s, ev_error *err);

/* The statistics by name, for the JSON, the run file and the report. */
typedef struct {
    const char *name; /* JSON key and run-file dataset name */
    int is_count;     /* a whole number (int64 in the run file) */
    int more_exit;    /* a count of SPEC sec. 4.1's exits: shown where trade_stats_t.more_exits */
} trade_stat_field_t;

#define TRADE_STAT_FIELDS 19
extern const trade_stat_field_t trade_stat_fields[TRADE_STAT_FIELDS];

/* Field f of s (counts exactly: they are far below 2^53). */
double trade_stat_get(const trade_stats_t *s, int f);
/* Whether field f belongs in s's output (the exits of sec. 4.1 only where the
 * lattice has them, so runs without them write what they always wrote). */
int trade_stat_shown(const trade_stats_t *s, int f);
void trade_stat_set(trade_stats_t *s, int f, double v);

#ifdef __cplusplus
}
#endif
#endif
