/* A reported list's strategies and basins in a run file, beside its ranked
 * table (results/README.md): GROUP/strategies (one row per strategy: its best
 * genome as a ranked table, rank, equal ranges, genomes, basin),
 * GROUP/basins (each basin's peak, and the rank of its best listed genome),
 * and the columns `strategy` and `basin` of the list's table. */
#ifndef EVOLVE_RUN_GROUPS_H
#define EVOLVE_RUN_GROUPS_H

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/reported.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes (or replaces) r's groupings; nothing when r is not grouped.
 * group: "ga" or "grid"; table: its list ("ga/hall_of_fame", "grid/top"). */
ev_status run_file_write_groups(run_file_t *rf, const char *group, const char *table, const reported_t *r,
                                ev_error *err);

/* Reads them into r (read from table, r->n rows): r->strat, r->n_strat,
 * r->more, r->more_rank, r->basin, r->peaks; r stays ungrouped when the file
 * has none (written before they existed, or a strategy config's). */
ev_status run_file_read_groups(run_file_t *rf, const char *group, const char *table, reported_t *r, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
