/* The parameters of seller_exhaustion by docs/signals-spec.md's names: defaults
 * (sec. 1.4.7, for 15-minute bars) and NAME=VALUE settings. Window lengths
 * and max_hold are whole bars; the rest are binary64 numbers parsed from
 * their decimal text (the nearest double, as k/10.0 gives for 0.1 * k). */
#ifndef EVOLVE_SIGNALS_SE_PARAMS_H
#define EVOLVE_SIGNALS_SE_PARAMS_H

#include <stddef.h>

#include "common/status.h"
#include "signals/se_strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ema_fast 96, ema_slow 672, z_window 672, atr_window 96, vol_z 2.0, tr_z 1.2,
 * cloc_min 0.6, atr_stop_mult 0.7, reward_r 2.0, max_hold 96, fee_bp 5,
 * slippage_bp 5. */
void se_params_defaults(se_params_t *p);

/* Sets one parameter from text. An unknown name or a bad value is EV_EUSAGE
 * naming both (the caller prefixes where it came from). */
ev_status se_params_set(se_params_t *p, const char *name, size_t name_len, const char *value, size_t value_len,
                        ev_error *err);

/* "NAME=VALUE" -> se_params_set. */
ev_status se_params_assign(se_params_t *p, const char *assignment, ev_error *err);

/* Sets lattice parameter `which` (an index into se_param_names, below
 * SE_LATTICE_PARAMS: ema_fast .. max_hold) from a lattice value; the window
 * lengths and max_hold are whole numbers of bars. */
void se_params_put(se_params_t *p, int which, double v);

/* The constraint of docs/signals-spec.md sec. 3: ema_slow > ema_fast (else infeasible). */
int se_params_feasible(const se_params_t *p);
/* EV_OK when feasible, else EV_EUSAGE "infeasible genome: ..." saying why. */
ev_status se_params_check(const se_params_t *p, ev_error *err);

/* The names, NULL-terminated, in docs/signals-spec.md's order. */
extern const char *const se_param_names[];

#ifdef __cplusplus
}
#endif
#endif
