/* ga_rank on the device: each island in rank order and the generation's
 * summaries, equal to the CPU ops' (ga/cpu_ga_rank.c) bit for bit.
 *
 * The order is (island, rank_key descending, index ascending, individual
 * ascending), built from evaluate's `sorted` (already by index, individual)
 * with two stable radix sorts:
 *   A: by rank_key descending -> key_b (keys, descending), val_b (individuals)
 *   B: by island ascending (skipped with one island) -> order
 * Then, reading those:
 *   unique_kernel     thread = rank position: a new genome starts where the
 *                     index differs from the previous position's in the same
 *                     island (equal genomes have equal keys, so are adjacent);
 *                     per-warp counts per island, integer atomics
 *   histogram_kernel  thread = individual: gene_counts[offset_k + gene k] += 1,
 *                     lanes with the same bin aggregated first
 *   summary_kernel    one block: feasible count, best and median from pass A
 *                     (feasible keys first, descending)
 *   stats_values_kernel  thread = individual: its fitness, NaN if infeasible,
 *                     copied back for ga_mean_std_of's sums in individual
 *                     order (the CPU's order: a tree sum differs in the last
 *                     bits; P doubles a generation, ~0.5 MB at P = 65,536). */
#include <cmath>

#include "kernels/ga_table.cuh"

enum { SUMMARY_THREADS = 1024 };

/* keys[j] = rank_key of individual sorted[j]; vals[j] = that individual. */
static __global__ void rank_keys_kernel(const eval_result_t *results, const uint32_t *sorted, uint32_t n,
                                        uint64_t *keys, uint32_t *vals)
{
    uint32_t j = blockIdx.x * GA_THREADS + threadIdx.x;
    if (j >= n)
        return;
    vals[j] = sorted[j];
    keys[j] = rank_key(results[sorted[j]]);
}

static __global__ void island_keys_kernel(const uint32_t *perm, uint32_t n, uint32_t island_size, uint32_t *keys)
{
    uint32_t j = blockIdx.x * GA_THREADS + threadIdx.x;
    if (j < n)
        keys[j] = perm[j] / island_size;
}

static __global__ void unique_kernel(const uint32_t *order, const uint64_t *index, uint32_t pop, int32_t words,
                                     uint32_t island_size, uint32_t *island_unique)
{
    uint32_t p = blockIdx.x * GA_THREADS + threadIdx.x;
    unsigned active = __ballot_sync(0xFFFFFFFFu, p < pop);
    if (p < pop) {
        uint32_t island = p / island_size;
        int starts = p % island_size == 0;
        unsigned peers, starters;
        if (!starts) {
            uint64_t a[GA_INDEX_WORDS_MAX], b[GA_INDEX_WORDS_MAX];
            ga_index_load(index, pop, words, order[p], a);
            ga_index_load(index, pop, words, order[p - 1], b);
            starts = !dedup_key_same(a, b, words);
        }
        /* lanes of one island count together: one atomic per island per warp */
        peers = __match_any_sync(active, island);
        starters = __ballot_sync(active, starts) & peers;
        if (starters && (unsigned)(__ffs(peers) - 1) == (threadIdx.x & 31u))
            atomicAdd(&island_unique[island], (unsigned)__popc(starters));
    }
}

/* Offsets of each gene's histogram in gene_counts (sum of earlier n_values). */
typedef struct {
    uint32_t at[GA_MAX_GENES];
} gene_offsets_t;
KERNEL_ARG_PLAIN(gene_offsets_t)

static __global__ void histogram_kernel(const uint16_t *genes, uint32_t pop, int32_t n_genes,
                                        const __grid_constant__ gene_offsets_t off, uint32_t *counts)
{
    uint32_t i = blockIdx.x * GA_THREADS + threadIdx.x;
    unsigned active = __ballot_sync(0xFFFFFFFFu, i < pop);
    if (i >= pop)
        return; /* the ballot above was the last collective of the inactive lanes */
    for (int32_t k = 0; k < n_genes; k++) {
        uint32_t bin = off.at[k] + genes[(uint64_t)k * pop + i];
        unsigned peers = __match_any_sync(active, bin);
        if ((unsigned)(__ffs(peers) - 1) == (threadIdx.x & 31u))
            atomicAdd(&counts[bin], (unsigned)__popc(peers));
    }
}

/* The tree below needs a power-of-two block. */
static_assert((SUMMARY_THREADS & (SUMMARY_THREADS - 1)) == 0, "SUMMARY_THREADS is a power of two");

/* Sums v over the block in a fixed shape; every thread gets the total. */
template <class T> __device__ T block_sum(T v, T *sh)
{
    T total;
    sh[threadIdx.x] = v;
    __syncthreads();
    for (unsigned s = SUMMARY_THREADS / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            sh[threadIdx.x] += sh[threadIdx.x + s];
        __syncthreads();
    }
    total = sh[0];
    __syncthreads(); /* sh is reused by the next call */
    return total;
}

