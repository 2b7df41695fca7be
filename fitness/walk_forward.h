/* Walk-forward (docs/config.md `validation.walk_forward`): the trading days
 * of the data cut into windows of train_days followed by test_days, each
 * window step_days after the last; the search re-optimises on each train
 * window, its winner is scored on the test window that follows, and the
 * test windows chain into one out-of-sample result. */
#ifndef EVOLVE_WALK_FORWARD_H
#define EVOLVE_WALK_FORWARD_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/baseline.h"
#include "fitness/ranked.h"
#include "fitness/trade_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One window: [begin, end) indices into the ascending trading days. */
typedef struct {
    int32_t train_begin, train_end, test_begin, test_end;
} wf_window_t;

/* Window w trains on days [w*step, w*step + train) and tests on the next
 * `test` days; windows stop where a test window would pass the last day.
 * Fails (EV_ECONFIG) when not even one window fits n_days. */
ev_status wf_windows(int32_t n_days, uint32_t train, uint32_t test, uint32_t step, wf_window_t **out, int32_t *n,
                     ev_error *err);

/* A walk-forward's outcome, one row per window. */
typedef struct {
    uint32_t train_days, test_days, step_days;
    int32_t n_days;
    int64_t *days; /* [n_days] the trading days (days since 1970-01-01), ascending */
    int32_t n;
    wf_window_t *win;
    ranked_genome_t *winner;          /* [n] the search's top-1 on the train days (its r: there) */
    ranked_genome_t *test;            /* [n] the same genomes scored on the test days */
    double *train_value, *test_value; /* [n] as reported (fitness/reported.h) */
    trade_stats_t *test_stats;        /* [n] on the test days */
    eval_result_t chained;            /* every test window's kept trades under its winner, in order */
    double chained_value;
    trade_stats_t chained_stats;
    uint64_t evaluated; /* genomes the searches evaluated, summed over the windows */
    /* The baselines (fitness/baseline.h) on each test window: n_base kinds
     * base_kind[], set before wf_result_alloc (0: none); window w's j-th at
     * w * n_base + j. */
    int32_t n_base;
    int32_t base_kind[BASELINE_KINDS];
    eval_result_t *base; /* feasible as a test window is (validation.min_trades) */
    double *base_value;  /* as reported */
    /* Baseline j over the chained test windows (as the winners' chain). */
    eval_result_t base_chained[BASELINE_KINDS];
    double base_chained_value[BASELINE_KINDS];
} wf_result_t;

/* The arrays for n windows and r->n_base baselines (zeroed); wf_result_free. */
ev_status wf_result_alloc(wf_result_t *r, int32_t n, ev_error *err);
void wf_result_free(wf_result_t *r);

#ifdef __cplusplus
}
#endif
#endif
