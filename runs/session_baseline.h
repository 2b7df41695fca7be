/* The baselines a run's reported lists are compared with (fitness/baseline.h):
 * each a lattice of one point, built, bound and tabled beside the session's
 * and evaluated with the same exact sums on the same parts (in-sample, and
 * with a validation: block the holdout and each fold). */
#ifndef EVOLVE_SESSION_BASELINE_H
#define EVOLVE_SESSION_BASELINE_H

#include "common/status.h"
#include "fitness/reported.h"
#include "runs/session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* r->base: log, loosest where its result differs from log's, and the
 * config's baseline: where one is given. A strategy config has none (NULL). */
ev_status session_baselines(const session_t *s, reported_t *r, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
