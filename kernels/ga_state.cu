/* The CUDA GA state's life cycle (kernels/ga_device.cuh): open (sizing and
 * allocation), close, generation 0, breeding, set and download. The per-child
 * work is operators/breed.h's, one thread per child: breed_initial and
 * breed_child read only the previous generation, `order` and their own RNG
 * counters, so any launch shape makes the CPU loop's children. */
#include <cstdlib>
#include <cstring>

#include "kernels/ga_table.cuh"
#include "operators/breed.h"

/* Device bytes per individual of the state and one op's scratch (G genes,
 * W index words); see the fields of struct cuda_ga. */
static uint64_t bytes_per_individual(int32_t G, int32_t W)
{
    return 2u * 2u * (uint64_t)G        /* genes, next */
           + 2u * 4u                    /* parents */
           + sizeof(eval_result_t)      /* results */
           + 8u * (uint64_t)W           /* index */
           + 4u + 4u                    /* sorted, order */
           + 2u * 8u + 2u * 4u          /* key_a/b, val_a/b */
           + 5u * 4u                    /* flag, incl, head_at, head_pos, new_pos */
           + 2u * sizeof(eval_result_t) /* res_head, new_res */
           + 2u * (uint64_t)G;          /* new_genes */
}

extern "C" void cuda_ga_close(cuda_ga_t *g)
{
    if (!g)
        return;
    void *dev[] = {g->genes,   g->next,          g->parents,     g->results,  g->index,   g->sorted,    g->order,
                   g->islands, g->key_a,         g->key_b,       g->val_a,    g->val_b,   g->flag,      g->incl,
                   g->head_at, g->head_pos,      g->new_pos,     g->res_head, g->new_res, g->new_genes, g->counts,
                   g->summary, g->island_unique, g->gene_counts, g->top,      g->temp};
    /* errors here (a dead context) leave nothing to undo */
    for (size_t a = 0; a < sizeof dev / sizeof dev[0]; a++)
        if (dev[a])
            cudaFree(dev[a]);
    ga_table_free(&g->table);
    free(g->top_host);
    free(g);
}

/* cudaMalloc of n elements of `size` bytes (at least one). */
#define GA_ALLOC(ptr, n, size) CUDA_TRY(cudaMalloc((void **)&(ptr), ((uint64_t)(n) ? (uint64_t)(n) : 1u) * (size)))

