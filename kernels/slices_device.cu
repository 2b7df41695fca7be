/* The bit-sliced evaluator on the device (kernels/slices_device.cuh): the
 * planes built on the host once per dataset and uploaded, then per batch
 *
 *   slices_key_kernel    thread = genome: its exit combination, and whether
 *                        the slices take it (key = combination) or it walks
 *                        (key = n_combos, after every combination)
 *   sort                 stable radix sort of (key, genome) (ga_sort.cu)
 *   slices_gather_kernel the genes in that order, the sliced ones first;
 *                        the last sliced position writes their count (no
 *                        counter to zero, no atomics)
 *   slices_eval_kernel   thread = sliced genome: per word of 64 trades its
 *                        kept set (the AND of its filters' rows, and its
 *                        fold's bits), per plane popcount(kept AND plane);
 *                        the sums through slices_accum, as the CPU's
 *                        (fitness/slices_eval.c); a block whose genomes share
 *                        one combination (sorted: most blocks) reads its
 *                        planes in tiles of shared memory
 *   (the walkers go through fitness.cu's kernel)
 *   slices_scatter_kernel each result back to its genome's place.
 * Integers only, so the bits are tables_eval's whatever the order. */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "fitness/slices_build.h"
#include "kernels/ga_device.cuh"
#include "kernels/slices_device.cuh"

enum { SL_THREADS = 128, SL_TILE = 32, SL_CHUNK = 48 }; /* a tile: 32 words of 48 planes, 12 KB */

/* The cost model of `auto` on the device, in trades of the walk (the warp
 * reads every trade's filter cells whatever it keeps, and a kept trade's
 * outcome): the slices cost a word (AND, popcount, add for 64 trades) of
 * each plane and filter row, per fold, DEV_WORD_COST each. An estimate (no
 * GPU measured it yet): ~3 instructions a word against the walk's 20-60 a
 * trade (kernels/backend_cuda.c's sizing). */
#define DEV_WORD_COST 0.15

static __device__ bool slices_pay(const fit_tables_t &t, const slices_dev_view_t &v, int32_t planes, uint64_t kept)
{
    const double folds = t.agg == AGG_ALL ? 1.0 : (double)t.n_folds;
    const double words = (double)v.n_words * folds * (double)(planes + t.n_filters);
    return words * DEV_WORD_COST < (double)t.n_trades + (double)kept;
}

/* Word w of genome g's kept set (kept_sets.c's kept_compute). */
static __device__ uint64_t kept_word(const fit_tables_t &t, const slices_dev_view_t &v, const tables_genome_t &g,
                                     int64_t w)
{
    uint64_t k = ~UINT64_C(0);
    if (t.n_filters == 0)
        return w == v.n_words - 1 && (t.n_trades & 63) ? (UINT64_C(1) << (t.n_trades & 63)) - 1 : k;
    for (int32_t f = 0; f < t.n_filters; f++)
        k &= v.rows[(v.row0[f] + g.gf[f]) * v.n_words + w];
    return k;
}

static __device__ void genes_at(const uint16_t *genes, uint64_t stride, int32_t n_params, uint64_t i, uint16_t *g)
{
    for (int32_t k = 0; k < n_params; k++)
        g[k] = genes[(uint64_t)k * stride + i];
}

static __global__ void slices_key_kernel(const fit_tables_t t, const slices_dev_view_t v, const uint16_t *genes,
                                         uint64_t stride, int32_t n_params, uint32_t n, uint64_t *key, uint32_t *perm)
{
    const uint32_t i = blockIdx.x * GA_THREADS + threadIdx.x;
    uint16_t g[EV_MAX_PARAMS];
    tables_genome_t tg;
    uint64_t c, k;
    if (i >= n)
        return;
    genes_at(genes, stride, n_params, i, g);
    tables_genome(&t, g, &tg);
    c = tables_exit_combo_of(&t, &tg.x);
    k = v.n_combos; /* walks */
    if (v.off[c] != SLICES_DEV_NONE) {
        bool take = v.mode == SLICES_MODE_SLICES;
        if (!take) {
            uint64_t kept = 0;
            for (int64_t w = 0; w < v.n_words; w++)
                kept += slices_popc64(kept_word(t, v, tg, w));
            take = slices_pay(t, v, v.combo[c].planes, kept);
        }
        if (take)
            k = c;
    }
    key[i] = k;
    perm[i] = i;
}

/* Position j of the sorted batch: genome perm[j]'s genes. The sliced
 * genomes (keys below n_combos) come first: the last of them, or position 0
 * when there is none, writes their count. */
static __global__ void slices_gather_kernel(const uint16_t *genes, uint64_t stride, int32_t n_params,
                                            const uint32_t *perm, const uint64_t *key, uint64_t n_combos, uint32_t n,
                                            uint16_t *out, unsigned long long *n_sl)
{
    const uint32_t j = blockIdx.x * GA_THREADS + threadIdx.x;
    if (j >= n)
        return;
    if (key[j] < n_combos ? j + 1 == n || key[j + 1] == n_combos : j == 0)
        *n_sl = key[j] < n_combos ? j + 1ull : 0ull;
    for (int32_t k = 0; k < n_params; k++)
        out[(uint64_t)k * n + j] = genes[(uint64_t)k * stride + perm[j]];
}

