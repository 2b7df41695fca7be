/* dataset_write_h5: the layout of docs/dataset.md, written under a temporary
 * name and renamed into place. */
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "io/dataset_h5.h"
#include "io/dataset_h5_layout.h"
#include "io/h5_util.h"

static int64_t length_of(const dataset_t *ds, dataset_h5_len len)
{
    return len == DSH5_N_TICKERS ? ds->n_tickers : len == DSH5_N_PRICES ? ds->n_prices : ds->n_trades;
}

/* Every 1-D array of the layout table, in /market and /trades. */
static ev_status write_arrays(const dataset_t *ds, const char *path, hid_t market, hid_t trades, ev_error *err)
{
    ev_status st = EV_OK;
    for (int i = 0; i < dataset_h5_n_arrays && st == EV_OK; i++) {
        const dataset_h5_array_t *a = &dataset_h5_arrays[i];
        hsize_t n = (hsize_t)length_of(ds, a->len);
        st = h5u_write_array(path, strcmp(a->group, "market") == 0 ? market : trades, a->name,
                             dataset_h5_mem_type(a->elem), dataset_h5_file_type(a->elem), 1, &n,
                             dataset_h5_field(ds, a->offset), err);
    }
    return st;
}

/* /trades/features: float64[n_features][n_trades], attribute names. */
static ev_status write_features(const dataset_t *ds, const char *path, hid_t trades, ev_error *err)
{
    hsize_t dims[2] = {(hsize_t)ds->n_features, (hsize_t)ds->n_trades};
    ev_status st =
        h5u_write_array(path, trades, "features", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 2, dims, ds->features, err);
    hid_t d;
    if (st != EV_OK)
        return st;
    if ((d = H5Dopen2(trades, "features", H5P_DEFAULT)) < 0)
        return h5u_fail(err, EV_EHDF5, path, trades, "features", "open dataset");
    st = h5u_write_strings(path, d, "names", 1, (const char *const *)ds->feature_names, (size_t)ds->n_features, err);
    h5u_close(d);
    return st;
}

static ev_status write_drops(const dataset_t *ds, const char *path, hid_t file, ev_error *err)
{
    hid_t g = h5u_group_create(path, file, "drops", err);
    ev_status st = g < 0 ? EV_EHDF5 : EV_OK;
    for (int r = 0; r < DROP_REASON_COUNT && st == EV_OK; r++)
        st = h5u_write_attr(path, g, drop_reason_name((drop_reason)r), H5T_NATIVE_INT64, H5T_STD_I64LE, &ds->drops[r],
                            err);
    h5u_close(g);
    return st;
}

ev_status dataset_h5_write_sources(const dataset_t *ds, const char *path, hid_t prov, const char *name, ev_error *err)
{
    hsize_t n = (hsize_t)ds->n_sources;
    hid_t mem = dataset_h5_source_type(0), ftype = dataset_h5_source_type(1);
    hid_t space = H5Screate_simple(1, &n, NULL), d = -1;
    ev_status st = EV_OK;
    if (mem < 0 || ftype < 0 || space < 0 ||
        (d = H5Dcreate2(prov, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        st = h5u_fail(err, EV_EHDF5, path, prov, name, "create dataset");
    else if (n && H5Dwrite(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, ds->sources) < 0)
        st = h5u_fail(err, EV_EHDF5, path, prov, name, "write");
    h5u_close(d);
    h5u_close(space);
    h5u_close(ftype);
    h5u_close(mem);
    return st;
}

static ev_status write_provenance(const dataset_t *ds, const char *path, hid_t file, ev_error *err)
{
    hid_t g = h5u_group_create(path, file, "provenance", err);
    ev_status st = g < 0 ? EV_EHDF5 : EV_OK;
    if (st == EV_OK)
        st = h5u_write_attr_str(path, g, "tool_version", ds->tool_version, err);
    if (st == EV_OK)
        st = h5u_write_attr_str(path, g, "created_utc", ds->created_utc, err);
    if (st == EV_OK)
        st =
            h5u_write_attr(path, g, "input_fingerprint", H5T_NATIVE_UINT64, H5T_STD_U64LE, &ds->input_fingerprint, err);
    if (st == EV_OK)
        st = h5u_write_attr(path, g, "content_hash", H5T_NATIVE_UINT64, H5T_STD_U64LE, &ds->content_hash, err);
    for (int i = 0; i < dataset_h5_n_counts && st == EV_OK; i++)
        st = h5u_write_attr(path, g, dataset_h5_counts[i].name, H5T_NATIVE_INT64, H5T_STD_I64LE,
                            (const char *)ds + dataset_h5_counts[i].offset, err);
    if (st == EV_OK)
        st = dataset_h5_write_sources(ds, path, g, "sources", err);
    h5u_close(g);
    return st;
}

static ev_status write_all(const dataset_t *ds, const char *path, hid_t file, ev_error *err)
{
    int32_t version = DATASET_H5_VERSION;
    hid_t market = -1, trades = -1;
    ev_status st = h5u_write_attr_str(path, file, "format", DATASET_H5_FORMAT, err);
    if (st == EV_OK)
        st = h5u_write_attr(path, file, "format_version", H5T_NATIVE_INT32, H5T_STD_I32LE, &version, err);
    if (st == EV_OK)
        st = h5u_write_strings(path, file, "tickers", 0, (const char *const *)ds->tickers, (size_t)ds->n_tickers, err);
    if (st == EV_OK && ((market = h5u_group_create(path, file, "market", err)) < 0 ||
                        (trades = h5u_group_create(path, file, "trades", err)) < 0))
        st = EV_EHDF5;
    if (st == EV_OK)
        st = write_arrays(ds, path, market, trades, err);
    if (st == EV_OK)
        st = write_features(ds, path, trades, err);
    h5u_close(trades);
    h5u_close(market);
    if (st == EV_OK)
        st = write_drops(ds, path, file, err);
    if (st == EV_OK)
        st = write_provenance(ds, path, file, err);
    return st;
}

ev_status dataset_write_h5(const dataset_t *ds, const char *path, ev_error *err)
{
    char *tmp = plat_temp_name(path);
    hid_t fapl, file = -1;
    ev_status st = EV_OK;
    if (!tmp)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    h5u_init();
    /* STRONG: closing the file closes whatever an error path left open, so
     * the temporary file can always be removed. */
    fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0 ||
        (file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) < 0)
        st = h5u_fail(err, EV_EIO, path, -1, NULL, "create the dataset file");
    h5u_close(fapl);
    if (st == EV_OK)
        st = write_all(ds, path, file, err);
    if (file >= 0 && H5Fclose(file) < 0 && st == EV_OK)
        st = h5u_fail(err, EV_EIO, path, -1, NULL, "finish writing the dataset file");
    if (st == EV_OK)
        st = plat_rename_replace(tmp, path, err);
    if (st != EV_OK)
        plat_remove(tmp);
    free(tmp);
    return st;
}
