/* What the sweep tests share (test_sweep: sweeps against plain evaluation;
 * test_ls_sweep: batch sweeps against tables sweeps). */
#ifndef EVOLVE_TESTS_SWEEP_CHECK_H
#define EVOLVE_TESTS_SWEEP_CHECK_H

#include <stdint.h>
#include <string.h>

#include "fitness/accum.h"

/* splitmix64: the tests' genomes. */
static inline uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The same result bit for bit (fitness bits, trades, feasibility). */
static inline int same(eval_result_t a, eval_result_t b)
{
    return memcmp(&a.fitness, &b.fitness, sizeof a.fitness) == 0 && a.trades == b.trades && a.feasible == b.feasible;
}

#endif
