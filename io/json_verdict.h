/* The --json summary's "verdict" (fitness/verdict.h): {"headline",
 * "dsr", "dsr_z", "dsr_reading", "pbo", "pbo_reading", "trials",
 * "parts": [{"part": "in sample" | "holdout" | "fold F" | "window W",
 * "rank1": {"fitness", "trades", "feasible"}, "baselines": {NAME:
 * {"fitness", "trades", "feasible", "difference"}}}]}; NaN as null,
 * infinities as "inf" / "-inf" like the rest of the summary. */
#ifndef EVOLVE_JSON_VERDICT_H
#define EVOLVE_JSON_VERDICT_H

#include "fitness/verdict.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A new cJSON object (NULL: out of memory). */
void *json_verdict(const verdict_t *v);

#ifdef __cplusplus
}
#endif
#endif
