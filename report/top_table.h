/* The reported list on the terminal, one table: each strategy once
 * (fitness/strategy_class.h) by its best genome, the list's and those below
 * it: its number, that genome's rank, each parameter's value, fitness, trades
 * kept, the validation columns, its genomes and basin; a list not grouped (a
 * strategy config's) genome by genome. The genomes one by one, the value
 * ranges and the basins' peaks stay in the run file, its page and --json. */
#ifndef EVOLVE_TOP_TABLE_H
#define EVOLVE_TOP_TABLE_H

#include <stdio.h>

#include "fitness/reported.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* top: best first, with the values to show; then its baselines. from_run:
 * printed at the end of a run (1) or by evolve report (0), which says where
 * what the table leaves out is. */
void top_table_print(FILE *out, const config_t *cfg, const reported_t *top, int from_run);

#ifdef __cplusplus
}
#endif
#endif
