#include "io/h5_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"

void h5u_init(void)
{
    static int done = 0;
    if (!done) {
        /* No library shutdown at exit: after a failed flush (a full disk)
         * H5Fclose fails and leaves the file half closed, and HDF5's exit
         * handler then crashes closing it again. Every file evolve opens is
         * closed explicitly, so the handler has nothing left to do. */
        H5dont_atexit();
        H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
        done = 1;
    }
}

/* HDF5's file drivers describe a failed read or write as "file write
 * failed: time = ..., filename = ..., errno = 28, error message = 'No space
 * left on device', buf = 0x..." over two lines: the user is shown "file write
 * failed: No space left on device". */
static void tidy_reason(char *reason, size_t size)
{
    const char *key = "error message = '";
    char *msg = strstr(reason, key), *colon = strchr(reason, ':');
    if (msg && colon && colon < msg) {
        char *end;
        msg += strlen(key);
        end = strchr(msg, '\'');
        if (end)
            *end = '\0';
        memmove(colon + 2, msg, strlen(msg) + 1);
        colon[1] = ' ';
    }
    for (char *c = reason; *c && c < reason + size; c++)
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
}

/* The innermost (most specific) description on HDF5's error stack. */
static herr_t keep_desc(unsigned n, const H5E_error2_t *e, void *data)
{
    (void)n;
    if (e->desc && e->desc[0])
        snprintf((char *)data, 256, "%s", e->desc);
    return 0;
}

ev_status h5u_fail(ev_error *err, ev_status status, const char *file, hid_t loc, const char *name, const char *what)
{
    char obj[512] = "", reason[256] = "";
    /* First: any later API call (H5Iget_name too) clears the stack. */
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, keep_desc, reason);
    H5Eclear2(H5E_DEFAULT);
    tidy_reason(reason, sizeof reason);
    if (loc >= 0 && H5Iget_name(loc, obj, sizeof obj) < 0)
        obj[0] = '\0';
    if (name)
        snprintf(obj + strlen(obj), sizeof obj - strlen(obj), "%s%s",
                 strlen(obj) && obj[strlen(obj) - 1] != '/' ? "/" : "", name);
    return ev_fail(err, status, "%s: cannot %s%s%s%s%s", file, what, obj[0] ? " " : "", obj, reason[0] ? ": " : "",
                   reason);
}

void h5u_close(hid_t id)
{
    if (id < 0)
        return;
    switch (H5Iget_type(id)) {
    case H5I_FILE: H5Fclose(id); break;
    case H5I_GROUP: H5Gclose(id); break;
    case H5I_DATASET: H5Dclose(id); break;
    case H5I_ATTR: H5Aclose(id); break;
    case H5I_DATATYPE: H5Tclose(id); break;
    case H5I_DATASPACE: H5Sclose(id); break;
    case H5I_GENPROP_LST: H5Pclose(id); break;
    default: break;
    }
}

hid_t h5u_group_create(const char *file, hid_t loc, const char *name, ev_error *err)
{
    hid_t g = H5Gcreate2(loc, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0)
        h5u_fail(err, EV_EHDF5, file, loc, name, "create group");
    return g;
}

hid_t h5u_group_open(const char *file, hid_t loc, const char *name, ev_error *err)
{
    hid_t g = H5Gopen2(loc, name, H5P_DEFAULT);
    if (g < 0)
        h5u_fail(err, EV_EHDF5, file, loc, name, "open group");
    return g;
}

hid_t h5u_string_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0)) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

int h5u_type_matches(hid_t stored, hid_t mem_type)
{
    return H5Tget_class(stored) == H5Tget_class(mem_type) && H5Tget_size(stored) == H5Tget_size(mem_type) &&
           (H5Tget_class(stored) != H5T_INTEGER || H5Tget_sign(stored) == H5Tget_sign(mem_type));
}

hid_t h5u_file_create(const char *path, ev_error *err)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), f = -1;
    h5u_init();
    if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0 ||
        (f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) < 0)
        h5u_fail(err, EV_EIO, path, -1, NULL, "create the file (is the directory writable?)");
    h5u_close(fapl);
    return f;
}

