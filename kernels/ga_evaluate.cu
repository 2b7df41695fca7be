/* ga_evaluate on the device: the population's fitness through the dedup
 * cache, equal to the CPU ops' (ga/cpu_ga_evaluate.c) in every output.
 *
 *   index_kernel     thread = individual: genome_index -> index [W][P];
 *                    also the sort's first values (val_a = identity), so no
 *                    iota launch
 *   sort             items by (index, item): W stable radix passes, least
 *                    significant word first (ga_sort_by_index) -> sorted [P]
 *   heads_kernel     thread = sorted position j: j heads a group iff its
 *                    index differs from position j - 1's; each head looks its
 *                    genome up once (hit: res_head[j]); marks[j] = (head, miss)
 *                    packed in one word (head << 32 | miss)
 *   scan             one inclusive sum of the marks: each position's group
 *                    number and the new groups' ranks together
 *   compact_kernel   heads[g] = group g's head, group[j] = position j's
 *                    group, new_pos[t] = the t-th new head (ascending index
 *                    order); the last position writes the counts (no atomics)
 *   -- the host reads (distinct, n_new) and checks the cache capacity: if the
 *      new genomes do not fit, it returns cache_full having changed nothing
 *      but scratch (the cache, results and flags are as before) --
 *   gather_new       the new genomes' genes, compact SoA [G][P]
 *   fitness          the tables evaluator (fitness.cu), launches of launch_max
 *   insert_kernel    thread = new genome t: ga_table_put (one thread per
 *                    distinct genome: no duplicate inserts), res_head
 *   scatter_kernel   thread = position j: results[sorted[j]] = res_head[heads[group[j]]]
 *   top              stable radix sort of the new ones by rank_key descending
 *                    (ties stay in ascending index order: ranked_before's
 *                    order); the best top_k become ga_hof_entry_t's on the
 *                    device (ga_entry_make) and cross to the host; that
 *                    copy is evaluate's second and last wait (the first:
 *                    the counts).
 *
 * Deterministic: sorts are stable and total on (key, item), the counts are
 * integer sums, and each output element is written by one thread. */
#include <cstdlib>
#include <cstring>

#include "kernels/ga_table.cuh"

/* Thread = individual i: its index words and perm[i] = i (what
 * ga_dedup_pass expects of its caller). */
static __global__ void index_kernel(const __grid_constant__ breed_ctx_t ctx, const uint16_t *genes, int32_t words,
                                    uint64_t *index, uint32_t *perm)
{
    uint32_t i = blockIdx.x * GA_THREADS + threadIdx.x;
    uint16_t g[GA_MAX_GENES];
    uint64_t ix[GA_INDEX_WORDS_MAX];
    if (i >= ctx.population)
        return;
    genome_gather(genes, ctx.population, i, ctx.n_genes, g);
    genome_index(ctx.n_values, ctx.n_genes, g, words, ix);
    for (int32_t w = 0; w < words; w++)
        index[(uint64_t)w * ctx.population + i] = ix[w];
    perm[i] = i;
}

/* The same for items whose index the host copied (cache import). */
static __global__ void iota_kernel(uint32_t *perm, uint32_t n)
{
    uint32_t j = blockIdx.x * GA_THREADS + threadIdx.x;
    if (j < n)
        perm[j] = j;
}

ev_status ga_dedup_prepare(cuda_ga_t *g, uint32_t n, ev_error *err)
{
    ev_status st = EV_OK;
    iota_kernel<<<ga_blocks(n), GA_THREADS>>>(g->val_a, n);
    CUDA_TRY_LAUNCH();
    return EV_OK;
fail:
    return st;
}

/* keys[j] = word w of item perm[j]'s index. */
static __global__ void gather_word_kernel(const uint64_t *index, uint32_t stride, int32_t w, const uint32_t *perm,
                                          uint32_t n, uint64_t *keys)
{
    uint32_t j = blockIdx.x * GA_THREADS + threadIdx.x;
    if (j < n)
        keys[j] = index[(uint64_t)w * stride + perm[j]];
}

