/* Relaxed climbs of kicks (docs/ga.md "Kicks", local_search.kick_relax): on
 * the sharpe exit lattices of bench/suite the best peaks keep exactly
 * min_trades trades, and the peaks near them are parted by genomes that keep
 * fewer. A climb under a lower min_trades crosses those gaps; a steepest
 * 1-gene move under the real one then restores feasibility (loosening the
 * one filter that costs least), and a climb under the real one ends it. */
#ifndef EVOLVE_LS_RELAX_H
#define EVOLVE_LS_RELAX_H

#include <stdint.h>

#include "ga/local_search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tables sweeps under a lower min_trades: sw points into t, so the struct
 * stays where ls_relax_init filled it. */
typedef struct {
    fit_tables_t t;
    ls_sweep_t sw;
} ls_relaxed_t;

/* Fills *out with the sweeps of sw (tables sweeps: sw->t set) under
 * min_trades x pct / 100 (rounded down); returns 1, or 0 (out untouched)
 * when that is no fewer trades than sw's min_trades or sw has no tables. */
int ls_relax_init(ls_relaxed_t *out, const ls_sweep_t *sw, uint32_t pct);

/* Climbs genes under relaxed at depth (from *r, which may be unknown:
 * infeasible), then takes ls_best_move under sw (which reads the peak's result
 * under sw's constraints) and climbs under sw at real_depth (at most depth; the
 * GA's random starts: 1, docs/ga.md "Relaxed random starts"): *r is then the
 * genome's result under sw. The three share one sweep cache. tally: every
 * sweep of the three. */
ev_status ls_climb_relaxed(const ls_sweep_t *relaxed, const ls_sweep_t *sw, int32_t n_genes, uint32_t depth,
                           uint32_t real_depth, uint16_t *genes, eval_result_t *r, ls_tally_t *tally, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
