/* The candidates the GA's strategies are taken from (docs/ga.md "The GA's K
 * strategies"): the hall of fame and every other feasible genome of the
 * archived generations, best first (ranked_before), each once, at most
 * GRID_POOL_MAX. The hall of fame alone (8K genomes) may hold fewer than K
 * strategies where the best genomes cluster in a few strategies; the
 * generations hold every genome the GA evaluated in a population. */
#ifndef EVOLVE_GA_CANDIDATES_H
#define EVOLVE_GA_CANDIDATES_H

#include <stdint.h>

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/topk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *out (malloc'd, *n entries) from rf's /ga columns and hof; hof's entries
 * lead it (they are the best unique genomes evaluated). */
ev_status ga_candidates(run_file_t *rf, const topk_t *hof, ranked_genome_t **out, uint32_t *n, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
