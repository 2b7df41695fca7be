/* The market half of ingest (io/market_ingest): the input is one to three
 * market files (split at FZ_FILE_MARK) named for 01-02-2024, 01-03-2024 and
 * 12-29-2023 (name order is not date order); the kept tickers are SOXL, IONQ,
 * MARA. Accepted: every ticker has prices, ranges tile the array, prices are
 * positive finite float32, timestamps strictly increase per ticker and lie
 * on a file's day, the row counts add up. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "io/market_ingest.h"

static const char *const names[] = {"Raw_Market_data_01-02-2024.csv", "Raw_Market_data_01-03-2024.csv",
                                    "Raw_Market_data_12-29-2023.csv"};
static const char *const tickers[] = {"SOXL", "IONQ", "MARA"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *part[3];
    size_t len[3], n = fz_split(data, size, part, len, 3);
    const char *dir = fz_path(0, "market");
    market_files_t files;
    dataset_t ds;
    int64_t rows[3] = {0, 0, 0}, days[3];
    ev_error err;
    ev_status st;
    fz_mkdir(dir);
    for (size_t i = 0; i < 3; i++) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if (i < n)
            fz_write(p, part[i], len[i]);
        else
            remove(p);
    }
    fz_err_reset(&err);
    st = market_list_files(dir, &files, &err);
    fz_check_status(st, &err, "market_list_files");
    FZ_ASSERT(st == EV_OK && files.n == n, "%zu market files listed of %zu", files.n, n);
    for (size_t i = 0; i < files.n; i++) {
        days[i] = files.files[i].day;
        FZ_ASSERT(i == 0 || days[i] > days[i - 1], "market files out of day order");
    }
    memset(&ds, 0, sizeof ds);
    fz_err_reset(&err);
    st = market_ingest(&files, tickers, 3, NULL, &ds, rows, &err);
    fz_check_status(st, &err, "market_ingest");
    if (st == EV_OK) {
        int64_t sum = 0;
        fz_check_market(&ds, 3, days, files.n);
        for (size_t i = 0; i < files.n; i++)
            sum += rows[i];
        FZ_ASSERT(sum == ds.market_rows_read, "rows per file add up to %lld, market_rows_read %lld", (long long)sum,
                  (long long)ds.market_rows_read);
        FZ_ASSERT(ds.market_files_unsorted <= (int64_t)files.n, "%lld unsorted files of %zu",
                  (long long)ds.market_files_unsorted, files.n);
    }
    dataset_free(&ds);
    market_files_free(&files);
    return 0;
}
