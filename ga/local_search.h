/* The GA's memetic step (docs/ga.md "Local search"): hill-climbing a genome
 * with exact neighbourhood sweeps (ga/ls_sweep.h): of host tables, or batches
 * through a backend's evaluate op. */
#ifndef EVOLVE_LOCAL_SEARCH_H
#define EVOLVE_LOCAL_SEARCH_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/accum.h"
#include "ga/ls_sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pair sweeps over more than this many value pairs are skipped (memory). */
#define LS_PAIR_MAX (1u << 20)

typedef struct {
    uint64_t cost;   /* sweep_cost summed: what the GA's budget counts */
    uint64_t sweeps; /* sweeps run */
    uint64_t moves;  /* strictly better moves taken */
} ls_tally_t;

/* Climbs genes[n_genes] (in place) to a local optimum: repeatedly sweeps
 * every gene (1-gene moves) and takes the best value whenever its rank_key is
 * strictly higher than the current one (a gene that stands at its best given
 * the others, swept or moved since another gene last moved, or moved by the
 * last pair move, is not swept: it cannot move); at depth 2, once no 1-gene move
 * improves, sweeps the pairs of genes (first gene ascending, then second;
 * cyclically from the pair after the climb's last pair move, the first pass
 * from the first pair) and takes the first pair whose best is strictly
 * better, then returns to 1-gene moves (pairs the sweep says are not worth
 * it, i.e. a tables pair that would fall back to plain evaluation, are
 * skipped, as are pairs over LS_PAIR_MAX values). Ends when nothing
 * improves. *r: the genome's result on entry (its fitness), the climbed
 * genome's on return. Deterministic: same genome, same climb. */
ev_status ls_climb(const ls_sweep_t *sw, int32_t n_genes, uint32_t depth, uint16_t *genes, eval_result_t *r,
                   ls_tally_t *tally, ev_error *err);

/* The steepest 1-gene move under sw: sweeps every gene of genes once, sets
 * *r to the genome's own result under sw (read from the first sweep: the
 * genome is one of its values), then takes the value with the highest
 * rank_key over all the sweeps when it is strictly higher (ties: the first
 * gene, then the lowest value). The repair of a genome climbed under other
 * constraints (ga/ls_relax.h). */
ev_status ls_best_move(const ls_sweep_t *sw, int32_t n_genes, uint16_t *genes, eval_result_t *r, ls_tally_t *tally,
                       ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
