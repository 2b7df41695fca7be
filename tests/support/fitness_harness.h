/* Runs every evaluator on one problem and checks they agree exactly. */
#ifndef EVOLVE_TESTS_FITNESS_HARNESS_H
#define EVOLVE_TESTS_FITNESS_HARNESS_H

#include "fitness/dataset.h"
#include "fitness/lattice.h"
#include "fitness/objective_cfg.h"
#include "fitness/topk.h"

/* Evaluates every lattice point with the reference and the tables evaluator
 * (all must agree bit for bit, counted in *mismatches), and the full ranking
 * with grid batches of 1, 7 and the whole lattice, and with dominance sums
 * where the objective allows; every ranking must be identical. Returns the
 * full ranking (k = lattice size) in `ranking` (caller frees). */
void harness_check_all(const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj, topk_t *ranking,
                       int *mismatches);

/* The fitness of one genome (reference evaluator) after checking that the
 * tables evaluator agrees. */
eval_result_t harness_eval(const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj, const uint16_t *genes,
                           int *mismatches);

void harness_objective(objective_cfg_t *obj, objective_kind kind);

#endif
