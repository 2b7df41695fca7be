/* CPU ga_evaluate: fitness of a population through the dedup cache.
 *
 * The individuals are sorted by linear index, so copies of a genome are
 * adjacent: each group is looked up once, each new genome (a group not in the
 * cache) is evaluated once through plan.evaluate, inserted in ascending index
 * order, and its result given to every member of its group. */
#include <stdlib.h>
#include <string.h>

#include "ga/cpu_ga.h"
#include "fitness/topk.h"

static void compute_indices(ga_state_t *g)
{
    const breed_ctx_t *c = &g->plan.ctx;
#pragma omp parallel for schedule(static) if (g->pop >= CPU_GA_PARALLEL_MIN)
    for (int64_t i = 0; i < (int64_t)g->pop; i++) {
        uint16_t genes[GA_MAX_GENES];
        genome_gather(g->genes, g->pop, (uint32_t)i, g->n_genes, genes);
        genome_index(c->n_values, g->n_genes, genes, g->words, g->index + (size_t)i * (size_t)g->words);
    }
}

/* Evaluates the groups starting at items[news[0..n_new)] and offers them to top. */
static ev_status evaluate_new(ga_state_t *g, const cpu_ga_item_t *items, const uint32_t *news, uint32_t n_new,
                              topk_t *top, ev_error *err)
{
    uint16_t *genes = (uint16_t *)malloc(((size_t)n_new * (size_t)g->n_genes + 1) * sizeof *genes);
    eval_result_t *res = (eval_result_t *)malloc(((size_t)n_new + 1) * sizeof *res);
    ev_status st = EV_OK;
    if (!genes || !res) {
        st = ev_fail(err, EV_ENOMEM, "out of memory evaluating %u new genomes", n_new);
        goto done;
    }
    for (uint32_t j = 0; j < n_new; j++)
        for (int32_t k = 0; k < g->n_genes; k++)
            genes[(size_t)k * n_new + j] = g->genes[(size_t)k * g->pop + items[news[j]].i];
    if (n_new && (st = g->plan.evaluate(g->plan.evaluate_b, genes, n_new, res, err)) != EV_OK)
        goto done;
    for (uint32_t j = 0; j < n_new && st == EV_OK; j++) {
        uint32_t i = items[news[j]].i;
        uint16_t one[GA_MAX_GENES];
        ga_hof_entry_t e;
        st = dedup_insert(&g->cache, g->index + (size_t)i * (size_t)g->words, res[j], err);
        genome_gather(g->genes, g->pop, i, g->n_genes, one);
        ga_entry_make(&e, one, g->n_genes, g->index + (size_t)i * (size_t)g->words, g->words, res[j]);
        topk_insert(top, &e);
    }
done:
    free(genes);
    free(res);
    return st;
}

ev_status cpu_ga_evaluate(ga_state_t *g, ga_eval_out_t *out, ev_error *err)
{
    cpu_ga_item_t *items = (cpu_ga_item_t *)malloc((size_t)g->pop * sizeof *items);
    uint32_t *news = g->scratch, n_new = 0, groups = 0;
    topk_t top;
    ev_status st;
    out->distinct = out->new_evals = 0;
    out->cache_full = 0;
    out->n_top = 0;
    if (!g->has_population) {
        free(items);
        return ev_fail(err, EV_EINTERNAL, "ga_evaluate before a population exists");
    }
    if (!items || topk_init(&top, g->plan.top_k, err) != EV_OK) {
        free(items);
        return ev_fail(err, EV_ENOMEM, "out of memory evaluating a population of %u", g->pop);
    }
    compute_indices(g);
    cpu_ga_sort_items(g, 0, g->pop, 0, items);
    for (uint32_t j = 0; j < g->pop; j++) {
        if (j > 0 && genome_index_cmp(items[j].w, items[j - 1].w, GA_INDEX_WORDS_MAX) == 0)
            continue;
        groups++;
        if (!dedup_find(&g->cache, items[j].w))
            news[n_new++] = j;
    }
    out->distinct = groups;
    out->new_evals = n_new;
    if (g->cache.count + n_new > g->plan.cache_capacity) {
        out->cache_full = 1;
        st = EV_OK;
        goto done;
    }
    if ((st = evaluate_new(g, items, news, n_new, &top, err)) != EV_OK)
        goto done;
    for (uint32_t j = 0, k = 0; j < g->pop; j++) {
        const eval_result_t *r;
        if (j == 0 || genome_index_cmp(items[j].w, items[j - 1].w, GA_INDEX_WORDS_MAX) != 0)
            k = j; /* the first of a group looks it up */
        r = dedup_find(&g->cache, items[k].w);
        if (!r) {
            st = ev_fail(err, EV_EINTERNAL, "ga_evaluate: a genome is missing from the dedup cache");
            goto done;
        }
        g->results[items[j].i] = *r;
    }
    out->n_top = top.n;
    memcpy(out->top, top.e, (size_t)top.n * sizeof *top.e);
    g->evaluated = 1;
    g->ranked = 0;
done:
    topk_free(&top);
    free(items);
    return st;
}
