/* Strategy atc on the device against the CPU, bit for bit (label gpu; exits
 * 77 where no device exists): the EV_HD moving averages and cross states of
 * signals/atc_ma.h and signals/atc_strategy.h and the EV_HD backtest (the
 * 54 + 6 equity curves with the growth factor from each bar's index, Average,
 * direction, trades), compiled by nvcc (--fmad=false) and run in kernels,
 * must give every cross state and every trade the CPU's store and loop give,
 * on random bars and genomes (some with cutout, weights off 1.0 and the Pine
 * flags).
 *
 * Kernels: one thread per distinct (MA, length) for the states (the MAs are
 * recurrences or per-bar windows; each thread owns its MA and scratch rows),
 * one thread per genome for the backtest (tests/support/device_backtest.cuh). */
#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "signals/atc_features.h"
#include "signals/atc_params.h"
#include "signals/atc_strategy.h"
#include "signals/bars.h"
#include "tests/check.h"
#include "tests/support/device_backtest.cuh"
#include "tests/support/walk_bars.h"

#define G 64
#define NB 3000
#define CAP 4096
#define MAX_KEYS (G * ATC_FAMILIES * ATC_MEMBERS)

__global__ void k_states(const double *close, int64_t n, const int32_t *kind, const int32_t *len, int count, double *ma,
                         double *scratch, int8_t *states)
{
    const int k = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (k < count) {
        double *m = ma + (size_t)k * (size_t)n;
        atc_ma(kind[k], close, n, len[k], scratch + (size_t)k * (size_t)n, m);
        atc_cross_state(close, m, n, states + (size_t)k * (size_t)n);
    }
}

struct atc_run {
    static EV_HD int64_t run(const atc_series_t *s, const atc_params_t *p, atc_trade_t *out, int64_t cap)
    {
        return atc_backtest(s, p, out, cap);
    }
};

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static double uniform(void)
{
    return walk_uniform(&rng_state);
}

/* Field by field: the struct's padding is not part of the result. */
static int same_trade(const atc_trade_t *a, const atc_trade_t *b)
{
    const double x[3] = {a->entry, a->exit, a->pnl}, y[3] = {b->entry, b->exit, b->pnl};
    return a->signal_bar == b->signal_bar && a->entry_bar == b->entry_bar && a->exit_bar == b->exit_bar &&
           a->side == b->side && a->reason == b->reason && memcmp(x, y, sizeof x) == 0;
}

static void random_genome(atc_params_t *p, int g)
{
    atc_params_defaults(p);
    p->robustness = (int32_t)(uniform() * 3);
    for (int f = 0; f < ATC_FAMILIES; f++)
        p->len[f] = 10 + 2 * (int32_t)(uniform() * 26);
    p->la = (double)(1 + (int)(uniform() * 20)) * 5 / 1000.0;
    p->de = (double)(1 + (int)(uniform() * 25)) / 100.0;
    p->long_threshold = (double)(1 + (int)(uniform() * 10)) * 5 / 100.0;
    p->short_threshold = -(double)(1 + (int)(uniform() * 10)) * 5 / 100.0;
    p->cutout = g % 4 == 1 ? 10 * (int32_t)(uniform() * 10) : 0;
    if (g % 5 == 2)
        for (int f = 0; f < ATC_FAMILIES; f++)
            p->w[f] = (double)(5 + (int)(uniform() * 16)) / 10.0;
    p->hma_as_sma = g % 7 == 3;
    p->pine_sticky_a = g % 7 == 4;
    p->python_cut = g % 7 == 5;
}

