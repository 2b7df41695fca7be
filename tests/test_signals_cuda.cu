/* seller_exhaustion on the device against the CPU, bit for bit (label gpu;
 * exits 77 where no device exists): the EV_HD indicators of
 * signals/indicators.h (pandas EMA, TR, ATR, two-pass z-scores, close
 * location) and the EV_HD backtest loop of signals/se_strategy.h, compiled by
 * nvcc (--fmad=false) and run in kernels, must give every series value and
 * every trade the CPU's store and loop give, on random bars and genomes.
 *
 * Kernels: one thread per genome for the EMAs (a recurrence), one thread per
 * bar for TR, ATR and the z-scores (each a function of its window), one
 * thread per genome for the backtest. */
#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "signals/bars.h"
#include "signals/features.h"
#include "signals/indicators.h"
#include "signals/se_params.h"
#include "signals/se_strategy.h"
#include "tests/support/walk_bars.h"
#include "tests/check.h"
#include "tests/support/device_backtest.cuh"

#define G 96
#define NB 4000
#define CAP 2048

__global__ void k_ema(const double *close, int64_t n, const int32_t *spans, int count, double *out)
{
    const int s = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (s < count)
        ind_ema_pandas(close, n, spans[s], out + (size_t)s * (size_t)n);
}

__global__ void k_bar_basics(const double *h, const double *l, const double *c, int64_t n, double *tr, double *cl)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        tr[i] = ind_true_range_at(h, l, c, i);
        cl[i] = ind_close_location(h[i], l[i], c[i]);
    }
}

__global__ void k_sma_times(const double *x, int64_t n, int32_t w, double *mean, double *times_w)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        mean[i] = ind_sma_at(x, i, w);
        times_w[i] = mean[i] * (double)w;
    }
}

__global__ void k_zscore(const double *x, int64_t n, int32_t w, double *z)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = ind_zscore_at(x, i, w);
}

struct se_run {
    static EV_HD int64_t run(const se_series_t *s, const se_params_t *p, se_trade_t *out, int64_t cap)
    {
        return se_backtest(s, p, out, cap);
    }
};

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static double uniform(void)
{
    return walk_uniform(&rng_state);
}

static void make_bars(bars_t *b, int64_t n)
{
    walk_bars(b, n, 50, &rng_state);
}

/* Field by field: the struct's padding is not part of the result. */
static int same_trade(const se_trade_t *a, const se_trade_t *b)
{
    const double x[7] = {a->entry, a->exit, a->stop, a->tp, a->risk, a->pnl, a->r_mult};
    const double y[7] = {b->entry, b->exit, b->stop, b->tp, b->risk, b->pnl, b->r_mult};
    return a->signal_bar == b->signal_bar && a->entry_bar == b->entry_bar && a->exit_bar == b->exit_bar &&
           a->reason == b->reason && memcmp(x, y, sizeof x) == 0;
}

