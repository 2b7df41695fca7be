/* Basins (docs/ga.md "Basins"): genomes joined by improving 1-gene moves. A
 * move sets one gene to any other value of its lattice; a climb step takes,
 * of all moves, the one whose genome ranks first (higher rank_key, then the
 * lower linear index: rank_before), when it ranks before the current genome,
 * and the climb stops where none does. A genome's basin is the local optimum
 * its climb reaches (its peak): deterministic, ties broken by the index. */
#ifndef EVOLVE_BASIN_H
#define EVOLVE_BASIN_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/lattice_shape.h"
#include "fitness/ranked.h"
#include "fitness/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The peak of genes' basin: its genes peak[], linear index *index and result
 * *r; *steps: the moves the climb made. */
ev_status basin_climb(const fit_tables_t *t, const lattice_shape_t *shape, const uint16_t *genes, uint16_t *peak,
                      uint64_t *index, eval_result_t *r, uint32_t *steps, ev_error *err);

/* The basins of e[n] (a ranked list, best first): best[*n_basins] are the
 * positions of each basin's best genome in the list (its first), in list
 * order. */
ev_status basin_group(const fit_tables_t *t, const lattice_shape_t *shape, const ranked_genome_t *e, uint32_t n,
                      uint32_t *best, uint32_t *n_basins, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
