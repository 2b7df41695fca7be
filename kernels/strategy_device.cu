/* A packed chunk of strategy genomes on the device (signals/strategy_pack.h,
 * cuda_strategy_run in kernels/cuda_api.h): the chunk's distinct series
 * uploaded once into one arena, then one thread per genome binds its series
 * from its slot offsets (the strategy's EV_HD P_series_bind) and runs the
 * strategy's EV_HD backtest, the CPU's own code compiled by nvcc
 * (--fmad=false), in slices: the genomes go in groups (plan.genomes), and a
 * group's backtests advance plan.steps rows per launch (se_run_steps,
 * atc_run_steps; their state stays on the device between launches) until all
 * have ended, so no launch holds one thread's loop over every bar and each
 * stays under the display watchdog (kernels/strategy_cuda.c sizes them).
 * Two passes:
 *   count   the backtests with no room for trades: each genome's trade count,
 *           written by the last slice (-1 had one not ended: a wrong plan, an
 *           internal error);
 *   write   the trades into a buffer sized by the counts (offsets from a scan
 *           on the host), then each trade's outcome in percent
 *           (signals/strategy_hd.h, the host's formula) and entry bar.
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

/* The strategies' device views: series, parameters, trades, run states,
 * slots, bind, and the backtest in slices. */
#define DEVICE_KIND(X, SLOTS)                                                                     \
    struct X##_kind {                                                                             \
        typedef X##_series_t S;                                                                   \
        typedef X##_params_t P;                                                                   \
        typedef X##_trade_t T;                                                                    \
        typedef X##_run_t R;                                                                      \
        enum { slots = SLOTS };                                                                   \
        static __device__ void bind(S *s, int64_t n, const void *const *slot)                     \
        {                                                                                         \
            X##_series_bind(s, n, slot);                                                          \
        }                                                                                         \
        static __device__ void start(const S *s, R *r)                                            \
        {                                                                                         \
            X##_run_start(s, r);                                                                  \
        }                                                                                         \
        static __device__ int steps(const S *s, const P *p, R *r, T *out, int64_t cap, int64_t n) \
        {                                                                                         \
            return X##_run_steps(s, p, r, out, cap, n);                                           \
        }                                                                                         \
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

/* One slice of the group of genomes [first, end): each starts its run on the
 * first slice, then advances it by at most `steps` rows; trades (the write
 * pass) go to trades + at[g], at most counts[g] of them; none on the count
 * pass (trades NULL), whose last slice writes each genome's trade count to
 * ended_counts (-1 when its backtest has not ended: a wrong plan). The state
 * is worked on in a local copy (registers and thread-interleaved local
 * memory, as the whole backtest's was) and stored back once: in place it
 * would be strided global accesses on every row (atc's state is ~1.1 KB a
 * genome). */
template <class K>
__global__ void __launch_bounds__(STRAT_THREADS)
    strategy_slice_kernel(const unsigned char *arena, const uint64_t *slot_off, const void *params, int64_t n_bars,
                          uint32_t first, uint32_t end, typename K::R *runs, int start, int64_t steps,
                          typename K::T *trades, const uint64_t *at, const int64_t *counts, int64_t *ended_counts)
{
    const uint64_t g = (uint64_t)first + (uint64_t)blockIdx.x * STRAT_THREADS + threadIdx.x;
    typename K::S s;
    typename K::P p;
    typename K::R r;
    if (g >= end)
        return;
    genome_view<K>(arena, slot_off, params, n_bars, (uint32_t)g, &s, &p);
    if (start)
        K::start(&s, &r);
    else
        r = runs[g - first];
    if (trades)
        K::steps(&s, &p, &r, trades + at[g], counts[g], steps);
    else if (!K::steps(&s, &p, &r, NULL, 0, steps) && ended_counts)
        r.n_trades = -1;
    if (ended_counts)
        ended_counts[g] = r.n_trades;
    else
        runs[g - first] = r;
}

/* After a group's slices on the write pass: each trade's outcome in percent
 * and entry bar, beside the trades. */
