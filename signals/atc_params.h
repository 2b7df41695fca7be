/* The parameters of atc by docs/signals-spec.md's names (sec. 2.1, 2.7): defaults and
 * NAME=VALUE settings. Lengths and cutout are whole bars; robustness is
 * Narrow, Medium or Wide; the Pine flags are 0 or 1 (false/true); the rest are
 * binary64 numbers parsed from their decimal text (the nearest double, as
 * k/10.0 gives for 0.1 * k). */
#ifndef EVOLVE_SIGNALS_ATC_PARAMS_H
#define EVOLVE_SIGNALS_ATC_PARAMS_H

#include <stddef.h>

#include "common/status.h"
#include "signals/atc_strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The names, NULL-terminated: the ATC_LATTICE_PARAMS lattice parameters first
 * (ema_len .. cut_threshold), then fee_bp, slippage_bp and the Pine flags. */
extern const char *const atc_param_names[];
#define ATC_LATTICE_PARAMS 19
#define ATC_ROBUSTNESS_PARAM 12 /* its values are the names below */
extern const char *const atc_robustness_names[];

/* Lengths 28, weights 1.0, Medium, La 0.02, De 0.03, cutout 0, long 0.1,
 * short -0.1, cut 0.49 (Pine), fee_bp 5, slippage_bp 5, flags off. */
void atc_params_defaults(atc_params_t *p);

/* Sets one parameter from text. An unknown name or a bad value is EV_EUSAGE
 * naming both (the caller prefixes where it came from). */
ev_status atc_params_set(atc_params_t *p, const char *name, size_t name_len, const char *value, size_t value_len,
                         ev_error *err);

/* "NAME=VALUE" -> atc_params_set. */
ev_status atc_params_assign(atc_params_t *p, const char *assignment, ev_error *err);

/* Parameter `which` of p as a double (robustness as its index), and set from
 * one (a lattice value: whole numbers for the lengths, cutout, robustness and
 * flags). */
double atc_params_get(const atc_params_t *p, int which);
void atc_params_put(atc_params_t *p, int which, double value);

/* A genome is feasible when every member length is at least ATC_MIN_MEMBER
 * (L >= 7, 9, 10 for Narrow, Medium, Wide: sec. 2.2) and every weight is > 0;
 * EV_EUSAGE "infeasible genome: ..." otherwise. */
ev_status atc_params_check(const atc_params_t *p, ev_error *err);
int atc_params_feasible(const atc_params_t *p);

#ifdef __cplusplus
}
#endif
#endif
