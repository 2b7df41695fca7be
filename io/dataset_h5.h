/* The dataset file (HDF5). Layout: docs/dataset.md. */
#ifndef EVOLVE_DATASET_H5_H
#define EVOLVE_DATASET_H5_H

#include <stdint.h>

#include <hdf5.h>

#include "common/status.h"
#include "fitness/dataset.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes under a temporary name and renames into place: a reader never sees a
 * half-written dataset. */
ev_status dataset_write_h5(const dataset_t *ds, const char *path, ev_error *err);
ev_status dataset_read_h5(const char *path, dataset_t *ds, ev_error *err);

/* Reads only the /provenance input_fingerprint attribute (cache check);
 * nonzero status when the file is absent or not a dataset. */
ev_status dataset_read_fingerprint(const char *path, uint64_t *fp, ev_error *err);

/* The dataset's input files as the compound table of /provenance/sources
 * (path, kind, size, mtime_ns, rows), written as dataset `name` of loc: the
 * run file keeps a copy, so a result traces back to its data. */
ev_status dataset_h5_write_sources(const dataset_t *ds, const char *path, hid_t loc, const char *name, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
