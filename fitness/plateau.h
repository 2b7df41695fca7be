/* The plateau score of a genome (docs/config.md `validation`): the search's
 * own fitness of its lattice neighbours, each parameter one step down and one
 * step up (those inside the lattice), so a lone spike is told from a broad
 * plateau of equal peak. Exact: tables_eval on the search's tables. */
#ifndef EVOLVE_PLATEAU_H
#define EVOLVE_PLATEAU_H

#include <stdint.h>

#include "fitness/problem.h"
#include "fitness/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double mean;      /* mean displayed fitness of the feasible neighbours (-inf: none feasible) */
    double worst;     /* the lowest neighbour value, an infeasible neighbour as -inf */
    int32_t n;        /* neighbours inside the lattice (<= 2 x parameters) */
    int32_t feasible; /* of them, feasible */
} plateau_t;

void plateau_score(const fit_problem_t *p, const fit_tables_t *t, const uint16_t *genes, plateau_t *out);

/* Its parts, for an evaluator without tables (a strategy's backtests): the
 * neighbours of genes in parameter order, down then up, into nb (at most
 * PLATEAU_MAX; returns their count), and the score of their results r[n]. */
#define PLATEAU_MAX (2 * EV_MAX_PARAMS)
int32_t plateau_neighbours(const lattice_t *lat, const uint16_t *genes, uint16_t (*nb)[EV_MAX_PARAMS]);
void plateau_of(const fit_problem_t *p, const eval_result_t *r, int32_t n, plateau_t *out);

#ifdef __cplusplus
}
#endif
#endif