extern "C" ev_status cuda_ga_open(cuda_ga_t **out, cuda_eval_t *e, const ga_plan_t *plan, ev_error *err)
{
    ev_status st = EV_OK;
    cuda_ga_t *g = NULL;
    uint64_t pop = plan->ctx.population, free_bytes = 0, total_bytes = 0, need = 0, table_bytes = 0;
    uint32_t islands = plan->ctx.islands;
    int32_t G = plan->ctx.n_genes, W = plan->index_words;
    uint16_t max_genes[GA_MAX_GENES];
    uint64_t max_index[GA_INDEX_WORDS_MAX];
    int sms = 0;
    *out = NULL;
    if (!e)
        return ev_fail(err, EV_EINTERNAL, "the CUDA GA needs the backend's device tables");
    if (pop < 2 || pop > (uint64_t)INT32_MAX || islands < 1 || pop % islands != 0 || G < 1 || G > GA_MAX_GENES ||
        W < 1 || W > GA_INDEX_WORDS_MAX || plan->top_k < 1)
        return ev_fail(err, EV_EINTERNAL, "cuda GA: an invalid plan (population %llu, %u islands, %d genes, %d words)",
                       (unsigned long long)pop, islands, G, W);
    g = (cuda_ga_t *)calloc(1, sizeof *g);
    if (!g)
        return ev_fail(err, EV_ENOMEM, "out of host memory for the GA state");
    g->plan = *plan;
    g->e = e;
    g->pop = (uint32_t)pop;
    g->n_genes = G;
    g->words = W;
    for (int32_t k = 0; k < G; k++)
        max_genes[k] = (uint16_t)(plan->ctx.n_values[k] - 1u);
    genome_index(plan->ctx.n_values, G, max_genes, W, max_index); /* the lattice's largest index */
    g->index_bits = ga_bits_of(max_index[W - 1]);
    g->island_bits = ga_bits_of(islands - 1u);

    CUDA_TRY(ga_cub_temp_bytes(g->pop, &g->temp_bytes));
    table_bytes = ga_table_bytes(W, dedup_grow_slots(2, dedup_max_slots(plan->cache_capacity), pop));
    need = pop * bytes_per_individual(G, W) + g->temp_bytes + islands * (sizeof(breed_island_t) + 4u) +
           plan->gene_values * 4u + plan->top_k * (uint64_t)sizeof(ga_hof_entry_t) + table_bytes;
    if ((st = cuda_device_memory(&free_bytes, &total_bytes, &sms, err)) != EV_OK)
        goto done;
    if (need > free_bytes) {
        st = ev_fail(err, EV_ENOMEM,
                     "the GA population of %llu needs %.1f MiB of device memory (%.1f MiB of it the first dedup "
                     "cache table) and %.1f MiB are free: lower ga.population",
                     (unsigned long long)pop, (double)need / 1048576.0, (double)table_bytes / 1048576.0,
                     (double)free_bytes / 1048576.0);
        goto done;
    }

    GA_ALLOC(g->genes, pop * (uint64_t)G, sizeof(uint16_t));
    GA_ALLOC(g->next, pop * (uint64_t)G, sizeof(uint16_t));
    GA_ALLOC(g->parents, 2u * pop, sizeof(int32_t));
    GA_ALLOC(g->results, pop, sizeof(eval_result_t));
    GA_ALLOC(g->index, pop * (uint64_t)W, sizeof(uint64_t));
    GA_ALLOC(g->sorted, pop, sizeof(uint32_t));
    GA_ALLOC(g->order, pop, sizeof(uint32_t));
    GA_ALLOC(g->islands, islands, sizeof(breed_island_t));
    GA_ALLOC(g->key_a, pop, sizeof(uint64_t));
    GA_ALLOC(g->key_b, pop, sizeof(uint64_t));
    GA_ALLOC(g->val_a, pop, sizeof(uint32_t));
    GA_ALLOC(g->val_b, pop, sizeof(uint32_t));
    GA_ALLOC(g->flag, pop, sizeof(uint32_t));
    GA_ALLOC(g->incl, pop, sizeof(uint32_t));
    GA_ALLOC(g->head_at, pop, sizeof(uint32_t));
    GA_ALLOC(g->head_pos, pop, sizeof(uint32_t));
    GA_ALLOC(g->new_pos, pop, sizeof(uint32_t));
    GA_ALLOC(g->res_head, pop, sizeof(eval_result_t));
    GA_ALLOC(g->new_res, pop, sizeof(eval_result_t));
    GA_ALLOC(g->new_genes, pop * (uint64_t)G, sizeof(uint16_t));
    GA_ALLOC(g->counts, 1, sizeof(ga_counts_t));
    GA_ALLOC(g->summary, 1, sizeof(ga_summary_t));
    GA_ALLOC(g->island_unique, islands, sizeof(uint32_t));
    GA_ALLOC(g->gene_counts, plan->gene_values, sizeof(uint32_t));
    GA_ALLOC(g->top, plan->top_k, sizeof(ga_hof_entry_t));
    GA_ALLOC(g->temp, g->temp_bytes, 1);
    g->top_host = (ga_hof_entry_t *)malloc((size_t)plan->top_k * sizeof *g->top_host);
    if (!g->top_host) {
        st = ev_fail(err, EV_ENOMEM, "out of host memory for the GA state");
        goto done;
    }
    if ((st = ga_table_init(&g->table, W, plan->cache_capacity, pop, err)) != EV_OK)
        goto done; /* says itself what to lower */
    *out = g;
    return EV_OK;
fail:
    if (st == EV_ENOMEM)
        ev_error_prefix(err,
                        "the GA population of %llu (%.1f MiB of device memory) does not fit: lower ga.population: ",
                        (unsigned long long)pop, (double)need / 1048576.0);
done:
    cuda_ga_close(g);
    return st;
}

static void population_changed(cuda_ga_t *g)
{
    g->has_population = 1;
    g->evaluated = 0;
    g->ranked = 0;
}

