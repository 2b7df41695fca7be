/* The bit planes of fitness/slices.h for a dataset, built on the host: per
 * combination of exit values the planes of the sets the objective needs
 * (each built once, when first asked for), and per day fold
 * (objective.aggregate) the bitset of its trades.
 *
 * Memory: a combination takes its planes' count x n_trades / 8 bytes (about
 * 18 planes for total_return, 32 for profit_factor, 51 for sharpe, 35 for
 * compound); a combination is built only while it fits in the budget, and
 * one that does not has none (its genomes take the walk). Building one costs
 * about 100 ns a trade (0.2 s for 64 combinations of 50,000 trades, 13 s for
 * 2,304), so the CPU backend builds the combinations its batches use. */
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
    const kept_sets_t *ks; /* the kept sets (and pair outcomes) they come from */
    uint64_t max_bytes;    /* the budget */
    int64_t n_words;       /* 64-trade words per plane (the kept sets') */
    uint64_t n_combos;     /* tables_exit_combos */
    slices_combo_t *combo; /* [n_combos] */
    uint64_t **planes;     /* [n_combos]: combination c's planes (plane p at p * n_words), NULL: none */
    uint8_t *state;        /* [n_combos]: SLICES_UNBUILT, SLICES_BUILT or SLICES_REFUSED (the budget) */
    uint64_t *fold_bits;   /* [n_folds][n_words]: each fold's trades, when t->agg != AGG_ALL */
    uint64_t bytes;        /* planes and fold bitsets together */
    uint64_t combos_built; /* combinations with planes */
    int32_t max_planes;    /* the most planes of one combination */
} slices_t;

enum { SLICES_UNBUILT = 0, SLICES_BUILT, SLICES_REFUSED };

/* Most planes a combination can have: every set at its widest. */
#define SLICES_MAX_PLANES (SLICE_SETS * SLICE_MAX_BITS)

/* The tables for ks's planes within max_bytes, no combination built yet. No
 * slices (sl->combo NULL, not an error) when the objective has drawdown or
 * the tables alone would not fit; EV_ENOMEM when an allocation fails. */
ev_status slices_open(slices_t *sl, const kept_sets_t *ks, uint64_t max_bytes, ev_error *err);
/* Builds combination c's planes unless it was tried before (SLICES_REFUSED
 * when they do not fit). Not thread-safe: call between evaluations. */
ev_status slices_build_combo(slices_t *sl, uint64_t c, ev_error *err);
/* slices_open, then every combination in order until one does not fit (the
 * rest walk); no slices (sl->combo NULL) when none fits. */
ev_status slices_build(slices_t *sl, const kept_sets_t *ks, uint64_t max_bytes, ev_error *err);
void slices_free(slices_t *sl);

/* Combination c's planes, or NULL when it has none. */
const uint64_t *slices_planes(const slices_t *sl, uint64_t c);

#ifdef __cplusplus
}
#endif
#endif
