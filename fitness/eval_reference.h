/* The reference evaluator: per genome, per trade, per second, exactly the
 * SPEC loop, with the filters compared on the features in double. Slow and
 * obviously right: the oracle every fast path is tested against. */
#ifndef EVOLVE_EVAL_REFERENCE_H
#define EVOLVE_EVAL_REFERENCE_H

#include <stdint.h>

#include "fitness/accum.h"
#include "fitness/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

eval_result_t reference_eval(const fit_problem_t *p, const uint16_t *genes);

/* The outcome in percent of trade j (dataset order) under the genome's exits
 * (target, stop, trail, breakeven, max_hold: SPEC sec. 4 and 4.1; before costs
 * and quantisation), and whether the filters keep it. */
int reference_trade(const fit_problem_t *p, const uint16_t *genes, int64_t j, double *outcome_pct);

#ifdef __cplusplus
}
#endif
#endif
