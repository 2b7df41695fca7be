/* ga_rank on the device: each island in rank order and the generation's
 * summaries, equal to the CPU ops' (ga/cpu_ga_rank.c) bit for bit.
 *
 * The order is (island, rank_key descending, index ascending, individual
 * ascending), built from evaluate's `sorted` (already by index, individual)
 * with two stable radix sorts:
 *   A: by rank_key descending -> key_b (keys, descending), val_b (individuals;
 *      `order` itself with one island)
 *   B: by island ascending (skipped with one island) -> order
 * rank_keys_kernel also zeroes the record's counters for the tallies (no
 * cudaMemset). Then one launch, tally_kernel, thread = p, reads those:
 *   - rank position p: a new genome starts where the index differs from the
 *     previous position's in the same island (equal genomes have equal keys,
 *     so are adjacent); per-warp counts per island, integer atomics
 *   - individual p: gene_counts[offset_k + gene k] += 1, lanes with the same
 *     bin aggregated first; its fitness (NaN if infeasible) into the record,
 *     copied back for ga_mean_std_of's sums in individual order (the CPU's
 *     order: a tree sum differs in the last bits; P doubles a generation)
 *   - pass A position p: the last feasible position (key 0 = infeasible sorts
 *     last) writes the feasible count, best and median; position 0 does when
 *     none is feasible. One writer, no reduction.
 * The record (summary, island counts, gene counts, fitness values) comes back
 * in one copy into pinned memory: the generation's one wait in ga_rank. */
#include <cmath>
#include <cstring>

#include "kernels/ga_table.cuh"

/* keys[j] = rank_key of individual sorted[j]; vals[j] = that individual;
 * zero[0..n_zero) = 0 (the tallies' counters: island counts, gene counts). */
