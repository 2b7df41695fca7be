/* Strategies (docs/ga.md "Strategies"): genomes whose kept trades and exits
 * are the same are one strategy, however their genes differ. A reported list
 * is grouped into strategies, and each strategy's first genome gets each
 * gene's equal range: the values that gene can take, the others fixed, that
 * keep the same trades with the same exits (a contiguous run of lattice
 * indices around the genome's own value). Exact: the tables' kept test and
 * first exit, trade by trade. */
#ifndef EVOLVE_STRATEGY_CLASS_H
#define EVOLVE_STRATEGY_CLASS_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/lattice_shape.h"
#include "fitness/ranked.h"
#include "fitness/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t cls;     /* strategy number: entries with the same number are one strategy; numbered by first entry */
    uint32_t first;   /* 1: the list's first entry of its strategy (lo/hi are set) */
    uint32_t genomes; /* first entries: its genomes among the candidates grouped (reported_pool), 0: not counted */
    uint16_t lo[EV_MAX_PARAMS], hi[EV_MAX_PARAMS]; /* equal range of each gene (first entries) */
} strat_entry_t;

/* 1 when genomes a and b keep the same trades and each kept trade takes the
 * same exit (reason, second and outcome). */
int strat_same(const fit_tables_t *t, const uint16_t *a, const uint16_t *b);

/* strat_same for ranked genomes: one strategy has one result, so genomes of
 * different rank keys are never compared trade by trade. */
int strat_same_ranked(const fit_tables_t *t, const ranked_genome_t *a, const ranked_genome_t *b);

/* Gene k's equal range around genes[k], [*lo, *hi] (lattice indices). */
void strat_range(const fit_tables_t *t, const uint16_t *genes, int32_t k, uint32_t n_values, uint16_t *lo,
                 uint16_t *hi);

/* The first k strategies of e[n] (a ranked list, best first): pick[*n_pick]
 * are the positions of their first genomes, in list order (*n_pick < k when
 * the list holds fewer). */
void strat_first(const fit_tables_t *t, const ranked_genome_t *e, uint32_t n, uint32_t k, uint32_t *pick,
                 uint32_t *n_pick);

/* Groups e[n] (a ranked list) into strategies: out[n]; *n_strategies. */
void strat_group(const fit_tables_t *t, const lattice_shape_t *shape, const ranked_genome_t *e, uint32_t n,
                 strat_entry_t *out, uint32_t *n_strategies);

#ifdef __cplusplus
}
#endif
#endif
