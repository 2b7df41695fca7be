/* The CPU's fast form of the tables evaluator: for every filter and
 * threshold, the set of trades it keeps as a bitset in equity order. A
 * genome's kept trades are then the AND of one row per filter, 64 trades per
 * instruction, and only kept trades are visited. Derived from the tables'
 * cells, so it keeps exactly the trades tables_kept keeps, and visits them in
 * the same (equity) order: results are bit-identical to tables_eval.
 *
 * In a grid, neighbouring lattice points usually differ only in their target
 * and stop: the scratch remembers the last kept set and reuses it. */
#ifndef EVOLVE_KEPT_SETS_H
#define EVOLVE_KEPT_SETS_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "fitness/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const fit_tables_t *t;
    int64_t n_words; /* 64-trade words per row */
    uint64_t *bits;  /* rows: filter f, mirrored gene g at (row0[f] + g) * n_words */
    int64_t row0[EV_MAX_PARAMS];
    /* Every trade's outcome under every combination of exit values (target,
     * stop, SPEC sec. 4.1's), when they fit: q at pair_q[c * n_trades + j]
     * with c = tables_exit_combo_of, its log factor likewise in pair_lf
     * (compound). NULL: tables_outcome. */
    int64_t *pair_q;
    int64_t *pair_lf;
} kept_sets_t;

/* Per thread: the kept set of the last filter genes evaluated. */
typedef struct {
    uint64_t *words; /* [n_words] */
    uint16_t gf[EV_MAX_PARAMS];
    int valid;
} kept_scratch_t;

/* Builds the rows, or leaves ks->bits NULL (not an error) when they would take
 * more than max_bytes: callers then use tables_eval. The pair outcomes are
 * built when they fit in max_bytes too. */
ev_status kept_sets_build(kept_sets_t *ks, const fit_tables_t *t, uint64_t max_bytes, ev_error *err);
void kept_sets_free(kept_sets_t *ks);

ev_status kept_scratch_init(kept_scratch_t *s, const kept_sets_t *ks, ev_error *err);
void kept_scratch_free(kept_scratch_t *s);

/* == tables_eval(ks->t, genes), bit for bit: kept_sets_genome, then the walk. */
eval_result_t kept_sets_eval(const kept_sets_t *ks, kept_scratch_t *s, const uint16_t *genes);

/* The genome as the tables see it (*g) and its kept set (s->words, reused
 * when its filter genes are the last ones'). */
const uint64_t *kept_sets_genome(const kept_sets_t *ks, kept_scratch_t *s, const uint16_t *genes, tables_genome_t *g);

/* Exits x's row of the pair outcomes (every trade's q) and of their log
 * factors (*lf, NULL without), or NULL where the kept sets have none. */
static inline const int64_t *kept_sets_pair_row(const kept_sets_t *ks, const tables_exits_t *x, const int64_t **lf)
{
    uint64_t base;
    *lf = NULL;
    if (!ks->pair_q)
        return NULL;
    base = tables_exit_combo_of(ks->t, x) * (uint64_t)ks->t->n_trades;
    *lf = ks->pair_lf ? ks->pair_lf + base : NULL;
    return ks->pair_q + base;
}

/* The walk: the kept trades of s (kept_sets_genome's) in equity order. */
eval_result_t kept_sets_walk(const kept_sets_t *ks, const kept_scratch_t *s, const tables_genome_t *g);

#ifdef __cplusplus
}
#endif
#endif
