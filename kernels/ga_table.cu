/* The device dedup cache (kernels/ga_table.cuh): allocation and growth by
 * rehashing on the device (the GA vtable's cache ops are ga_cache_ops.cu). Sized like the host cache (operators/dedup_table.h): the first
 * table holds the population at half load, each growth doubles it, and it
 * never exceeds dedup_max_slots(capacity) slots of 8 W + 24 bytes. */
#include <cstdlib>
#include <cstring>

#include "kernels/ga_table.cuh"
#include "kernels/launch.cuh"

uint64_t ga_table_bytes(int32_t words, uint64_t slots)
{
    return slots * (8u * (uint64_t)words + sizeof(ga_slot_t));
}

uint64_t ga_table_first_slots(uint64_t capacity, uint64_t expected)
{
    return dedup_grow_slots(2, dedup_max_slots(capacity), expected);
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
    if (st == EV_ENOMEM) {
        /* the table cannot shrink (it holds every genome evaluated): name
         * the need and what is free; the host has room where the device has not */
        size_t fb = 0, tb = 0;
        (void)cudaGetLastError(); /* an allocation failure is not sticky */
        if (cudaMemGetInfo(&fb, &tb) != cudaSuccess)
            (void)cudaGetLastError();
        ev_error_prefix(err,
                        "the GA's dedup cache of %llu slots needs %.1f MiB of device memory and %.1f MiB are free: "
                        "lower ga.cache_max_mb or ga.population, or run with --backend cpu: ",
                        (unsigned long long)slots, (double)ga_table_bytes(t->words, slots) / 1048576.0,
                        (double)fb / 1048576.0);
    }
    return st;
}

ev_status ga_table_init(ga_table_t *t, int32_t words, uint64_t capacity, uint64_t expected, ev_error *err)
{
    memset(t, 0, sizeof *t);
    t->words = words;
    t->capacity = capacity;
    t->max_slots = dedup_max_slots(capacity);
    return table_alloc(t, ga_table_first_slots(capacity, expected), err);
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
