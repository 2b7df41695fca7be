/* The indicator series of one run, each distinct (indicator, length) computed
 * once and shared by every genome that uses it (seed 001's lesson: indicators
 * are computed by one routine, once, never again per genome or per backend).
 *
 * A store belongs to one set of bars. se_features_series looks a genome's
 * series up, computing the missing ones with the EV_HD functions of
 * signals/indicators.h; the pointers it hands out stay valid until the store
 * is freed. Memory: 8 bytes per bar per distinct series (EMA per span, ATR
 * per atr_window, vol_z per z_window, tr_z per (atr_window, z_window)), plus
 * four for the bars' true range, close location and inputs. */
#ifndef EVOLVE_SIGNALS_FEATURES_H
#define EVOLVE_SIGNALS_FEATURES_H

#include <stdint.h>

#include "common/status.h"
#include "signals/bars.h"
#include "signals/se_strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct se_features se_features_t;

/* The store for bars b (b must outlive it). */
ev_status se_features_create(const bars_t *b, se_features_t **out, ev_error *err);
void se_features_free(se_features_t *f);

/* Fills s with the series genome p reads. Lengths below 1 are EV_ECONFIG. */
ev_status se_features_series(se_features_t *f, const se_params_t *p, se_series_t *s, ev_error *err);

/* se_features_series without computing or counting, for threads reading a
 * store whose genomes were prepared: 1, or 0 when a series is missing. */
int se_features_find(const se_features_t *f, const se_params_t *p, se_series_t *s);

/* Bytes held by the series, and every series dropped (pointers handed out
 * before are invalid after). */
uint64_t se_features_bytes(const se_features_t *f);
void se_features_clear(se_features_t *f);

/* Series computed so far (each at most once between clears), and the look-ups served. */
int64_t se_features_computed(const se_features_t *f);
int64_t se_features_lookups(const se_features_t *f);

/* The trades of genome p: *trades (malloc'ed, free it; NULL when none) and *n. */
ev_status se_run_genome(se_features_t *f, const se_params_t *p, se_trade_t **trades, int64_t *n, ev_error *err);

/* "stop_gap", "stop", "tp", "time". */
const char *se_reason_name(int32_t reason);

#ifdef __cplusplus
}
#endif
#endif
