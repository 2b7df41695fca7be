/* bench_signals [BARS] [GENOMES] [SEED]: seller_exhaustion on the CPU (one
 * thread): random genomes from docs/signals-spec.md sec. 3's 15-minute lattice on a
 * random walk of BARS bars (default 35,040: a year of 15-minute bars around
 * the clock). Reports the time in the indicator store (each distinct
 * (indicator, length) once) and in the backtest loop, genomes/s, and the
 * store's memory per genome. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "signals/bars.h"
#include "signals/features.h"
#include "signals/se_params.h"
#include "signals/se_strategy.h"

static uint64_t state;

static double uniform(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (double)(state >> 11) / 9007199254740992.0;
}

static int32_t pick(int32_t lo, int32_t hi, int32_t step)
{
    return lo + step * (int32_t)(uniform() * (double)((hi - lo) / step + 1));
}

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : 35040;
    const int64_t g_count = argc > 2 ? atoll(argv[2]) : 2000;
    bars_t b;
    se_params_t *gs;
    se_series_t s;
    se_features_t *f = NULL;
    ev_error err;
    double px = 100, t0, t_ind, t_loop;
    int64_t trades = 0;
    state = argc > 3 ? strtoull(argv[3], NULL, 10) | 1 : 12345;
    if (n < 2 || g_count < 1) {
        fprintf(stderr, "usage: bench_signals [BARS >= 2] [GENOMES >= 1] [SEED]\n");
        return 2;
    }
    memset(&b, 0, sizeof b);
    b.n = n;
    b.ts = (int64_t *)malloc((size_t)n * sizeof(int64_t));
    b.open = (double *)malloc((size_t)n * sizeof(double));
    b.high = (double *)malloc((size_t)n * sizeof(double));
    b.low = (double *)malloc((size_t)n * sizeof(double));
    b.close = (double *)malloc((size_t)n * sizeof(double));
    b.volume = (double *)malloc((size_t)n * sizeof(double));
    gs = (se_params_t *)malloc((size_t)g_count * sizeof *gs);
    if (!b.ts || !b.open || !b.high || !b.low || !b.close || !b.volume || !gs)
        return 1;
    for (int64_t i = 0; i < n; i++) {
        const double o = px, c = round(o * (1 + (uniform() - 0.5) * 0.006) * 100) / 100;
        b.ts[i] = 1700000000 + 900 * i;
        b.open[i] = o;
        b.close[i] = c;
        b.high[i] = round(fmax(o, c) * (1 + uniform() * 0.003) * 100) / 100;
        b.low[i] = round(fmin(o, c) * (1 - uniform() * 0.003) * 100) / 100;
        b.volume[i] = round(1000 + 4000 * uniform() * uniform() * (uniform() < 0.03 ? 10 : 1));
        px = c;
    }
    for (int64_t g = 0; g < g_count; g++) {
        se_params_defaults(&gs[g]);
        gs[g].ema_fast = pick(48, 192, 8);
        gs[g].ema_slow = pick(336, 1344, 48);
        gs[g].z_window = pick(336, 1344, 48);
        gs[g].atr_window = pick(48, 192, 8);
        gs[g].vol_z = (double)pick(10, 35, 1) / 10.0;
        gs[g].tr_z = (double)pick(8, 20, 1) / 10.0;
        gs[g].cloc_min = (double)pick(8, 16, 1) / 20.0;
        gs[g].atr_stop_mult = (double)pick(3, 15, 1) / 10.0;
        gs[g].reward_r = (double)pick(6, 16, 1) / 4.0;
        gs[g].max_hold = pick(48, 192, 8);
    }
    if (se_features_create(&b, &f, &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    t0 = plat_now();
    for (int64_t g = 0; g < g_count; g++)
        if (se_features_series(f, &gs[g], &s, &err) != EV_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
    t_ind = plat_now() - t0;
    t0 = plat_now();
    for (int64_t g = 0; g < g_count; g++) {
        se_features_series(f, &gs[g], &s, &err); /* looked up: computed above */
        trades += se_backtest(&s, &gs[g], NULL, 0);
    }
    t_loop = plat_now() - t0;
    printf("bars %lld, genomes %lld, trades %lld\n", (long long)n, (long long)g_count, (long long)trades);
    printf("indicators: %lld distinct series in %.3f s (%.1f%% of the time)\n", (long long)se_features_computed(f),
           t_ind, 100.0 * t_ind / (t_ind + t_loop));
    printf("backtest loop: %.3f s, %.0f genomes/s (%.1f ns per genome-bar)\n", t_loop, (double)g_count / t_loop,
           1e9 * t_loop / ((double)g_count * (double)n));
    printf("overall: %.0f genomes/s; store %.1f MiB = %.1f KiB per genome (%lld bars x 8 B x %lld series / %lld)\n",
           (double)g_count / (t_ind + t_loop), (double)se_features_computed(f) * (double)n * 8.0 / 1048576.0,
           (double)se_features_computed(f) * (double)n * 8.0 / 1024.0 / (double)g_count, (long long)n,
           (long long)se_features_computed(f), (long long)g_count);
    se_features_free(f);
    free(gs);
    bars_free(&b);
    return 0;
}
