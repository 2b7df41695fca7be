/* ingest_build on a market directory and a trade log, checked against SPEC
 * sec. 2; shared by fuzz_trades.c and fuzz_ingest.c. */
#ifndef EVOLVE_FUZZ_INGEST_RUN_H
#define EVOLVE_FUZZ_INGEST_RUN_H

#include "fuzz_common.h"
#include "io/dataset_h5.h"
#include "io/ingest.h"
#include "io/market_ingest.h"

static const char *const fz_tickers[] = {"SOXL", "IONQ"};

/* "Exit Price" is asked for as an extra feature when the log's first line
 * names it (deterministic per input, and a missing column is an error). */
static inline int fz_wants_exit_price(const char *trades_path)
{
    char line[4096];
    FILE *f = fopen(trades_path, "rb");
    int yes = 0;
    if (f && fgets(line, sizeof line, f))
        yes = strstr(line, "Exit Price") != NULL;
    if (f)
        fclose(f);
    return yes;
}

/* Ingests; on success checks the dataset, that --strict agrees (the same
 * dataset without drops, an error naming the first drop with them) and,
 * when round_trip, that the HDF5 file written reads back equal. */
static inline void fz_ingest(const char *market_dir, const char *trades_path, int round_trip)
{
    static const char *const extra[] = {"Exit Price"};
    ingest_opts_t o;
    market_files_t files;
    int64_t days[8];
    dataset_t ds, strict;
    ev_error err;
    ev_status st;
    int64_t dropped = 0;
    memset(&o, 0, sizeof o);
    o.market_dir = market_dir;
    o.trades_path = trades_path;
    o.tickers = fz_tickers;
    o.n_tickers = 2;
    o.extra_features = extra;
    o.n_extra_features = fz_wants_exit_price(trades_path);
    fz_err_reset(&err);
    st = ingest_build(&o, &ds, &err);
    fz_check_status(st, &err, "ingest_build");
    if (st != EV_OK)
        return;
    fz_err_reset(&err);
    FZ_ASSERT(market_list_files(market_dir, &files, &err) == EV_OK && files.n <= 8, "cannot list %s", market_dir);
    for (size_t i = 0; i < files.n; i++)
        days[i] = files.files[i].day;
    fz_check_dataset(&ds, 2, days, files.n);
    FZ_ASSERT(ds.n_features >= o.n_extra_features, "%d features with Exit Price asked for", (int)ds.n_features);
    for (int r = 0; r < DROP_REASON_COUNT; r++)
        dropped += ds.drops[r];
    o.strict = 1;
    fz_err_reset(&err);
    st = ingest_build(&o, &strict, &err);
    fz_check_status(st, &err, "ingest_build --strict");
    if (dropped)
        FZ_ASSERT(st == EV_EDATA && strstr(err.msg, "strict"), "--strict with %lld drop(s): status %d: %s",
                  (long long)dropped, (int)st, err.msg);
    else
        FZ_ASSERT(st == EV_OK && strict.content_hash == ds.content_hash && strict.n_trades == ds.n_trades,
                  "--strict without drops: status %d: %s", (int)st, err.msg);
    if (st == EV_OK)
        dataset_free(&strict);
    if (round_trip) {
        const char *h5 = fz_path(2, "ds.h5");
        dataset_t back;
        uint64_t fp = 0;
        fz_err_reset(&err);
        st = dataset_write_h5(&ds, h5, &err);
        fz_check_status(st, &err, "dataset_write_h5");
        FZ_ASSERT(st == EV_OK, "dataset_write_h5 failed on an accepted dataset: %s", err.msg);
        fz_err_reset(&err);
        st = dataset_read_h5(h5, &back, &err);
        FZ_ASSERT(st == EV_OK, "dataset_read_h5 failed on a dataset just written: %s", err.msg);
        fz_check_same(&ds, &back);
        dataset_free(&back);
        FZ_ASSERT(dataset_read_fingerprint(h5, &fp, &err) == EV_OK && fp == ds.input_fingerprint,
                  "the fingerprint does not read back");
    }
    market_files_free(&files);
    dataset_free(&ds);
}

#endif
