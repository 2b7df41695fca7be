/* evolve CONFIG --walk-forward [--grid]: validation.walk_forward's windows
 * (fitness/walk_forward.h), each searched on its train days and scored on
 * its test days. */
#ifndef EVOLVE_MODE_WALK_H
#define EVOLVE_MODE_WALK_H

#include "runs/modes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The search of each window is the grid with a->grid, else the GA (the
 * config's seed in every window). Reports the per-window table and the
 * chained result (a->report), writes the run file (/walk_forward) and a->json. */
ev_status run_mode_walk_forward(session_t *s, const run_args_t *a, double t0, ev_error *err);

/* The config's part of --walk-forward, checked before any data is read:
 * validation.walk_forward given, and no holdout, folds or fold statistic
 * beside it (EV_EUSAGE / EV_ECONFIG naming the config). */
ev_status run_walk_check(const config_t *cfg, ev_error *err);

/* A day (days since 1970-01-01) as YYYY-MM-DD, for the window table. */
void walk_day_text(int64_t day, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
