/* The search-quality protocol on a planted landscape, shared by
 * test_ga_quality (which checks it) and bench_ga --quality (which measures
 * it): one set of GA settings, and an observer that notes when the hall of
 * fame first holds the grid's best fitness. */
#ifndef EVOLVE_TESTS_GA_QUALITY_H
#define EVOLVE_TESTS_GA_QUALITY_H

#include <stdint.h>

#include "ga/ga_run.h"

typedef struct {
    uint64_t target_key;   /* rank_key of the grid's best */
    uint64_t evals_at_hit; /* unique evaluations when it was first reached; 0: never */
} quality_watch_t;

/* Population 256 in 4 islands, up to 1000 generations, a 60-generation stall
 * limit; the caller sets the evaluation budget (max_evaluations). */
void quality_settings(ga_settings_t *s);

/* An observer that fills w (reset here) for a run searching for target_key. */
void quality_watch(ga_observer_t *obs, quality_watch_t *w, uint64_t target_key);

#endif
