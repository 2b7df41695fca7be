/* CPU GA ops: the population's life cycle, breeding and the cache's
 * import/export (evaluation: cpu_ga_evaluate.c; ranking: cpu_ga_rank.c). */
#include "ga/cpu_ga.h"

#include <stdlib.h>
#include <string.h>

#include "operators/dedup_table.h"
#include "operators/breed.h"

static void *alloc_n(size_t n, size_t size, int *ok)
{
    void *p = malloc((n ? n : 1) * size);
    if (!p)
        *ok = 0;
    return p;
}

ev_status cpu_ga_open(backend_t *b, const ga_plan_t *plan, ga_state_t **out, ev_error *err)
{
    ga_state_t *g = (ga_state_t *)calloc(1, sizeof *g);
    size_t pop = plan->ctx.population, ng = (size_t)plan->ctx.n_genes;
    int ok = 1;
    ev_status st;
    (void)b; /* new genomes are evaluated through plan->evaluate */
    *out = NULL;
    if (!g)
        return ev_fail(err, EV_ENOMEM, "out of memory for the GA state");
    if (!plan->evaluate) {
        free(g);
        return ev_fail(err, EV_EINTERNAL, "the CPU GA needs an evaluator (ga_plan_t.evaluate)");
    }
    g->plan = *plan;
    g->pop = plan->ctx.population;
    g->n_genes = plan->ctx.n_genes;
    g->words = plan->index_words;
    g->genes = (uint16_t *)alloc_n(ng * pop, sizeof *g->genes, &ok);
    g->next = (uint16_t *)alloc_n(ng * pop, sizeof *g->next, &ok);
    g->parents = (int32_t *)alloc_n(2 * pop, sizeof *g->parents, &ok);
    g->next_parents = (int32_t *)alloc_n(2 * pop, sizeof *g->next_parents, &ok);
    g->results = (eval_result_t *)alloc_n(pop, sizeof *g->results, &ok);
    g->index = (uint64_t *)alloc_n(pop * (size_t)g->words, sizeof *g->index, &ok);
    g->order = (uint32_t *)alloc_n(pop, sizeof *g->order, &ok);
    g->scratch = (uint32_t *)alloc_n(pop, sizeof *g->scratch, &ok);
    if (!ok) {
        cpu_ga_close(g);
        return ev_fail(err, EV_ENOMEM, "out of memory for a GA population of %zu", pop);
    }
    if ((st = dedup_init(&g->cache, g->words, plan->cache_capacity, pop, err)) != EV_OK) {
        cpu_ga_close(g);
        return st;
    }
    *out = g;
    return EV_OK;
}

void cpu_ga_close(ga_state_t *g)
{
    if (!g)
        return;
    free(g->genes);
    free(g->next);
    free(g->parents);
    free(g->next_parents);
    free(g->results);
    free(g->index);
    free(g->order);
    free(g->scratch);
    dedup_free(&g->cache);
    free(g);
}

static void population_changed(ga_state_t *g)
{
    g->has_population = 1;
    g->evaluated = 0;
    g->ranked = 0;
}

ev_status cpu_ga_init_population(ga_state_t *g, ev_error *err)
{
    (void)err;
#pragma omp parallel for schedule(static) if (g->pop >= CPU_GA_PARALLEL_MIN)
    for (int64_t i = 0; i < (int64_t)g->pop; i++)
        breed_initial(&g->plan.ctx, (uint32_t)i, g->genes, g->parents);
    population_changed(g);
    return EV_OK;
}

ev_status cpu_ga_set_population(ga_state_t *g, const uint16_t *genes, const int32_t *parents, ev_error *err)
{
    ev_status st = breed_genes_check(&g->plan.ctx, genes, err);
    if (st != EV_OK)
        return st;
    memcpy(g->genes, genes, (size_t)g->n_genes * g->pop * sizeof *genes);
    for (uint64_t j = 0; j < 2u * (uint64_t)g->pop; j++)
        g->parents[j] = parents ? parents[j] : -1;
    population_changed(g);
    return EV_OK;
}

