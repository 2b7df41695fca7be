/* dataset_read_h5 / dataset_read_fingerprint: the layout of docs/dataset.md,
 * checked (format, types, shapes, content hash) as it is read. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "common/strutil.h"
#include "io/dataset_h5.h"
#include "io/dataset_h5_layout.h"
#include "io/h5_util.h"

#define DATASET_WHAT "a dataset written by 'evolve ingest'"
static const char *const not_dataset = "expected " DATASET_WHAT;

/* Opens a dataset file read-only and checks its format attributes. */
static ev_status open_dataset(const char *path, hid_t *file, ev_error *err)
{
    hid_t fapl;
    char *format = NULL;
    int32_t version = 0;
    ev_status st;
    *file = -1;
    h5u_init();
    /* H5Fis_hdf5 would wait forever on a named pipe. */
    if ((st = plat_check_input(path, DATASET_WHAT, NULL, err)) != EV_OK)
        return st;
    if (H5Fis_hdf5(path) <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return ev_fail(err, EV_EDATA, "%s: not an HDF5 file (or unreadable); %s", path, not_dataset);
    }
    fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0 ||
        (*file = H5Fopen(path, H5F_ACC_RDONLY, fapl)) < 0) {
        st = h5u_fail(err, EV_EIO, path, -1, NULL, "open the dataset file");
        h5u_close(fapl);
        return st;
    }
    h5u_close(fapl);
    st = h5u_read_attr_str(path, *file, "format", &format, err);
    if (st != EV_OK || strcmp(format, DATASET_H5_FORMAT) != 0)
        st = ev_fail(err, EV_EDATA, "%s: not an evolve dataset (no format attribute \"%s\"); %s", path,
                     DATASET_H5_FORMAT, not_dataset);
    free(format);
    if (st == EV_OK && (st = h5u_read_attr(path, *file, "format_version", H5T_NATIVE_INT32, &version, err)) == EV_OK &&
        version != DATASET_H5_VERSION)
        st = ev_fail(err, EV_EDATA,
                     "%s: dataset format version %d; this evolve reads version %d "
                     "(rebuild it with 'evolve ingest')",
                     path, (int)version, DATASET_H5_VERSION);
    if (st != EV_OK) {
        H5Fclose(*file);
        *file = -1;
    }
    return st;
}

static ev_status length_mismatch(const char *path, const char *group, const char *name, hsize_t got, int64_t want,
                                 ev_error *err)
{
    return ev_fail(err, EV_EDATA,
                   "dataset %s is corrupt: /%s/%s has %llu element(s), expected "
                   "%lld like the other arrays of its group",
                   path, group, name, (unsigned long long)got, (long long)want);
}

/* The 1-D arrays of the layout table; lengths[] learns n_prices and n_trades
 * from the first array of each and holds the others to them. */
static ev_status read_arrays(const char *path, hid_t file, dataset_t *ds, ev_error *err)
{
    int64_t lengths[DSH5_N_LENGTHS] = {ds->n_tickers, -1, -1};
    ev_status st = EV_OK;
    for (int i = 0; i < dataset_h5_n_arrays && st == EV_OK; i++) {
        const dataset_h5_array_t *a = &dataset_h5_arrays[i];
        hid_t g = h5u_group_open(path, file, a->group, err);
        hsize_t n = 0;
        void *p = NULL;
        if (g < 0)
            return EV_EHDF5;
        st = h5u_read_array(path, g, a->name, dataset_h5_mem_type(a->elem), 1, &n, &p, err);
        h5u_close(g);
        if (st != EV_OK)
            return st;
        dataset_h5_set_field(ds, a->offset, p);
        if (lengths[a->len] < 0)
            lengths[a->len] = (int64_t)n;
        else if ((int64_t)n != lengths[a->len])
            st = length_mismatch(path, a->group, a->name, n, lengths[a->len], err);
    }
    ds->n_prices = lengths[DSH5_N_PRICES];
    ds->n_trades = lengths[DSH5_N_TRADES];
    return st;
}

