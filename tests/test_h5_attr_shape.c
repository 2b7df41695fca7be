/* A damaged or hand-edited HDF5 file whose "scalar" attribute holds several
 * elements: h5u_read_attr and h5u_read_attr_str refuse it with a message
 * naming the attribute, and never let HDF5 write the extra elements past the
 * caller's one-element buffer (the fuzzers' checkpoint and run-file readers
 * pass a single uint64_t or char pointer). */
#include <hdf5.h>
#include <stdint.h>
#include <stdlib.h>

#include "io/h5_util.h"
#include "tests/check.h"

#define FILE_NAME "tmp_h5_attr_shape.h5"

/* Attribute `name` on the root group: n elements of `type`, values `v`. */
static int write_attr(hid_t f, const char *name, hid_t type, hsize_t n, const void *v)
{
    hid_t space = H5Screate_simple(1, &n, NULL);
    hid_t a = space < 0 ? -1 : H5Acreate2(f, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    int bad = a < 0 || H5Awrite(a, type, v) < 0;
    h5u_close(a);
    h5u_close(space);
    return bad ? -1 : 0;
}

int main(void)
{
    ev_error err;
    uint64_t nums[4] = {7, 8, 9, 10};
    const char *strs[3] = {"a", "b", "c"};
    hid_t str = h5u_string_type();
    hid_t f = h5u_file_create(FILE_NAME, &err);
    CHECK(f >= 0 && str >= 0);
    CHECK_EQ_I64(0, write_attr(f, "one", H5T_NATIVE_UINT64, 1, nums));
    CHECK_EQ_I64(0, write_attr(f, "four", H5T_NATIVE_UINT64, 4, nums));
    CHECK_EQ_I64(0, write_attr(f, "three_strings", str, 3, strs));

    /* one element: read */
    uint64_t got[4] = {0, 111, 111, 111};
    CHECK_EQ_I64(EV_OK, h5u_read_attr(FILE_NAME, f, "one", H5T_NATIVE_UINT64, got, &err));
    CHECK_EQ_I64(7, (int64_t)got[0]);

    /* four elements: refused, nothing written past the first */
    uint64_t guard[4] = {0, 111, 111, 111};
    CHECK_EQ_I64(EV_EDATA, h5u_read_attr(FILE_NAME, f, "four", H5T_NATIVE_UINT64, guard, &err));
    CHECK_CONTAINS(err.msg, "attribute four has an unexpected type or shape");
    CHECK_EQ_I64(111, (int64_t)guard[1]);
    CHECK_EQ_I64(111, (int64_t)guard[3]);

    /* three strings where one is expected: refused, no string handed back */
    char *s = (char *)"untouched";
    CHECK_EQ_I64(EV_EDATA, h5u_read_attr_str(FILE_NAME, f, "three_strings", &s, &err));
    CHECK_CONTAINS(err.msg, "attribute three_strings is not a single string");
    CHECK(s == NULL);

    h5u_close(str);
    H5Fclose(f);
    remove(FILE_NAME);
    return check_exit();
}
