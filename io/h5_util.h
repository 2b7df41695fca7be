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
ev_status h5u_fail(ev_error *err, ev_status status, const char *file, hid_t loc, const char *name,
                   const char *what);

/* Closes any HDF5 id (file, group, dataset, attribute, type, space, plist);
 * ignores negative ids. */
void h5u_close(hid_t id);

hid_t h5u_group_create(const char *file, hid_t loc, const char *name, ev_error *err);
hid_t h5u_group_open(const char *file, hid_t loc, const char *name, ev_error *err);

/* A numeric array of rank 1 or 2 (dims[rank]; any may be 0). mem_type: the
 * native type of data; file_type: the little-endian type stored. */
ev_status h5u_write_array(const char *file, hid_t loc, const char *name, hid_t mem_type,
                          hid_t file_type, int rank, const hsize_t *dims, const void *data,
                          ev_error *err);

/* Reads an array written as above into a new malloc'ed buffer (*data, at
 * least one byte; free it). The stored type must have mem_type's class and
 * size, and the rank must match; dims[rank] receives the shape. */
ev_status h5u_read_array(const char *file, hid_t loc, const char *name, hid_t mem_type, int rank,
                         hsize_t *dims, void **data, ev_error *err);

/* An array of variable-length UTF-8 strings, as a dataset (as_attr = 0) or
 * as an attribute of loc (as_attr = 1). Read strings are malloc'ed copies
 * (free each, then the array). */
ev_status h5u_write_strings(const char *file, hid_t loc, const char *name, int as_attr,
                            const char *const *s, size_t n, ev_error *err);
ev_status h5u_read_strings(const char *file, hid_t loc, const char *name, int as_attr, char ***s,
                           size_t *n, ev_error *err);

/* Scalar attributes: numbers (mem_type native; the stored type must have
 * its class and size) and strings (variable-length UTF-8; NULL is stored as
 * ""; the read copy is malloc'ed). */
ev_status h5u_write_attr(const char *file, hid_t loc, const char *name, hid_t mem_type,
                         hid_t file_type, const void *value, ev_error *err);
ev_status h5u_read_attr(const char *file, hid_t loc, const char *name, hid_t mem_type,
                        void *value, ev_error *err);
ev_status h5u_write_attr_str(const char *file, hid_t loc, const char *name, const char *s,
                             ev_error *err);
ev_status h5u_read_attr_str(const char *file, hid_t loc, const char *name, char **s, ev_error *err);

/* A variable-length UTF-8 string type (close with h5u_close). */
hid_t h5u_string_type(void);

/* 1 when the stored type has the class and size of mem_type. */
int h5u_type_matches(hid_t stored, hid_t mem_type);

#ifdef __cplusplus
}
#endif
#endif
