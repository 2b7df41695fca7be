/* CPU ga_rank: each island sorted best first, and the population's
 * summaries (distinct genomes per island, gene histograms, feasible fitness). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ga/cpu_ga.h"

typedef struct {
    uint64_t key;
    double fitness;
} keyed_t;

static int cmp_keyed(const void *pa, const void *pb)
{
    const keyed_t *a = (const keyed_t *)pa, *b = (const keyed_t *)pb;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* Sorts island `island` into g->order; returns its distinct genomes (equal
 * genomes have equal keys and indices, so they end up adjacent). */
static uint32_t rank_island(ga_state_t *g, uint32_t island, cpu_ga_item_t *items)
{
    uint32_t size = g->plan.ctx.island_size, first = island * size, unique = 0;
    cpu_ga_sort_items(g, first, size, 1, items);
    for (uint32_t j = 0; j < size; j++) {
        g->order[first + j] = items[j].i;
        unique += j == 0 || genome_index_cmp(items[j].w, items[j - 1].w, GA_INDEX_WORDS_MAX) != 0;
    }
    return unique;
}

static void gene_histograms(const ga_state_t *g, uint32_t *counts)
{
    uint64_t offset = 0;
    memset(counts, 0, g->plan.gene_values * sizeof *counts);
    for (int32_t k = 0; k < g->n_genes; k++) {
        const uint16_t *gk = g->genes + (size_t)k * g->pop;
        for (uint32_t i = 0; i < g->pop; i++)
            counts[offset + gk[i]]++;
        offset += g->plan.ctx.n_values[k];
    }
}

/* best, median (exact); mean, std of the finite ones (ga_mean_std_of). */
static ev_status fitness_summary(const ga_state_t *g, ga_rank_out_t *out, ev_error *err)
{
    keyed_t *f = (keyed_t *)malloc((size_t)g->pop * sizeof *f);
    double *x = (double *)malloc((size_t)g->pop * sizeof *x);
    uint64_t n = 0;
    if (!f || !x) {
        free(f);
        free(x);
        return ev_fail(err, EV_ENOMEM, "out of memory for the population's statistics");
    }
    for (uint32_t i = 0; i < g->pop; i++) {
        eval_result_t r = g->results[i];
        x[i] = r.feasible ? r.fitness : NAN;
        if (!r.feasible)
            continue;
        f[n].key = rank_key(r);
        f[n++].fitness = r.fitness;
    }
    ga_mean_std_of(x, g->pop, &out->mean, &out->std);
    qsort(f, (size_t)n, sizeof *f, cmp_keyed);
    out->feasible = n;
    out->best = n ? f[n - 1].fitness : 0.0;
    out->median = n == 0 ? 0.0 : ga_median_of(n, f[ga_median_lo(n)].fitness, f[ga_median_hi(n)].fitness);
    free(f);
    free(x);
    return EV_OK;
}

ev_status cpu_ga_rank(ga_state_t *g, ga_rank_out_t *out, ev_error *err)
{
    cpu_ga_item_t *items;
    ev_status st;
    if (!g->evaluated)
        return ev_fail(err, EV_EINTERNAL, "ga_rank before ga_evaluate");
    items = (cpu_ga_item_t *)malloc((size_t)g->pop * sizeof *items);
    if (!items)
        return ev_fail(err, EV_ENOMEM, "out of memory ranking a population of %u", g->pop);
#pragma omp parallel for schedule(dynamic, 1) if (g->pop >= CPU_GA_PARALLEL_MIN)
    for (int64_t isl = 0; isl < (int64_t)g->plan.ctx.islands; isl++) {
        uint32_t size = g->plan.ctx.island_size;
        uint32_t unique = rank_island(g, (uint32_t)isl, items + (size_t)isl * size);
        if (out->island_unique)
            out->island_unique[isl] = unique;
    }
    free(items);
    if (out->gene_counts)
        gene_histograms(g, out->gene_counts);
    if ((st = fitness_summary(g, out, err)) != EV_OK)
        return st;
    g->ranked = 1;
    return EV_OK;
}