static herr_t find_lock_failure(unsigned n, const H5E_error2_t *e, void *data)
{
    (void)n;
    if (e->min_num == H5E_CANTLOCKFILE)
        *(int *)data = 1;
    return 0;
}

hid_t h5u_file_open(const char *path, int writable, ev_error *err)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), f = -1;
    int locked = 0;
    h5u_init();
    if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0 ||
        (f = H5Fopen(path, writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, fapl)) < 0) {
        H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, find_lock_failure, &locked);
        if (locked) {
            H5Eclear2(H5E_DEFAULT);
            ev_fail(err, EV_EBUSY,
                    "%s: cannot open the file: another program is writing it (HDF5's file lock); let it finish, or "
                    "close it there, and try again",
                    path);
        } else {
            h5u_fail(err, EV_EIO, path, -1, NULL, "open the file");
        }
    }
    h5u_close(fapl);
    return f;
}

int h5u_exists(hid_t loc, const char *name, int as_attr)
{
    char path[1024];
    size_t n = strlen(name);
    htri_t e;
    if (as_attr) {
        e = H5Aexists(loc, name);
        return e < 0 ? -1 : e > 0;
    }
    if (n >= sizeof path)
        return -1;
    /* H5Lexists fails (rather than saying no) when a parent is missing, so
     * "a/b/c" is checked one level at a time */
    memcpy(path, name, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        path[i] = '\0';
        e = H5Lexists(loc, path, H5P_DEFAULT);
        if (e <= 0)
            return e < 0 ? -1 : 0;
        path[i] = name[i];
    }
    return 1;
}

/* Chunking and compression for large arrays; the default (contiguous) for
 * small or empty ones. */
static hid_t array_create_plist(int rank, const hsize_t *dims)
{
    hsize_t total = 1, chunk[2];
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0)
        return -1;
    for (int i = 0; i < rank; i++)
        total *= dims[i];
    if (total < H5U_COMPRESS_MIN)
        return dcpl;
    for (int i = 0; i < rank; i++)
        chunk[i] = 1;
    chunk[rank - 1] = dims[rank - 1] < H5U_CHUNK_ELEMS ? dims[rank - 1] : H5U_CHUNK_ELEMS;
    if (H5Pset_chunk(dcpl, rank, chunk) < 0 || H5Pset_shuffle(dcpl) < 0 ||
        (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0 && H5Pset_deflate(dcpl, 4) < 0)) {
        H5Pclose(dcpl);
        return -1;
    }
    return dcpl;
}

ev_status h5u_write_array(const char *file, hid_t loc, const char *name, hid_t mem_type, hid_t file_type, int rank,
                          const hsize_t *dims, const void *data, ev_error *err)
{
    hid_t space = H5Screate_simple(rank, dims, NULL);
    hid_t dcpl = array_create_plist(rank, dims);
    hid_t d = -1;
    ev_status st = EV_OK;
    if (space < 0 || dcpl < 0 || (d = H5Dcreate2(loc, name, file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0)
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "create dataset");
    else if (H5Sget_simple_extent_npoints(space) > 0 && H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "write");
    h5u_close(d);
    h5u_close(dcpl);
    h5u_close(space);
    return st;
}

/* The dataset's shape, checked against the expected rank. */
static ev_status read_shape(const char *file, hid_t loc, const char *name, hid_t d, int rank, hsize_t *dims,
                            ev_error *err)
{
    hid_t space = H5Dget_space(d);
    int got = space < 0 ? -1 : H5Sget_simple_extent_ndims(space);
    ev_status st = EV_OK;
    if (got != rank || H5Sget_simple_extent_dims(space, dims, NULL) < 0)
        st = got < 0 ? h5u_fail(err, EV_EHDF5, file, loc, name, "read the shape of")
                     : ev_fail(err, EV_EDATA,
                               "%s: %s has %d dimension(s), expected %d; the file is "
                               "not a dataset written by 'evolve ingest'",
                               file, name, got, rank);
    h5u_close(space);
    return st;
}

ev_status h5u_read_array(const char *file, hid_t loc, const char *name, hid_t mem_type, int rank, hsize_t *dims,
                         void **data, ev_error *err)
{
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT), type = -1;
    hsize_t total = 1;
    ev_status st = EV_OK;
    *data = NULL;
    if (d < 0 || (type = H5Dget_type(d)) < 0)
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "open dataset");
    else if (!h5u_type_matches(type, mem_type))
        st = ev_fail(err, EV_EDATA,
                     "%s: %s has an unexpected element type; the file is not a "
                     "dataset written by 'evolve ingest'",
                     file, name);
    else
        st = read_shape(file, loc, name, d, rank, dims, err);
    if (st == EV_OK) {
        for (int i = 0; i < rank; i++)
            total *= dims[i];
        *data = malloc(total ? (size_t)total * H5Tget_size(mem_type) : 1);
        if (!*data)
            st = ev_fail(err, EV_ENOMEM, "%s: out of memory reading %s", file, name);
        else if (total && H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data) < 0)
            st = h5u_fail(err, EV_EHDF5, file, loc, name, "read");
    }
    if (st != EV_OK) {
        free(*data);
        *data = NULL;
    }
    h5u_close(type);
    h5u_close(d);
    return st;
}

