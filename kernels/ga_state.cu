/* The CUDA GA state's life cycle (kernels/ga_device.cuh): open (sizing and
 * allocation), close, generation 0, breeding, set and download. The per-child
 * work is operators/breed.h's, one thread per child: breed_initial and
 * breed_child read only the previous generation, `order` and their own RNG
 * counters, so any launch shape makes the CPU loop's children. */
#include <cstdlib>
#include <cstring>

#include "kernels/ga_table.cuh"
#include "operators/breed.h"

/* One device buffer of the state: where its pointer lives (a member of
 * struct ga_state; NULL for the first dedup cache table, which ga_table_init
 * allocates), its name for messages, and its size. */
typedef struct {
    void **ptr;
    const char *name;
    uint64_t count; /* elements; at least one is allocated */
    uint64_t size;  /* bytes an element */
} ga_buffer_t;

enum { GA_BUFFERS = CUDA_GA_BUFFERS };

static uint64_t buffer_bytes(const ga_buffer_t *b)
{
    return (b->count ? b->count : 1u) * b->size;
}

/* The one list of the state's device memory, for the plan `plan` and CUB
 * scratch of temp_bytes: the fields of struct ga_state in allocation order,
 * then the first dedup cache table (always last). cuda_ga_open sums it
 * against free memory and allocates from it, cuda_ga_close frees from it,
 * and cuda_ga_device_bytes reports it, so the estimate is what is allocated.
 * Element sizes are those of the members' types. Fills b[GA_BUFFERS]. */
static void ga_buffers(cuda_ga_t *g, const ga_plan_t *plan, uint64_t temp_bytes, ga_buffer_t *b)
{
    const uint64_t P = plan->ctx.population, G = (uint64_t)plan->ctx.n_genes, W = (uint64_t)plan->index_words;
    const uint64_t I = plan->ctx.islands;
    const ga_rank_layout_t rank = ga_rank_layout(I, plan->gene_values, P);
#define GA_BUFFER(field, n)                               \
    {                                                     \
        (void **)&g->field, #field, (n), sizeof *g->field \
    }
    const ga_buffer_t list[] = {
        GA_BUFFER(genes, P * G),
        GA_BUFFER(next, P * G),
        GA_BUFFER(parents, 2u * P),
        GA_BUFFER(results, P),
        GA_BUFFER(index, P * W),
        GA_BUFFER(sorted, P),
        GA_BUFFER(order, P),
        GA_BUFFER(islands, I),
        GA_BUFFER(key_a, P),
        GA_BUFFER(key_b, P),
        GA_BUFFER(val_a, P),
        GA_BUFFER(val_b, P),
        GA_BUFFER(flag, P),
        GA_BUFFER(incl, P),
        GA_BUFFER(heads, P),
        GA_BUFFER(group, P),
        GA_BUFFER(new_pos, P),
        GA_BUFFER(res_head, P),
        GA_BUFFER(new_res, P),
        GA_BUFFER(new_genes, P * G),
        GA_BUFFER(counts, 1u),
        GA_BUFFER(top, plan->top_k),
        {&g->temp, "temp", temp_bytes, 1u},                     /* void *: counted in bytes */
        {(void **)&g->rank_rec, "rank record", rank.bytes, 1u}, /* ga_rank's outputs, one copy back */
        /* allocated (and grown) by ga_table_init, not from its pointer here */
        {NULL, "dedup cache", ga_table_first_slots(plan->cache_capacity, P), ga_table_bytes(plan->index_words, 1u)},
    };
#undef GA_BUFFER
    static_assert(sizeof list / sizeof list[0] == GA_BUFFERS, "CUDA_GA_BUFFERS counts the list");
    memcpy(b, list, sizeof list);
}

static uint64_t buffers_total(const ga_buffer_t *b)
{
    uint64_t sum = 0;
    for (int a = 0; a < GA_BUFFERS; a++)
        sum += buffer_bytes(&b[a]);
    return sum;
}

extern "C" uint64_t cuda_ga_device_bytes(const ga_plan_t *plan, uint64_t cub_temp_bytes, cuda_ga_buffer_t *list)
{
    ga_buffer_t b[GA_BUFFERS];
    cuda_ga_t unused; /* only the list's sizes are used, never its pointers */
    ga_buffers(&unused, plan, cub_temp_bytes, b);
    for (int a = 0; list && a < GA_BUFFERS; a++) {
        list[a].name = b[a].name;
        list[a].bytes = buffer_bytes(&b[a]);
    }
    return buffers_total(b);
}

