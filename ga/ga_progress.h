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

/* Where the progress goes and how often: on a terminal one line rewritten in
 * place ('\r') every generation; elsewhere (a log, a pipe) a line for the
 * first generation, then every GA_PROGRESS_EVERY generations or 10 s, and
 * the last one of a run capped by generations. */
#define GA_PROGRESS_EVERY 10
typedef struct {
    FILE *out; /* NULL: quiet */
    int tty;
    int open;       /* a rewritten line waits for its newline */
    double last_s;  /* the wall time of the last line printed */
    uint32_t first; /* the first generation of this process (a resumed run's) */
} ga_progress_t;

void ga_progress_begin(ga_progress_t *p, FILE *out, uint32_t first_generation);
/* "gen 12/200  best 1.234  mean 0.5  evals 45678 (hits 61.2%)  9.1k/s  ETA 1m20s", when due. */
void ga_progress_line(ga_progress_t *p, const ga_gen_stats_t *st, const ga_settings_t *s, const objective_cfg_t *obj);
/* Ends a rewritten line, so what follows starts on its own. */
void ga_progress_end(ga_progress_t *p);

#ifdef __cplusplus
}
#endif
#endif