ev_status h5u_write_strings(const char *file, hid_t loc, const char *name, int as_attr, const char *const *s, size_t n,
                            ev_error *err)
{
    hsize_t dim = n;
    hid_t type = h5u_string_type(), space = H5Screate_simple(1, &dim, NULL), obj = -1;
    herr_t rc = -1;
    ev_status st;
    /* an attribute list is replaced, like a scalar attribute */
    if (type >= 0 && space >= 0 && (!as_attr || h5u_exists(loc, name, 1) == 0 || H5Adelete(loc, name) >= 0)) {
        obj = as_attr ? H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT)
                      : H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (obj >= 0)
            rc = n == 0 ? 0 : as_attr ? H5Awrite(obj, type, s) : H5Dwrite(obj, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, s);
    }
    st = rc < 0 ? h5u_fail(err, EV_EHDF5, file, loc, name, "write strings") : EV_OK;
    h5u_close(obj);
    h5u_close(space);
    h5u_close(type);
    return st;
}

static void free_strings(char **s, size_t n)
{
    if (s)
        for (size_t i = 0; i < n; i++)
            free(s[i]);
    free(s);
}

/* Copies HDF5's variable-length strings into malloc'ed ones. */
static char **copy_strings(char *const *raw, size_t n)
{
    char **s = (char **)calloc(n ? n : 1, sizeof *s);
    for (size_t i = 0; s && i < n; i++) {
        const char *src = raw[i] ? raw[i] : "";
        if (!(s[i] = ev_strdup(src))) {
            free_strings(s, i);
            return NULL;
        }
    }
    return s;
}

ev_status h5u_read_strings(const char *file, hid_t loc, const char *name, int as_attr, char ***s, size_t *n,
                           ev_error *err)
{
    hid_t type = h5u_string_type(), space = -1, stored = -1;
    hid_t obj = as_attr ? H5Aopen(loc, name, H5P_DEFAULT) : H5Dopen2(loc, name, H5P_DEFAULT);
    hsize_t dim = 0;
    char **raw = NULL;
    ev_status st = EV_OK;
    *s = NULL;
    *n = 0;
    if (obj >= 0) {
        space = as_attr ? H5Aget_space(obj) : H5Dget_space(obj);
        stored = as_attr ? H5Aget_type(obj) : H5Dget_type(obj);
    }
    if (type < 0 || obj < 0 || space < 0 || stored < 0)
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "open");
    else if (H5Tget_class(stored) != H5T_STRING || !H5Tis_variable_str(stored) ||
             H5Sget_simple_extent_ndims(space) != 1 || H5Sget_simple_extent_dims(space, &dim, NULL) < 0)
        st = ev_fail(err, EV_EDATA,
                     "%s: %s is not a list of strings; the file is not a dataset "
                     "written by 'evolve ingest'",
                     file, name);
    else if (!(raw = (char **)calloc(dim ? (size_t)dim : 1, sizeof *raw)))
        st = ev_fail(err, EV_ENOMEM, "%s: out of memory reading %s", file, name);
    else if (dim && (as_attr ? H5Aread(obj, type, raw) : H5Dread(obj, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw)) < 0)
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "read");
    else {
        if (!(*s = copy_strings(raw, (size_t)dim)))
            st = ev_fail(err, EV_ENOMEM, "%s: out of memory reading %s", file, name);
        *n = *s ? (size_t)dim : 0;
        if (dim)
            H5Dvlen_reclaim(type, space, H5P_DEFAULT, raw);
    }
    free(raw);
    h5u_close(stored);
    h5u_close(space);
    h5u_close(type);
    h5u_close(obj);
    return st;
}