static __global__ void slices_scatter_kernel(const uint32_t *perm, const eval_result_t *res, uint32_t n,
                                             eval_result_t *out)
{
    const uint32_t j = blockIdx.x * GA_THREADS + threadIdx.x;
    if (j < n)
        out[perm[j]] = res[j];
}

/* Sorted genomes [first, first + count) of genes (stride n): thread = genome.
 * Every thread of a block reaches each barrier: the tiled path is taken by
 * whole blocks (one combination, so the same planes, words and folds), and
 * threads past the end follow it without a genome. */
__global__ void __launch_bounds__(SL_THREADS)
    slices_eval_kernel(const fit_tables_t t, const slices_dev_view_t v, const uint16_t *genes, uint64_t stride,
                       int32_t n_params, uint64_t first, uint64_t count, eval_result_t *out)
{
    __shared__ uint64_t tile[SL_CHUNK * SL_TILE];
    __shared__ uint64_t ends[2];
    const uint64_t b0 = first + (uint64_t)blockIdx.x * SL_THREADS, end = first + count;
    const uint64_t j = b0 + threadIdx.x, last = (b0 + SL_THREADS < end ? b0 + SL_THREADS : end) - 1;
    const bool active = j < end;
    uint16_t g[EV_MAX_PARAMS];
    tables_genome_t tg;
    uint64_t c = 0, kw[SL_TILE], cnt[SLICES_DEV_MAX_PLANES];
    accum_t a[EV_AGG_MAX_FOLDS];
    const int32_t n_folds = t.agg == AGG_ALL ? 1 : t.n_folds;
    bool tiled;
    if (active) {
        genes_at(genes, stride, n_params, j, g);
        tables_genome(&t, g, &tg);
        c = tables_exit_combo_of(&t, &tg.x);
        if (j == b0)
            ends[0] = c;
        if (j == last)
            ends[1] = c;
    }
    __syncthreads();
    tiled = ends[0] == ends[1]; /* sorted: the block's genomes share one combination */
    if (!active && !tiled)
        return; /* no barrier follows on this path */
    if (!active)
        c = ends[0];
    if (tiled && threadIdx.x == 0)
        atomicAdd(v.blocks_sm, 1ull);
    {
        const slices_combo_t cb = v.combo[c];
        const uint64_t *planes = v.planes + v.off[c];
        const int64_t nw = v.n_words;
        for (int32_t f = 0; f < n_folds; f++) {
            uint64_t nk = 0;
            for (int p = 0; p < cb.planes; p++)
                cnt[p] = 0;
            for (int64_t w0 = 0; w0 < nw; w0 += SL_TILE) {
                const int tw = nw - w0 < SL_TILE ? (int)(nw - w0) : SL_TILE;
                for (int i = 0; active && i < tw; i++) {
                    kw[i] = kept_word(t, v, tg, w0 + i);
                    if (v.fold_bits)
                        kw[i] &= v.fold_bits[(int64_t)f * nw + w0 + i];
                    nk += slices_popc64(kw[i]);
                }
                for (int p0 = 0; p0 < cb.planes; p0 += SL_CHUNK) {
                    const int pc = cb.planes - p0 < SL_CHUNK ? cb.planes - p0 : SL_CHUNK;
                    if (tiled) {
                        __syncthreads(); /* the last tile is read by every thread */
                        for (int x = threadIdx.x; x < pc * SL_TILE; x += SL_THREADS) {
                            const int i = x % SL_TILE;
                            tile[x] = i < tw ? planes[(int64_t)(p0 + x / SL_TILE) * nw + w0 + i] : 0;
                        }
                        __syncthreads();
                        if (active)
                            slices_count_words(kw, tw, tile, SL_TILE, pc, cnt + p0);
                    } else {
                        slices_count_words(kw, tw, planes + (int64_t)p0 * nw + w0, nw, pc, cnt + p0);
                    }
                }
            }
            if (active)
                slices_accum(&cb, &t.obj, (int64_t)nk, cnt, &a[f]);
        }
    }
    if (active)
        out[j] = t.agg == AGG_ALL ? accum_finish(&a[0], &t.obj) : fold_aggregate(a, t.n_folds, t.agg, &t.obj);
}

/* ---- the split scratch ---------------------------------------------------- */

void slices_dev_scratch_free(cuda_slices_t *s)
{
    void *p[] = {s->key_a, s->key_b, s->perm_a, s->perm_b, s->genes, s->res, s->temp};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (p[i])
            cudaFree(p[i]); /* an error here (a dead context) leaves nothing to undo */
    s->key_a = s->key_b = NULL;
    s->perm_a = s->perm_b = NULL;
    s->genes = NULL;
    s->res = NULL;
    s->temp = NULL;
    s->cap = 0;
}

