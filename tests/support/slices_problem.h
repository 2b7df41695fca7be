/* Random problems for the bit-sliced evaluator's exactness tests (test_slices
 * on the CPU, test_cuda_slices on the device): 80-219 trades (several words
 * of 64), some logged results far out (+20,000 % and more: sums of squares
 * past 64 bits; -100 % and below: compound's ruin), every exit role with
 * `off`, any fill, cost and min_trades, a fold statistic a quarter of the
 * time, and a plane budget that holds every combination or only a few (the
 * rest walk). Deterministic for a given rng state. */
#ifndef EVOLVE_TESTS_SLICES_PROBLEM_H
#define EVOLVE_TESTS_SLICES_PROBLEM_H

#include <stdint.h>

#include "fitness/dataset.h"
#include "fitness/lattice.h"
#include "fitness/objective_cfg.h"
#include "fitness/problem.h"
#include "fitness/tables.h"

typedef struct {
    fit_problem_t p;     /* over ds, lat and obj */
    tables_host_t t;     /* p's tables */
    int32_t agg;         /* AGG_ALL or the fold statistic */
    uint8_t *fold;       /* each trade's fold (p's when agg != AGG_ALL) */
    uint64_t budget;     /* bytes of planes: every combination's, or a few kilobytes */
    dataset_t ds;        /* random_dataset's, with extremes a third of the time */
    lattice_t lat;       /* random_lattice_off's */
    objective_cfg_t obj; /* random_objective's, of the kind asked for */
} slices_problem_t;

/* A problem whose objective is kind, with random_objective's drawdown limit
 * when keep_dd (else none: the additive objectives stay additive); exits with
 * status 2 when it cannot be built. */
void slices_problem_draw(slices_problem_t *sp, uint64_t *rng, objective_kind kind, int keep_dd);
void slices_problem_free(slices_problem_t *sp);

#endif