int main(void)
{
    int devices = 0, n_keys = 0;
    bars_t b;
    atc_features_t *f = NULL;
    ev_error err;
    atc_params_t gs[G];
    atc_series_t host_s[G], dev_s[G];
    const int64_t n = NB;
    static int32_t kind[MAX_KEYS], len[MAX_KEYS];
    int32_t *d_kind, *d_len;
    double *d_open, *d_close, *d_ret, *d_ma, *d_scratch;
    int8_t *d_states, *h_states;
    int64_t mismatched = 0, trades = 0, bad_states = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("test_atc_cuda: no CUDA device on this machine: skipped\n");
        return CHECK_SKIP_CODE;
    }
    walk_bars(&b, n, 50, &rng_state);
    CHECK(atc_features_create(&b, &f, &err) == EV_OK);
    for (int g = 0; g < G; g++) {
        random_genome(&gs[g], g);
        CHECK(atc_features_series(f, &gs[g], &host_s[g], &err) == EV_OK);
    }
    /* the distinct (MA, length) keys, as the store has them */
    for (int g = 0; g < G; g++)
        for (int fam = 0; fam < ATC_FAMILIES; fam++)
            for (int k = 0; k < ATC_MEMBERS; k++) {
                const int32_t kd = fam == ATC_HMA && gs[g].hma_as_sma ? ATC_SMA : fam;
                const int32_t l = atc_member_len(gs[g].len[fam], gs[g].robustness, k);
                int have = 0;
                for (int q = 0; q < n_keys && !have; q++)
                    have = kind[q] == kd && len[q] == l;
                if (!have) {
                    kind[n_keys] = kd;
                    len[n_keys++] = l;
                }
            }
    {
        int n_la = 0; /* the store also holds one growth table per distinct La */
        for (int g = 0; g < G; g++) {
            int seen = 0;
            for (int h = 0; h < g && !seen; h++)
                seen = gs[h].la == gs[g].la;
            n_la += !seen;
        }
        CHECK_EQ_I64(atc_features_computed(f), n_keys + n_la);
    }
    cuda_ok(cudaMalloc((void **)&d_open, (size_t)n * sizeof(double)), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_close, (size_t)n * sizeof(double)), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_ret, (size_t)n * sizeof(double)), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_kind, sizeof kind), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_len, sizeof len), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_ma, (size_t)n_keys * (size_t)n * sizeof(double)), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_scratch, (size_t)n_keys * (size_t)n * sizeof(double)), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&d_states, (size_t)n_keys * (size_t)n), "cudaMalloc");
    cuda_ok(cudaMemcpy(d_open, b.open, (size_t)n * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy");
    cuda_ok(cudaMemcpy(d_close, b.close, (size_t)n * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy");
    cuda_ok(cudaMemcpy(d_ret, host_s[0].ret, (size_t)n * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy");
    cuda_ok(cudaMemcpy(d_kind, kind, sizeof kind, cudaMemcpyHostToDevice), "cudaMemcpy");
    cuda_ok(cudaMemcpy(d_len, len, sizeof len, cudaMemcpyHostToDevice), "cudaMemcpy");
    k_states<<<(n_keys + 63) / 64, 64>>>(d_close, n, d_kind, d_len, n_keys, d_ma, d_scratch, d_states);
    launch_ok("state kernel");
    h_states = (int8_t *)malloc((size_t)n_keys * (size_t)n);
    cuda_ok(cudaMemcpy(h_states, d_states, (size_t)n_keys * (size_t)n, cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int g = 0; g < G; g++) {
        dev_s[g].n = n;
        dev_s[g].open = d_open;
        dev_s[g].close = d_close;
        dev_s[g].ret = d_ret;
        dev_s[g].session_end = NULL; /* read only with flat_at_close */
        /* the genome's growth table, as the host computed it (one exp for both sides) */
        {
            double *dg = NULL;
            cuda_ok(cudaMalloc((void **)&dg, (size_t)n * sizeof(double)), "cudaMalloc");
            cuda_ok(cudaMemcpy(dg, host_s[g].growth, (size_t)n * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy");
            dev_s[g].growth = dg;
        }
        for (int fam = 0; fam < ATC_FAMILIES; fam++)
            for (int k = 0; k < ATC_MEMBERS; k++) {
                const int32_t kd = fam == ATC_HMA && gs[g].hma_as_sma ? ATC_SMA : fam;
                const int32_t l = atc_member_len(gs[g].len[fam], gs[g].robustness, k);
                int q = 0;
                while (kind[q] != kd || len[q] != l)
                    q++;
                dev_s[g].state[fam][k] = d_states + (size_t)q * (size_t)n;
                if (memcmp(h_states + (size_t)q * (size_t)n, host_s[g].state[fam][k], (size_t)n) != 0)
                    bad_states++;
            }
    }
    CHECK_EQ_I64(0, bad_states);
    mismatched = device_backtest_mismatches<atc_run>(dev_s, host_s, gs, G, CAP, same_trade, &trades);
    CHECK_EQ_I64(0, mismatched);
    CHECK(trades > G);
    printf("test_atc_cuda: %d genomes, %d distinct states, %lld trades, %lld differ from the CPU's\n", G, n_keys,
           (long long)trades, (long long)mismatched);
    for (int g = 0; g < G; g++)
        cudaFree((void *)dev_s[g].growth);
    cudaFree(d_open);
    cudaFree(d_close);
    cudaFree(d_ret);
    cudaFree(d_kind);
    cudaFree(d_len);
    cudaFree(d_ma);
    cudaFree(d_scratch);
    cudaFree(d_states);
    free(h_states);
    atc_features_free(f);
    bars_free(&b);
    return check_failures ? 1 : 0;
}
