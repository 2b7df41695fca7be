/* The device dedup cache (kernels/ga_table.cuh): allocation, growth by
 * rehashing on the device, and the cache ops of the GA vtable (count,
 * export, import). Sized like the host cache (ga/dedup_table.h): the first
 * table holds the population at half load, each growth doubles it, and it
 * never exceeds dedup_max_slots(capacity) slots of 8 W + 24 bytes. */
#include <cstdlib>
#include <cstring>

#include "kernels/ga_table.cuh"
#include "kernels/launch.cuh"

/* Slots exported per pass: bounds the staging buffers (at most 56 MiB). */
#define EXPORT_SLOTS ((uint64_t)1 << 20)

uint64_t ga_table_bytes(int32_t words, uint64_t slots)
{
    return slots * (8u * (uint64_t)words + sizeof(ga_slot_t));
}

/* Allocates an empty table of `slots` slots: keys all ones, slots unclaimed. */
static ev_status table_alloc(ga_table_t *t, uint64_t slots, ev_error *err)
{
    ev_status st = EV_OK;
    t->keys = NULL;
    t->vals = NULL;
    CUDA_TRY(cudaMalloc((void **)&t->keys, slots * (uint64_t)t->words * sizeof(uint64_t)));
    CUDA_TRY(cudaMalloc((void **)&t->vals, slots * sizeof(ga_slot_t)));
    CUDA_TRY(cudaMemset(t->keys, 0xFF, slots * (uint64_t)t->words * sizeof(uint64_t)));
    CUDA_TRY(cudaMemset(t->vals, 0, slots * sizeof(ga_slot_t)));
    t->slots = slots;
    return EV_OK;
fail:
    ga_table_free(t);
    if (st == EV_ENOMEM)
        ev_error_prefix(err,
                        "the GA's dedup cache of %llu slots (%.1f MiB of device memory) does not fit: lower "
                        "ga.cache_max_mb or ga.population: ",
                        (unsigned long long)slots, (double)ga_table_bytes(t->words, slots) / 1048576.0);
    return st;
}

ev_status ga_table_init(ga_table_t *t, int32_t words, uint64_t capacity, uint64_t expected, ev_error *err)
{
    memset(t, 0, sizeof *t);
    t->words = words;
    t->capacity = capacity;
    t->max_slots = dedup_max_slots(capacity);
    return table_alloc(t, dedup_grow_slots(2, t->max_slots, expected), err);
}

void ga_table_free(ga_table_t *t)
{
    /* errors here (a dead context) leave nothing to undo */
    if (t->keys)
        cudaFree(t->keys);
    if (t->vals)
        cudaFree(t->vals);
    t->keys = NULL;
    t->vals = NULL;
}

/* One thread per old slot: taken slots are inserted into the new table.
 * Their keys are distinct, so ga_table_put's contract holds. */
static __global__ void rehash_kernel(ga_table_view_t from, uint64_t from_slots, ga_table_view_t to)
{
    uint64_t step = (uint64_t)gridDim.x * GA_THREADS;
    for (uint64_t s = (uint64_t)blockIdx.x * GA_THREADS + threadIdx.x; s < from_slots; s += step) {
        const ga_slot_t v = from.vals[s];
        uint64_t key[GA_INDEX_WORDS_MAX];
        eval_result_t r;
        if (!v.used)
            continue;
        for (int32_t w = 0; w < from.words; w++)
            key[w] = from.keys[s * (uint64_t)from.words + w];
        r.fitness = v.fitness;
        r.trades = v.trades;
        r.feasible = v.feasible;
        r.pad_ = 0;
        ga_table_put(to, key, r);
    }
}

ev_status ga_table_reserve(ga_table_t *t, uint64_t need, ev_error *err)
{
    ev_status st = EV_OK;
    ga_table_t grown = *t;
    uint64_t slots = dedup_grow_slots(t->slots, t->max_slots, need);
    if (need > t->capacity)
        return ev_fail(err, EV_EINTERNAL, "dedup cache: %llu entries exceed its capacity of %llu",
                       (unsigned long long)need, (unsigned long long)t->capacity);
    if (slots == t->slots)
        return EV_OK;
    st = table_alloc(&grown, slots, err);
    if (st != EV_OK)
        return st;
    /* 2^20 blocks of grid-stride: each launch is a few passes over the old table */
    rehash_kernel<<<launch_blocks(t->slots, GA_THREADS), GA_THREADS>>>(ga_table_view(t), t->slots,
                                                                       ga_table_view(&grown));
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaDeviceSynchronize());
    ga_table_free(t);
    *t = grown;
    return EV_OK;
fail:
    ga_table_free(&grown);
    return st;
}

/* ---- the vtable's cache ops -------------------------------------------- */

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
extern "C" ev_status cuda_ga_cache_import(cuda_ga_t *g, const uint64_t *index, const eval_result_t *results,
                                          uint64_t n, ev_error *err)
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
        if ((st = ga_dedup_pass(g, c, 64, &distinct, &n_new, err)) != EV_OK)
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