/* g->sorted[0..n) = items [0, n) by (index, item). The first pass sorts the
 * identity permutation (val_a, the caller's) by word 0; each next pass sorts
 * the permutation so far by the next word, stably, so the last (most
 * significant) word decides first and item numbers break ties. Only the top
 * word is limited to top_bits. */
static ev_status ga_sort_by_index(cuda_ga_t *g, uint32_t n, int32_t top_bits, ev_error *err)
{
    ev_status st = EV_OK;
    const uint32_t *perm = g->val_a;
    for (int32_t w = 0; w < g->words; w++) {
        const uint64_t *keys = g->index; /* word 0 of items in item order */
        uint32_t *out = w == g->words - 1 ? g->sorted : perm == g->val_a ? g->val_b : g->val_a;
        if (w > 0) {
            gather_word_kernel<<<ga_blocks(n), GA_THREADS>>>(g->index, g->pop, w, perm, n, g->key_a);
            CUDA_TRY_LAUNCH();
            keys = g->key_a;
        }
        CUDA_TRY(ga_cub_sort_u64(g->temp, g->temp_bytes, keys, g->key_b, perm, out, n,
                                 w == g->words - 1 ? top_bits : 64, 0));
        perm = out;
    }
    return EV_OK;
fail:
    return st;
}

/* A mark: head << 32 | miss. Their sum up to j: position j's group number
 * (1-based) and the new groups up to j, each below 2^32 (n < 2^31). */
#define MARK_HEAD (UINT64_C(1) << 32)

/* Thread = sorted position j: group heads, one cache lookup per group. */
static __global__ void heads_kernel(ga_table_view_t t, const uint64_t *index, uint32_t stride, const uint32_t *sorted,
                                    uint32_t n, eval_result_t *res_head, uint64_t *marks)
{
    uint32_t j = blockIdx.x * GA_THREADS + threadIdx.x;
    uint64_t a[GA_INDEX_WORDS_MAX], b[GA_INDEX_WORDS_MAX];
    uint64_t mark = 0;
    if (j >= n)
        return;
    ga_index_load(index, stride, t.words, sorted[j], a);
    if (j > 0)
        ga_index_load(index, stride, t.words, sorted[j - 1], b);
    if (j == 0 || !dedup_key_same(a, b, t.words)) {
        eval_result_t r;
        mark = MARK_HEAD;
        if (ga_table_find(t, a, &r))
            res_head[j] = r;
        else
            mark |= 1u;
    }
    marks[j] = mark;
}

/* Thread = sorted position j, from its mark and the marks' running sum. */
static __global__ void compact_kernel(const uint64_t *marks, const uint64_t *sums, uint32_t n, uint32_t *heads,
                                      uint32_t *group, uint32_t *new_pos, ga_counts_t *counts)
{
    uint32_t j = blockIdx.x * GA_THREADS + threadIdx.x;
    uint32_t grp, ranked;
    if (j >= n)
        return;
    grp = (uint32_t)(sums[j] >> 32) - 1u;
    ranked = (uint32_t)sums[j];
    group[j] = grp;
    if (marks[j] & MARK_HEAD)
        heads[grp] = j;
    if (marks[j] & 1u)
        new_pos[ranked - 1] = j;
    if (j == n - 1) {
        counts->distinct = grp + 1ull;
        counts->n_new = ranked;
    }
}