static ev_status read_features(const char *path, hid_t file, dataset_t *ds, ev_error *err)
{
    hid_t trades = h5u_group_open(path, file, "trades", err), d = -1;
    hsize_t dims[2] = {0, 0};
    void *p = NULL;
    size_t n_names = 0;
    ev_status st = trades < 0 ? EV_EHDF5 : EV_OK;
    if (st == EV_OK)
        st = h5u_read_array(path, trades, "features", H5T_NATIVE_DOUBLE, 2, dims, &p, err);
    ds->features = (double *)p;
    ds->n_features = (int32_t)dims[0];
    if (st == EV_OK && (int64_t)dims[1] != ds->n_trades)
        st = length_mismatch(path, "trades", "features", dims[1], ds->n_trades, err);
    if (st == EV_OK && (d = H5Dopen2(trades, "features", H5P_DEFAULT)) < 0)
        st = h5u_fail(err, EV_EHDF5, path, trades, "features", "open dataset");
    if (st == EV_OK)
        st = h5u_read_strings(path, d, "names", 1, &ds->feature_names, &n_names, err);
    if (st == EV_OK && n_names != dims[0])
        st = ev_fail(err, EV_EDATA,
                     "dataset %s is corrupt: /trades/features has %llu row(s) but "
                     "%zu name(s)",
                     path, (unsigned long long)dims[0], n_names);
    if (ds->feature_names == NULL)
        ds->n_features = 0; /* keep dataset_free's view consistent */
    else if (n_names != dims[0])
        ds->n_features = (int32_t)n_names; /* dataset_free frees the names that were read */
    h5u_close(d);
    h5u_close(trades);
    return st;
}

static ev_status read_sources(const char *path, hid_t prov, dataset_t *ds, ev_error *err)
{
    hid_t mem = dataset_h5_source_type(0), d = H5Dopen2(prov, "sources", H5P_DEFAULT);
    hid_t space = d < 0 ? -1 : H5Dget_space(d);
    hssize_t n = space < 0 ? -1 : H5Sget_simple_extent_npoints(space);
    dataset_source_t *raw = NULL;
    ev_status st = EV_OK;
    if (d < 0 || mem < 0 || n < 0)
        st = h5u_fail(err, EV_EHDF5, path, prov, "sources", "open dataset");
    else if (!(raw = (dataset_source_t *)calloc((size_t)n + 1, sizeof *raw)) ||
             !(ds->sources = (dataset_source_t *)calloc((size_t)n + 1, sizeof *ds->sources)))
        st = ev_fail(err, EV_ENOMEM, "%s: out of memory reading /provenance/sources", path);
    else if (n > 0 && H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw) < 0)
        st = h5u_fail(err, EV_EHDF5, path, prov, "sources", "read");
    else {
        for (hssize_t i = 0; i < n; i++, ds->n_sources++) {
            const char *sp = raw[i].path ? raw[i].path : "", *sk = raw[i].kind ? raw[i].kind : "";
            ds->sources[i] = raw[i];
            ds->sources[i].path = ev_strdup(sp);
            ds->sources[i].kind = ev_strdup(sk);
            if (!ds->sources[i].path || !ds->sources[i].kind) {
                st = ev_fail(err, EV_ENOMEM, "%s: out of memory reading /provenance/sources", path);
                ds->n_sources++; /* so dataset_free releases this row too */
                break;
            }
        }
        if (n > 0)
            H5Dvlen_reclaim(mem, space, H5P_DEFAULT, raw);
    }
    free(raw);
    h5u_close(space);
    h5u_close(mem);
    h5u_close(d);
    return st;
}

static ev_status read_counts(const char *path, hid_t file, dataset_t *ds, ev_error *err)
{
    hid_t drops = h5u_group_open(path, file, "drops", err);
    hid_t prov = drops < 0 ? -1 : h5u_group_open(path, file, "provenance", err);
    ev_status st = prov < 0 ? EV_EHDF5 : EV_OK;
    for (int r = 0; r < DROP_REASON_COUNT && st == EV_OK; r++)
        st = h5u_read_attr(path, drops, drop_reason_name((drop_reason)r), H5T_NATIVE_INT64, &ds->drops[r], err);
    for (int i = 0; i < dataset_h5_n_counts && st == EV_OK; i++)
        st = h5u_read_attr(path, prov, dataset_h5_counts[i].name, H5T_NATIVE_INT64,
                           (char *)ds + dataset_h5_counts[i].offset, err);
    if (st == EV_OK)
        st = h5u_read_attr_str(path, prov, "tool_version", &ds->tool_version, err);
    if (st == EV_OK)
        st = h5u_read_attr_str(path, prov, "created_utc", &ds->created_utc, err);
    if (st == EV_OK)
        st = h5u_read_attr(path, prov, "input_fingerprint", H5T_NATIVE_UINT64, &ds->input_fingerprint, err);
    if (st == EV_OK)
        st = h5u_read_attr(path, prov, "content_hash", H5T_NATIVE_UINT64, &ds->content_hash, err);
    if (st == EV_OK)
        st = read_sources(path, prov, ds, err);
    h5u_close(prov);
    h5u_close(drops);
    return st;
}

