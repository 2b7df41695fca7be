#include "archive/run_stats.h"

#include <stdlib.h>
#include <string.h>

#include "archive/run_internal.h"
#include "io/h5_util.h"

ev_status run_file_write_stats(run_file_t *rf, const char *path, const trade_stats_t *stats, uint32_t rows,
                               ev_error *err)
{
    hsize_t n[1];
    hid_t g;
    ev_status st = EV_OK;
    double *d;
    int64_t *c;
    if (!stats)
        return EV_OK;
    if (h5u_exists(rf->file, path, 0) > 0 && H5Ldelete(rf->file, path, H5P_DEFAULT) < 0)
        return h5u_fail(err, EV_EHDF5, rf->path, rf->file, path, "replace");
    if ((g = run_object_open(rf, path, 1, err)) < 0)
        return EV_EHDF5;
    d = (double *)malloc(((size_t)rows + 1) * sizeof *d);
    c = (int64_t *)malloc(((size_t)rows + 1) * sizeof *c);
    if (!d || !c)
        st = ev_fail(err, EV_ENOMEM, "out of memory writing %s", path);
    n[0] = rows;
    for (int f = 0; f < TRADE_STAT_FIELDS && st == EV_OK; f++) {
        const trade_stat_field_t *fd = &trade_stat_fields[f];
        if (rows && !trade_stat_shown(&stats[0], f)) /* the rows of one run agree */
            continue;
        for (uint32_t i = 0; i < rows; i++) {
            d[i] = trade_stat_get(&stats[i], f);
            c[i] = (int64_t)d[i];
        }
        st = fd->is_count ? h5u_write_array(rf->path, g, fd->name, H5T_NATIVE_INT64, H5T_STD_I64LE, 1, n, c, err)
                          : h5u_write_array(rf->path, g, fd->name, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, n, d, err);
    }
    free(d);
    free(c);
    h5u_close(g);
    return st;
}

ev_status run_file_read_stats(run_file_t *rf, const char *path, uint32_t n, trade_stats_t **out, ev_error *err)
{
    hid_t g;
    ev_status st = EV_OK;
    *out = NULL;
    if (!run_file_has(rf, path))
        return EV_OK;
    if ((g = run_object_open(rf, path, 0, err)) < 0)
        return EV_EHDF5;
    if (!(*out = (trade_stats_t *)calloc((size_t)n + 1, sizeof **out))) {
        h5u_close(g);
        return ev_fail(err, EV_ENOMEM, "out of memory reading %s", path);
    }
    for (int f = 0; f < TRADE_STAT_FIELDS && st == EV_OK; f++) {
        const trade_stat_field_t *fd = &trade_stat_fields[f];
        hsize_t dims[1];
        void *data = NULL;
        if (fd->more_exit && h5u_exists(g, fd->name, 0) <= 0)
            continue; /* written only for lattices with SPEC sec. 4.1's exits */
        if (fd->more_exit)
            for (uint32_t i = 0; i < n; i++)
                (*out)[i].more_exits = 1;
        st = h5u_read_array(rf->path, g, fd->name, fd->is_count ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE, 1, dims, &data,
                            err);
        if (st == EV_OK && dims[0] != n)
            st = ev_fail(err, EV_EDATA, "%s: /%s/%s holds %llu rows, its list %u (a damaged or edited run file)",
                         rf->path, path, fd->name, (unsigned long long)dims[0], n);
        for (uint32_t i = 0; i < n && st == EV_OK; i++)
            trade_stat_set(&(*out)[i], f,
                           fd->is_count ? (double)((const int64_t *)data)[i] : ((const double *)data)[i]);
        free(data);
    }
    h5u_close(g);
    if (st != EV_OK) {
        free(*out);
        *out = NULL;
    }
    return st;
}
