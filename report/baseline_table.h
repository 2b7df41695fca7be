/* The baselines under the top-K table (fitness/baseline.h): one row each,
 * its parameters (- where it does not apply), fitness, trades, win rate and
 * max drawdown (in-sample with a validation: block, then the holdout's
 * fitness and trades), and rank 1's difference to it in those four. */
#ifndef EVOLVE_BASELINE_TABLE_H
#define EVOLVE_BASELINE_TABLE_H

#include <stdio.h>

#include "fitness/reported.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A baseline point's value of lat's parameter k as text: "-" where it does
 * not apply, a named parameter's name (atc's robustness), else the number. */
void baseline_param_text(char *buf, size_t n, const lattice_t *lat, const baseline_point_t *p, int32_t k);

/* Nothing when top has no baselines. */
void baseline_table_print(FILE *out, const config_t *cfg, const reported_t *top);

/* A walk-forward's baselines on each test window (runs/mode_walk.c): a row
 * per window, names[n_base] columns of value and trades, window w's j-th at
 * w * n_base + j, `*` marking an infeasible one. Nothing when n_base is 0. */
void baseline_window_table_print(FILE *out, const char *const *names, size_t n_base, size_t n_windows,
                                 const double *value, const eval_result_t *r);

#ifdef __cplusplus
}
#endif
#endif
