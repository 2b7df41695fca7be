/* The K best strategies of a grid (docs/ga.md "Strategies"): the pass keeps
 * more candidates than the top-K, and reruns with more until they hold K
 * strategies or every feasible genome, so the list is exact. */
#ifndef EVOLVE_GRID_POOL_H
#define EVOLVE_GRID_POOL_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/tables.h"
#include "ga/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRID_POOL_FACTOR 8u   /* candidates per reported genome in the first pass */
#define GRID_POOL_MAX 100000u /* the most candidates a pass keeps */

/* Whether to rerun, as every rank must agree (dist_first_says), or NULL
 * (one process: the pool's own answer). */
typedef int (*grid_pool_decide_fn)(int yes);

/* A whole-lattice pass: grid_run or dist_grid_run. */
typedef ev_status (*grid_run_fn)(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p,
                                 const grid_opts_t *opts, topk_t *top, grid_stats_t *stats, ev_error *err);

/* The candidates a grid keeps to report k strategies. */
uint32_t grid_pool_size(uint32_t k);

/* top's list: the first top->k entries of pool. */
void grid_pool_head(topk_t *top, const topk_t *pool);

/* The size a chain of reruns from k candidates ends at (GRID_POOL_MAX, or k
 * when larger): grid_pool_size until it stops growing. */
uint32_t grid_pool_last(uint32_t k);

/* pool: a pass's best genomes. While it is full, holds fewer than k
 * strategies and may grow (GRID_POOL_MAX), the grid is rerun (opts without
 * heatmap or progress) with GRID_POOL_FACTOR times the candidates; a second
 * rerun goes to grid_pool_last at once and the pool is cut where the chain of
 * growths would have stopped (a shorter pass's pool is the longer one's
 * head), so at most two reruns give the list the chain would.
 * Then *ranked (a new array, to free) is the pool best first, and
 * pick[*n_pick] (pick: k entries) the positions of the first genomes of its
 * first k strategies: the k best strategies of the lattice, unless the pool
 * stopped at GRID_POOL_MAX. decide: see grid_pool_decide_fn (under MPI
 * only rank 0 holds the whole pool; a follower reruns with the same sizes). */
ev_status grid_pool_strategies(grid_run_fn run, grid_pool_decide_fn decide, const backend_ops_t *ops, backend_t *b,
                               const fit_problem_t *p, const fit_tables_t *t, const grid_opts_t *opts, uint32_t k,
                               topk_t *pool, ranked_genome_t **ranked, uint32_t *pick, uint32_t *n_pick, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