static __global__ void init_kernel(const __grid_constant__ breed_ctx_t ctx, uint16_t *genes, int32_t *parents)
{
    uint32_t i = blockIdx.x * GA_THREADS + threadIdx.x;
    if (i < ctx.population)
        breed_initial(&ctx, i, genes, parents);
}

extern "C" ev_status cuda_ga_init_population(cuda_ga_t *g, ev_error *err)
{
    ev_status st = EV_OK;
    init_kernel<<<ga_blocks(g->pop), GA_THREADS>>>(g->plan.ctx, g->genes, g->parents);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaDeviceSynchronize());
    population_changed(g);
    return EV_OK;
fail:
    return st;
}

extern "C" ev_status cuda_ga_set_population(cuda_ga_t *g, const uint16_t *genes, const int32_t *parents, ev_error *err)
{
    ev_status st = breed_genes_check(&g->plan.ctx, genes, err); /* off-lattice genes would index past arrays */
    uint64_t n = (uint64_t)g->n_genes * g->pop;
    if (st != EV_OK)
        return st;
    CUDA_TRY(cudaMemcpy(g->genes, genes, n * sizeof *genes, cudaMemcpyHostToDevice));
    if (parents)
        CUDA_TRY(cudaMemcpy(g->parents, parents, 2u * (uint64_t)g->pop * sizeof *parents, cudaMemcpyHostToDevice));
    else
        CUDA_TRY(cudaMemset(g->parents, 0xFF, 2u * (uint64_t)g->pop * sizeof *g->parents)); /* all -1 */
    CUDA_TRY(cudaDeviceSynchronize());
    population_changed(g);
    return EV_OK;
fail:
    g->has_population = 0; /* partly copied */
    return st;
}

static __global__ void breed_kernel(const __grid_constant__ breed_ctx_t ctx, const breed_island_t *islands,
                                    const uint16_t *prev, const uint32_t *order, uint32_t generation, uint16_t *next,
                                    int32_t *parents)
{
    uint32_t c = blockIdx.x * GA_THREADS + threadIdx.x;
    if (c < ctx.population)
        breed_child(&ctx, islands, prev, order, generation, c, next, parents);
}

extern "C" ev_status cuda_ga_breed(cuda_ga_t *g, uint32_t generation, const breed_island_t *islands, ev_error *err)
{
    ev_status st = EV_OK;
    uint32_t n = g->plan.ctx.islands;
    uint16_t *t;
    if (!g->ranked)
        return ev_fail(err, EV_EINTERNAL, "ga_breed before ga_rank");
    if (generation == 0)
        return ev_fail(err, EV_EINTERNAL, "ga_breed: generation 0 is the initial population");
    if ((st = breed_islands_check(&g->plan.ctx, islands, err)) != EV_OK)
        return st; /* not turned into a device fault */
    CUDA_TRY(cudaMemcpy(g->islands, islands, n * sizeof *islands, cudaMemcpyHostToDevice));
    breed_kernel<<<ga_blocks(g->pop), GA_THREADS>>>(g->plan.ctx, g->islands, g->genes, g->order, generation, g->next,
                                                    g->parents);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaDeviceSynchronize());
    t = g->genes;
    g->genes = g->next;
    g->next = t;
    population_changed(g);
    return EV_OK;
fail:
    g->has_population = 0; /* parents may be half written */
    return st;
}

extern "C" ev_status cuda_ga_download(cuda_ga_t *g, uint16_t *genes, eval_result_t *results, int32_t *parents,
                                      ev_error *err)
{
    ev_status st = EV_OK;
    if (!g->has_population || (results && !g->evaluated))
        return ev_fail(err, EV_EINTERNAL, "ga_download: no %s population", g->has_population ? "evaluated" : "");
    if (genes)
        CUDA_TRY(cudaMemcpy(genes, g->genes, (uint64_t)g->n_genes * g->pop * sizeof *genes, cudaMemcpyDeviceToHost));
    if (results)
        CUDA_TRY(cudaMemcpy(results, g->results, (uint64_t)g->pop * sizeof *results, cudaMemcpyDeviceToHost));
    if (parents)
        CUDA_TRY(cudaMemcpy(parents, g->parents, 2u * (uint64_t)g->pop * sizeof *parents, cudaMemcpyDeviceToHost));
    return EV_OK;
fail:
    return st;
}
