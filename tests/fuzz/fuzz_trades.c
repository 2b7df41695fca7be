/* The trade-log half of ingest (io/trades_ingest, trades_place): the input
 * is all_trade_logs.csv; the market is fixed (SOXL and IONQ, one price a
 * second 09:30:00-09:30:59 on 01-02-2024 and 01-03-2024). Accepted datasets
 * are checked against SPEC sec. 2 (paths, drops, order, counts) and against
 * the same ingest with --strict. */
#include <stdint.h>
#include <stdio.h>

#include "fuzz_ingest_run.h"

static void write_market(const char *dir)
{
    static const char *const names[] = {"Raw_Market_data_01-02-2024.csv", "Raw_Market_data_01-03-2024.csv"};
    fz_mkdir(dir);
    for (int d = 0; d < 2; d++) {
        char p[1024];
        FILE *f;
        snprintf(p, sizeof p, "%s/%s", dir, names[d]);
        f = fopen(p, "wb");
        FZ_ASSERT(f, "cannot write %s", p);
        fputs("Ticker,Price,Volume,Time\n", f);
        for (int s = 0; s < 60; s++) {
            if (s % 7 == 3)
                continue; /* seconds may be missing */
            fprintf(f, "SOXL,%.2f,100,09:30:%02d\n", 28.50 + 0.01 * ((s * 7 + d) % 13), s);
            fprintf(f, "IONQ,%.2f,100,09:30:%02d\n", 12.40 + 0.02 * ((s * 5 + d) % 11), s);
            fprintf(f, "MARA,%.2f,100,09:30:%02d\n", 18.00, s);
        }
        FZ_ASSERT(fclose(f) == 0, "cannot write %s", p);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready = 0;
    const char *market = fz_path(0, "market"), *log = fz_path(1, "all_trade_logs.csv");
    if (!ready) {
        write_market(market);
        ready = 1;
    }
    fz_write(log, data, size);
    fz_ingest(market, log, 0);
    return 0;
}