template <class K>
__global__ void __launch_bounds__(STRAT_THREADS)
    strategy_outcome_kernel(uint32_t first, uint32_t end, const int64_t *counts, const uint64_t *at,
                            const typename K::T *trades, double *pct, int64_t *bar)
{
    const uint64_t g = (uint64_t)first + (uint64_t)blockIdx.x * STRAT_THREADS + threadIdx.x;
    if (g >= end)
        return;
    for (int64_t k = 0; k < counts[g]; k++) {
        const typename K::T *t = &trades[at[g] + (uint64_t)k];
        pct[at[g] + (uint64_t)k] = strategy_trade_pct(t->pnl, t->entry);
        bar[at[g] + (uint64_t)k] = t->entry_bar;
    }
}

static unsigned strat_blocks(uint32_t count)
{
    return (unsigned)((count + STRAT_THREADS - 1) / STRAT_THREADS);
}

/* A job's device buffers. */
template <class K> struct job_buffers {
    unsigned char *arena, *params;
    uint64_t *slot, *at;
    int64_t *counts, *bar;
    typename K::R *runs;
    typename K::T *trades;
    double *pct;
};

/* One pass over every group: its slices, each launch synchronised before the
 * next (one launch at a time under the watchdog); the count pass's last slice
 * writes the counts, the write pass ends with the outcomes. */
template <class K>
static ev_status run_pass(const strategy_pack_t *pk, const strategy_launch_t &plan, const job_buffers<K> &d, int write,
                          ev_error *err)
{
    ev_status st = EV_OK;
    for (uint32_t first = 0; first < pk->count; first += plan.genomes) {
        const uint32_t n = pk->count - first < plan.genomes ? pk->count - first : plan.genomes;
        for (int64_t k = 0; k < plan.slices; k++) {
            int64_t *ended_counts = !write && k + 1 == plan.slices ? d.counts : NULL;
            strategy_slice_kernel<K><<<strat_blocks(n), STRAT_THREADS>>>(
                d.arena, d.slot, d.params, pk->n_bars, first, first + n, d.runs, k == 0, plan.steps,
                write ? d.trades : NULL, d.at, d.counts, ended_counts);
            CUDA_TRY_LAUNCH();
            CUDA_TRY(cudaDeviceSynchronize());
        }
        if (write) {
            strategy_outcome_kernel<K>
                <<<strat_blocks(n), STRAT_THREADS>>>(first, first + n, d.counts, d.at, d.trades, d.pct, d.bar);
            CUDA_TRY_LAUNCH();
            CUDA_TRY(cudaDeviceSynchronize());
        }
    }
fail:
    return st;
}