ev_status h5u_write_attr(const char *file, hid_t loc, const char *name, hid_t mem_type, hid_t file_type,
                         const void *value, ev_error *err)
{
    hid_t space = H5Screate(H5S_SCALAR), a = -1;
    herr_t rc = -1;
    int exists = h5u_exists(loc, name, 1);
    ev_status st;
    if (space >= 0 && exists >= 0 && (!exists || H5Adelete(loc, name) >= 0) &&
        (a = H5Acreate2(loc, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT)) >= 0)
        rc = H5Awrite(a, mem_type, value);
    st = rc < 0 ? h5u_fail(err, EV_EHDF5, file, loc, name, "write attribute") : EV_OK;
    h5u_close(a);
    h5u_close(space);
    return st;
}

/* 1 when attribute a holds exactly one element: H5Aread writes every element
   the file claims into the caller's single-element buffer. */
static int attr_is_single(hid_t a)
{
    hid_t space = H5Aget_space(a);
    hssize_t n = space < 0 ? -1 : H5Sget_simple_extent_npoints(space);
    h5u_close(space);
    return n == 1;
}

ev_status h5u_read_attr(const char *file, hid_t loc, const char *name, hid_t mem_type, void *value, ev_error *err)
{
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT), stored = a < 0 ? -1 : H5Aget_type(a);
    ev_status st = EV_OK;
    if (a < 0 || stored < 0)
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "open attribute");
    else if (!h5u_type_matches(stored, mem_type) || !attr_is_single(a))
        st = ev_fail(err, EV_EDATA,
                     "%s: attribute %s has an unexpected type or shape; the file is not a "
                     "dataset written by 'evolve ingest'",
                     file, name);
    else if (H5Aread(a, mem_type, value) < 0)
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "read attribute");
    h5u_close(stored);
    h5u_close(a);
    return st;
}

ev_status h5u_write_attr_str(const char *file, hid_t loc, const char *name, const char *s, ev_error *err)
{
    hid_t type = h5u_string_type();
    ev_status st;
    const char *v = s ? s : "";
    if (type < 0)
        return h5u_fail(err, EV_EHDF5, file, loc, name, "write attribute");
    st = h5u_write_attr(file, loc, name, type, type, &v, err);
    h5u_close(type);
    return st;
}

ev_status h5u_read_attr_str(const char *file, hid_t loc, const char *name, char **s, ev_error *err)
{
    hid_t type = h5u_string_type(), a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t stored = a < 0 ? -1 : H5Aget_type(a);
    char *raw = NULL;
    ev_status st = EV_OK;
    *s = NULL;
    if (type < 0 || a < 0 || stored < 0)
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "open attribute");
    else if (H5Tget_class(stored) != H5T_STRING || !H5Tis_variable_str(stored) || !attr_is_single(a))
        st = ev_fail(err, EV_EDATA,
                     "%s: attribute %s is not a single string; the file is not a dataset "
                     "written by 'evolve ingest'",
                     file, name);
    else if (H5Aread(a, type, &raw) < 0)
        st = h5u_fail(err, EV_EHDF5, file, loc, name, "read attribute");
    else {
        char **copy = copy_strings(&raw, 1);
        if (!copy)
            st = ev_fail(err, EV_ENOMEM, "%s: out of memory reading %s", file, name);
        else
            *s = copy[0];
        free(copy);
        H5free_memory(raw);
    }
    h5u_close(stored);
    h5u_close(a);
    h5u_close(type);
    return st;
}
