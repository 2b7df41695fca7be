/* evolve trades CONFIG for a trade-log config: the trader's own settings. */
#ifndef EVOLVE_CMD_LOG_TRADES_H
#define EVOLVE_CMD_LOG_TRADES_H

#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kept trades of one point of cfg's parameters: the config's baseline:
 * (baseline), then each "NAME=VALUE" of sets[n_sets]; a parameter neither
 * sets does not apply (none given: the log as traded). As the terminal
 * table, or CSV in csv. An exit code. */
int cmd_log_trades(config_t *cfg, const char *const *sets, int n_sets, int baseline, const char *csv);

#ifdef __cplusplus
}
#endif
#endif
