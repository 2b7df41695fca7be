/* The probability of backtest overfitting (Bailey, Borwein, Lopez de Prado
 * and Zhu, "The Probability of Backtest Overfitting", CSCV) of a search:
 * the in-sample days in time order are cut into S contiguous blocks; for
 * every choice of S/2 blocks as the training set J (all C(S, S/2) of them)
 * the best of M candidate genomes on J is found (its objective over J's
 * trades, exact sums; ties: the earlier candidate), and its relative rank
 * w = r / (M + 1) on the complement, r = 1 + the candidates strictly worse
 * there; lambda = ln(w / (1 - w)); PBO = the share of choices with
 * lambda <= 0 (the in-sample best is at or below the median out of sample). */
#ifndef EVOLVE_PBO_H
#define EVOLVE_PBO_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/problem.h"
#include "fitness/ranked.h"
#include "fitness/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most blocks (combinations of 16: 12,870). */
#define PBO_MAX_BLOCKS 16

/* e[m]: the candidates (genes used); t: tables whose rows are in p->order;
 * block[j]: the block of trade j (dataset order of p->ds), -1: none;
 * s_blocks: even, 2..PBO_MAX_BLOCKS. *pbo: the probability; *combos: the
 * choices counted. The objective is p's without the equity-curve terms
 * (calmar and max_drawdown_pct are not additive over blocks: refused). */
ev_status pbo_cscv(const fit_problem_t *p, const fit_tables_t *t, const ranked_genome_t *e, uint32_t m,
                   const int32_t *block, int32_t s_blocks, double *pbo, uint64_t *combos, ev_error *err);

/* The CSCV itself, from every candidate's exact sums per block
 * a[i * s_blocks + b] (an evaluator without tables: a strategy's
 * backtests), objective o; pbo_cscv's arguments and refusal otherwise. */
ev_status pbo_of_sums(const accum_t *a, uint32_t m, int32_t s_blocks, const objective_prep_t *o, double *pbo,
                      uint64_t *combos, ev_error *err);
/* The refusal of an objective with equity-curve terms. */
ev_status pbo_refuse_dd(ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
