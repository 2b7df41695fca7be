/* bench_ingest: times ingest_build on a market directory and a trade log.
 *
 *   bench_ingest MARKET_DIR TRADES_FILE [TICKERS] [--csv FILE] [--repeat N]
 *
 * Prints the bytes read (all input files), the best wall time of N runs, MB/s
 * overall and per core (threads actually usable: min(OpenMP threads, market
 * files)); with --csv appends one line to FILE (a header first when new). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/platform.h"
#include "io/ingest.h"

#define MAX_TICKERS 64

static int split_tickers(char *s, const char **out)
{
    int n = 0;
    for (char *t = strtok(s, ","); t && n < MAX_TICKERS; t = strtok(NULL, ","))
        out[n++] = t;
    return n;
}

static void append_csv(const char *path, const char *market, double bytes, double secs, int threads, int cores,
                       const dataset_t *ds)
{
    plat_stat_t st;
    int is_new = plat_stat(path, &st) != 0 || st.size == 0;
    char when[32];
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "bench_ingest: cannot append to %s\n", path);
        return;
    }
    if (is_new)
        fprintf(f,
                "utc,market_dir,bytes,seconds,mb_per_s,threads,cores_used,mb_per_s_per_core,"
                "prices,trades\n");
    plat_utc_timestamp(when, sizeof when);
    fprintf(f, "%s,%s,%.0f,%.4f,%.1f,%d,%d,%.1f,%lld,%lld\n", when, market, bytes, secs, bytes / 1e6 / secs, threads,
            cores, bytes / 1e6 / secs / cores, (long long)ds->n_prices, (long long)ds->n_trades);
    fclose(f);
}

int main(int argc, char **argv)
{
    static char default_tickers[] = "SOXL,IONQ,MARA";
    char *pos[3] = {NULL, NULL, NULL};
    const char *csv = NULL, *tickers[MAX_TICKERS];
    int n_pos = 0, repeat = 1, threads = 1, cores;
    double best = 1e300, bytes = 0;
    int64_t n_market = 0;
    ingest_opts_t o;
    dataset_t ds;
    ev_error err;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            csv = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (argv[i][0] != '-' && n_pos < 3)
            pos[n_pos++] = argv[i];
        else {
            n_pos = 0;
            break;
        }
    }
    if (n_pos < 2 || repeat < 1) {
        fprintf(stderr,
                "usage: bench_ingest MARKET_DIR TRADES_FILE [TICKERS] [--csv FILE] "
                "[--repeat N]\n");
        return 2;
    }
    memset(&o, 0, sizeof o);
    o.market_dir = pos[0];
    o.trades_path = pos[1];
    o.tickers = tickers;
    o.n_tickers = split_tickers(pos[2] ? pos[2] : default_tickers, tickers);
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    for (int r = 0; r < repeat; r++) {
        double t0 = plat_now(), dt;
        if (ingest_build(&o, &ds, &err) != EV_OK) {
            fprintf(stderr, "bench_ingest: %s\n", err.msg);
            return 1;
        }
        dt = plat_now() - t0;
        if (dt < best)
            best = dt;
        if (r + 1 < repeat)
            dataset_free(&ds);
    }
    for (int32_t i = 0; i < ds.n_sources; i++) {
        bytes += (double)ds.sources[i].size;
        n_market += strcmp(ds.sources[i].kind, "market") == 0;
    }
    cores = threads < n_market ? threads : (int)n_market;
    printf("ingest: %lld market file(s) + trade log, %.1f MB read in %.3f s (best of %d)\n", (long long)n_market,
           bytes / 1e6, best, repeat);
    printf("ingest: %.1f MB/s overall, %d thread(s), %d core(s) used, %.1f MB/s per core\n", bytes / 1e6 / best,
           threads, cores, bytes / 1e6 / best / cores);
    printf("ingest: %lld prices, %lld trades kept\n", (long long)ds.n_prices, (long long)ds.n_trades);
    if (csv)
        append_csv(csv, pos[0], bytes, best, threads, cores, &ds);
    dataset_free(&ds);
    return 0;
}
