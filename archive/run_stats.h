/* Trader statistics (fitness/trade_stats.h) of a list in a run file, beside
 * its ranked table: GROUP/trader_stats, GROUP/validation/out_of_sample_trader_stats
 * (results/README.md). */
#ifndef EVOLVE_RUN_STATS_H
#define EVOLVE_RUN_STATS_H

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/trade_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes (or replaces) the group `path` (GROUP/trader_stats, ...) from
 * stats[n]: one dataset per statistic, a row per genome in the list's order;
 * nothing when stats is NULL. */
ev_status run_file_write_stats(run_file_t *rf, const char *path, const trade_stats_t *stats, uint32_t n, ev_error *err);

/* Reads the group `path` of a list of n genomes into a new array *out (free
 * it); *out stays NULL when the file has none (written before they existed). */
ev_status run_file_read_stats(run_file_t *rf, const char *path, uint32_t n, trade_stats_t **out, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
