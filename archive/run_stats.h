/* A reported list's trader statistics (fitness/trade_stats.h) in a run
 * file, beside its ranked table: GROUP/trader_stats (results/README.md). */
#ifndef EVOLVE_RUN_STATS_H
#define EVOLVE_RUN_STATS_H

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/reported.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes (or replaces) group/trader_stats from r->stats: one dataset per
 * statistic, a row per genome in the list's order; nothing without stats. */
ev_status run_file_write_stats(run_file_t *rf, const char *group, const reported_t *r, ev_error *err);

/* Reads group/trader_stats of a list of n genomes into a new array *out (free it);
 * *out stays NULL when the file has none (written before they existed). */
ev_status run_file_read_stats(run_file_t *rf, const char *group, uint32_t n, trade_stats_t **out, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
