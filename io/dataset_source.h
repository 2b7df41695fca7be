/* Where a run's dataset comes from: a dataset file named by the config, or
 * the config's raw CSVs ingested into a cache file that is reused while the
 * inputs and ingest options are unchanged. */
#ifndef EVOLVE_DATASET_SOURCE_H
#define EVOLVE_DATASET_SOURCE_H

#include <stdio.h>

#include "common/status.h"
#include "fitness/dataset.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

ev_status dataset_obtain(const config_t *cfg, dataset_t *ds, FILE *log, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
