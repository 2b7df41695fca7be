/* Checked HDF5 helpers: every call is checked, and a failure fills err with
 * one sentence naming the file and the object ("run.h5: cannot read
 * /market/price: <HDF5's own reason>"). HDF5's automatic error printing is
 * turned off (h5u_init), so these messages are the only ones the user sees. */
#ifndef EVOLVE_H5_UTIL_H
#define EVOLVE_H5_UTIL_H

#include <stddef.h>

#include <hdf5.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arrays with at least this many elements are chunked and compressed
 * (shuffle + deflate); smaller ones are stored contiguously. */
#define H5U_COMPRESS_MIN 4096
/* Elements per chunk along the last dimension. */
#define H5U_CHUNK_ELEMS 65536

/* Silences HDF5's error printing; call before any other HDF5 call. */
void h5u_init(void);

/* Fills err with "FILE: cannot WHAT OBJECT: <reason from HDF5's error
 * stack>" and clears the stack. loc/name name the object (name may be NULL
 * for loc itself). Returns status. Call it right after the failed call: any
 * other HDF5 call in between clears the stack and loses the reason. */
ev_status h5u_fail(ev_error *err, ev_status status, const char *file, hid_t loc, const char *name, const char *what);

/* Closes any HDF5 id (file, group, dataset, attribute, type, space, plist);
 * ignores negative ids. */
void h5u_close(hid_t id);

hid_t h5u_group_create(const char *file, hid_t loc, const char *name, ev_error *err);
hid_t h5u_group_open(const char *file, hid_t loc, const char *name, ev_error *err);

/* A numeric array of rank 1 or 2 (dims[rank]; any may be 0). mem_type: the
 * native type of data; file_type: the little-endian type stored. */
ev_status h5u_write_array(const char *file, hid_t loc, const char *name, hid_t mem_type, hid_t file_type, int rank,
                          const hsize_t *dims, const void *data, ev_error *err);

/* Reads an array written as above into a new malloc'ed buffer (*data, at
 * least one byte; free it). The stored type must have mem_type's class and
 * size, and the rank must match; dims[rank] receives the shape. */
ev_status h5u_read_array(const char *file, hid_t loc, const char *name, hid_t mem_type, int rank, hsize_t *dims,
                         void **data, ev_error *err);

/* An array of variable-length UTF-8 strings, as a dataset (as_attr = 0) or
 * as an attribute of loc (as_attr = 1). Read strings are malloc'ed copies
 * (free each, then the array). */
ev_status h5u_write_strings(const char *file, hid_t loc, const char *name, int as_attr, const char *const *s, size_t n,
                            ev_error *err);
ev_status h5u_read_strings(const char *file, hid_t loc, const char *name, int as_attr, char ***s, size_t *n,
                           ev_error *err);

/* Scalar attributes: numbers (mem_type native; the stored type must have
 * its class and size) and strings (variable-length UTF-8; NULL is stored as
 * ""; the read copy is malloc'ed). Writing replaces an attribute of the same
 * name, so a file being written can update its status as it goes. */
ev_status h5u_write_attr(const char *file, hid_t loc, const char *name, hid_t mem_type, hid_t file_type,
                         const void *value, ev_error *err);
ev_status h5u_read_attr(const char *file, hid_t loc, const char *name, hid_t mem_type, void *value, ev_error *err);
ev_status h5u_write_attr_str(const char *file, hid_t loc, const char *name, const char *s, ev_error *err);
ev_status h5u_read_attr_str(const char *file, hid_t loc, const char *name, char **s, ev_error *err);

/* A variable-length UTF-8 string type (close with h5u_close). */
hid_t h5u_string_type(void);

/* 1 when the stored type has the class and size of mem_type. */
int h5u_type_matches(hid_t stored, hid_t mem_type);

/* Files opened with the STRONG close degree: closing the file closes
 * whatever an error path left open, so a temporary file can always be
 * removed afterwards. Both return -1 and fill err on failure; a file another
 * process holds open for writing (HDF5's own file lock) is err->status
 * EV_EBUSY, not a damaged file. */
hid_t h5u_file_create(const char *path, ev_error *err);
hid_t h5u_file_open(const char *path, int writable, ev_error *err);

/* 1 when loc has a link (group, dataset; a path "a/b" is fine) or, with
 * as_attr, an attribute of that name; 0 when not; -1 on error. */
int h5u_exists(hid_t loc, const char *name, int as_attr);

/* ---- Row arrays (io/h5_rows.c): datasets that grow along their first
 * dimension, one block of rows at a time (the run file's generations).
 * rank 1..H5U_ROWS_MAX_RANK; row[rank - 1] are the dimensions after the
 * first; chunks hold chunk_rows rows; compress: shuffle + deflate. */
#define H5U_ROWS_MAX_RANK 3

ev_status h5u_rows_create(const char *file, hid_t loc, const char *name, hid_t file_type, int rank, const hsize_t *row,
                          hsize_t chunk_rows, int compress, ev_error *err);
/* Writes rows [first, first + n) from data (mem_type, n rows of the row
 * shape), growing the array when they pass its end. */
ev_status h5u_rows_write(const char *file, hid_t loc, const char *name, hid_t mem_type, hsize_t first, hsize_t n,
                         const void *data, ev_error *err);
/* The same on an open dataset d (a writer appending every generation keeps
 * its datasets open); messages name d by its path in the file. */
ev_status h5u_rows_write_dset(const char *file, hid_t d, hid_t mem_type, hsize_t first, hsize_t n, const void *data,
                              ev_error *err);
/* Sets the number of rows (drops rows past it). */
ev_status h5u_rows_resize(const char *file, hid_t loc, const char *name, hsize_t rows, ev_error *err);
/* The number of rows, and (when rank/row are non-NULL) the rank and row shape. */
ev_status h5u_rows_shape(const char *file, hid_t loc, const char *name, hsize_t *rows, int *rank, hsize_t *row,
                         ev_error *err);
/* Reads rows [first, first + n) into data; the stored type must have
 * mem_type's class and size and the row shape must be `row` (rank - 1
 * dimensions). */
ev_status h5u_rows_read(const char *file, hid_t loc, const char *name, hid_t mem_type, int rank, const hsize_t *row,
                        hsize_t first, hsize_t n, void *data, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
