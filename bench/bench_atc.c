/* bench_atc [BARS] [GENOMES] [SEED]: strategy atc on the CPU (one thread):
 * random genomes from docs/signals-spec.md sec. 3's lattice (lengths 10..60 step 2,
 * robustness, La, De, thresholds) on a random walk of BARS closes. Reports
 * the time in the store (each distinct (MA, length)'s cross state and each
 * La's growth table once) and in the backtest loop (the 54 + 6 equity
 * curves, Average, trades), genomes/s, and the memory per genome. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "signals/atc_features.h"
#include "signals/atc_params.h"
#include "signals/bars.h"

static uint64_t state;

static double draw(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (double)(state >> 11) / 9007199254740992.0;
}

static int32_t lattice(int32_t lo, int32_t hi, int32_t step)
{
    return lo + step * (int32_t)(draw() * (double)((hi - lo) / step + 1));
}

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : 35040;
    const int64_t count = argc > 2 ? atoll(argv[2]) : 1000;
    bars_t b;
    atc_params_t *gs;
    atc_series_t s;
    atc_features_t *f = NULL;
    ev_error err;
    double t0, t_ind, t_loop, px = 100;
    int64_t trades = 0;
    state = argc > 3 ? strtoull(argv[3], NULL, 10) | 1 : 4242;
    if (n < 2 || count < 1) {
        fprintf(stderr, "usage: bench_atc [BARS >= 2] [GENOMES >= 1] [SEED]\n");
        return 2;
    }
    memset(&b, 0, sizeof b);
    b.n = n;
    b.ts = (int64_t *)calloc((size_t)n, sizeof(int64_t));
    b.open = (double *)malloc((size_t)n * sizeof(double));
    b.close = (double *)malloc((size_t)n * sizeof(double));
    gs = (atc_params_t *)malloc((size_t)count * sizeof *gs);
    if (!b.ts || !b.open || !b.close || !gs)
        return 1;
    for (int64_t i = 0; i < n; i++) { /* atc reads the open and close only */
        b.open[i] = px;
        px = round(px * (1 + (draw() - 0.5) * 0.006) * 100) / 100;
        b.close[i] = px;
    }
    for (int64_t g = 0; g < count; g++) {
        atc_params_defaults(&gs[g]);
        for (int fam = 0; fam < ATC_FAMILIES; fam++)
            gs[g].len[fam] = lattice(10, 60, 2);
        gs[g].robustness = lattice(0, 2, 1);
        gs[g].la = (double)lattice(1, 20, 1) * 5 / 1000.0;
        gs[g].de = (double)lattice(1, 25, 1) / 100.0;
        gs[g].long_threshold = (double)lattice(1, 10, 1) * 5 / 100.0;
        gs[g].short_threshold = -(double)lattice(1, 10, 1) * 5 / 100.0;
    }
    if (atc_features_create(&b, &f, &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    t0 = plat_now();
    for (int64_t g = 0; g < count; g++)
        if (atc_features_series(f, &gs[g], &s, &err) != EV_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
    t_ind = plat_now() - t0;
    t0 = plat_now();
    for (int64_t g = 0; g < count; g++) {
        atc_features_series(f, &gs[g], &s, &err); /* looked up: computed above */
        trades += atc_backtest(&s, &gs[g], NULL, 0);
    }
    t_loop = plat_now() - t0;
    printf("bars %lld, genomes %lld, trades %lld\n", (long long)n, (long long)count, (long long)trades);
    {
        /* the store: the cross states, one growth table per La, and the close's returns */
        const double store_mib = ((double)atc_features_bytes(f) + 8.0 * (double)n) / 1048576.0;
        printf("store: %lld distinct series (cross states and growth tables) in %.3f s (%.1f%% of the time)\n",
               (long long)atc_features_computed(f), t_ind, 100.0 * t_ind / (t_ind + t_loop));
        printf("backtest loop: %.3f s, %.0f genomes/s (%.1f ns per genome-bar)\n", t_loop, (double)count / t_loop,
               1e9 * t_loop / ((double)count * (double)n));
        printf("overall: %.0f genomes/s; store %.1f MiB = %.1f KiB per genome; a genome's own state %zu B\n",
               (double)count / (t_ind + t_loop), store_mib, store_mib * 1024.0 / (double)count, sizeof(atc_state_t));
    }
    atc_features_free(f);
    free(gs);
    bars_free(&b);
    return 0;
}