static __global__ void rank_keys_kernel(const eval_result_t *results, const uint32_t *sorted, uint32_t n,
                                        uint64_t *keys, uint32_t *vals, uint32_t *zero, uint64_t n_zero)
{
    const uint32_t j = blockIdx.x * GA_THREADS + threadIdx.x;
    for (uint64_t z = j; z < n_zero; z += (uint64_t)gridDim.x * GA_THREADS)
        zero[z] = 0;
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

/* Rank position p (p < pop; active: the warp's lanes with one): counts a
 * genome starting at p in its island. */
static __device__ void tally_unique(const uint32_t *order, const uint64_t *index, uint32_t pop, int32_t words,
                                    uint32_t island_size, unsigned active, uint32_t p, uint32_t *island_unique)
{
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

/* Offsets of each gene's histogram in gene_counts (sum of earlier n_values). */
typedef struct {
    uint32_t at[GA_MAX_GENES];
} gene_offsets_t;
KERNEL_ARG_PLAIN(gene_offsets_t)

/* Individual i (i < pop): its genes into the histograms. */
static __device__ void tally_genes(const uint16_t *genes, uint32_t pop, int32_t n_genes, const gene_offsets_t &off,
                                   unsigned active, uint32_t i, uint32_t *counts)
{
    for (int32_t k = 0; k < n_genes; k++) {
        uint32_t bin = off.at[k] + genes[(uint64_t)k * pop + i];
        unsigned peers = __match_any_sync(active, bin);
        if ((unsigned)(__ffs(peers) - 1) == (threadIdx.x & 31u))
            atomicAdd(&counts[bin], (unsigned)__popc(peers));
    }
}

/* Pass A position p: the summary, written by the last feasible position
 * (n = p + 1 feasible), or by position 0 when none is feasible. */
static __device__ void tally_summary(const eval_result_t *results, const uint64_t *keys_desc, const uint32_t *perm_desc,
                                     uint32_t pop, uint32_t p, ga_summary_t *out)
{
    const bool feasible = keys_desc[p] != 0;
    uint64_t n;
    if (feasible ? p + 1 < pop && keys_desc[p + 1] != 0 : p != 0)
        return;
    n = feasible ? (uint64_t)p + 1 : 0;
    out->feasible = n;
    out->best = 0.0;
    out->median = 0.0;
    if (n) {
        /* ascending position a is descending position n - 1 - a */
        out->best = results[perm_desc[0]].fitness;
        out->median = ga_median_of(n, results[perm_desc[n - 1 - ga_median_lo(n)]].fitness,
                                   results[perm_desc[n - 1 - ga_median_hi(n)]].fitness);
    }
}

/* The rank record (the file's comment): thread p of pop. */
static __global__ void tally_kernel(const eval_result_t *results, const uint16_t *genes, const uint32_t *order,
                                    const uint64_t *index, const uint64_t *keys_desc, const uint32_t *perm_desc,
                                    uint32_t pop, int32_t words, int32_t n_genes, uint32_t island_size,
                                    const __grid_constant__ gene_offsets_t off, uint32_t *island_unique,
                                    uint32_t *gene_counts, double *values, ga_summary_t *summary)
{
    const uint32_t p = blockIdx.x * GA_THREADS + threadIdx.x;
    const unsigned active = __ballot_sync(0xFFFFFFFFu, p < pop);
    if (p >= pop)
        return; /* the ballot above was the last collective of the inactive lanes */
    tally_unique(order, index, pop, words, island_size, active, p, island_unique);
    tally_genes(genes, pop, n_genes, off, active, p, gene_counts);
    values[p] = results[p].feasible ? results[p].fitness : (double)NAN;
    tally_summary(results, keys_desc, perm_desc, pop, p, summary);
}

extern "C" ev_status cuda_ga_rank(cuda_ga_t *g, ga_rank_out_t *out, ev_error *err)
{
    ev_status st = EV_OK;
    uint32_t pop = g->pop, size = g->plan.ctx.island_size, islands = g->plan.ctx.islands;
    const ga_rank_layout_t rec = ga_rank_layout(islands, g->plan.gene_values, pop);
    /* with one island pass A's order is the order: no pass B, no copy */
    uint32_t *perm_desc = islands > 1 ? g->val_b : g->order;
    const ga_summary_t *sum = (const ga_summary_t *)g->rank_host;
    gene_offsets_t off;
    uint32_t at = 0;
    if (!g->evaluated)
        return ev_fail(err, EV_EINTERNAL, "ga_rank before ga_evaluate");
    /* island and gene counts lie together in the record, zeroed here */
    rank_keys_kernel<<<ga_blocks(pop), GA_THREADS>>>(g->results, g->sorted, pop, g->key_a, g->val_a, g->island_unique,
                                                     (uint64_t)islands + g->plan.gene_values);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(ga_cub_sort_u64(g->temp, g->temp_bytes, g->key_a, g->key_b, g->val_a, perm_desc, pop, 64, 1));
    if (islands > 1) {
        island_keys_kernel<<<ga_blocks(pop), GA_THREADS>>>(g->val_b, pop, size, g->flag);
        CUDA_TRY_LAUNCH();
        CUDA_TRY(ga_cub_sort_u32(g->temp, g->temp_bytes, g->flag, g->incl, g->val_b, g->order, pop, g->island_bits));
    }
    memset(&off, 0, sizeof off);
    for (int32_t k = 0; k < g->n_genes; k++) {
        off.at[k] = at;
        at += g->plan.ctx.n_values[k];
    }
    tally_kernel<<<ga_blocks(pop), GA_THREADS>>>(g->results, g->genes, g->order, g->index, g->key_b, perm_desc, pop,
                                                 g->words, g->n_genes, size, off, g->island_unique, g->gene_counts,
                                                 g->stats_values, g->summary);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaMemcpy(g->rank_host, g->rank_rec, rec.bytes, cudaMemcpyDeviceToHost)); /* the one wait */
    ga_mean_std_of((const double *)(g->rank_host + rec.values), pop, &out->mean, &out->std);
    if (out->island_unique)
        memcpy(out->island_unique, g->rank_host + rec.unique, islands * sizeof *out->island_unique);
    if (out->gene_counts)
        memcpy(out->gene_counts, g->rank_host + rec.counts, g->plan.gene_values * sizeof *out->gene_counts);
    out->feasible = sum->feasible;
    out->best = sum->best;
    out->median = sum->median;
    g->ranked = 1;
    return EV_OK;
fail:
    return st;
}
