/* A packed chunk of strategy genomes on the device (signals/strategy_pack.h,
 * cuda_strategy_run in kernels/cuda_api.h): the chunk's distinct series
 * uploaded once into one arena, then one thread per genome binds its series
 * from its slot offsets (the strategy's EV_HD P_series_bind) and runs the
 * strategy's EV_HD backtest, the CPU's own code compiled by nvcc
 * (--fmad=false). Two passes, each in launches of at most `per_launch`
 * genomes (kernels/strategy_cuda.c sizes them for the display watchdog):
 *   count   the backtest with no room for trades: each genome's trade count;
 *   write   the trades into a buffer sized by the counts (offsets from a scan
 *           on the host), and each trade's outcome in percent
 *           (signals/strategy_hd.h, the host's formula) and entry bar beside it.
 * Back come the counts, the outcomes and the entry bars (a validation split
 * counts trades by their entry bar's day); fitness is the host's. Every CUDA
 * call is checked; a failed allocation is EV_ENOMEM (the caller retries with
 * fewer genomes). */
#include <cstdlib>
#include <cstring>

#include "kernels/cuda_api.h"
#include "kernels/cuda_check.h"
#include "signals/atc_strategy.h"
#include "signals/se_strategy.h"
#include "signals/strategy_hd.h"

enum { STRAT_THREADS = 128 };

/* The strategies' device views: series, parameters, trades, slots, bind, backtest. */
#define DEVICE_KIND(X, SLOTS)                                                      \
    struct X##_kind {                                                              \
        typedef X##_series_t S;                                                    \
        typedef X##_params_t P;                                                    \
        typedef X##_trade_t T;                                                     \
        enum { slots = SLOTS };                                                    \
        static __device__ void bind(S *s, int64_t n, const void *const *slot)      \
        {                                                                          \
            X##_series_bind(s, n, slot);                                           \
        }                                                                          \
        static __device__ int64_t run(const S *s, const P *p, T *out, int64_t cap) \
        {                                                                          \
            return X##_backtest(s, p, out, cap);                                   \
        }                                                                          \
    };

DEVICE_KIND(se, SE_SLOTS)
DEVICE_KIND(atc, ATC_SLOTS)

/* Genome g's series and parameters out of the packed job. */
template <class K>
static __device__ void genome_view(const unsigned char *arena, const uint64_t *slot_off, const void *params,
                                   int64_t n_bars, uint32_t g, typename K::S *s, typename K::P *p)
{
    const void *slot[K::slots];
    for (int k = 0; k < K::slots; k++)
        slot[k] = arena + slot_off[(uint64_t)g * K::slots + (uint64_t)k];
    K::bind(s, n_bars, slot);
    *p = ((const typename K::P *)params)[g];
}

template <class K>
__global__ void __launch_bounds__(STRAT_THREADS)
    strategy_count_kernel(const unsigned char *arena, const uint64_t *slot_off, const void *params, int64_t n_bars,
                          uint32_t first, uint32_t end, int64_t *counts)
{
    const uint64_t g = (uint64_t)first + (uint64_t)blockIdx.x * STRAT_THREADS + threadIdx.x;
    typename K::S s;
    typename K::P p;
    if (g >= end)
        return;
    genome_view<K>(arena, slot_off, params, n_bars, (uint32_t)g, &s, &p);
    counts[g] = K::run(&s, &p, NULL, 0);
}

template <class K>
__global__ void __launch_bounds__(STRAT_THREADS)
    strategy_write_kernel(const unsigned char *arena, const uint64_t *slot_off, const void *params, int64_t n_bars,
                          uint32_t first, uint32_t end, const int64_t *counts, const uint64_t *at,
                          typename K::T *trades, double *pct, int64_t *bar)
{
    const uint64_t g = (uint64_t)first + (uint64_t)blockIdx.x * STRAT_THREADS + threadIdx.x;
    typename K::S s;
    typename K::P p;
    int64_t n;
    if (g >= end)
        return;
    genome_view<K>(arena, slot_off, params, n_bars, (uint32_t)g, &s, &p);
    n = K::run(&s, &p, trades + at[g], counts[g]);
    for (int64_t k = 0; k < n && k < counts[g]; k++) {
        const typename K::T *t = &trades[at[g] + (uint64_t)k];
        pct[at[g] + (uint64_t)k] = strategy_trade_pct(t->pnl, t->entry);
        bar[at[g] + (uint64_t)k] = t->entry_bar;
    }
}

static unsigned strat_blocks(uint32_t count)
{
    return (unsigned)((count + STRAT_THREADS - 1) / STRAT_THREADS);
}