/* Scratch for cap genomes; EV_ENOMEM leaves none. */
static ev_status scratch_alloc(cuda_slices_t *s, uint64_t cap, int32_t n_params, ev_error *err)
{
    ev_status st = EV_OK;
    const uint64_t np = (uint64_t)(n_params > 0 ? n_params : 1);
    slices_dev_scratch_free(s);
    CUDA_TRY(ga_cub_temp_bytes((uint32_t)cap, &s->temp_bytes));
    CUDA_TRY(cudaMalloc((void **)&s->key_a, cap * sizeof *s->key_a));
    CUDA_TRY(cudaMalloc((void **)&s->key_b, cap * sizeof *s->key_b));
    CUDA_TRY(cudaMalloc((void **)&s->perm_a, cap * sizeof *s->perm_a));
    CUDA_TRY(cudaMalloc((void **)&s->perm_b, cap * sizeof *s->perm_b));
    CUDA_TRY(cudaMalloc((void **)&s->genes, cap * np * sizeof *s->genes));
    CUDA_TRY(cudaMalloc((void **)&s->res, cap * sizeof *s->res));
    CUDA_TRY(cudaMalloc(&s->temp, s->temp_bytes));
    s->cap = cap;
    return EV_OK;
fail:
    slices_dev_scratch_free(s);
    return st;
}

/* Bits of the largest key, n_combos. */
static int key_bits(uint64_t n_combos)
{
    int b = 1;
    while (b < 64 && (n_combos >> b) != 0)
        b++;
    return b;
}

ev_status slices_dev_split(cuda_slices_t *s, const fit_tables_t &t, const uint16_t *genes, uint64_t stride,
                           int32_t n_params, uint64_t n, int *split, uint64_t *n_sl, ev_error *err)
{
    ev_status st = EV_OK;
    unsigned long long cnt = 0;
    *split = 0;
    *n_sl = 0;
    if (n == 0 || n > UINT32_MAX || s->scratch_failed)
        return EV_OK;
    if (n > s->cap) {
        /* n rounded up to 1,024; a regrowth takes twice the last size, so that
         * a GA's new genomes, a little more in some generation, do not
         * reallocate generation after generation; out of memory, just n */
        const uint64_t exact = (n + 1023) / 1024 * 1024, more = s->cap && s->cap <= (1u << 30) ? 2 * s->cap : 0;
        st = scratch_alloc(s, more > exact ? more : exact, n_params, err);
        if (st == EV_ENOMEM && more > exact) {
            (void)cudaGetLastError(); /* an allocation failure is not sticky */
            st = scratch_alloc(s, exact, n_params, err);
        }
    }
    if (st != EV_OK) {
        if (st != EV_ENOMEM)
            return st;
        s->scratch_failed = 1;
        fprintf(stderr,
                "cuda backend: no device memory to sort %llu genomes by exit combination (%.1f MiB): every genome "
                "takes the walk, with the same results\n",
                (unsigned long long)n, (double)n * (28.0 + 2.0 * n_params) / 1048576.0);
        return EV_OK;
    }
    slices_key_kernel<<<ga_blocks(n), GA_THREADS>>>(t, s->v, genes, stride, n_params, (uint32_t)n, s->key_a, s->perm_a);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(ga_cub_sort_u64(s->temp, s->temp_bytes, s->key_a, s->key_b, s->perm_a, s->perm_b, (uint32_t)n,
                             key_bits(s->v.n_combos), 0));
    slices_gather_kernel<<<ga_blocks(n), GA_THREADS>>>(genes, stride, n_params, s->perm_b, s->key_b, s->v.n_combos,
                                                       (uint32_t)n, s->genes, s->n_sl);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaMemcpy(&cnt, s->n_sl, sizeof cnt, cudaMemcpyDeviceToHost)); /* synchronises */
    *n_sl = cnt;
    *split = 1;
    s->info.sliced += cnt;
    s->info.walked += n - cnt;
    return EV_OK;
fail:
    return st;
}

ev_status slices_dev_eval(cuda_slices_t *s, const fit_tables_t &t, int32_t n_params, uint64_t n, uint64_t first,
                          uint64_t count, ev_error *err)
{
    ev_status st = EV_OK;
    if (count == 0)
        return EV_OK;
    slices_eval_kernel<<<(unsigned)((count + SL_THREADS - 1) / SL_THREADS), SL_THREADS>>>(
        t, s->v, s->genes, n, n_params, first, count, s->res);
    CUDA_TRY_LAUNCH();
    return EV_OK;
fail:
    return st;
}

ev_status slices_dev_scatter(cuda_slices_t *s, uint64_t n, eval_result_t *out, ev_error *err)
{
    ev_status st = EV_OK;
    slices_scatter_kernel<<<ga_blocks(n), GA_THREADS>>>(s->perm_b, s->res, (uint32_t)n, out);
    CUDA_TRY_LAUNCH();
    return EV_OK;
fail:
    return st;
}
