/* Ingest end to end: the input is one to three market files and a trade
 * log, split at FZ_FILE_MARK (the last part is the log); the market files
 * are named for 01-02-2024, 01-03-2024 and 12-29-2023; tickers SOXL, IONQ.
 * An accepted dataset is checked against SPEC sec. 2 and --strict, then
 * written to HDF5 and read back equal. */
#include <stdint.h>
#include <stdio.h>

#include "fuzz_ingest_run.h"

static const char *const names[] = {"Raw_Market_data_01-02-2024.csv", "Raw_Market_data_01-03-2024.csv",
                                    "Raw_Market_data_12-29-2023.csv"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *part[4];
    size_t len[4], n = fz_split(data, size, part, len, 4);
    const char *market = fz_path(0, "market"), *log = fz_path(1, "all_trade_logs.csv");
    if (n < 2)
        return 0; /* no market file: nothing past the listing to test */
    fz_mkdir(market);
    for (size_t i = 0; i < 3; i++) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", market, names[i]);
        if (i < n - 1)
            fz_write(p, part[i], len[i]);
        else
            remove(p);
    }
    fz_write(log, part[n - 1], len[n - 1]);
    fz_ingest(market, log, 1);
    return 0;
}