ev_status ga_dedup_pass(cuda_ga_t *g, uint32_t n, int32_t index_bits, uint64_t *distinct, uint64_t *n_new,
                        ev_error *err)
{
    ev_status st = EV_OK;
    ga_counts_t c;
    if ((st = ga_sort_by_index(g, n, index_bits, err)) != EV_OK)
        return st;
    /* key_a and key_b are free once the sort has ended: the marks and their sums */
    heads_kernel<<<ga_blocks(n), GA_THREADS>>>(ga_table_view(&g->table), g->index, g->pop, g->sorted, n, g->res_head,
                                               g->key_a);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(ga_cub_sum_u64(g->temp, g->temp_bytes, g->key_a, g->key_b, n));
    compact_kernel<<<ga_blocks(n), GA_THREADS>>>(g->key_a, g->key_b, n, g->heads, g->group, g->new_pos, g->counts);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaMemcpy(&c, g->counts, sizeof c, cudaMemcpyDeviceToHost)); /* synchronises */
    *distinct = c.distinct;
    *n_new = c.n_new;
    return EV_OK;
fail:
    return st;
}

/* Thread = new genome t: its head's item and genes into the compact SoA. */
static __global__ void gather_new_kernel(const uint16_t *genes, uint32_t pop, int32_t n_genes, const uint32_t *sorted,
                                         const uint32_t *new_pos, uint32_t n_new, uint16_t *new_genes)
{
    uint32_t t = blockIdx.x * GA_THREADS + threadIdx.x;
    uint32_t i;
    if (t >= n_new)
        return;
    i = sorted[new_pos[t]];
    for (int32_t k = 0; k < n_genes; k++)
        new_genes[(uint64_t)k * pop + t] = genes[(uint64_t)k * pop + i];
}

/* Thread = new genome t: inserts it (distinct and absent: ga_table_put's
 * contract) and records it as its group's result. */
static __global__ void insert_kernel(ga_table_view_t t, const uint64_t *index, uint32_t stride, const uint32_t *sorted,
                                     const uint32_t *new_pos, uint32_t n_new, const eval_result_t *vals, int by_item,
                                     eval_result_t *res_head, uint64_t *top_keys, uint32_t *top_vals)
{
    uint32_t x = blockIdx.x * GA_THREADS + threadIdx.x;
    uint64_t key[GA_INDEX_WORDS_MAX];
    uint32_t pos, item;
    eval_result_t r;
    if (x >= n_new)
        return;
    pos = new_pos[x];
    item = sorted[pos];
    r = vals[by_item ? item : x];
    ga_index_load(index, stride, t.words, item, key);
    ga_table_put(t, key, r);
    res_head[pos] = r;
    if (top_keys) {
        top_keys[x] = rank_key(r);
        top_vals[x] = x;
    }
}

ev_status ga_insert_new(cuda_ga_t *g, uint64_t n_new, const eval_result_t *vals, int by_item, int with_top,
                        ev_error *err)
{
    ev_status st = EV_OK;
    if (n_new == 0)
        return EV_OK;
    if ((st = ga_table_reserve(&g->table, g->table.count + n_new, err)) != EV_OK)
        return st;
    insert_kernel<<<ga_blocks(n_new), GA_THREADS>>>(ga_table_view(&g->table), g->index, g->pop, g->sorted, g->new_pos,
                                                    (uint32_t)n_new, vals, by_item, g->res_head,
                                                    with_top ? g->key_a : NULL, with_top ? g->val_a : NULL);
    CUDA_TRY_LAUNCH();
    g->table.count += n_new;
    return EV_OK;
fail:
    return st;
}

static __global__ void scatter_kernel(const uint32_t *sorted, const uint32_t *heads, const uint32_t *group,
                                      const eval_result_t *res_head, uint32_t n, eval_result_t *results)
{
    uint32_t j = blockIdx.x * GA_THREADS + threadIdx.x;
    if (j < n)
        results[sorted[j]] = res_head[heads[group[j]]];
}