template <class K>
static ev_status run_packed(const strategy_pack_t *pk, strategy_launch_t plan, int64_t *counts, double **pct,
                            int64_t **bar, ev_error *err)
{
    const uint32_t count = pk->count;
    job_buffers<K> d;
    uint64_t *at = NULL, total = 0;
    ev_status st = EV_OK;
    memset(&d, 0, sizeof d);
    *pct = NULL;
    *bar = NULL;
    if (pk->n_slots != K::slots || pk->params_bytes != sizeof(typename K::P)) {
        st = ev_fail(err, EV_EINTERNAL, "strategy kind %d: a packed job of %d slots and %llu-byte parameters", pk->kind,
                     pk->n_slots, (unsigned long long)pk->params_bytes);
        goto fail;
    }
    if (count == 0)
        return EV_OK;
    if (plan.genomes == 0 || plan.steps < 1 || plan.slices < 1 ||
        (uint64_t)plan.steps * (uint64_t)plan.slices < (uint64_t)(pk->n_bars > 0 ? pk->n_bars : 1)) {
        st = ev_fail(err, EV_EINTERNAL, "a strategy launch plan of %u genomes, %lld slices of %lld rows for %lld bars",
                     plan.genomes, (long long)plan.slices, (long long)plan.steps, (long long)pk->n_bars);
        goto fail;
    }
    if (plan.genomes > count)
        plan.genomes = count;
    if (!(at = (uint64_t *)malloc((size_t)count * sizeof *at))) {
        st = ev_fail(err, EV_ENOMEM, "out of host memory for %u genomes' trade offsets", count);
        goto fail;
    }
    CUDA_TRY(cudaMalloc((void **)&d.arena, (size_t)(pk->arena_bytes ? pk->arena_bytes : 1)));
    CUDA_TRY(cudaMalloc((void **)&d.slot, (size_t)count * (size_t)K::slots * sizeof *d.slot));
    CUDA_TRY(cudaMalloc((void **)&d.params, (size_t)count * pk->params_bytes));
    CUDA_TRY(cudaMalloc((void **)&d.counts, (size_t)count * sizeof *d.counts));
    CUDA_TRY(cudaMalloc((void **)&d.at, (size_t)count * sizeof *d.at));
    CUDA_TRY(cudaMalloc((void **)&d.runs, (size_t)plan.genomes * sizeof *d.runs));
    /* the distinct series, once each */
    for (uint32_t b = 0; b < pk->n_bufs; b++)
        CUDA_TRY(cudaMemcpy(d.arena + pk->buf_off[b], pk->buf[b], (size_t)pk->buf_bytes[b], cudaMemcpyHostToDevice));
    CUDA_TRY(
        cudaMemcpy(d.slot, pk->slot_off, (size_t)count * (size_t)K::slots * sizeof *d.slot, cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemcpy(d.params, pk->params, (size_t)count * pk->params_bytes, cudaMemcpyHostToDevice));
    if ((st = run_pass<K>(pk, plan, d, 0, err)) != EV_OK)
        goto fail;
    CUDA_TRY(cudaMemcpy(counts, d.counts, (size_t)count * sizeof *counts, cudaMemcpyDeviceToHost));
    for (uint32_t g = 0; g < count; g++) {
        if (counts[g] < 0) {
            st = ev_fail(err, EV_EINTERNAL,
                         "genome %u's backtest had not ended after %lld launches of %lld rows over %lld bars", g,
                         (long long)plan.slices, (long long)plan.steps, (long long)pk->n_bars);
            goto fail;
        }
        at[g] = total;
        total += (uint64_t)counts[g];
    }
    if (total > 0) {
        if (!(*pct = (double *)malloc((size_t)total * sizeof **pct)) ||
            !(*bar = (int64_t *)malloc((size_t)total * sizeof **bar))) {
            st = ev_fail(err, EV_ENOMEM, "out of host memory for %llu trades' outcomes", (unsigned long long)total);
            goto fail;
        }
        CUDA_TRY(cudaMalloc((void **)&d.trades, (size_t)total * sizeof *d.trades));
        CUDA_TRY(cudaMalloc((void **)&d.pct, (size_t)total * sizeof *d.pct));
        CUDA_TRY(cudaMalloc((void **)&d.bar, (size_t)total * sizeof *d.bar));
        CUDA_TRY(cudaMemcpy(d.at, at, (size_t)count * sizeof *d.at, cudaMemcpyHostToDevice));
        if ((st = run_pass<K>(pk, plan, d, 1, err)) != EV_OK)
            goto fail;
        CUDA_TRY(cudaMemcpy(*pct, d.pct, (size_t)total * sizeof **pct, cudaMemcpyDeviceToHost));
        CUDA_TRY(cudaMemcpy(*bar, d.bar, (size_t)total * sizeof **bar, cudaMemcpyDeviceToHost));
    }
fail:
    cudaFree(d.arena);
    cudaFree(d.slot);
    cudaFree(d.params);
    cudaFree(d.counts);
    cudaFree(d.at);
    cudaFree(d.runs);
    cudaFree(d.trades);
    cudaFree(d.pct);
    cudaFree(d.bar);
    free(at);
    if (st != EV_OK) {
        free(*pct);
        free(*bar);
        *pct = NULL;
        *bar = NULL;
    }
    return st;
}

extern "C" ev_status cuda_strategy_run(const strategy_pack_t *pk, strategy_launch_t plan, int64_t *counts, double **pct,
                                       int64_t **bar, ev_error *err)
{
    switch (pk->kind) {
    case STRATEGY_DEVICE_SE: return run_packed<se_kind>(pk, plan, counts, pct, bar, err);
    case STRATEGY_DEVICE_ATC: return run_packed<atc_kind>(pk, plan, counts, pct, bar, err);
    default:
        *pct = NULL;
        *bar = NULL;
        return ev_fail(err, EV_EINTERNAL, "no device backtest for strategy kind %d", pk->kind);
    }
}
