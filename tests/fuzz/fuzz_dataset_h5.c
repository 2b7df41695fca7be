/* The dataset reader (io/dataset_h5_read) on any file: the input is written
 * to a temporary .h5 file and opened through dataset_read_h5 and
 * dataset_read_fingerprint. A failure needs a message; an accepted dataset
 * must keep the reader's promises: arrays of consistent lengths, the stored
 * content hash equal to the arrays', every ticker range inside the price
 * array and every trade's path non-empty inside its ticker's range.
 * HDF5 1.10 itself can crash on damaged files: see README.md (run.sh sorts
 * such crashes out by their stack). */
#include <stdint.h>

#include "fuzz_common.h"
#include "io/dataset_h5.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_path(0, "in.h5");
    dataset_t ds;
    uint64_t fp = 0;
    ev_error err;
    ev_status st;
    fz_write(path, data, size);
    fz_err_reset(&err);
    st = dataset_read_h5(path, &ds, &err);
    fz_check_status(st, &err, "dataset_read_h5");
    if (st == EV_OK) {
        FZ_ASSERT(ds.content_hash == dataset_content_hash(&ds), "accepted with a wrong content hash");
        FZ_ASSERT(ds.n_tickers >= 0 && ds.n_prices >= 0 && ds.n_trades >= 0 && ds.n_features >= 0, "negative sizes");
        for (int32_t k = 0; k < ds.n_tickers; k++)
            FZ_ASSERT(ds.tickers[k] && 0 <= ds.ticker_begin[k] && ds.ticker_begin[k] <= ds.ticker_end[k] &&
                          ds.ticker_end[k] <= ds.n_prices,
                      "ticker %d range [%lld, %lld) of %lld prices", (int)k, (long long)ds.ticker_begin[k],
                      (long long)ds.ticker_end[k], (long long)ds.n_prices);
        for (int64_t j = 0; j < ds.n_trades; j++) {
            int32_t k = ds.ticker[j];
            FZ_ASSERT(k >= 0 && k < ds.n_tickers && ds.start[j] >= ds.ticker_begin[k] && ds.start[j] < ds.end[j] &&
                          ds.end[j] <= ds.ticker_end[k],
                      "trade %lld: path [%lld, %lld) of ticker %d", (long long)j, (long long)ds.start[j],
                      (long long)ds.end[j], (int)k);
        }
        for (int32_t f = 0; f < ds.n_features; f++)
            FZ_ASSERT(ds.feature_names[f], "feature %d has no name", (int)f);
        for (int32_t i = 0; i < ds.n_sources; i++)
            FZ_ASSERT(ds.sources[i].path && ds.sources[i].kind, "source %d without path or kind", (int)i);
        FZ_ASSERT(ds.tool_version && ds.created_utc, "no tool version or time");
        fz_err_reset(&err);
        st = dataset_read_fingerprint(path, &fp, &err);
        FZ_ASSERT(st == EV_OK && fp == ds.input_fingerprint, "the fingerprint of an accepted dataset: %s", err.msg);
        dataset_free(&ds);
    } else {
        fz_err_reset(&err);
        st = dataset_read_fingerprint(path, &fp, &err);
        fz_check_status(st, &err, "dataset_read_fingerprint");
    }
    return 0;
}