/* Thread = rank r of the new top: ranks[r] is the new genome's number t. */
static __global__ void top_kernel(const uint16_t *new_genes, uint32_t pop, int32_t n_genes, const uint64_t *index,
                                  int32_t words, const uint32_t *sorted, const uint32_t *new_pos,
                                  const eval_result_t *new_res, const uint32_t *ranks, uint32_t m, ga_hof_entry_t *top)
{
    uint32_t r = blockIdx.x * GA_THREADS + threadIdx.x;
    uint16_t genes[GA_MAX_GENES];
    uint64_t ix[GA_INDEX_WORDS_MAX];
    uint32_t t;
    if (r >= m)
        return;
    t = ranks[r];
    genome_gather(new_genes, pop, t, n_genes, genes);
    ga_index_load(index, pop, words, sorted[new_pos[t]], ix);
    ga_entry_make(&top[r], genes, n_genes, ix, words, new_res[t]);
}

/* The best top_k new feasible genomes into out->top (key_a/val_a hold
 * (rank_key, t) of the n_new new genomes). */
static ev_status new_top(cuda_ga_t *g, uint32_t n_new, ga_eval_out_t *out, ev_error *err)
{
    ev_status st = EV_OK;
    uint32_t m = n_new < g->plan.top_k ? n_new : g->plan.top_k, n = 0;
    if (m == 0)
        return EV_OK;
    CUDA_TRY(ga_cub_sort_u64(g->temp, g->temp_bytes, g->key_a, g->key_b, g->val_a, g->val_b, n_new, 64, 1));
    top_kernel<<<ga_blocks(m), GA_THREADS>>>(g->new_genes, g->pop, g->n_genes, g->index, g->words, g->sorted,
                                             g->new_pos, g->new_res, g->val_b, m, g->top);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaMemcpy(g->top_host, g->top, (size_t)m * sizeof *g->top, cudaMemcpyDeviceToHost));
    while (n < m && g->top_host[n].key != 0) /* infeasible ones (key 0) sort last */
        n++;
    memcpy(out->top, g->top_host, (size_t)n * sizeof *out->top);
    out->n_top = n;
    return EV_OK;
fail:
    return st;
}

extern "C" ev_status cuda_ga_evaluate(cuda_ga_t *g, ga_eval_out_t *out, ev_error *err)
{
    ev_status st = EV_OK;
    uint64_t distinct = 0, n_new = 0;
    out->distinct = out->new_evals = 0;
    out->cache_full = 0;
    out->n_top = 0;
    if (!g->has_population)
        return ev_fail(err, EV_EINTERNAL, "ga_evaluate before a population exists");
    index_kernel<<<ga_blocks(g->pop), GA_THREADS>>>(g->plan.ctx, g->genes, g->words, g->index, g->val_a);
    CUDA_TRY_LAUNCH();
    if ((st = ga_dedup_pass(g, g->pop, g->index_bits, &distinct, &n_new, err)) != EV_OK)
        return st;
    out->distinct = distinct;
    out->new_evals = n_new;
    if (g->table.count + n_new > g->plan.cache_capacity) {
        out->cache_full = 1; /* nothing but scratch has changed */
        return EV_OK;
    }
    if (n_new) {
        gather_new_kernel<<<ga_blocks(n_new), GA_THREADS>>>(g->genes, g->pop, g->n_genes, g->sorted, g->new_pos,
                                                            (uint32_t)n_new, g->new_genes);
        CUDA_TRY_LAUNCH();
        if ((st = cuda_eval_device_genes(g->e, g->new_genes, g->pop, n_new, g->new_res, err)) != EV_OK)
            return st;
        if ((st = ga_insert_new(g, n_new, g->new_res, 0, 1, err)) != EV_OK)
            return st;
    }
    scatter_kernel<<<ga_blocks(g->pop), GA_THREADS>>>(g->sorted, g->heads, g->group, g->res_head, g->pop, g->results);
    CUDA_TRY_LAUNCH();
    if ((st = new_top(g, (uint32_t)n_new, out, err)) != EV_OK)
        return st;
    if (n_new == 0) /* else new_top's copy back waited for every launch above, and reported any fault */
        CUDA_TRY(cudaDeviceSynchronize());
    g->evaluated = 1;
    g->ranked = 0;
    return EV_OK;
fail:
    return st;
}
