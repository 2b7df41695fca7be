#include "ga/ga_plan.h"

#include <string.h>

#include "operators/dedup_table.h"

void ga_first_genome(const lattice_t *lat, int32_t *first)
{
    for (int32_t k = 0; k < lat->n_params; k++) {
        const param_t *p = &lat->params[k];
        if (p->role != PARAM_FILTER)
            first[k] = -1;
        else
            first[k] = p->dir == FILTER_MAX ? (int32_t)p->n_values - 1 : 0;
    }
}

ev_status ga_plan_build(ga_plan_t *plan, const fit_problem_t *p, const ga_settings_t *s, uint64_t seed, uint32_t top,
                        ev_error *err)
{
    int32_t first[GA_MAX_GENES];
    int32_t n = p->shape.n_params;
    ev_status st;
    memset(plan, 0, sizeof *plan);
    if ((st = ga_settings_check(s, n, err)) != EV_OK)
        return st;
    if (top < 1)
        return ev_fail(err, EV_ECONFIG, "top: the hall of fame needs at least 1 entry");
    ga_first_genome(p->lat, first);
    breed_ctx_init(&plan->ctx, s, seed, n, p->shape.n_values, first);
    plan->index_words = genome_index_words(p->shape.n_values, n);
    plan->top_k = top;
    plan->cache_capacity = ga_cache_capacity(s->cache_max_mb, plan->index_words);
    for (int32_t k = 0; k < n; k++)
        plan->gene_values += p->shape.n_values[k];
    if (plan->cache_capacity < s->population)
        return ev_fail(err, EV_ECONFIG,
                       "ga.cache_max_mb: %llu MiB hold %llu genomes, fewer than one generation (%u): raise it",
                       (unsigned long long)s->cache_max_mb, (unsigned long long)plan->cache_capacity, s->population);
    return EV_OK;
}

static uint32_t at_most(uint32_t x, uint32_t cap)
{
    return x < cap ? x : cap;
}

void ga_plan_islands(const ga_plan_t *plan, const ga_settings_t *s, uint32_t generation, const uint32_t *island_unique,
                     breed_island_t *out)
{
    uint32_t islands = plan->ctx.islands, size = plan->ctx.island_size;
    int migrate = islands > 1 && s->migration_every > 0 && generation % s->migration_every == 0;
    uint32_t elites = breed_share_count(s->elitism, size);
    elites = at_most(elites < 1 ? 1 : elites, size);
    for (uint32_t i = 0; i < islands; i++) {
        breed_island_t *o = &out[i];
        o->elites = elites;
        o->migrants = migrate ? at_most(s->migration_count, size - elites) : 0;
        o->source = (i + islands - 1) % islands;
        o->immigrants = 0;
        if ((double)island_unique[i] < s->immigrant_diversity * (double)size)
            o->immigrants = at_most(breed_share_count(s->immigrant_share, size), size - elites - o->migrants);
    }
}