template <class K>
static ev_status run_packed(const strategy_pack_t *pk, uint32_t per_launch, int64_t *counts, double **pct,
                            int64_t **bar, ev_error *err)
{
    typedef typename K::T T;
    const uint32_t count = pk->count;
    unsigned char *d_arena = NULL, *d_params = NULL;
    uint64_t *d_slot = NULL, *d_at = NULL, *at = NULL, total = 0;
    int64_t *d_counts = NULL;
    T *d_trades = NULL;
    double *d_pct = NULL;
    int64_t *d_bar = NULL;
    ev_status st = EV_OK;
    *pct = NULL;
    *bar = NULL;
    if (pk->n_slots != K::slots || pk->params_bytes != sizeof(typename K::P)) {
        st = ev_fail(err, EV_EINTERNAL, "strategy kind %d: a packed job of %d slots and %llu-byte parameters", pk->kind,
                     pk->n_slots, (unsigned long long)pk->params_bytes);
        goto fail;
    }
    if (count == 0)
        return EV_OK;
    if (per_launch == 0)
        per_launch = 1;
    if (!(at = (uint64_t *)malloc((size_t)count * sizeof *at))) {
        st = ev_fail(err, EV_ENOMEM, "out of host memory for %u genomes' trade offsets", count);
        goto fail;
    }
    CUDA_TRY(cudaMalloc((void **)&d_arena, (size_t)(pk->arena_bytes ? pk->arena_bytes : 1)));
    CUDA_TRY(cudaMalloc((void **)&d_slot, (size_t)count * (size_t)K::slots * sizeof *d_slot));
    CUDA_TRY(cudaMalloc((void **)&d_params, (size_t)count * pk->params_bytes));
    CUDA_TRY(cudaMalloc((void **)&d_counts, (size_t)count * sizeof *d_counts));
    CUDA_TRY(cudaMalloc((void **)&d_at, (size_t)count * sizeof *d_at));
    /* the distinct series, once each */
    for (uint32_t b = 0; b < pk->n_bufs; b++)
        CUDA_TRY(cudaMemcpy(d_arena + pk->buf_off[b], pk->buf[b], (size_t)pk->buf_bytes[b], cudaMemcpyHostToDevice));
    CUDA_TRY(
        cudaMemcpy(d_slot, pk->slot_off, (size_t)count * (size_t)K::slots * sizeof *d_slot, cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemcpy(d_params, pk->params, (size_t)count * pk->params_bytes, cudaMemcpyHostToDevice));
    for (uint32_t first = 0; first < count; first += per_launch) {
        const uint32_t n = count - first < per_launch ? count - first : per_launch;
        strategy_count_kernel<K>
            <<<strat_blocks(n), STRAT_THREADS>>>(d_arena, d_slot, d_params, pk->n_bars, first, first + n, d_counts);
        CUDA_TRY_LAUNCH();
        CUDA_TRY(cudaDeviceSynchronize()); /* one launch at a time under the watchdog */
    }
    CUDA_TRY(cudaMemcpy(counts, d_counts, (size_t)count * sizeof *counts, cudaMemcpyDeviceToHost));
    for (uint32_t g = 0; g < count; g++) {
        at[g] = total;
        total += (uint64_t)counts[g];
    }
    if (total > 0) {
        if (!(*pct = (double *)malloc((size_t)total * sizeof **pct)) ||
            !(*bar = (int64_t *)malloc((size_t)total * sizeof **bar))) {
            st = ev_fail(err, EV_ENOMEM, "out of host memory for %llu trades' outcomes", (unsigned long long)total);
            goto fail;
        }
        CUDA_TRY(cudaMalloc((void **)&d_trades, (size_t)total * sizeof *d_trades));
        CUDA_TRY(cudaMalloc((void **)&d_pct, (size_t)total * sizeof *d_pct));
        CUDA_TRY(cudaMalloc((void **)&d_bar, (size_t)total * sizeof *d_bar));
        CUDA_TRY(cudaMemcpy(d_at, at, (size_t)count * sizeof *d_at, cudaMemcpyHostToDevice));
        for (uint32_t first = 0; first < count; first += per_launch) {
            const uint32_t n = count - first < per_launch ? count - first : per_launch;
            strategy_write_kernel<K><<<strat_blocks(n), STRAT_THREADS>>>(
                d_arena, d_slot, d_params, pk->n_bars, first, first + n, d_counts, d_at, d_trades, d_pct, d_bar);
            CUDA_TRY_LAUNCH();
            CUDA_TRY(cudaDeviceSynchronize());
        }
        CUDA_TRY(cudaMemcpy(*pct, d_pct, (size_t)total * sizeof **pct, cudaMemcpyDeviceToHost));
        CUDA_TRY(cudaMemcpy(*bar, d_bar, (size_t)total * sizeof **bar, cudaMemcpyDeviceToHost));
    }
fail:
    cudaFree(d_arena);
    cudaFree(d_slot);
    cudaFree(d_params);
    cudaFree(d_counts);
    cudaFree(d_at);
    cudaFree(d_trades);
    cudaFree(d_pct);
    cudaFree(d_bar);
    free(at);
    if (st != EV_OK) {
        free(*pct);
        free(*bar);
        *pct = NULL;
        *bar = NULL;
    }
    return st;
}

extern "C" ev_status cuda_strategy_run(const strategy_pack_t *pk, uint32_t per_launch, int64_t *counts, double **pct,
                                       int64_t **bar, ev_error *err)
{
    switch (pk->kind) {
    case STRATEGY_DEVICE_SE: return run_packed<se_kind>(pk, per_launch, counts, pct, bar, err);
    case STRATEGY_DEVICE_ATC: return run_packed<atc_kind>(pk, per_launch, counts, pct, bar, err);
    default:
        *pct = NULL;
        *bar = NULL;
        return ev_fail(err, EV_EINTERNAL, "no device backtest for strategy kind %d", pk->kind);
    }
}
