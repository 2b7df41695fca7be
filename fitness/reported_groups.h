/* A reported list's groupings beyond its own K genomes (docs/ga.md
 * "Strategies", "Basins"): the K best strategies of a larger candidate list
 * (the GA's hall of fame, the grid's pool), with how many candidates each
 * holds, and the basin of every listed genome with the basins' peaks. */
#ifndef EVOLVE_REPORTED_GROUPS_H
#define EVOLVE_REPORTED_GROUPS_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/reported.h"

#ifdef __cplusplus
extern "C" {
#endif

/* r: a grouped list (reported_strategies) whose genomes are the first r->n
 * of cand[n_cand] (best first); pick[n_pick]: the positions in cand of the
 * first genomes of its first strategies (strat_first). Adds the strategies
 * below the list (reported_more, ranked by their position in cand) and sets
 * every strategy's `genomes`: its genomes among the candidates. */
ev_status reported_pool(reported_t *r, const fit_problem_t *p, const fit_tables_t *t, const ranked_genome_t *cand,
                        uint32_t n_cand, const uint32_t *pick, uint32_t n_pick, ev_error *err);

/* The basin (fitness/basin.h) of every genome of r's list, then of
 * r->more's: r->basin, r->more->basin, and r->peaks, each basin's peak as a
 * reported list, in the order their first genome appears. */
ev_status reported_basins(reported_t *r, const fit_problem_t *p, const fit_tables_t *t, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
