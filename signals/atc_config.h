/* Strategy atc's side of a strategy config (signals/se_config.h reads the
 * file for every type): the genome before --set, and a genome's check
 * against the config's lattices and the feasibility of sec. 2.2. */
#ifndef EVOLVE_SIGNALS_ATC_CONFIG_H
#define EVOLVE_SIGNALS_ATC_CONFIG_H

#include "common/status.h"
#include "signals/atc_strategy.h"
#include "signals/se_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* docs/signals-spec.md's defaults with the config's costs and Pine flags. */
void atc_config_base(const se_config_t *c, atc_params_t *p);

/* Each lattice parameter's value on its lattice, and the genome feasible
 * (atc_params_check); EV_EUSAGE otherwise. */
ev_status atc_config_check(const se_config_t *c, const atc_params_t *p, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
