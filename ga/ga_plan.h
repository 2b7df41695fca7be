/* The host decisions of a GA run that a backend only executes: the plan
 * handed to ga_open (operators, seed, first genome, cache capacity) and each
 * generation's island plans (elites, migrants, immigrants). */
#ifndef EVOLVE_GA_PLAN_H
#define EVOLVE_GA_PLAN_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/problem.h"
#include "ga/backend.h"
#include "operators/ga_settings.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checks the settings against the lattice and fills the plan; evaluate/_b
 * are left NULL for the caller. top: the hall of fame's size (>= 1). */
ev_status ga_plan_build(ga_plan_t *plan, const fit_problem_t *p, const ga_settings_t *s, uint64_t seed, uint32_t top,
                        ev_error *err);

/* The "no filter" genome (SPEC sec. 3): every filter at its loosest value,
 * index 0 for direction min and n - 1 for max; first[k] = -1 (random) for the
 * target and stop. first: [n_params]. */
void ga_first_genome(const lattice_t *lat, int32_t *first);

/* How each island makes generation `generation` (>= 1) from the ranked
 * previous one (breed_island_t): elites = max(1, ceil(elitism x size));
 * in a migration generation (islands > 1, migration_every > 0 and
 * generation % migration_every == 0) the best migration_count of island i
 * arrive in island i + 1 (ring); an island whose distinct genomes fell below
 * immigrant_diversity x size gets ceil(immigrant_share x size) random
 * immigrants. Elites come first, then migrants, then immigrants, within the
 * island's size. island_unique: [islands], from ga_rank. out: [islands]. */
void ga_plan_islands(const ga_plan_t *plan, const ga_settings_t *s, uint32_t generation, const uint32_t *island_unique,
                     breed_island_t *out);

#ifdef __cplusplus
}
#endif
#endif