static double *to_device(const double *h, int64_t n)
{
    double *d = NULL;
    if (cuda_ok(cudaMalloc((void **)&d, (size_t)n * sizeof(double)), "cudaMalloc"))
        cuda_ok(cudaMemcpy(d, h, (size_t)n * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy");
    return d;
}

static int same_series(const double *dev, const double *host, int64_t n, const char *what, int g)
{
    double *h = (double *)malloc((size_t)n * sizeof(double));
    int ok = 1;
    cuda_ok(cudaMemcpy(h, dev, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int64_t i = 0; i < n && ok; i++)
        if (memcmp(&h[i], &host[i], sizeof(double)) != 0 && !(h[i] != h[i] && host[i] != host[i])) {
            fprintf(stderr, "genome %d %s[%lld]: device %.17g, CPU %.17g\n", g, what, (long long)i, h[i], host[i]);
            ok = 0;
        }
    free(h);
    return ok;
}

int main(void)
{
    int devices = 0;
    bars_t b;
    se_features_t *f = NULL;
    ev_error err;
    se_params_t gs[G];
    se_series_t host_s[G], dev_s[G];
    const int64_t n = NB;
    const int threads = 128, bar_blocks = (int)((NB + 127) / 128);
    double *d_o, *d_h, *d_l, *d_c, *d_v, *d_tr, *d_cl, *d_ema;
    int32_t spans[2 * G], *d_spans = NULL;
    int64_t mismatched = 0, trades = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("test_signals_cuda: no CUDA device on this machine: skipped\n");
        return CHECK_SKIP_CODE;
    }
    make_bars(&b, n);
    for (int g = 0; g < G; g++) {
        se_params_defaults(&gs[g]);
        gs[g].ema_fast = 2 + (int32_t)(uniform() * 40);
        gs[g].ema_slow = gs[g].ema_fast + 1 + (int32_t)(uniform() * 150);
        gs[g].z_window = 3 + (int32_t)(uniform() * 100);
        gs[g].atr_window = 2 + (int32_t)(uniform() * 40);
        gs[g].max_hold = 1 + (int32_t)(uniform() * 60);
        gs[g].vol_z = (double)(int)(uniform() * 20) / 10.0;
        gs[g].tr_z = (double)(int)(uniform() * 15) / 10.0;
        gs[g].cloc_min = (double)(4 + (int)(uniform() * 10)) / 20.0;
        gs[g].atr_stop_mult = (double)(3 + (int)(uniform() * 12)) / 10.0;
        gs[g].reward_r = (double)(6 + (int)(uniform() * 10)) / 4.0;
        spans[2 * g] = gs[g].ema_fast;
        spans[2 * g + 1] = gs[g].ema_slow;
    }
    CHECK(se_features_create(&b, &f, &err) == EV_OK);
    for (int g = 0; g < G; g++)
        CHECK(se_features_series(f, &gs[g], &host_s[g], &err) == EV_OK);

    d_o = to_device(b.open, n);
    d_h = to_device(b.high, n);
    d_l = to_device(b.low, n);
    d_c = to_device(b.close, n);
    d_v = to_device(b.volume, n);
    cuda_ok(cudaMalloc((void **)&d_tr, (size_t)n * sizeof(double)), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_cl, (size_t)n * sizeof(double)), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_ema, (size_t)2 * G * (size_t)n * sizeof(double)), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_spans, sizeof spans), "cudaMalloc");
    cuda_ok(cudaMemcpy(d_spans, spans, sizeof spans, cudaMemcpyHostToDevice), "cudaMemcpy");
    k_bar_basics<<<bar_blocks, threads>>>(d_h, d_l, d_c, n, d_tr, d_cl);
    launch_ok("bar kernel");
    k_ema<<<(2 * G + 63) / 64, 64>>>(d_c, n, d_spans, 2 * G, d_ema);
    launch_ok("ema kernel");
    for (int g = 0; g < G; g++) {
        double *atr, *prod, *vz, *tz;
        cuda_ok(cudaMalloc((void **)&atr, (size_t)n * sizeof(double)), "cudaMalloc");
        cuda_ok(cudaMalloc((void **)&prod, (size_t)n * sizeof(double)), "cudaMalloc");
        cuda_ok(cudaMalloc((void **)&vz, (size_t)n * sizeof(double)), "cudaMalloc");
        cuda_ok(cudaMalloc((void **)&tz, (size_t)n * sizeof(double)), "cudaMalloc");
        k_sma_times<<<bar_blocks, threads>>>(d_tr, n, gs[g].atr_window, atr, prod);
        launch_ok("sma kernel");
        k_zscore<<<bar_blocks, threads>>>(d_v, n, gs[g].z_window, vz);
        launch_ok("volume z-score kernel");
        k_zscore<<<bar_blocks, threads>>>(prod, n, gs[g].z_window, tz);
        launch_ok("true-range z-score kernel");
        cudaFree(prod);
        dev_s[g].n = n;
        dev_s[g].open = d_o;
        dev_s[g].high = d_h;
        dev_s[g].low = d_l;
        dev_s[g].close = d_c;
        dev_s[g].ema_fast = d_ema + (size_t)(2 * g) * (size_t)n;
        dev_s[g].ema_slow = d_ema + (size_t)(2 * g + 1) * (size_t)n;
        dev_s[g].atr = atr;
        dev_s[g].vol_z = vz;
        dev_s[g].tr_z = tz;
        dev_s[g].cloc = d_cl;
        dev_s[g].session_end = NULL; /* read only with flat_at_close */
        CHECK(same_series(dev_s[g].ema_fast, host_s[g].ema_fast, n, "ema_fast", g));
        CHECK(same_series(dev_s[g].ema_slow, host_s[g].ema_slow, n, "ema_slow", g));
        CHECK(same_series(atr, host_s[g].atr, n, "atr", g));
        CHECK(same_series(vz, host_s[g].vol_z, n, "vol_z", g));
        CHECK(same_series(tz, host_s[g].tr_z, n, "tr_z", g));
        CHECK(same_series(d_cl, host_s[g].cloc, n, "cloc", g));
    }
    mismatched = device_backtest_mismatches<se_run>(dev_s, host_s, gs, G, CAP, same_trade, &trades);
    CHECK_EQ_I64(0, mismatched);
    CHECK(trades > G);
    printf("test_signals_cuda: %d genomes, %lld trades, %lld differ from the CPU's\n", G, (long long)trades,
           (long long)mismatched);
    for (int g = 0; g < G; g++) {
        cudaFree((void *)dev_s[g].atr);
        cudaFree((void *)dev_s[g].vol_z);
        cudaFree((void *)dev_s[g].tr_z);
    }
    cudaFree(d_o);
    cudaFree(d_h);
    cudaFree(d_l);
    cudaFree(d_c);
    cudaFree(d_v);
    cudaFree(d_tr);
    cudaFree(d_cl);
    cudaFree(d_ema);
    cudaFree(d_spans);
    se_features_free(f);
    bars_free(&b);
    return check_failures ? 1 : 0;
}
