/* A deceptive landscape with a known optimum and a strong local optimum,
 * both known by construction (tests of local search and restarts, bench_ga).
 *
 * Filters only (direction min, values 0..n_values-1, features integers), one
 * flat ticker, so every trade's outcome is its logged result:
 *  - easy filters e (n_easy): a unimodal gene with its optimum p_e: trades
 *    at features 0..p_e-1 lose 1 % each (a tighter filter drops them), one at
 *    p_e gains 50 % (a filter above p_e drops it);
 *  - trap filters (n_trap = 3): a gene is "tight" at n_values-1, "loose"
 *    anywhere else; with t tight genes the trap adds F(t) = 12, 0, 14, 30 %
 *    (t = 0..3), built from one trade per subset of the trap genes (Moebius
 *    inversion of F). All loose (a plateau of (n-1)^3 genomes) is a strict
 *    local optimum under 1-gene moves, 18 % below the optimum (all tight);
 *    every 1-gene move away from it loses.
 * Every other feature of a trade is n_values-1, which every value keeps. */
#ifndef EVOLVE_TESTS_DECEPTIVE_H
#define EVOLVE_TESTS_DECEPTIVE_H

#include <stdint.h>

#include "fitness/dataset.h"
#include "fitness/lattice.h"

#define DECEPTIVE_TRAP 3

typedef struct {
    int32_t n_easy;    /* 0..EV_MAX_PARAMS - 3 */
    uint32_t n_values; /* >= 4 */
} deceptive_opts_t;

/* Builds the dataset and bound lattice (easy filters e0.., then trap filters
 * t0..t2); optimum/local[n_easy + 3] get the optimum and one genome of the
 * local optimum's plateau (trap genes 0); best_pct and local_pct their total
 * returns. Aborts on failure. */
void deceptive_build(const deceptive_opts_t *o, dataset_t *ds, lattice_t *lat, uint16_t *optimum, uint16_t *local,
                     double *best_pct, double *local_pct);

#endif
