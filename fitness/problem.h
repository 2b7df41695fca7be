/* A fitness problem: a dataset, a lattice bound to it and an objective, plus
 * the trade order of the equity curve. Everything an evaluator needs; owns
 * only `order`. */
#ifndef EVOLVE_PROBLEM_H
#define EVOLVE_PROBLEM_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/dataset.h"
#include "fitness/fold_accum.h"
#include "fitness/lattice.h"
#include "fitness/lattice_shape.h"
#include "fitness/objective_cfg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const dataset_t *ds;
    const lattice_t *lat; /* bound to ds (lattice_bind) */
    objective_cfg_t obj_cfg;
    objective_prep_t obj;
    lattice_shape_t shape;
    /* Trades in entry-time order across tickers (dataset order breaks ties):
     * the order of the additive equity curve (SPEC sec. 5). int64[n_trades]. */
    int64_t *order;
    /* objective.aggregate (fitness/fold_accum.h): the day fold of each trade
     * (dataset order, < n_folds <= EV_AGG_MAX_FOLDS; not owned) and the fold
     * statistic the search ranks by. fold NULL / agg AGG_ALL: the whole. */
    const uint8_t *fold;
    int32_t n_folds;
    int32_t agg;
} fit_problem_t;

ev_status problem_init(fit_problem_t *p, const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj,
                       ev_error *err);
void problem_free(fit_problem_t *p);

#ifdef __cplusplus
}
#endif
#endif
