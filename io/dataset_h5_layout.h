/* What the dataset file holds and where (docs/dataset.md), as tables the
 * writer and the reader both walk, so the two cannot drift apart. Internal to
 * io/dataset_h5_*.c. */
#ifndef EVOLVE_DATASET_H5_LAYOUT_H
#define EVOLVE_DATASET_H5_LAYOUT_H

#include <stddef.h>

#include <hdf5.h>

#include "fitness/dataset.h"

#define DATASET_H5_FORMAT "evolve-dataset" /* root attribute "format" */
#define DATASET_H5_VERSION 1               /* root attribute "format_version" */

typedef enum { DSH5_I32, DSH5_I64, DSH5_F32, DSH5_F64 } dataset_h5_elem;

/* Which count an array's length is. */
typedef enum { DSH5_N_TICKERS, DSH5_N_PRICES, DSH5_N_TRADES, DSH5_N_LENGTHS } dataset_h5_len;

/* A 1-D array: group/name in the file, the dataset_t pointer field at offset. */
typedef struct {
    const char *group;
    const char *name;
    dataset_h5_elem elem;
    dataset_h5_len len;
    size_t offset;
} dataset_h5_array_t;

/* An int64 count stored as an attribute of /provenance. */
typedef struct {
    const char *name;
    size_t offset;
} dataset_h5_count_t;

extern const dataset_h5_array_t dataset_h5_arrays[];
extern const int dataset_h5_n_arrays;
extern const dataset_h5_count_t dataset_h5_counts[];
extern const int dataset_h5_n_counts;

/* The native type of an element in memory, and the little-endian type stored. */
hid_t dataset_h5_mem_type(dataset_h5_elem e);
hid_t dataset_h5_file_type(dataset_h5_elem e);

/* The compound type of a /provenance/sources row (a dataset_source_t in
 * memory; packed little-endian in the file). Close with h5u_close. */
hid_t dataset_h5_source_type(int for_file);

/* The array pointer stored in the dataset_t field at offset (get / set). */
void *dataset_h5_field(const dataset_t *ds, size_t offset);
void dataset_h5_set_field(dataset_t *ds, size_t offset, void *p);

#endif