extern "C" void cuda_ga_close(cuda_ga_t *g)
{
    ga_buffer_t b[GA_BUFFERS];
    if (!g)
        return;
    ga_buffers(g, &g->plan, g->temp_bytes, b);
    /* errors here (a dead context) leave nothing to undo */
    for (int a = 0; a < GA_BUFFERS; a++)
        if (b[a].ptr && *b[a].ptr) {
            (void)cudaFree(*b[a].ptr);
            *b[a].ptr = NULL;
        }
    ga_table_free(&g->table);
    free(g->top_host);
    if (g->rank_host)
        (void)cudaFreeHost(g->rank_host);
    if (g->islands_host)
        (void)cudaFreeHost(g->islands_host);
    free(g);
}

extern "C" ev_status cuda_ga_open(cuda_ga_t **out, cuda_eval_t *e, const ga_plan_t *plan, ev_error *err)
{
    ev_status st = EV_OK;
    cuda_ga_t *g = NULL;
    uint64_t pop = plan->ctx.population, free_bytes = 0, total_bytes = 0, need = 0;
    uint32_t islands = plan->ctx.islands;
    int32_t G = plan->ctx.n_genes, W = plan->index_words;
    uint16_t max_genes[GA_MAX_GENES];
    uint64_t max_index[GA_INDEX_WORDS_MAX];
    ga_buffer_t b[GA_BUFFERS];
    const ga_buffer_t *allocating = NULL; /* the buffer whose cudaMalloc failed */
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
    ga_buffers(g, plan, g->temp_bytes, b);
    need = buffers_total(b);
    if ((st = cuda_device_memory(&free_bytes, &total_bytes, &sms, err)) != EV_OK)
        goto done;
    if (need > free_bytes) {
        st = ev_fail(err, EV_ENOMEM,
                     "the GA population of %llu needs %.1f MiB of device memory (%.1f MiB of it the first dedup "
                     "cache table) and %.1f MiB are free: lower ga.population",
                     (unsigned long long)pop, (double)need / 1048576.0,
                     (double)buffer_bytes(&b[GA_BUFFERS - 1]) / 1048576.0, (double)free_bytes / 1048576.0);
        goto done;
    }

    for (int a = 0; a < GA_BUFFERS; a++)
        if (b[a].ptr) {
            allocating = &b[a];
            CUDA_TRY(cudaMalloc(b[a].ptr, buffer_bytes(&b[a])));
        }
    allocating = NULL;
    {
        const ga_rank_layout_t rank = ga_rank_layout(islands, plan->gene_values, pop);
        g->summary = (ga_summary_t *)g->rank_rec;
        g->island_unique = (uint32_t *)(g->rank_rec + rank.unique);
        g->gene_counts = (uint32_t *)(g->rank_rec + rank.counts);
        g->stats_values = (double *)(g->rank_rec + rank.values);
        /* pinned: the rank record's one copy back and breed's asynchronous copy of its plans */
        CUDA_TRY(cudaMallocHost((void **)&g->rank_host, rank.bytes));
        CUDA_TRY(cudaMallocHost((void **)&g->islands_host, islands * sizeof *g->islands_host));
    }
    g->top_host = (ga_hof_entry_t *)malloc((size_t)plan->top_k * sizeof *g->top_host);
    if (!g->top_host) {
        st = ev_fail(err, EV_ENOMEM, "out of host memory for the GA state");
        goto done;
    }
    /* the list's last buffer; says itself what to lower */
    if ((st = ga_table_init(&g->table, W, plan->cache_capacity, pop, err)) != EV_OK)
        goto done;
    *out = g;
    return EV_OK;
fail:
    if (st == EV_ENOMEM && allocating)
        ev_error_prefix(err,
                        "the GA population of %llu (%.1f MiB of device memory; %.1f MiB were free) does not fit "
                        "(allocating its %s, %.1f MiB): lower ga.population: ",
                        (unsigned long long)pop, (double)need / 1048576.0, (double)free_bytes / 1048576.0,
                        allocating->name, (double)buffer_bytes(allocating) / 1048576.0);
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
    /* no wait: the copies from host memory are made when they return, and the
     * next launches on the stream run after them */
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
    /* Staged in pinned memory and copied without waiting: the host writes the
     * staging again only a generation later, after evaluate and rank have
     * waited for the stream. No wait here either: evaluate's launches follow
     * on the same stream, and a fault surfaces at its first copy back. */
    memcpy(g->islands_host, islands, n * sizeof *islands);
    CUDA_TRY(cudaMemcpyAsync(g->islands, g->islands_host, n * sizeof *islands, cudaMemcpyHostToDevice, 0));
    breed_kernel<<<ga_blocks(g->pop), GA_THREADS>>>(g->plan.ctx, g->islands, g->genes, g->order, generation, g->next,
                                                    g->parents);
    CUDA_TRY_LAUNCH();
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
