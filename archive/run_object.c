/* The run file's primitives, below both the writer (archive/run_write.c)
 * and the reader (archive/run_read.c): opening an object, attributes in and
 * out, closing the file. Every HDF5 call is checked through io/h5_util. */
#include <stdlib.h>
#include <string.h>

#include "archive/run_internal.h"
#include "io/h5_util.h"

hid_t run_object_open(run_file_t *rf, const char *object, int create, ev_error *err)
{
    hid_t o, lcpl;
    if (!strcmp(object, "/"))
        object = ".";
    if (h5u_exists(rf->file, object, 0) > 0 || !strcmp(object, ".")) {
        if ((o = H5Oopen(rf->file, object, H5P_DEFAULT)) < 0)
            h5u_fail(err, EV_EHDF5, rf->path, rf->file, object, "open");
        return o;
    }
    if (!create) {
        ev_fail(err, EV_EDATA, "%s: /%s is missing", rf->path, object);
        return -1;
    }
    lcpl = H5Pcreate(H5P_LINK_CREATE);
    o = lcpl < 0 || H5Pset_create_intermediate_group(lcpl, 1) < 0
            ? -1
            : H5Gcreate2(rf->file, object, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    if (o < 0)
        h5u_fail(err, EV_EHDF5, rf->path, rf->file, object, "create group");
    h5u_close(lcpl);
    return o;
}

static ev_status attr_write(run_file_t *rf, const char *object, const char *name, hid_t mem, hid_t file_type,
                            const void *value, ev_error *err)
{
    hid_t o = run_object_open(rf, object, 1, err);
    ev_status st = o < 0 ? EV_EHDF5 : h5u_write_attr(rf->path, o, name, mem, file_type, value, err);
    h5u_close(o);
    return st;
}

ev_status run_file_attr_str(run_file_t *rf, const char *object, const char *name, const char *value, ev_error *err)
{
    hid_t o = run_object_open(rf, object, 1, err);
    ev_status st = o < 0 ? EV_EHDF5 : h5u_write_attr_str(rf->path, o, name, value, err);
    h5u_close(o);
    return st;
}

ev_status run_file_attr_u64(run_file_t *rf, const char *object, const char *name, uint64_t value, ev_error *err)
{
    return attr_write(rf, object, name, H5T_NATIVE_UINT64, H5T_STD_U64LE, &value, err);
}

ev_status run_file_attr_f64(run_file_t *rf, const char *object, const char *name, double value, ev_error *err)
{
    return attr_write(rf, object, name, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, &value, err);
}

int run_file_has(run_file_t *rf, const char *object)
{
    return h5u_exists(rf->file, object, 0) > 0;
}

ev_status run_file_read_str(run_file_t *rf, const char *object, const char *name, int optional, char **value,
                            ev_error *err)
{
    hid_t o;
    ev_status st;
    *value = NULL;
    if (optional && !run_file_has(rf, object) && strcmp(object, "/"))
        return EV_OK;
    if ((o = run_object_open(rf, object, 0, err)) < 0)
        return EV_EDATA;
    st = optional && h5u_exists(o, name, 1) == 0 ? EV_OK : h5u_read_attr_str(rf->path, o, name, value, err);
    h5u_close(o);
    return st;
}

static ev_status read_num(run_file_t *rf, const char *object, const char *name, hid_t mem, void *value, ev_error *err)
{
    hid_t o = run_object_open(rf, object, 0, err);
    ev_status st = o < 0 ? EV_EDATA : h5u_read_attr(rf->path, o, name, mem, value, err);
    h5u_close(o);
    return st;
}

ev_status run_file_read_u64(run_file_t *rf, const char *object, const char *name, uint64_t *value, ev_error *err)
{
    return read_num(rf, object, name, H5T_NATIVE_UINT64, value, err);
}

ev_status run_file_read_f64(run_file_t *rf, const char *object, const char *name, double *value, ev_error *err)
{
    return read_num(rf, object, name, H5T_NATIVE_DOUBLE, value, err);
}

ev_status run_file_close(run_file_t *rf, ev_error *err)
{
    ev_status st = EV_OK;
    for (int c = 0; rf->cols_open && c < RUN_N_COLUMNS; c++)
        h5u_close(rf->col[c]);
    rf->cols_open = 0;
    if (rf->file >= 0 && H5Fclose(rf->file) < 0)
        st = h5u_fail(err, EV_EIO, rf->path ? rf->path : "run file", -1, NULL, "finish writing");
    rf->file = -1;
    free(rf->path);
    rf->path = NULL;
    return st;
}

void run_file_free_strings(char **s, size_t n)
{
    if (!s)
        return;
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}
