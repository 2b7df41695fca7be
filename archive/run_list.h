/* A reported list read back whole from a run file (the hall of fame, the
 * grid's top-K): its ranked rows, trader statistics, validation and
 * baselines, as the run that wrote it reported them (fitness/reported.h). */
#ifndef EVOLVE_RUN_LIST_H
#define EVOLVE_RUN_LIST_H

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/reported.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    reported_t list;    /* e (= own_e), value, n, stats, val, split (= &split), base, strat, more, basin, peaks */
    ranked_genome_t *e; /* owned */
    val_split_t split;  /* owned; n_days 0 without a validation: block */
} run_list_t;

/* group: "ga" or "grid"; table: its ranked table ("ga/hall_of_fame",
 * "grid/top"). Files written before a part existed read without it. */
ev_status run_list_read(run_file_t *rf, const char *group, const char *table, run_list_t *l, ev_error *err);
void run_list_free(run_list_t *l);

#ifdef __cplusplus
}
#endif
#endif
