/* The key of an ingest: what the dataset is a function of (docs/dataset.md,
 * "The dataset cache"). Two ingests with the same key build the same
 * dataset, so the key names the shared cache file. Not part of the public API. */
#ifndef EVOLVE_INGEST_KEY_H
#define EVOLVE_INGEST_KEY_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/dataset.h"
#include "io/ingest.h"
#include "io/market_ingest.h"

#ifdef __cplusplus
extern "C" {
#endif

/* XXH64 of the market files' names (their dates) and bytes, the trade log's
 * bytes (not its name), the tickers, the extra features and strict. Paths,
 * folders and modification times are not part of it: moved or touched
 * inputs keep their key, one changed byte changes it. Reads every file that
 * the hash memo (io/hash_memo.h) does not hold as it is now. */
ev_status ingest_key(const market_files_t *files, const ingest_opts_t *o, uint64_t *key, ev_error *err);

/* A dataset taken from the cache was built from files of the same content,
 * maybe elsewhere: its sources are given this ingest's paths, sizes and
 * modification times, so a run records where its data is now. */
ev_status ingest_restamp_sources(const ingest_opts_t *o, dataset_t *ds, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
