/* The bit planes of fitness/slices.h for a dataset, built once on the host:
 * per combination of exit values the planes of the sets the objective needs,
 * and per day fold (objective.aggregate) the bitset of its trades.
 *
 * Memory: a combination takes its planes' count x n_trades / 8 bytes (about
 * 26 planes for total_return, 50 for profit_factor, 75 for sharpe, 40 for
 * compound); combinations are built in order while they fit in the budget,
 * and the rest have none (their genomes take the walk). */
#ifndef EVOLVE_SLICES_BUILD_H
#define EVOLVE_SLICES_BUILD_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/kept_sets.h"
#include "fitness/slices.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const fit_tables_t *t;
    int64_t n_words;       /* 64-trade words per plane (the kept sets') */
    uint64_t n_combos;     /* tables_exit_combos */
    slices_combo_t *combo; /* [n_combos] */
    uint64_t **planes;     /* [n_combos]: combination c's planes (plane p at p * n_words), NULL: none */
    uint64_t *fold_bits;   /* [n_folds][n_words]: each fold's trades, when t->agg != AGG_ALL */
    uint64_t bytes;        /* planes and fold bitsets together */
    uint64_t combos_built; /* combinations with planes */
    int32_t max_planes;    /* the most planes of one combination */
} slices_t;

/* Most planes a combination can have: every set at its widest. */
#define SLICES_MAX_PLANES (SLICE_SETS * SLICE_MAX_BITS)

/* Builds the planes of ks's tables within max_bytes. No slices (sl->combo
 * NULL, not an error) when the objective has drawdown or nothing fits;
 * EV_ENOMEM only when an allocation the budget allowed fails. */
ev_status slices_build(slices_t *sl, const kept_sets_t *ks, uint64_t max_bytes, ev_error *err);
void slices_free(slices_t *sl);

/* Combination c's planes, or NULL when it has none. */
const uint64_t *slices_planes(const slices_t *sl, uint64_t c);

#ifdef __cplusplus
}
#endif
#endif
