/* Where a run's dataset comes from: a dataset file named by the config, or
 * the config's raw CSVs ingested into a cache file that is reused while the
 * inputs' content and the ingest options are unchanged: data.cache when the
 * config names one, else the shared cache (io/dataset_cache.h). */
#ifndef EVOLVE_DATASET_SOURCE_H
#define EVOLVE_DATASET_SOURCE_H

#include <stdio.h>

#include "common/status.h"
#include "fitness/dataset.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* With raw CSVs and no data.cache, sets cfg->dataset_path to the shared
 * cache file it used (the config owns it), so the run records where its
 * dataset is. */
ev_status dataset_obtain(config_t *cfg, dataset_t *ds, FILE *log, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
