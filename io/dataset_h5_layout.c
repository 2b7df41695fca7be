#include "io/dataset_h5_layout.h"

#include <string.h>

#include "io/h5_util.h"

#define ARRAY(group, name, elem, len)                      \
    {                                                      \
        group, #name, elem, len, offsetof(dataset_t, name) \
    }

const dataset_h5_array_t dataset_h5_arrays[] = {
    ARRAY("market", price, DSH5_F32, DSH5_N_PRICES),         ARRAY("market", ts, DSH5_I64, DSH5_N_PRICES),
    ARRAY("market", ticker_begin, DSH5_I64, DSH5_N_TICKERS), ARRAY("market", ticker_end, DSH5_I64, DSH5_N_TICKERS),
    ARRAY("trades", ticker, DSH5_I32, DSH5_N_TRADES),        ARRAY("trades", trade_id, DSH5_I64, DSH5_N_TRADES),
    ARRAY("trades", source_row, DSH5_I64, DSH5_N_TRADES),    ARRAY("trades", entry_ts, DSH5_I64, DSH5_N_TRADES),
    ARRAY("trades", exit_ts, DSH5_I64, DSH5_N_TRADES),       ARRAY("trades", start, DSH5_I64, DSH5_N_TRADES),
    ARRAY("trades", end, DSH5_I64, DSH5_N_TRADES),           ARRAY("trades", entry_price, DSH5_F64, DSH5_N_TRADES),
    ARRAY("trades", pct_change, DSH5_F64, DSH5_N_TRADES),
};
const int dataset_h5_n_arrays = (int)(sizeof dataset_h5_arrays / sizeof dataset_h5_arrays[0]);

#define COUNT(name)                      \
    {                                    \
#name, offsetof(dataset_t, name) \
    }

const dataset_h5_count_t dataset_h5_counts[] = {
    COUNT(trades_read),       COUNT(trades_other_ticker),   COUNT(market_rows_read),
    COUNT(market_duplicates), COUNT(market_files_unsorted),
};
const int dataset_h5_n_counts = (int)(sizeof dataset_h5_counts / sizeof dataset_h5_counts[0]);

hid_t dataset_h5_mem_type(dataset_h5_elem e)
{
    switch (e) {
    case DSH5_I32: return H5T_NATIVE_INT32;
    case DSH5_I64: return H5T_NATIVE_INT64;
    case DSH5_F32: return H5T_NATIVE_FLOAT;
    case DSH5_F64: return H5T_NATIVE_DOUBLE;
    }
    return -1;
}

hid_t dataset_h5_file_type(dataset_h5_elem e)
{
    switch (e) {
    case DSH5_I32: return H5T_STD_I32LE;
    case DSH5_I64: return H5T_STD_I64LE;
    case DSH5_F32: return H5T_IEEE_F32LE;
    case DSH5_F64: return H5T_IEEE_F64LE;
    }
    return -1;
}

hid_t dataset_h5_source_type(int for_file)
{
    hid_t str = h5u_string_type(), t;
    hid_t i64 = for_file ? H5T_STD_I64LE : H5T_NATIVE_INT64;
    size_t vs = H5Tget_size(str);
    size_t size = for_file ? 2 * vs + 3 * 8 : sizeof(dataset_source_t);
    if (str < 0)
        return -1;
    t = H5Tcreate(H5T_COMPOUND, size);
    if (t >= 0 && (H5Tinsert(t, "path", for_file ? 0 : offsetof(dataset_source_t, path), str) < 0 ||
                   H5Tinsert(t, "kind", for_file ? vs : offsetof(dataset_source_t, kind), str) < 0 ||
                   H5Tinsert(t, "size", for_file ? 2 * vs : offsetof(dataset_source_t, size), i64) < 0 ||
                   H5Tinsert(t, "mtime_ns", for_file ? 2 * vs + 8 : offsetof(dataset_source_t, mtime_ns), i64) < 0 ||
                   H5Tinsert(t, "rows", for_file ? 2 * vs + 16 : offsetof(dataset_source_t, rows), i64) < 0)) {
        H5Tclose(t);
        t = -1;
    }
    H5Tclose(str);
    return t;
}

void *dataset_h5_field(const dataset_t *ds, size_t offset)
{
    void *p;
    memcpy(&p, (const char *)ds + offset, sizeof p);
    return p;
}

void dataset_h5_set_field(dataset_t *ds, size_t offset, void *p)
{
    memcpy((char *)ds + offset, &p, sizeof p);
}
