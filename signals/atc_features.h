/* The cross states of strategy atc for one run: each distinct (moving
 * average, member length) is computed once, by the EV_HD code of
 * signals/atc_ma.h, and its cross state against the close (signals/
 * atc_strategy.h) shared by every genome whose nine robustness lengths
 * include it. The MA itself is dropped once its state is taken.
 *
 * Memory: 1 byte per bar per distinct (MA, length), plus 8 bytes per bar for
 * the close's return; a genome adds nothing but its trades. */
#ifndef EVOLVE_SIGNALS_ATC_FEATURES_H
#define EVOLVE_SIGNALS_ATC_FEATURES_H

#include <stdint.h>

#include "common/status.h"
#include "signals/atc_strategy.h"
#include "signals/bars.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct atc_features atc_features_t;

/* The store for bars b (b must outlive it). */
ev_status atc_features_create(const bars_t *b, atc_features_t **out, ev_error *err);
void atc_features_free(atc_features_t *f);

/* Fills s with the series genome p reads. An infeasible genome
 * (atc_params_check) is its error. */
ev_status atc_features_series(atc_features_t *f, const atc_params_t *p, atc_series_t *s, ev_error *err);

/* The series of genome p when every state it reads is already in the store
 * (1), else 0; computes nothing, so threads may call it at once (the
 * search prepares genomes serially with atc_features_series, then runs
 * them in parallel). */
int atc_features_find(const atc_features_t *f, const atc_params_t *p, atc_series_t *s);

/* Bytes held by the states, and dropping them all (a bounded store empties
 * itself between batches). */
uint64_t atc_features_bytes(const atc_features_t *f);
void atc_features_clear(atc_features_t *f);

/* Distinct (MA, length) states computed so far (each at most once between
 * clears; one computed again after a clear counts again), and the look-ups
 * served. */
int64_t atc_features_computed(const atc_features_t *f);
int64_t atc_features_lookups(const atc_features_t *f);

/* The trades of genome p: *trades (malloc'ed, free it; NULL when none) and *n. */
ev_status atc_run_genome(atc_features_t *f, const atc_params_t *p, atc_trade_t **trades, int64_t *n, ev_error *err);

/* "signal". */
const char *atc_reason_name(int32_t reason);

#ifdef __cplusplus
}
#endif
#endif