/* Index invariants the fitness code relies on without checking (ranges
 * inside the arrays, paths inside their ticker's range). */
static ev_status check_indexes(const char *path, const dataset_t *ds, ev_error *err)
{
    for (int32_t k = 0; k < ds->n_tickers; k++)
        if (ds->ticker_begin[k] < 0 || ds->ticker_begin[k] > ds->ticker_end[k] || ds->ticker_end[k] > ds->n_prices)
            return ev_fail(err, EV_EDATA,
                           "dataset %s is corrupt: ticker %s has the price range "
                           "[%lld, %lld) outside [0, %lld)",
                           path, ds->tickers[k], (long long)ds->ticker_begin[k], (long long)ds->ticker_end[k],
                           (long long)ds->n_prices);
    for (int64_t j = 0; j < ds->n_trades; j++) {
        int32_t k = ds->ticker[j];
        if (k < 0 || k >= ds->n_tickers || ds->start[j] < ds->ticker_begin[k] || ds->start[j] >= ds->end[j] ||
            ds->end[j] > ds->ticker_end[k])
            return ev_fail(err, EV_EDATA,
                           "dataset %s is corrupt: trade %lld (ticker id %d) has the "
                           "price path [%lld, %lld) outside its ticker's range",
                           path, (long long)j, (int)k, (long long)ds->start[j], (long long)ds->end[j]);
    }
    return EV_OK;
}

static ev_status read_all(const char *path, hid_t file, dataset_t *ds, ev_error *err)
{
    size_t n = 0;
    uint64_t h;
    ev_status st = h5u_read_strings(path, file, "tickers", 0, &ds->tickers, &n, err);
    ds->n_tickers = (int32_t)n;
    if (st == EV_OK)
        st = read_arrays(path, file, ds, err);
    if (st == EV_OK)
        st = read_features(path, file, ds, err);
    if (st == EV_OK)
        st = read_counts(path, file, ds, err);
    if (st != EV_OK)
        return st;
    h = dataset_content_hash(ds);
    if (h != ds->content_hash)
        return ev_fail(err, EV_EDATA,
                       "dataset %s is corrupt: its arrays do not match the content hash stored "
                       "with them (stored %016" PRIx64 ", computed %016" PRIx64
                       "); delete it and run 'evolve ingest' again",
                       path, ds->content_hash, h);
    return check_indexes(path, ds, err);
}

ev_status dataset_read_h5(const char *path, dataset_t *ds, ev_error *err)
{
    hid_t file;
    ev_status st;
    memset(ds, 0, sizeof *ds);
    if ((st = open_dataset(path, &file, err)) != EV_OK)
        return st;
    st = read_all(path, file, ds, err);
    if (H5Fclose(file) < 0 && st == EV_OK)
        st = h5u_fail(err, EV_EHDF5, path, -1, NULL, "close the dataset file");
    if (st != EV_OK)
        dataset_free(ds);
    return st;
}

ev_status dataset_read_fingerprint(const char *path, uint64_t *fp, ev_error *err)
{
    hid_t file, prov;
    ev_status st;
    if ((st = open_dataset(path, &file, err)) != EV_OK)
        return st;
    prov = h5u_group_open(path, file, "provenance", err);
    st = prov < 0 ? EV_EHDF5 : h5u_read_attr(path, prov, "input_fingerprint", H5T_NATIVE_UINT64, fp, err);
    h5u_close(prov);
    H5Fclose(file);
    return st;
}
