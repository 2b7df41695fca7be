/* The parity probe's GA part (ga/backend_probe.h): generation 0 evaluated
 * and ranked, one breed step, generation 1, the dedup caches and a round
 * trip, on the run's operators over at most 4 islands of 128. */
#ifndef EVOLVE_BACKEND_PROBE_GA_H
#define EVOLVE_BACKEND_PROBE_GA_H

#include <stdint.h>

#include "ga/probe_diff.h"

#define PROBE_TOP 16u /* top entries a GA evaluation reports */

/* Backends with GA ops only (others: EV_OK at once). A difference is
 * recorded in x->out; an error of the reference or of host memory is
 * returned. */
ev_status probe_ga(probe_t *x, const ga_settings_t *s, uint64_t seed, ev_error *err);

#endif