ev_status cpu_ga_breed(ga_state_t *g, uint32_t generation, const breed_island_t *islands, ev_error *err)
{
    ev_status st;
    uint16_t *t;
    int32_t *tp;
    if (!g->ranked)
        return ev_fail(err, EV_EINTERNAL, "ga_breed before ga_rank");
    if (generation == 0)
        return ev_fail(err, EV_EINTERNAL, "ga_breed: generation 0 is the initial population");
    if ((st = breed_islands_check(&g->plan.ctx, islands, err)) != EV_OK)
        return st;
#pragma omp parallel for schedule(static) if (g->pop >= CPU_GA_PARALLEL_MIN)
    for (int64_t c = 0; c < (int64_t)g->pop; c++)
        breed_child(&g->plan.ctx, islands, g->genes, g->order, generation, (uint32_t)c, g->next, g->next_parents);
    t = g->genes;
    g->genes = g->next;
    g->next = t;
    tp = g->parents;
    g->parents = g->next_parents;
    g->next_parents = tp;
    population_changed(g);
    return EV_OK;
}

ev_status cpu_ga_download(ga_state_t *g, uint16_t *genes, eval_result_t *results, int32_t *parents, ev_error *err)
{
    if (!g->has_population || (results && !g->evaluated))
        return ev_fail(err, EV_EINTERNAL, "ga_download: no %s population", g->has_population ? "evaluated" : "");
    if (genes)
        memcpy(genes, g->genes, (size_t)g->n_genes * g->pop * sizeof *genes);
    if (results)
        memcpy(results, g->results, (size_t)g->pop * sizeof *results);
    if (parents)
        memcpy(parents, g->parents, 2u * (size_t)g->pop * sizeof *parents);
    return EV_OK;
}

uint64_t cpu_ga_cache_count(ga_state_t *g)
{
    return g->cache.count;
}

ev_status cpu_ga_cache_export(ga_state_t *g, uint64_t *index, eval_result_t *results, ev_error *err)
{
    (void)err;
    dedup_export(&g->cache, index, results);
    return EV_OK;
}

ev_status cpu_ga_cache_import(ga_state_t *g, const uint64_t *index, const eval_result_t *results, uint64_t n,
                              ev_error *err)
{
    ev_status st;
    for (uint64_t j = 0; j < n; j++) {
        const uint64_t *ix = index + j * (uint64_t)g->words;
        if ((st = dedup_import_check(ix, g->words, j, err)) != EV_OK)
            return st;
        if (dedup_find(&g->cache, ix))
            continue;
        if (g->cache.count >= g->cache.capacity)
            return ev_fail(err, EV_ECONFIG,
                           "the saved dedup cache holds more than the %llu genomes ga.cache_max_mb allows: raise it",
                           (unsigned long long)g->cache.capacity);
        if ((st = dedup_insert(&g->cache, ix, results[j], err)) != EV_OK)
            return st;
    }
    g->evaluated = 0; /* results of the population may now come from the imported entries */
    g->ranked = 0;
    return EV_OK;
}

static int item_cmp_index(const cpu_ga_item_t *a, const cpu_ga_item_t *b)
{
    int c = genome_index_cmp(a->w, b->w, GA_INDEX_WORDS_MAX);
    if (c)
        return c;
    return a->i < b->i ? -1 : a->i > b->i;
}

static int cmp_by_index(const void *pa, const void *pb)
{
    return item_cmp_index((const cpu_ga_item_t *)pa, (const cpu_ga_item_t *)pb);
}

static int cmp_by_rank(const void *pa, const void *pb)
{
    const cpu_ga_item_t *a = (const cpu_ga_item_t *)pa, *b = (const cpu_ga_item_t *)pb;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    return item_cmp_index(a, b);
}

void cpu_ga_sort_items(const ga_state_t *g, uint32_t first, uint32_t n, int with_key, cpu_ga_item_t *items)
{
    for (uint32_t j = 0; j < n; j++) {
        uint32_t i = first + j;
        cpu_ga_item_t *it = &items[j];
        memset(it->w, 0, sizeof it->w);
        memcpy(it->w, g->index + (size_t)i * (size_t)g->words, (size_t)g->words * sizeof(uint64_t));
        it->key = with_key ? rank_key(g->results[i]) : 0;
        it->i = i;
    }
    qsort(items, n, sizeof *items, with_key ? cmp_by_rank : cmp_by_index);
}