/* One block. perm_desc: pass A's individuals (rank_key descending). */
static __global__ void __launch_bounds__(SUMMARY_THREADS)
    summary_kernel(const eval_result_t *results, const uint32_t *perm_desc, uint32_t pop, ga_summary_t *out)
{
    __shared__ unsigned long long sh_u[SUMMARY_THREADS];
    unsigned long long feasible = 0;
    for (uint32_t i = threadIdx.x; i < pop; i += SUMMARY_THREADS)
        feasible += results[i].feasible != 0;
    feasible = block_sum(feasible, sh_u);
    if (threadIdx.x == 0) {
        uint64_t n = feasible;
        out->feasible = feasible;
        out->best = 0.0;
        out->median = 0.0;
        if (n) {
            /* the feasible ones are pass A's first n (key 0 = infeasible sorts
             * last); ascending position a is descending position n - 1 - a */
            out->best = results[perm_desc[0]].fitness;
            out->median = ga_median_of(n, results[perm_desc[n - 1 - ga_median_lo(n)]].fitness,
                                       results[perm_desc[n - 1 - ga_median_hi(n)]].fitness);
        }
    }
}

/* values[i] = individual i's fitness, NaN where infeasible (ga_mean_std_of). */
static __global__ void stats_values_kernel(const eval_result_t *results, uint32_t pop, double *values)
{
    uint32_t i = blockIdx.x * GA_THREADS + threadIdx.x;
    if (i < pop)
        values[i] = results[i].feasible ? results[i].fitness : (double)NAN;
}

extern "C" ev_status cuda_ga_rank(cuda_ga_t *g, ga_rank_out_t *out, ev_error *err)
{
    ev_status st = EV_OK;
    uint32_t pop = g->pop, size = g->plan.ctx.island_size, islands = g->plan.ctx.islands;
    gene_offsets_t off;
    ga_summary_t sum;
    uint32_t at = 0;
    if (!g->evaluated)
        return ev_fail(err, EV_EINTERNAL, "ga_rank before ga_evaluate");
    rank_keys_kernel<<<ga_blocks(pop), GA_THREADS>>>(g->results, g->sorted, pop, g->key_a, g->val_a);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(ga_cub_sort_u64(g->temp, g->temp_bytes, g->key_a, g->key_b, g->val_a, g->val_b, pop, 64, 1));
    if (islands > 1) {
        island_keys_kernel<<<ga_blocks(pop), GA_THREADS>>>(g->val_b, pop, size, g->flag);
        CUDA_TRY_LAUNCH();
        CUDA_TRY(ga_cub_sort_u32(g->temp, g->temp_bytes, g->flag, g->incl, g->val_b, g->order, pop, g->island_bits));
    } else {
        CUDA_TRY(cudaMemcpy(g->order, g->val_b, pop * sizeof *g->order, cudaMemcpyDeviceToDevice));
    }

    CUDA_TRY(cudaMemset(g->island_unique, 0, islands * sizeof *g->island_unique));
    unique_kernel<<<ga_blocks(pop), GA_THREADS>>>(g->order, g->index, pop, g->words, size, g->island_unique);
    CUDA_TRY_LAUNCH();
    memset(&off, 0, sizeof off);
    for (int32_t k = 0; k < g->n_genes; k++) {
        off.at[k] = at;
        at += g->plan.ctx.n_values[k];
    }
    CUDA_TRY(cudaMemset(g->gene_counts, 0, g->plan.gene_values * sizeof *g->gene_counts));
    histogram_kernel<<<ga_blocks(pop), GA_THREADS>>>(g->genes, pop, g->n_genes, off, g->gene_counts);
    CUDA_TRY_LAUNCH();
    summary_kernel<<<1, SUMMARY_THREADS>>>(g->results, g->val_b, pop, g->summary);
    CUDA_TRY_LAUNCH();
    /* key_a is free once pass A has sorted it into key_b: P doubles of room */
    stats_values_kernel<<<ga_blocks(pop), GA_THREADS>>>(g->results, pop, reinterpret_cast<double *>(g->key_a));
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaMemcpy(g->stats_host, g->key_a, pop * sizeof *g->stats_host, cudaMemcpyDeviceToHost));
    ga_mean_std_of(g->stats_host, pop, &out->mean, &out->std);

    CUDA_TRY(cudaMemcpy(&sum, g->summary, sizeof sum, cudaMemcpyDeviceToHost)); /* synchronises */
    if (out->island_unique)
        CUDA_TRY(cudaMemcpy(out->island_unique, g->island_unique, islands * sizeof *g->island_unique,
                            cudaMemcpyDeviceToHost));
    if (out->gene_counts)
        CUDA_TRY(cudaMemcpy(out->gene_counts, g->gene_counts, g->plan.gene_values * sizeof *g->gene_counts,
                            cudaMemcpyDeviceToHost));
    out->feasible = sum.feasible;
    out->best = sum.best;
    out->median = sum.median;
    g->ranked = 1;
    return EV_OK;
fail:
    return st;
}
