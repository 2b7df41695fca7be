/* What a genome's fitness means (SPEC sec. 4-5): the objective, the fill
 * model, costs and constraints. A POD copied to the device as is. */
#ifndef EVOLVE_OBJECTIVE_CFG_H
#define EVOLVE_OBJECTIVE_CFG_H

#include <stdint.h>

#include "common/hd.h"

typedef enum {
    OBJ_TOTAL_RETURN = 0, /* sum of outcomes, percent */
    OBJ_MEAN,             /* sum / n */
    OBJ_SHARPE,           /* mean / sample standard deviation (n >= 2) */
    OBJ_PROFIT_FACTOR,    /* gains / |losses| (+inf without losses) */
    OBJ_COMPOUND,         /* (prod(1 + o/100) - 1) * 100 */
    OBJ_CALMAR,           /* sum / max drawdown of the additive equity curve */
    OBJ_COUNT
} objective_kind;

typedef enum {
    FILL_LEVEL = 0, /* a hit is filled at the target/stop level: outcome = t or s */
    FILL_PRICE      /* a hit is filled at the price of that second: (p/e - 1) * 100 */
} fill_mode;

typedef struct {
    int32_t kind;             /* objective_kind */
    int32_t fill;             /* fill_mode */
    double cost_pct;          /* round-trip cost subtracted from every kept outcome, percent */
    int64_t min_trades;       /* fewer kept trades: infeasible */
    int32_t has_max_drawdown; /* 1: max_drawdown_pct is a constraint */
    int32_t aggregate; /* aggregate_kind (fitness/fold_accum.h): AGG_ALL, or a fold statistic (validation.folds) */
    double max_drawdown_pct; /* drawdown of the additive equity curve above this: infeasible */
} objective_cfg_t;
EV_STATIC_ASSERT(sizeof(objective_cfg_t) == 40, "objective_cfg_t layout is shared with CUDA");

#ifdef __cplusplus
extern "C" {
#endif
/* "total_return", "mean", ... and back; objective_from_name returns -1 when unknown. */
const char *objective_name(objective_kind k);
int objective_from_name(const char *name);
#ifdef __cplusplus
}
#endif

#endif
