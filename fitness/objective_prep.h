/* The host side of accum.h: the objective's needs decided once from its
 * config, outcomes quantised to micro-percent and their compound log factors,
 * and the value a trader reads. */
#ifndef EVOLVE_OBJECTIVE_PREP_H
#define EVOLVE_OBJECTIVE_PREP_H

#include <stddef.h>
#include <stdint.h>

#include "fitness/accum.h"
#include "fitness/objective_cfg.h"

#ifdef __cplusplus
extern "C" {
#endif
/* What the objective needs beyond the count and the sum, from its config. */
void objective_prepare(objective_prep_t *p, const objective_cfg_t *cfg);
/* llround((value - cost_pct) * 1e6): an outcome in percent as micro-percent. */
int64_t outcome_quantise(double pct, double cost_pct);
/* llround(log1p(q / 1e8) * 1e12) for q > EV_RUIN_Q, else 0 (counted as ruin). */
int64_t outcome_log_factor(int64_t q);
/* The value a trader reads: for compound (prod(1 + o/100) - 1) * 100 from the
 * log sum (-100 on ruin); +inf for a +inf rank value (inf_rank_value); for
 * every other objective the fitness itself. */
double objective_display(const objective_cfg_t *cfg, double fitness);
/* Why r is infeasible, in a few words ("zero variance" for a sharpe whose
 * kept outcomes are all equal, SPEC sec. 5), or NULL when it is feasible. */
const char *objective_infeasible_why(const objective_cfg_t *cfg, eval_result_t r);
/* What makes a result of this objective infeasible, for a footnote: "fewer
 * than 5 kept trades (min_trades), beyond max_drawdown_pct, or zero variance
 * (every kept outcome equal)", the last two where they apply; below the trades
 * the objective itself needs, "no kept trade" (mean, profit_factor, calmar)
 * or "fewer than 2 kept trades (sharpe)" in place of the first. */
void objective_infeasible_rules(char *buf, size_t n, const objective_cfg_t *cfg);
#ifdef __cplusplus
}
#endif

#endif
