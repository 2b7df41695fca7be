/* Two backends' GA ops driven in lockstep on one problem, every output of
 * every generation compared byte for byte (tests/test_ga_cuda*.c): side 0 is
 * the CPU backend, side 1 the backend under test. The driver's decisions
 * (island plans) are taken once, from side 0's rank, and given to both. */
#ifndef EVOLVE_TESTS_GA_PAIR_H
#define EVOLVE_TESTS_GA_PAIR_H

#include <stdint.h>

#include "fitness/problem.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#include "operators/ga_settings.h"

typedef struct {
    const backend_ops_t *ops;
    backend_t *b;
    ga_state_t *g;
    uint16_t *genes;        /* [n_genes][pop] downloads */
    eval_result_t *results; /* [pop] */
    int32_t *parents;       /* [2][pop] */
    ga_hof_entry_t *top;    /* [top_k] */
    uint32_t *unique;       /* [islands] */
    uint32_t *counts;       /* [gene_values] */
    ga_eval_out_t ev;
    ga_rank_out_t rk;
} ga_side_t;

typedef struct {
    const fit_problem_t *p;
    ga_settings_t s;
    ga_plan_t plan;
    ga_side_t side[2];
    breed_island_t *islands; /* [islands] */
    uint32_t gen;            /* the generation the populations hold */
    int full;                /* the last step found the cache full (on both) */
    int checks;              /* comparisons made */
    char what[512];          /* the first difference found */
} ga_pair_t;

/* Opens the CPU backend and `ops` on p (tables t, which outlive the pair),
 * plans the GA (settings s, seed, hall of fame size top; s copied) and opens
 * a GA state on each. Exits the test on failure. */
void ga_pair_open(ga_pair_t *x, const backend_ops_t *ops, const fit_problem_t *p, const tables_host_t *t,
                  const ga_settings_t *s, uint64_t seed, uint32_t top);
void ga_pair_close(ga_pair_t *x);

/* Generation 0 on both. */
void ga_pair_init(ga_pair_t *x);

/* Evaluates and ranks the current generation on both and compares
 * everything: ga_eval_out_t (counts, cache_full, the new top-K), ga_rank_out_t
 * (island counts, gene histograms, feasible, best, median exactly; mean and
 * std to 1e-9 of their scale |mean| + std), the downloaded genes, results and
 * parents, and the cache sizes. Returns the number of differences (the first
 * in x->what). */
int ga_pair_step(ga_pair_t *x);

/* Breeds generation gen + 1 on both from side 0's island counts. */
void ga_pair_breed(ga_pair_t *x);

/* Steps and breeds until s.generations were evaluated or the cache is full;
 * returns the differences. */
int ga_pair_run(ga_pair_t *x);

/* A cache's entries sorted by index: index [n][words], results [n] (free both). */
void ga_cache_sorted(const backend_ops_t *ops, ga_state_t *g, int32_t words, uint64_t *n, uint64_t **index,
                     eval_result_t **results);

/* 1 when the two sides' caches hold the same entries. */
int ga_pair_same_cache(ga_pair_t *x);

#endif
