/* Row arrays (io/h5_util.h): chunked datasets with an unlimited first
 * dimension, written and read a block of rows at a time. */
#include <string.h>

#include "io/h5_util.h"

ev_status h5u_rows_create(const char *file, hid_t loc, const char *name, hid_t file_type, int rank, const hsize_t *row,
                          hsize_t chunk_rows, int compress, ev_error *err)
{
    hsize_t dims[H5U_ROWS_MAX_RANK], maxdims[H5U_ROWS_MAX_RANK], chunk[H5U_ROWS_MAX_RANK];
    hid_t space = -1, dcpl = -1, d = -1;
    ev_status st = EV_OK;
    if (rank < 1 || rank > H5U_ROWS_MAX_RANK)
        return ev_fail(err, EV_EINTERNAL, "%s: %s: rank %d is not supported", file, name, rank);
    dims[0] = 0;
    maxdims[0] = H5S_UNLIMITED;
    chunk[0] = chunk_rows ? chunk_rows : 1;
    for (int i = 1; i < rank; i++) {
        dims[i] = maxdims[i] = row[i - 1];
        chunk[i] = row[i - 1] ? row[i - 1] : 1; /* a chunk dimension must be positive */
    }
    space = H5Screate_simple(rank, dims, maxdims);
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (space < 0 || dcpl < 0 || H5Pset_chunk(dcpl, rank, chunk) < 0 ||
        (compress &&
         (H5Pset_shuffle(dcpl) < 0 || (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0 && H5Pset_deflate(dcpl, 1) < 0))) ||
        (d = H5Dcreate2(loc, name, file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0)
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "create dataset");
    h5u_close(d);
    h5u_close(dcpl);
    h5u_close(space);
    return st;
}

/* The dataset's current shape. */
static int rows_dims(hid_t d, hsize_t *dims)
{
    hid_t space = H5Dget_space(d);
    int rank = space < 0 ? -1 : H5Sget_simple_extent_ndims(space);
    if (rank < 1 || rank > H5U_ROWS_MAX_RANK || H5Sget_simple_extent_dims(space, dims, NULL) < 0)
        rank = -1;
    h5u_close(space);
    return rank;
}

/* A file space selecting rows [first, first + n) and a memory space of that
 * block; both closed by the caller. */
static int rows_select(hid_t d, int rank, const hsize_t *dims, hsize_t first, hsize_t n, hid_t *fspace, hid_t *mspace)
{
    hsize_t start[H5U_ROWS_MAX_RANK] = {0}, count[H5U_ROWS_MAX_RANK];
    start[0] = first;
    count[0] = n;
    for (int i = 1; i < rank; i++)
        count[i] = dims[i];
    *fspace = H5Dget_space(d);
    *mspace = H5Screate_simple(rank, count, NULL);
    return *fspace >= 0 && *mspace >= 0 && H5Sselect_hyperslab(*fspace, H5S_SELECT_SET, start, NULL, count, NULL) >= 0;
}

ev_status h5u_rows_write_dset(const char *file, hid_t d, hid_t mem_type, hsize_t first, hsize_t n, const void *data,
                              ev_error *err)
{
    hsize_t dims[H5U_ROWS_MAX_RANK];
    hid_t fspace = -1, mspace = -1;
    int rank = rows_dims(d, dims);
    ev_status st = EV_OK;
    if (rank < 0) {
        st = h5u_fail(err, EV_EHDF5, file, d, NULL, "read the shape of");
    } else if (first + n > dims[0]) {
        dims[0] = first + n;
        if (H5Dset_extent(d, dims) < 0)
            st = h5u_fail(err, EV_EHDF5, file, d, NULL, "extend");
    }
    if (st == EV_OK && n &&
        (!rows_select(d, rank, dims, first, n, &fspace, &mspace) ||
         H5Dwrite(d, mem_type, mspace, fspace, H5P_DEFAULT, data) < 0))
        st = h5u_fail(err, EV_EHDF5, file, d, NULL, "write rows of");
    h5u_close(mspace);
    h5u_close(fspace);
    return st;
}

ev_status h5u_rows_write(const char *file, hid_t loc, const char *name, hid_t mem_type, hsize_t first, hsize_t n,
                         const void *data, ev_error *err)
{
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    ev_status st;
    if (d < 0)
        return h5u_fail(err, EV_EHDF5, file, loc, name, "open dataset");
    st = h5u_rows_write_dset(file, d, mem_type, first, n, data, err);
    h5u_close(d);
    return st;
}

ev_status h5u_rows_resize(const char *file, hid_t loc, const char *name, hsize_t rows, ev_error *err)
{
    hsize_t dims[H5U_ROWS_MAX_RANK];
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    ev_status st = EV_OK;
    if (d < 0 || rows_dims(d, dims) < 0) {
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "open dataset");
    } else if (dims[0] != rows) {
        dims[0] = rows;
        if (H5Dset_extent(d, dims) < 0)
            st = h5u_fail(err, EV_EHDF5, file, loc, name, "resize");
    }
    h5u_close(d);
    return st;
}

ev_status h5u_rows_shape(const char *file, hid_t loc, const char *name, hsize_t *rows, int *rank, hsize_t *row,
                         ev_error *err)
{
    hsize_t dims[H5U_ROWS_MAX_RANK];
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    int r = d < 0 ? -1 : rows_dims(d, dims);
    ev_status st = EV_OK;
    if (r < 0) {
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "open dataset");
    } else {
        *rows = dims[0];
        if (rank)
            *rank = r;
        for (int i = 1; row && i < r; i++)
            row[i - 1] = dims[i];
    }
    h5u_close(d);
    return st;
}

ev_status h5u_rows_read(const char *file, hid_t loc, const char *name, hid_t mem_type, int rank, const hsize_t *row,
                        hsize_t first, hsize_t n, void *data, ev_error *err)
{
    hsize_t dims[H5U_ROWS_MAX_RANK];
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT), type = -1, fspace = -1, mspace = -1;
    int got = d < 0 ? -1 : rows_dims(d, dims), same = got == rank;
    ev_status st = EV_OK;
    for (int i = 1; same && i < rank; i++)
        same = dims[i] == row[i - 1];
    if (got < 0 || (type = H5Dget_type(d)) < 0)
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "open dataset");
    else if (!h5u_type_matches(type, mem_type) || !same)
        st = ev_fail(err, EV_EDATA, "%s: %s has an unexpected type or shape", file, name);
    else if (first + n > dims[0])
        st = ev_fail(err, EV_EDATA, "%s: %s has %llu rows, fewer than the %llu expected", file, name,
                     (unsigned long long)dims[0], (unsigned long long)(first + n));
    else if (n && (!rows_select(d, rank, dims, first, n, &fspace, &mspace) ||
                   H5Dread(d, mem_type, mspace, fspace, H5P_DEFAULT, data) < 0))
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "read rows of");
    h5u_close(mspace);
    h5u_close(fspace);
    h5u_close(type);
    h5u_close(d);
    return st;
}
