/* A fold statistic as the search's fitness (objective.aggregate,
 * docs/config.md): the in-sample trades are summed per day fold with the
 * exact integer sums of accum.h, each fold's objective is computed from its
 * sums by accum_finish, and the fitness is their mean, median or minimum.
 * HD functions: the CPU's and the CUDA kernels' tables_eval share them, so
 * both backends give the same bits. */
#ifndef EVOLVE_FOLD_ACCUM_H
#define EVOLVE_FOLD_ACCUM_H

#include <stdint.h>

#include "common/hd.h"
#include "fitness/accum.h"

/* The most folds a search can aggregate (the per-genome sums live in
 * registers / local memory: 16 x 80 bytes). Reports take up to VAL_MAX_FOLDS. */
#define EV_AGG_MAX_FOLDS 16

typedef enum {
    AGG_ALL = 0,     /* the objective over every in-sample trade (no folds in the search) */
    AGG_MEAN_FOLD,   /* mean of the folds' objective values */
    AGG_MEDIAN_FOLD, /* their median (the mean of the two middle ones for an even count) */
    AGG_WORST_FOLD,  /* their minimum */
    AGG_COUNT
} aggregate_kind;

/* The aggregate of n folds' sums a[n] (1 <= n <= EV_AGG_MAX_FOLDS): feasible
 * iff every fold is (each applies min_trades and max_drawdown_pct); trades:
 * all folds' kept trades. For compound the fold values are the exact log
 * sums (the statistic of log growth). A +inf statistic (profit_factor,
 * calmar) becomes the rank value of all folds' sum and trades. */
EV_HD eval_result_t fold_aggregate(const accum_t *a, int32_t n, int32_t agg, const objective_prep_t *o)
{
    double v[EV_AGG_MAX_FOLDS] = {0.0};
    eval_result_t r;
    r.fitness = 0.0;
    r.trades = 0;
    r.feasible = 1;
    r.pad_ = 0;
    int64_t sum = 0;
    for (int32_t f = 0; f < n; f++) {
        eval_result_t x = accum_finish(&a[f], o);
        r.trades += x.trades;
        r.feasible &= x.feasible;
        sum += a[f].sum;
        v[f] = inf_rank_is(x.fitness) ? ev_pos_inf() : x.fitness; /* the statistic of the values */
    }
    if (agg == AGG_WORST_FOLD) {
        r.fitness = v[0];
        for (int32_t f = 1; f < n; f++)
            if (v[f] < r.fitness)
                r.fitness = v[f];
    } else if (agg == AGG_MEDIAN_FOLD) {
        for (int32_t i = 1; i < n; i++) { /* insertion sort: n <= 16 */
            double x = v[i];
            int32_t j = i - 1;
            while (j >= 0 && v[j] > x) {
                v[j + 1] = v[j];
                j--;
            }
            v[j + 1] = x;
        }
        r.fitness = (n & 1) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    } else {
        double s = 0.0;
        for (int32_t f = 0; f < n; f++) /* in fold order: the same bits everywhere */
            s += v[f];
        r.fitness = s / (double)n;
    }
    if (r.fitness == ev_pos_inf()) /* ranked among +inf by all folds' total return, then trades */
        r.fitness = inf_rank_value(sum, r.trades);
    return r;
}

#endif
