/* The shared dataset cache (docs/dataset.md, "The dataset cache"): one
 * folder per user (plat_cache_dir()/datasets), one file per ingest key
 * (io/ingest_key.h), <key>.h5, with <key>.inputs naming the files it was
 * first built from. A file's modification time is when it was last used. */
#ifndef EVOLVE_DATASET_CACHE_H
#define EVOLVE_DATASET_CACHE_H

#include <stdint.h>
#include <stdio.h>

#include "common/status.h"
#include "io/ingest.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The default size cap, when EVOLVE_CACHE_MAX_MB is not set. */
#define DATASET_CACHE_MAX_MB_DEFAULT 10240

typedef struct {
    char *path;       /* <folder>/<key>.h5 */
    char key[17];     /* 16 hex digits */
    int64_t size;     /* bytes */
    int64_t mtime_ns; /* last used */
} dataset_cache_entry_t;

/* The shared cache's folder, <cache dir>/datasets (malloc'ed); EV_ECONFIG
 * naming the environment variables to set when there is none. */
ev_status dataset_cache_dir(char **dir, ev_error *err);

/* The cache file of key (malloc'ed), its folder created. */
ev_status dataset_cache_file(uint64_t key, char **path, ev_error *err);

/* After a build: records the inputs beside the file (<key>.inputs, best
 * effort), then removes the least recently used other files while the
 * folder holds more than the cap (EVOLVE_CACHE_MAX_MB), noting each on log. */
void dataset_cache_built(const char *path, const ingest_opts_t *o, FILE *log);

/* The cache files, most recently used first. An absent folder has none. */
ev_status dataset_cache_entries(const char *dir, dataset_cache_entry_t **out, size_t *n, ev_error *err);
void dataset_cache_entries_free(dataset_cache_entry_t *e, size_t n);

/* The inputs line recorded for a cache file ("?" when none; caller frees). */
char *dataset_cache_inputs(const char *path);

/* Removes one cache file and what lies beside it (inputs, lock, temporaries),
 * unless another process holds its lock: then EV_EBUSY, nothing removed. */
ev_status dataset_cache_remove(const char *path, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
