/* --validate's figures (SPEC sec. 6): how the GA's top-K compares with the
 * grid's on one config.
 *
 * - grid rank of the GA's best: 1 + the number of lattice points whose
 *   rank_key is strictly greater (so ties share a rank). The grid's top-K
 *   answers it whenever the GA's best is at or above the top-K's last key
 *   (or the top-K holds every feasible point); otherwise a count pass over
 *   the lattice does (backend op grid_count_better, else on the CPU).
 * - overlap: entries of the two top-K lists with the same genome, and with
 *   the same fitness (multiset intersection of the rank keys, so two
 *   different genomes of equal fitness count as a fitness match).
 * - gap: grid best - GA best, displayed values.
 * - share: unique genomes the GA evaluated / lattice points. */
#ifndef EVOLVE_VALIDATE_H
#define EVOLVE_VALIDATE_H

#include <stdint.h>
#include <stdio.h>

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/reported.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t top_k;        /* the configured K */
    uint32_t n_grid, n_ga; /* entries in each list (feasible genomes only) */
    int ga_feasible;       /* the GA found a feasible genome (else no rank) */
    uint64_t ga_best_key;
    int rank_known;          /* 1: better is known */
    uint64_t better;         /* lattice points strictly better than the GA's best */
    uint64_t rank;           /* 1 + better */
    const char *rank_method; /* "grid top-K" or "count pass (<backend>)" */
    uint32_t overlap_genomes, overlap_fitness;
    double grid_best, ga_best, gap; /* displayed; NaN when a list is empty */
    uint64_t ga_evaluations, lattice_size;
    double ga_share;
} validate_figures_t;

/* Everything the two lists decide; rank_known = 0 when a count pass is
 * needed. grid/ga: best first (SPEC order). */
void validate_compare(validate_figures_t *v, const reported_t *grid, const reported_t *ga, uint32_t top_k,
                      int32_t n_params);

void validate_print(FILE *out, const validate_figures_t *v);

/* {"validate": {...}} for run_summary_t.extra (a cJSON object; NULL when out
 * of memory); ga_top: the GA's top-K, listed in it. */
void *validate_json(const validate_figures_t *v, const config_t *cfg, const reported_t *ga_top);

/* /validate: the figures as attributes. */
ev_status validate_write(run_file_t *rf, const validate_figures_t *v, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
