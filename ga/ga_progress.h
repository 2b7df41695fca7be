/* Per-generation numbers for people: gene entropy and the progress line. */
#ifndef EVOLVE_GA_PROGRESS_H
#define EVOLVE_GA_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#include "fitness/objective_cfg.h"
#include "ga/ga_run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Entropy in bits of each gene's values over the population, from the
 * histograms of ga_rank_out_t.gene_counts (exact integers, so every backend
 * gets the same bits). out: [n_genes]. */
void ga_gene_entropy(const uint32_t *counts, const uint32_t *n_values, int32_t n_genes, uint32_t population,
                     double *out);

/* "gen 12/200  best 1.234  mean 0.5  evals 45678 (hits 61.2%)  9.1k/s  ETA 1m20s" */
void ga_progress_line(FILE *out, const ga_gen_stats_t *st, const ga_settings_t *s, const objective_cfg_t *obj);

#ifdef __cplusplus
}
#endif
#endif
