/* The GA vtable's cache ops on the device cache (kernels/ga_table.cuh):
 * count, export to the host (for the checkpoint), and import through the
 * dedup pass of ga_evaluate.cu (on resume). */
#include <cstdlib>
#include <cstring>

#include "kernels/ga_table.cuh"
#include "kernels/launch.cuh"

/* Slots exported per pass: bounds the staging buffers (at most 56 MiB). */
#define EXPORT_SLOTS ((uint64_t)1 << 20)

extern "C" uint64_t cuda_ga_cache_count(cuda_ga_t *g)
{
    return g->table.count;
}

/* Taken slots of [first, first + len) appended to keys [m][W] / vals [m]
 * through an atomic counter (so in no particular order). */
static __global__ void export_kernel(ga_table_view_t t, uint64_t first, uint64_t len, uint64_t *keys,
                                     eval_result_t *vals, unsigned long long *m)
{
    uint64_t step = (uint64_t)gridDim.x * GA_THREADS;
    for (uint64_t x = (uint64_t)blockIdx.x * GA_THREADS + threadIdx.x; x < len; x += step) {
        uint64_t s = first + x;
        const ga_slot_t v = t.vals[s];
        unsigned long long at;
        if (!v.used)
            continue;
        at = atomicAdd(m, 1ull);
        for (int32_t w = 0; w < t.words; w++)
            keys[at * (uint64_t)t.words + w] = t.keys[s * (uint64_t)t.words + w];
        vals[at].fitness = v.fitness;
        vals[at].trades = v.trades;
        vals[at].feasible = v.feasible;
        vals[at].pad_ = 0;
    }
}

extern "C" ev_status cuda_ga_cache_export(cuda_ga_t *g, uint64_t *index, eval_result_t *results, ev_error *err)
{
    ev_status st = EV_OK;
    ga_table_t *t = &g->table;
    uint64_t chunk = t->slots < EXPORT_SLOTS ? t->slots : EXPORT_SLOTS, n = 0;
    uint64_t *d_keys = NULL;
    eval_result_t *d_vals = NULL;
    unsigned long long *d_m = NULL, m = 0;
    CUDA_TRY(cudaMalloc((void **)&d_keys, chunk * (uint64_t)t->words * sizeof(uint64_t)));
    CUDA_TRY(cudaMalloc((void **)&d_vals, chunk * sizeof(eval_result_t)));
    CUDA_TRY(cudaMalloc((void **)&d_m, sizeof *d_m));
    for (uint64_t s0 = 0; s0 < t->slots; s0 += chunk) {
        CUDA_TRY(cudaMemset(d_m, 0, sizeof *d_m));
        export_kernel<<<launch_blocks(chunk, GA_THREADS), GA_THREADS>>>(ga_table_view(t), s0, chunk, d_keys, d_vals,
                                                                        d_m);
        CUDA_TRY_LAUNCH();
        CUDA_TRY(cudaMemcpy(&m, d_m, sizeof m, cudaMemcpyDeviceToHost));
        if (n + m > t->count) {
            st = ev_fail(err, EV_EINTERNAL, "dedup cache export: more taken slots than the %llu entries counted",
                         (unsigned long long)t->count);
            goto done;
        }
        if (m) {
            CUDA_TRY(cudaMemcpy(index + n * (uint64_t)t->words, d_keys, m * (uint64_t)t->words * sizeof(uint64_t),
                                cudaMemcpyDeviceToHost));
            CUDA_TRY(cudaMemcpy(results + n, d_vals, m * sizeof(eval_result_t), cudaMemcpyDeviceToHost));
        }
        n += m;
    }
    if (n != t->count)
        st = ev_fail(err, EV_EINTERNAL, "dedup cache export: %llu taken slots, %llu entries counted",
                     (unsigned long long)n, (unsigned long long)t->count);
    goto done;
fail:
    if (st == EV_ENOMEM)
        ev_error_prefix(err, "exporting the dedup cache: ");
done:
    if (d_keys)
        cudaFree(d_keys);
    if (d_vals)
        cudaFree(d_vals);
    if (d_m)
        cudaFree(d_m);
    return st;
}

/* Imports entries in chunks of up to P through the dedup pass: the first of
 * equal indices wins and indices already held are skipped, as on the host. */
extern "C" ev_status cuda_ga_cache_import(cuda_ga_t *g, const uint64_t *index, const eval_result_t *results, uint64_t n,
                                          ev_error *err)
{
    ev_status st = EV_OK;
    int32_t W = g->words;
    uint64_t *soa = (uint64_t *)malloc(((size_t)g->pop * (size_t)W + 1) * sizeof *soa);
    g->evaluated = 0; /* the dedup pass overwrites the evaluation's scratch */
    g->ranked = 0;
    if (!soa)
        return ev_fail(err, EV_ENOMEM, "out of host memory importing the dedup cache");
    for (uint64_t j0 = 0; j0 < n && st == EV_OK; j0 += g->pop) {
        uint32_t c = (uint32_t)(n - j0 < g->pop ? n - j0 : g->pop);
        uint64_t distinct = 0, n_new = 0;
        for (uint32_t j = 0; j < c; j++) {
            const uint64_t *ix = index + (j0 + j) * (uint64_t)W;
            if ((st = dedup_import_check(ix, W, j0 + j, err)) != EV_OK)
                goto done;
            for (int32_t w = 0; w < W; w++)
                soa[(size_t)w * c + j] = ix[w];
        }
        for (int32_t w = 0; w < W; w++)
            CUDA_TRY(cudaMemcpy(g->index + (uint64_t)w * g->pop, soa + (size_t)w * c, c * sizeof *soa,
                                cudaMemcpyHostToDevice));
        CUDA_TRY(cudaMemcpy(g->new_res, results + j0, c * sizeof *results, cudaMemcpyHostToDevice));
        if ((st = ga_dedup_prepare(g, c, err)) != EV_OK ||
            (st = ga_dedup_pass(g, c, 64, &distinct, &n_new, err)) != EV_OK)
            goto done;
        if (g->table.count + n_new > g->table.capacity) {
            st = ev_fail(err, EV_ECONFIG,
                         "the saved dedup cache holds more than the %llu genomes ga.cache_max_mb allows: raise it",
                         (unsigned long long)g->table.capacity);
            goto done;
        }
        st = ga_insert_new(g, n_new, g->new_res, 1, 0, err);
    }
    if (st == EV_OK)
        CUDA_TRY(cudaDeviceSynchronize()); /* any fault of the inserts surfaces here */
    goto done;
fail:
done:
    free(soa);
    return st;
}
